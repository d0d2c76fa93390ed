// OAuth installs: each installed team gets its workspace, its installer as the first approver (no environment list
// applies), and its tokens sealed at rest — a row from before sealing still reads and is sealed by the next write.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { toJsonColumn } from '../../db/json.js';
import { installationOf, installationQuery } from '../../../test/support/installations.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { createContextFactory } from '../service-context.js';
import { botTokenFor, createInstallationStore, recentBotTokens } from './slack-installations.js';
import { createTokenCipher, TokenDecryptionError } from './token-crypto.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.destroy();
});

const cipher = createTokenCipher(randomBytes(32).toString('base64'));

const installation = (teamId: string, installer: string, suffix = 'one') =>
  installationOf(teamId, {
    installer,
    botToken: `xoxb-bot-secret-${suffix}`,
    userToken: `xoxp-user-secret-${suffix}`,
    scopes: ['chat:write', 'users:read'],
  });
const query = installationQuery;

const approversOf = async (teamId: string) => {
  // The environment names an approver: OAuth workspaces must not get it.
  const env = loadEnv({ APPROVER_SLACK_IDS: 'U0ENVAPPR1' });
  const ctx = await createContextFactory({ prisma: db.prisma, env, llm: null }).forTeam(teamId);
  return ctx?.workspace.settings.approvers;
};

/** Bolt's deleteInstallation (optional in its type; Parley's store has it). */
async function uninstall(store: ReturnType<typeof createInstallationStore>, teamId: string): Promise<void> {
  if (!store.deleteInstallation) throw new Error('the store cannot delete an installation');
  await store.deleteInstallation(query(teamId));
}

describe('the installation store', () => {
  it('sets up the installed team’s workspace with its installer as the only approver', async () => {
    const store = createInstallationStore({ prisma: db.prisma, cipher });
    await store.storeInstallation(installation('T0OAUTH001', 'U0INSTALL1'));
    await store.storeInstallation(installation('T0OAUTH002', 'U0INSTALL2'));
    expect(await approversOf('T0OAUTH001')).toEqual(['U0INSTALL1']);
    expect(await approversOf('T0OAUTH002')).toEqual(['U0INSTALL2']);
    const workspace = await db.prisma.workspace.findUniqueOrThrow({
      where: { slackTeamId: 'T0OAUTH001' },
      include: { _count: { select: { products: true, suppliers: true } } },
    });
    expect(workspace).toMatchObject({ brandName: 'Team T0OAUTH001', _count: { products: 0, suppliers: 2 } });

    // A reinstall by someone else (new scopes) keeps the approvers the workspace has.
    await store.storeInstallation(installation('T0OAUTH001', 'U0OTHER001', 'two'));
    expect(await approversOf('T0OAUTH001')).toEqual(['U0INSTALL1']);
  });

  it('keeps no token readable in the row, and gives Bolt back the installation it stored', async () => {
    const store = createInstallationStore({ prisma: db.prisma, cipher });
    await store.storeInstallation(installation('T0OAUTH003', 'U0INSTALL3'));
    const row = await db.prisma.slackInstallation.findFirstOrThrow({
      where: { workspace: { slackTeamId: 'T0OAUTH003' } },
    });
    const stored = JSON.stringify(row);
    expect(stored).not.toContain('xoxb-');
    expect(stored).not.toContain('xoxp-');
    expect(stored).not.toContain('secret');

    const fetched = await store.fetchInstallation(query('T0OAUTH003'));
    expect(fetched.bot?.token).toBe('xoxb-bot-secret-one');
    expect(fetched.user.token).toBe('xoxp-user-secret-one');
    expect(await botTokenFor(db.prisma, row.workspaceId, undefined, cipher)).toBe('xoxb-bot-secret-one');
  });

  it('reads a row written before sealing, and seals it on the next write', async () => {
    const store = createInstallationStore({ prisma: db.prisma, cipher });
    await store.storeInstallation(installation('T0OAUTH004', 'U0INSTALL4'));
    const { workspaceId } = await db.prisma.slackInstallation.findFirstOrThrow({
      where: { workspace: { slackTeamId: 'T0OAUTH004' } },
    });
    const legacy = installation('T0OAUTH004', 'U0INSTALL4', 'legacy');
    await db.prisma.slackInstallation.update({
      where: { workspaceId },
      data: { botToken: 'xoxb-bot-secret-legacy', raw: toJsonColumn(legacy) },
    });
    expect(await botTokenFor(db.prisma, workspaceId, undefined, cipher)).toBe('xoxb-bot-secret-legacy');
    expect(await botTokenFor(db.prisma, workspaceId, undefined, null)).toBe('xoxb-bot-secret-legacy');
    const fetched = await store.fetchInstallation(query('T0OAUTH004'));
    expect(fetched.bot?.token).toBe('xoxb-bot-secret-legacy');

    await store.storeInstallation(fetched);
    const row = await db.prisma.slackInstallation.findUniqueOrThrow({ where: { workspaceId } });
    expect(JSON.stringify(row)).not.toContain('secret');
    expect(await botTokenFor(db.prisma, workspaceId, undefined, cipher)).toBe('xoxb-bot-secret-legacy');
  });

  it('refuses a team at once once this process uninstalls it, though it served that installation from memory', async () => {
    const here = createInstallationStore({ prisma: db.prisma, cipher });
    const otherInstance = createInstallationStore({ prisma: db.prisma, cipher });
    await here.storeInstallation(installation('T0OAUTH005', 'U0INSTALL5'));
    expect((await here.fetchInstallation(query('T0OAUTH005'))).bot?.token).toBe('xoxb-bot-secret-one');

    // Uninstalled through another instance: this one still authorizes the team from memory, for a few seconds at most.
    await uninstall(otherInstance, 'T0OAUTH005');
    expect((await here.fetchInstallation(query('T0OAUTH005'))).bot?.token).toBe('xoxb-bot-secret-one');
    await expect(otherInstance.fetchInstallation(query('T0OAUTH005'))).rejects.toThrow(/No Parley installation/);

    // Uninstalled through this one: refused at the next request.
    await uninstall(here, 'T0OAUTH005');
    await expect(here.fetchInstallation(query('T0OAUTH005'))).rejects.toThrow(/No Parley installation/);
    // A reinstall is seen at once too (nothing is kept for a team not installed).
    await here.storeInstallation(installation('T0OAUTH005', 'U0INSTALL5', 'two'));
    expect((await here.fetchInstallation(query('T0OAUTH005'))).bot?.token).toBe('xoxb-bot-secret-two');
    await here.storeInstallation(installation('T0OAUTH005', 'U0INSTALL5', 'three'));
    expect((await here.fetchInstallation(query('T0OAUTH005'))).bot?.token).toBe('xoxb-bot-secret-three');
  });

  it('reuses a bot token read a moment ago, and reads it again after an install or uninstall through this process', async () => {
    const store = createInstallationStore({ prisma: db.prisma, cipher });
    await store.storeInstallation(installation('T0OAUTH006', 'U0INSTALL6'));
    const { workspaceId } = await db.prisma.slackInstallation.findFirstOrThrow({
      where: { workspace: { slackTeamId: 'T0OAUTH006' } },
    });
    const tokenFor = recentBotTokens(db.prisma, 'xoxb-env-fallback', cipher);
    expect(await tokenFor(workspaceId)).toBe('xoxb-bot-secret-one');
    // Changed behind this process's back (as by another instance): served from memory for a few seconds at most.
    await db.prisma.slackInstallation.update({
      where: { workspaceId },
      data: { botToken: cipher.seal('xoxb-bot-secret-elsewhere') },
    });
    expect(await tokenFor(workspaceId)).toBe('xoxb-bot-secret-one');
    await store.storeInstallation(installation('T0OAUTH006', 'U0INSTALL6', 'two'));
    expect(await tokenFor(workspaceId)).toBe('xoxb-bot-secret-two');
    await uninstall(store, 'T0OAUTH006');
    expect(await tokenFor(workspaceId)).toBe('xoxb-env-fallback');
  });

  it('fails clearly under another key, rather than handing Slack a garbled token', async () => {
    const { workspaceId } = await db.prisma.slackInstallation.findFirstOrThrow({
      where: { workspace: { slackTeamId: 'T0OAUTH003' } },
    });
    const other = createTokenCipher(randomBytes(32).toString('base64'));
    await expect(botTokenFor(db.prisma, workspaceId, undefined, other)).rejects.toThrow(TokenDecryptionError);
    await expect(botTokenFor(db.prisma, workspaceId, undefined, null)).rejects.toThrow(/TOKEN_ENCRYPTION_KEY/);
    const store = createInstallationStore({ prisma: db.prisma, cipher: other });
    await expect(store.fetchInstallation(query('T0OAUTH003'))).rejects.toThrow(/TOKEN_ENCRYPTION_KEY/);
  });
});
