// A Slack team's workspace with nothing seeded: created once (even by two instances at once), with the simulated
// competitors, the team's name as the brand, no catalog; first approvers written only while there are none, audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import { changeSettings } from './change-settings.js';
import { claimFirstApprover } from './claim-first-approver.js';
import { setUpWorkspace } from './set-up-workspace.js';
import type { SlackDirectory } from './workspace-settings.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.destroy();
});

const ADMIN = 'U0ADMIN001';
const MEMBER = 'U0JO000001';
const directory: SlackDirectory = { isWorkspaceAdmin: async (_workspace, user) => user === ADMIN };

function options(slackTeamId: string, firstApprovers: string[] = []) {
  return { slackTeamId, teamName: 'Fjell Gear', firstApprovers, actorSlackUserId: null, source: 'APPROVER_SLACK_IDS' };
}

async function contextFor(slackTeamId: string): Promise<ServiceContext> {
  const contexts = createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: null, directory });
  const ctx = await contexts.forTeam(slackTeamId);
  if (!ctx) throw new Error(`no workspace for ${slackTeamId}`);
  return ctx;
}

const audit = (workspaceId: string) =>
  db.prisma.auditLog.findMany({ where: { workspaceId }, orderBy: { createdAt: 'asc' } });

describe('setUpWorkspace', () => {
  it('creates the workspace with the competitors, the team’s name as brand and no catalog — once', async () => {
    const [first, second] = await Promise.all([
      setUpWorkspace(db.prisma, options('T0NEWTEAM1', ['U0SAM00001'])),
      setUpWorkspace(db.prisma, options('T0NEWTEAM1', ['U0SAM00001'])),
    ]);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(first.workspaceId).toBe(second.workspaceId);

    const workspace = await db.prisma.workspace.findUniqueOrThrow({
      where: { slackTeamId: 'T0NEWTEAM1' },
      include: { suppliers: { orderBy: { code: 'asc' } }, _count: { select: { products: true } } },
    });
    expect(workspace.brandName).toBe('Fjell Gear');
    expect(workspace.suppliers.map((s) => [s.code, s.isSimulated])).toEqual([
      ['SUP-002', true],
      ['SUP-003', true],
    ]);
    expect(workspace._count.products).toBe(0);
    expect((await contextFor('T0NEWTEAM1')).workspace.settings.approvers).toEqual(['U0SAM00001']);
    expect((await audit(workspace.id)).map((row) => row.action)).toEqual(['workspace.created']);
  });

  it('gives first approvers to a workspace that has none, and never overrides a choice made afterwards', async () => {
    const created = await setUpWorkspace(db.prisma, options('T0NEWTEAM2'));
    expect(created).toMatchObject({ created: true, approversSet: false });
    expect((await contextFor('T0NEWTEAM2')).workspace.settings.approvers).toEqual([]);

    // APPROVER_SLACK_IDS set on a later start: written, by the system, audited with before and after.
    const later = await setUpWorkspace(db.prisma, options('T0NEWTEAM2', ['U0SAM00001']));
    expect(later).toMatchObject({ created: false, approversSet: true });
    const [, change] = await audit(created.workspaceId);
    expect(change).toMatchObject({ action: 'settings.changed', actorKind: 'system', actorSlackUserId: null });
    expect(change?.data).toMatchObject({
      source: 'APPROVER_SLACK_IDS',
      before: { settings: {} },
      after: { settings: { approvers: ['U0SAM00001'] } },
    });

    // Another list on the next start changes nothing: the workspace has its approvers.
    const again = await setUpWorkspace(db.prisma, options('T0NEWTEAM2', ['U0LEE00001']));
    expect(again.approversSet).toBe(false);
    expect((await contextFor('T0NEWTEAM2')).workspace.settings.approvers).toEqual(['U0SAM00001']);
  });
});

describe('claimFirstApprover', () => {
  it('makes the first Slack admin who opens the App Home the approver; a member, or a second admin, changes nothing', async () => {
    await setUpWorkspace(db.prisma, options('T0NEWTEAM3'));
    const member = await claimFirstApprover(await contextFor('T0NEWTEAM3'), { by: MEMBER });
    expect(member).toMatchObject({ ok: true, value: { becameApprover: false } });
    expect((await contextFor('T0NEWTEAM3')).workspace.settings.approvers).toEqual([]);

    const admin = await claimFirstApprover(await contextFor('T0NEWTEAM3'), { by: ADMIN });
    expect(admin).toMatchObject({ ok: true, value: { becameApprover: true } });
    const ctx = await contextFor('T0NEWTEAM3');
    expect(ctx.workspace.settings.approvers).toEqual([ADMIN]);
    const rows = await audit(ctx.workspace.id);
    expect(rows.at(-1)).toMatchObject({ action: 'settings.changed', actorKind: 'user', actorSlackUserId: ADMIN });

    const secondAdmin: SlackDirectory = { isWorkspaceAdmin: async () => true };
    const again = await claimFirstApprover({ ...ctx, directory: secondAdmin }, { by: 'U0ADMIN002' });
    expect(again).toMatchObject({ ok: true, value: { becameApprover: false } });
    expect((await contextFor('T0NEWTEAM3')).workspace.settings.approvers).toEqual([ADMIN]);
  });
});

describe('changeSettings', () => {
  const values = {
    brandName: 'Fjell Gear Nordic',
    approvers: [ADMIN, 'U0SAM00001'],
    dualApprovalAboveUsd: 20_000,
    defaultMode: 'cost' as const,
    defaultRounds: 4,
    defaultQuestionBudget: 1,
    discloseCompetitors: false,
    autoSendToSuppliers: false,
  };

  it('refuses a member who is neither approver nor admin, and changes nothing', async () => {
    await setUpWorkspace(db.prisma, options('T0NEWTEAM4', ['U0SAM00001']));
    const ctx = await contextFor('T0NEWTEAM4');
    const result = await changeSettings(ctx, { by: MEMBER, values, basedOnVersion: 0 });
    expect(result).toMatchObject({ ok: false, error: 'not_allowed' });
    const workspace = await db.prisma.workspace.findUniqueOrThrow({ where: { id: ctx.workspace.id } });
    expect(workspace).toMatchObject({ brandName: 'Fjell Gear', settingsVersion: 0 });
  });

  it('saves an approver’s change over the version shown, audited; a save from an older version is refused', async () => {
    const ctx = await contextFor('T0NEWTEAM4');
    const saved = await changeSettings(ctx, { by: 'U0SAM00001', values, basedOnVersion: 0 });
    expect(saved).toMatchObject({ ok: true, changed: true });
    const after = await contextFor('T0NEWTEAM4');
    expect(after.workspace.brandName).toBe('Fjell Gear Nordic');
    expect(after.workspace.settings).toMatchObject({ approvers: [ADMIN, 'U0SAM00001'], dualApprovalAboveUsd: 20_000 });
    const change = (await audit(ctx.workspace.id)).at(-1);
    expect(change).toMatchObject({ action: 'settings.changed', actorSlackUserId: 'U0SAM00001' });
    expect(change?.data).toMatchObject({
      source: 'settings_modal',
      version: 1,
      before: { brandName: 'Fjell Gear', settings: { approvers: ['U0SAM00001'] } },
      after: { brandName: 'Fjell Gear Nordic', settings: { approvers: [ADMIN, 'U0SAM00001'] } },
    });

    // The admin's modal was opened at version 0 too: their save would silently undo the approver's — refused.
    const stale = await changeSettings(after, {
      by: ADMIN,
      values: { ...values, defaultRounds: 2 },
      basedOnVersion: 0,
    });
    expect(stale).toMatchObject({ ok: false, error: 'conflict' });
    expect((await contextFor('T0NEWTEAM4')).workspace.settings.defaultRounds).toBe(4);

    // The same values again: nothing to write, no version, no audit row.
    const rows = (await audit(ctx.workspace.id)).length;
    expect(await changeSettings(after, { by: ADMIN, values, basedOnVersion: 1 })).toMatchObject({ changed: false });
    expect(await audit(ctx.workspace.id)).toHaveLength(rows);
  });
});
