// Slack says Parley's bot token for a team is gone: one commit removes the installation, gives up the team's unsent
// outbox rows (sent ones and other teams' untouched) and audits it; this process's installation store and bot tokens
// forget the team at once, though they had it in memory; the workspace's data stays; a second call changes nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { installationOf, installationQuery } from '../../../test/support/installations.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { createContextFactory } from '../service-context.js';
import { createInstallationStore, recentBotTokens } from './slack-installations.js';
import { createTokenCipher } from './token-crypto.js';
import { uninstallWorkspace } from './uninstall-workspace.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.destroy();
});

const cipher = createTokenCipher(randomBytes(32).toString('base64'));

const contexts = () => createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: null });

async function outboxRow(workspaceId: string, key: string, status: 'pending' | 'sending' | 'sent') {
  return db.prisma.slackOutbox.create({
    data: {
      workspaceId,
      dedupeKey: key,
      method: 'chat.postMessage',
      channelId: 'C0BUYING01',
      payload: { args: { text: key } },
      status,
      ...(status === 'sending' ? { lockedBy: 'parley-x', lockedUntil: new Date(Date.now() + 60_000) } : {}),
      ...(status === 'sent' ? { resultTs: '1.000001', sentAt: new Date() } : {}),
    },
  });
}

describe('uninstallWorkspace', () => {
  it('removes the installation, gives up unsent rows and audits it, in one commit; caches forget at once', async () => {
    const store = createInstallationStore({ prisma: db.prisma, cipher });
    await store.storeInstallation(installationOf('T0GONE0001'));
    await store.storeInstallation(installationOf('T0STAYS001'));
    const gone = await contexts().forTeam('T0GONE0001');
    const stays = await contexts().forTeam('T0STAYS001');
    if (!gone || !stays) throw new Error('workspaces not set up');
    const tokens = recentBotTokens(db.prisma, undefined, cipher);
    // Read once: from here on served from this process's memory.
    expect((await store.fetchInstallation(installationQuery('T0GONE0001'))).bot?.token).toBe('xoxb-T0GONE0001');
    expect(await tokens(gone.workspace.id)).toBe('xoxb-T0GONE0001');

    const pending = await outboxRow(gone.workspace.id, 'a', 'pending');
    const sending = await outboxRow(gone.workspace.id, 'b', 'sending');
    const sent = await outboxRow(gone.workspace.id, 'c', 'sent');
    const otherTeams = await outboxRow(stays.workspace.id, 'a', 'pending');
    const auditBefore = await db.prisma.auditLog.count({ where: { workspaceId: gone.workspace.id } });

    expect(await uninstallWorkspace(gone, 'app_uninstalled')).toEqual({ removed: true, outboxRowsGivenUp: 2 });

    expect(await db.prisma.slackInstallation.count({ where: { workspaceId: gone.workspace.id } })).toBe(0);
    expect(await db.prisma.slackInstallation.count({ where: { workspaceId: stays.workspace.id } })).toBe(1);
    const status = async (id: string) => db.prisma.slackOutbox.findUniqueOrThrow({ where: { id } });
    for (const row of [pending, sending]) {
      expect(await status(row.id)).toMatchObject({
        status: 'failed',
        lockedBy: null,
        lockedUntil: null,
        lastError: expect.stringMatching(/app_uninstalled/),
      });
    }
    expect((await status(sent.id)).status).toBe('sent');
    expect((await status(otherTeams.id)).status).toBe('pending');
    const audit = await db.prisma.auditLog.findMany({ where: { workspaceId: gone.workspace.id } });
    expect(audit).toHaveLength(auditBefore + 1);
    expect(audit.find((entry) => entry.action === 'workspace.uninstalled')).toMatchObject({
      actorKind: 'system',
      entityType: 'Workspace',
      entityId: gone.workspace.id,
      data: { reason: 'app_uninstalled', outboxRowsGivenUp: 2 },
    });
    // The workspace itself is kept for a reinstall.
    expect(await db.prisma.workspace.count({ where: { id: gone.workspace.id } })).toBe(1);

    // Neither Bolt's authorize nor the outbox's token is served from memory any more.
    await expect(store.fetchInstallation(installationQuery('T0GONE0001'))).rejects.toThrow(/No Parley installation/);
    expect(await tokens(gone.workspace.id)).toBeNull();
    expect((await store.fetchInstallation(installationQuery('T0STAYS001'))).bot?.token).toBe('xoxb-T0STAYS001');

    // Slack's second event (tokens_revoked, then app_uninstalled) finds nothing left to do.
    expect(await uninstallWorkspace(gone, 'tokens_revoked')).toEqual({ removed: false, outboxRowsGivenUp: 0 });
    expect(await db.prisma.auditLog.count({ where: { workspaceId: gone.workspace.id } })).toBe(auditBefore + 1);
  });
});
