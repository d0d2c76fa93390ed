// A workspace removes Parley (OAuth, many workspaces): Slack revokes the bot token and sends `tokens_revoked` and
// `app_uninstalled` through the real Bolt receiver. Parley acknowledges once the installation is removed and the
// Slack calls still waiting in its outbox are given up, in one commit; it makes no further Web API call with the dead
// token (a rate-limited App Home publish waiting for its retry is not tried again); the workspace's data stays, and
// installing again through the OAuth flow works with the new token. A team Parley was never installed in is
// acknowledged and ignored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PEOPLE,
  type SandboxedParley,
  startSandboxedParley,
  TEAM_ID,
} from '../../dev/slack-stand-in/sandboxed-parley.js';
import { installThroughOAuth } from './oauth.js';
import { sharedWorkers } from '../support/shared-workers.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

let db: TestDatabase;
let parley: SandboxedParley;

beforeAll(async () => {
  db = await createTestDatabase();
  parley = await startSandboxedParley({ ...sharedWorkers(), db, oauth: true, env: { JOBS_ENABLED: 'false' } });
}, 120_000);

afterAll(async () => {
  await parley?.stop();
  await db?.destroy();
});

/** `userId` installs Parley from its install link, as a browser would; Parley's answer to Slack's redirect. */
const install = async (userId: string) => (await installThroughOAuth(parley, userId)).status;

const workspaceOf = (slackTeamId: string) =>
  db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId }, include: { installation: true } });

describe('a workspace that uninstalls Parley', () => {
  let oldToken = '';
  let callsAtUninstall = 0;

  it('is installed, with a Home publish waiting in the outbox (Slack rate-limited it)', async () => {
    expect(await install(PEOPLE.buyer.id)).toBe(200);
    oldToken = parley.sandbox.installation(TEAM_ID)?.token ?? '';
    expect(oldToken).toMatch(/^xoxb-/);
    const { driver, model, faults } = parley.sandbox;
    faults.set('views.publish', { status: 429, retryAfterSeconds: 3 }, { times: 1 });
    await driver.openHome(PEOPLE.buyer.id);
    await parley.sandbox.waitFor(() => model.calls.some((call) => call.method === 'views.publish' && call.status), {
      what: 'the rate-limited views.publish',
    });
    const { id: workspaceId } = await workspaceOf(TEAM_ID);
    await expect
      .poll(() => db.prisma.slackOutbox.count({ where: { workspaceId, status: 'pending', method: 'views.publish' } }))
      .toBe(1);
  });

  it('acknowledges tokens_revoked and app_uninstalled once the installation is removed and the outbox given up', async () => {
    const { driver, model } = parley.sandbox;
    callsAtUninstall = model.calls.length;
    const answers = await driver.uninstallApp();
    expect(answers.map((answer) => [answer.status, answer.notDelivered])).toEqual([
      [200, undefined],
      [200, undefined],
    ]);
    // Saved before the answers: read right after them.
    const workspace = await workspaceOf(TEAM_ID);
    expect(workspace.installation).toBeNull();
    const rows = await db.prisma.slackOutbox.findMany({
      where: { workspaceId: workspace.id, method: 'views.publish' },
    });
    expect(rows.filter((row) => row.status === 'pending' || row.status === 'sending')).toEqual([]);
    expect(rows.find((row) => row.status === 'failed')?.lastError).toMatch(/tokens_revoked/);
    const audit = await db.prisma.auditLog.findMany({
      where: { workspaceId: workspace.id, action: 'workspace.uninstalled' },
    });
    // Once: the app_uninstalled that followed found no installation left.
    expect(audit.map((entry) => entry.data)).toEqual([{ reason: 'tokens_revoked', outboxRowsGivenUp: 1 }]);
  });

  it('makes no further Web API call with the revoked token, even after the Retry-After', async () => {
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await parley.settle();
    const after = parley.sandbox.model.calls.slice(callsAtUninstall);
    expect(after.map((call) => `${call.method}: ${call.error ?? 'ok'}`)).toEqual([]);
  });

  it('keeps the workspace and its approver, and works again after a reinstall with the new token', async () => {
    const before = await workspaceOf(TEAM_ID);
    expect((before.settings as { approvers?: string[] }).approvers).toEqual([PEOPLE.buyer.id]);
    expect(await install(PEOPLE.buyer.id)).toBe(200);
    const newToken = parley.sandbox.installation(TEAM_ID)?.token ?? '';
    expect(newToken).toMatch(/^xoxb-/);
    expect(newToken).not.toBe(oldToken);
    const after = await workspaceOf(TEAM_ID);
    expect(after.id).toBe(before.id);
    expect(after.installation).not.toBeNull();

    const { driver, model } = parley.sandbox;
    const callsBefore = model.calls.length;
    await driver.openHome(PEOPLE.colleague.id);
    await parley.settle();
    await parley.sandbox.waitFor(() => model.home(PEOPLE.colleague.id), { what: "Jo's App Home" });
    const published = model.calls.slice(callsBefore).filter((call) => call.method === 'views.publish');
    expect(published.map((call) => [call.ok, call.args.user_id])).toEqual([[true, PEOPLE.colleague.id]]);
  });
});

describe('an uninstall from a team Parley is not installed in', () => {
  it('is acknowledged and changes nothing', async () => {
    const other = parley.sandbox.addTeam({
      id: 'T0NOTINST1',
      name: 'Not Installed',
      users: [{ id: 'U0NOBODY01', name: 'nobody', realName: 'No Body' }],
      channels: [],
    });
    const auditBefore = await db.prisma.auditLog.count();
    const answers = await other.driver.uninstallApp();
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await db.prisma.auditLog.count()).toBe(auditBefore);
    expect((await workspaceOf(TEAM_ID)).installation).not.toBeNull();
  });
});
