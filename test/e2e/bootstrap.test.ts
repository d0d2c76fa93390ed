// A brand-new Slack team, nothing seeded, through the real receiver and the stand-in: Parley sets the team's
// workspace up from its bot token at start (the competitors, the team's name as the brand, no catalog, no approver
// without APPROVER_SLACK_IDS); a member cannot take over the settings; the first Slack admin to open the App Home
// becomes the approver; their settings change is audited; a save from a form that went stale is refused in the modal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHANNEL,
  PEOPLE,
  type SandboxedParley,
  startSandboxedParley,
} from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION, BLOCK, CALLBACK, SLASH_COMMAND } from '../../src/slack/ids.js';
import { sharedWorkers } from '../support/shared-workers.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const TEAM = { id: 'T0FJELL001', name: 'Fjell Gear' };
const ADMIN = { id: 'U0ADMIN001', name: 'ada', realName: 'Ada Admin' };

let db: TestDatabase;
let parley: SandboxedParley;

beforeAll(async () => {
  db = await createTestDatabase();
  // No seed, and no APPROVER_SLACK_IDS (an empty value is unset): what `npm start` meets on a real install.
  parley = await startSandboxedParley({
    ...sharedWorkers(),
    db,
    team: TEAM,
    env: { APPROVER_SLACK_IDS: '', JOBS_ENABLED: 'false' },
  });
  parley.sandbox.model.addUser({ ...ADMIN, isBot: false, isAdmin: true });
}, 120_000);

afterAll(async () => {
  await parley?.stop();
  await db?.destroy();
});

const workspace = () =>
  db.prisma.workspace.findUniqueOrThrow({
    where: { slackTeamId: TEAM.id },
    include: { _count: { select: { products: true } }, suppliers: { orderBy: { code: 'asc' } } },
  });
const approvers = async () => {
  const { settings } = await workspace();
  return (settings as { approvers?: string[] }).approvers ?? [];
};
const settingsModalOf = (user: string) =>
  parley.sandbox.model.openViews(user).find((view) => view.view.callback_id === CALLBACK.settingsModal);

async function openSettings(user: string) {
  await parley.sandbox.driver.slashCommand(user, CHANNEL.id, SLASH_COMMAND, 'settings');
  return parley.sandbox.waitFor(() => settingsModalOf(user), { what: `${user}'s settings modal` });
}

describe('a real install, nothing seeded', () => {
  it('has the token’s team set up at start: the competitors, the team’s name as brand, no catalog, no approver', async () => {
    const created = await workspace();
    expect(created.brandName).toBe('Fjell Gear');
    expect(created._count.products).toBe(0);
    expect(created.suppliers.map((s) => s.code)).toEqual(['SUP-002', 'SUP-003']);
    expect(await approvers()).toEqual([]);
    const audit = await db.prisma.auditLog.findMany({ where: { workspaceId: created.id } });
    expect(audit.map((row) => row.action)).toEqual(['workspace.created']);
    // Nothing of the demo's: no Valden Outdoor workspace was created on the side.
    expect(await db.prisma.workspace.count()).toBe(1);
  });

  it('does not let a member take the settings while nobody approves, nor become approver from the App Home', async () => {
    const { driver, model } = parley.sandbox;
    await driver.slashCommand(PEOPLE.colleague.id, CHANNEL.id, SLASH_COMMAND, 'settings');
    await parley.settle();
    expect(settingsModalOf(PEOPLE.colleague.id)).toBeUndefined();
    const told = [
      ...model.ephemerals(PEOPLE.colleague.id).map((e) => e.text),
      ...model.openViews(PEOPLE.colleague.id).map((v) => JSON.stringify(v.view)),
    ].join(' ');
    expect(told).toMatch(/approvers and this Slack workspace’s admins/);

    const opened = await driver.openHome(PEOPLE.colleague.id);
    expect(opened.status).toBe(200);
    await parley.sandbox.waitFor(() => model.home(PEOPLE.colleague.id), { what: "the member's App Home" });
    expect(await approvers()).toEqual([]);
  });

  it('ignores an event from another team: no workspace is created for it', async () => {
    const { driver } = parley.sandbox;
    const stranger = 'T0STRANGER1';
    const envelope = {
      token: 'verification-token',
      team_id: stranger,
      api_app_id: parley.sandbox.model.appId,
      event: { type: 'app_home_opened', user: ADMIN.id, channel: 'D0OTHER001', tab: 'home', event_ts: '1767225700.1' },
      type: 'event_callback',
      event_id: 'Ev0STRANGER1',
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ enterprise_id: null, team_id: stranger, user_id: 'U0PARLEYBOT', is_bot: true }],
    };
    const response = await driver.send(JSON.stringify(envelope), 'application/json');
    expect(response.status).toBe(200);
    expect(await db.prisma.workspace.findUnique({ where: { slackTeamId: stranger } })).toBeNull();
    expect(await approvers()).toEqual([]);
  });

  it('makes the first Slack admin who opens the App Home the approver', async () => {
    const { driver, model } = parley.sandbox;
    await driver.openHome(ADMIN.id);
    await parley.sandbox.waitFor(() => model.home(ADMIN.id), { what: "the admin's App Home" });
    expect(await approvers()).toEqual([ADMIN.id]);
    const change = await db.prisma.auditLog.findFirstOrThrow({
      where: { action: 'settings.changed', actorSlackUserId: ADMIN.id },
    });
    expect(change.data).toMatchObject({
      source: 'first_admin_app_home',
      after: { settings: { approvers: [ADMIN.id] } },
    });
  });

  it('audits the approver’s settings change, and refuses a save from a form that went stale', async () => {
    const { driver } = parley.sandbox;
    const first = await openSettings(ADMIN.id);
    expect(JSON.stringify(first.view)).toContain('Fjell Gear');
    const saved = await driver.submitView(ADMIN.id, first.id, {
      [BLOCK.settingsBrandName]: 'Fjell Gear Nordic',
      [BLOCK.settingsApprovers]: [ADMIN.id, PEOPLE.approver.id],
      [ACTION.settingsDualApproval]: '20000',
    });
    expect(saved.responseAction).not.toBe('errors');
    const after = await workspace();
    expect(after.brandName).toBe('Fjell Gear Nordic');
    expect(after.settings).toMatchObject({ approvers: [ADMIN.id, PEOPLE.approver.id], dualApprovalAboveUsd: 20000 });
    const change = await db.prisma.auditLog.findFirstOrThrow({
      where: { action: 'settings.changed', actorSlackUserId: ADMIN.id },
      orderBy: { createdAt: 'desc' },
    });
    expect(change.data).toMatchObject({
      source: 'settings_modal',
      before: { brandName: 'Fjell Gear', settings: { approvers: [ADMIN.id] } },
      after: { brandName: 'Fjell Gear Nordic', settings: { approvers: [ADMIN.id, PEOPLE.approver.id] } },
    });

    // Sam (now an approver) and Ada open the settings; Sam saves first; Ada's form shows what was before it.
    const sams = await openSettings(PEOPLE.approver.id);
    const adas = await openSettings(ADMIN.id);
    await driver.submitView(PEOPLE.approver.id, sams.id, { [ACTION.settingsDualApproval]: '30000' });
    const stale = await driver.submitView(ADMIN.id, adas.id, { [ACTION.settingsDefaultQuestionBudget]: '0' });
    expect(stale.responseAction).toBe('errors');
    expect(Object.values(adas.errors).join(' ')).toMatch(/changed Parley’s settings while you had them open/);
    const settings = (await workspace()).settings as { dualApprovalAboveUsd?: number; defaultQuestionBudget?: number };
    expect(settings.dualApprovalAboveUsd).toBe(30000);
    expect(settings.defaultQuestionBudget).not.toBe(0);
  });
});
