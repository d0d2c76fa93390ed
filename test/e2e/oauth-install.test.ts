// Parley distributed with OAuth (many workspaces), installed the way a person installs it: `/slack/install` on Parley
// redirects to Slack's authorize page (the stand-in's, consent given at once by the signed-in person), which sends the
// browser back to `/slack/oauth_redirect` with a code and Bolt's state; Bolt checks the state against its cookie,
// trades the code with oauth.v2.access at SLACK_API_URL and hands the installation to Parley's store. Then: the team's
// workspace exists with the installer as its only approver (APPROVER_SLACK_IDS is set, and ignored), the bot token is
// stored sealed under TOKEN_ENCRYPTION_KEY, and the team's events are served with its own token — the stand-in's
// tokens each reach only their own workspace, so a call made with another team's token would find nothing.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callProblems } from '../../dev/slack-stand-in/call-log.js';
import type { SandboxTeam } from '../../dev/slack-stand-in/index.js';
import {
  PEOPLE,
  type SandboxedParley,
  startSandboxedParley,
  TEAM_ID,
} from '../../dev/slack-stand-in/sandboxed-parley.js';
import { readManifest } from '../../dev/slack-stand-in/scopes.js';
import { createTokenCipher } from '../../src/services/workspace/token-crypto.js';
import { installThroughOAuth } from './oauth.js';
import { sharedWorkers } from '../support/shared-workers.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const SAMPLE = new URL('../../data/samples/01-clean-baseline.xlsx', import.meta.url);
const SECOND = {
  team: { id: 'T0FJORD001', name: 'Fjord Supply' },
  installer: { id: 'U0FRIDA001', name: 'frida', realName: 'Frida Berg' },
  colleague: { id: 'U0OLA00001', name: 'ola', realName: 'Ola Nilsen' },
  channel: { id: 'C0FJORDBUY', name: 'buying' },
} as const;

let db: TestDatabase;
let parley: SandboxedParley;
let second: SandboxTeam;

beforeAll(async () => {
  db = await createTestDatabase();
  // Nothing seeded; APPROVER_SLACK_IDS (Sam and Lee, from the story's environment) stays set to show it is not used.
  parley = await startSandboxedParley({ ...sharedWorkers(), db, oauth: true, env: { JOBS_ENABLED: 'false' } });
  second = parley.sandbox.addTeam({
    id: SECOND.team.id,
    name: SECOND.team.name,
    users: [SECOND.installer, SECOND.colleague],
    channels: [
      { id: SECOND.channel.id, name: SECOND.channel.name, members: [SECOND.installer.id, SECOND.colleague.id] },
    ],
  });
}, 120_000);

afterAll(async () => {
  await parley?.stop();
  await db?.destroy();
});

const workspaceOf = (slackTeamId: string) =>
  db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId }, include: { installation: true } });
const approversOf = async (slackTeamId: string) =>
  ((await workspaceOf(slackTeamId)).settings as { approvers?: string[] }).approvers ?? [];
const allCalls = () => [...parley.sandbox.model.calls, ...second.model.calls];

describe('installing Parley in a brand-new Slack team over OAuth', () => {
  it('has no workspace and no token before anyone installs it', async () => {
    expect(await db.prisma.workspace.count()).toBe(0);
    expect(parley.sandbox.installation(TEAM_ID)).toBeUndefined();
  });

  it('refuses a callback whose state is not this browser’s, before asking Slack for a token', async () => {
    const attempt = await installThroughOAuth(parley, PEOPLE.buyer.id, { dropStateCookie: true });
    expect(attempt.status).toBe(400);
    expect(attempt.page).toMatch(/slack_oauth_invalid_state/);
    expect(allCalls().filter((call) => call.method === 'oauth.v2.access')).toEqual([]);
    expect(await db.prisma.workspace.count()).toBe(0);
  });

  it('installs through Slack’s authorize page and oauth.v2.access at SLACK_API_URL', async () => {
    const done = await installThroughOAuth(parley, PEOPLE.buyer.id);
    // Bolt sends the browser to Slack's real authorize page, asking for the manifest's bot scopes.
    expect(`${done.authorizeUrl.origin}${done.authorizeUrl.pathname}`).toBe('https://slack.com/oauth/v2/authorize');
    expect(done.authorizeUrl.searchParams.get('client_id')).toBe(parley.env.SLACK_CLIENT_ID);
    expect(done.authorizeUrl.searchParams.get('scope')?.split(',').sort()).toEqual([...readManifest().scopes].sort());
    expect(done.stateCookie).toMatch(/^slack-app-oauth-state=.+/);
    expect(new URL(done.callbackUrl).pathname).toBe('/slack/oauth_redirect');
    expect(done.status).toBe(200);
    expect(done.page).toMatch(/Thank you!/);

    const { calls } = parley.sandbox.model;
    const exchange = calls.find((call) => call.method === 'oauth.v2.access');
    expect(exchange).toMatchObject({ ok: true, args: { client_id: parley.env.SLACK_CLIENT_ID } });
    expect(exchange?.args).not.toHaveProperty('redirect_uri');
    // Bolt asks who the new token is (auth.test): the stand-in answers from the team the token belongs to.
    expect(calls.filter((call) => call.method === 'auth.test' && call.ok)).toHaveLength(1);
  });

  it('creates the team’s workspace with the installer as its only approver, not APPROVER_SLACK_IDS', async () => {
    expect(parley.env.APPROVER_SLACK_IDS).toEqual([PEOPLE.approver.id, PEOPLE.secondApprover.id]);
    const workspace = await workspaceOf(TEAM_ID);
    expect(workspace.brandName).toBe('Valden Outdoor');
    expect(await approversOf(TEAM_ID)).toEqual([PEOPLE.buyer.id]);
    const created = await db.prisma.auditLog.findFirstOrThrow({
      where: { workspaceId: workspace.id, action: 'workspace.created' },
    });
    expect(created.actorSlackUserId).toBe(PEOPLE.buyer.id);
    expect(created.data).toMatchObject({ source: 'oauth_install', approvers: [PEOPLE.buyer.id] });
  });

  it('stores the bot token sealed under TOKEN_ENCRYPTION_KEY: no plaintext token in the installation row', async () => {
    const token = parley.sandbox.installation(TEAM_ID)?.token ?? '';
    expect(token).toMatch(/^xoxb-/);
    const { installation: row } = await workspaceOf(TEAM_ID);
    if (!row) throw new Error('no SlackInstallation row');
    expect(row).toMatchObject({ botUserId: parley.sandbox.model.botUserId, installerUserId: PEOPLE.buyer.id });
    expect([...row.scopes].sort()).toEqual([...readManifest().scopes].sort());
    // Not in any column, not in the stored Installation object; only the key opens it.
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('xoxb-');
    expect(row.botToken).toMatch(/^enc:v1:/);
    expect(row.raw).toEqual({ sealed: expect.stringMatching(/^enc:v1:/) });
    const cipher = createTokenCipher(parley.env.TOKEN_ENCRYPTION_KEY ?? '');
    expect(cipher.open(row.botToken)).toBe(token);
    expect(JSON.parse(cipher.open((row.raw as { sealed: string }).sealed))).toMatchObject({
      team: { id: TEAM_ID },
      bot: { token, userId: parley.sandbox.model.botUserId },
      user: { id: PEOPLE.buyer.id },
    });
  });

  it('serves the team’s App Home with that installation’s token', async () => {
    const { driver, model } = parley.sandbox;
    await driver.openHome(PEOPLE.buyer.id);
    await parley.sandbox.waitFor(() => model.home(PEOPLE.buyer.id), { what: "the installer's App Home" });
    await parley.settle();
    const published = model.calls.filter((call) => call.method === 'views.publish');
    expect(published.map((call) => [call.ok, call.args.user_id])).toEqual([[true, PEOPLE.buyer.id]]);
  });

  it('refuses to trade the same code twice: a replayed callback installs nothing more', async () => {
    const exchanges = () => parley.sandbox.model.calls.filter((call) => call.method === 'oauth.v2.access');
    const before = exchanges().length;
    const first = await installThroughOAuth(parley, PEOPLE.colleague.id);
    expect(first.status).toBe(200);
    const replay = await fetch(first.callbackUrl, { redirect: 'manual', headers: { cookie: first.stateCookie } });
    expect(replay.status).toBe(500);
    expect(
      exchanges()
        .slice(before)
        .map((call) => call.error ?? 'ok'),
    ).toEqual(['ok', 'invalid_code']);
    // A reinstall (Jo's) keeps the workspace, its approver and its token; the row names the latest installer.
    expect(await db.prisma.workspace.count()).toBe(1);
    expect(await approversOf(TEAM_ID)).toEqual([PEOPLE.buyer.id]);
    const { installation: row } = await workspaceOf(TEAM_ID);
    expect(row?.installerUserId).toBe(PEOPLE.colleague.id);
  });
});

describe('a second team installing', () => {
  it('gets its own workspace, approver and token', async () => {
    const done = await installThroughOAuth(parley, SECOND.installer.id);
    expect(done.status).toBe(200);
    expect(await db.prisma.workspace.count()).toBe(2);
    const workspace = await workspaceOf(SECOND.team.id);
    expect(workspace.brandName).toBe(SECOND.team.name);
    expect(await approversOf(SECOND.team.id)).toEqual([SECOND.installer.id]);
    expect(await approversOf(TEAM_ID)).toEqual([PEOPLE.buyer.id]);

    const first = parley.sandbox.installation(TEAM_ID)?.token;
    const token = parley.sandbox.installation(SECOND.team.id)?.token ?? '';
    expect(token).toMatch(/^xoxb-/);
    expect(token).not.toBe(first);
    const row = workspace.installation;
    expect(row).toMatchObject({ botUserId: second.model.botUserId, installerUserId: SECOND.installer.id });
    expect(JSON.stringify(row)).not.toContain(token);
    expect(createTokenCipher(parley.env.TOKEN_ENCRYPTION_KEY ?? '').open(row?.botToken ?? '')).toBe(token);
    // The code was Frida's team's: Bolt's auth.test with the new token was answered by (and listed in) that team.
    expect(second.model.calls.filter((call) => call.method === 'auth.test' && call.ok)).toHaveLength(1);
  });

  it('serves the second team’s App Home and shared file with the second team’s token', async () => {
    const firstCallsBefore = parley.sandbox.model.calls.length;
    await second.driver.openHome(SECOND.installer.id);
    await second.waitFor(() => second.model.home(SECOND.installer.id), { what: "Frida's App Home" });

    const bytes = await readFile(SAMPLE);
    const shared = await second.driver.shareFile(SECOND.installer.id, SECOND.channel.id, { name: 'quote.xlsx', bytes });
    await parley.settle();
    await second.waitFor(
      () => second.model.thread(SECOND.channel.id, shared.ts).some((m) => m.user === second.model.botUserId),
      { what: 'Parley’s answer in the second team’s thread', timeoutMs: 60_000 },
    );
    await parley.settle();

    const quotation = await db.prisma.quotation.findFirstOrThrow({ include: { workspace: true } });
    expect(quotation.workspace.slackTeamId).toBe(SECOND.team.id);
    expect(quotation.slackChannelId).toBe(SECOND.channel.id);
    // Every call for it reached the second team (its token), each one answered ok: the Home, the file's info and
    // bytes, the 👀 and the thread.
    const methods = new Set(second.model.calls.map((call) => call.method));
    for (const method of ['views.publish', 'files.info', 'reactions.add', 'chat.postMessage']) {
      expect(methods).toContain(method);
    }
    expect(second.model.calls.filter((call) => !call.ok)).toEqual([]);
    expect(second.model.reactions(SECOND.channel.id, shared.ts).map((r) => r.name)).toContain('eyes');
    // …and none reached the first team.
    expect(parley.sandbox.model.calls.slice(firstCallsBefore)).toEqual([]);
  }, 120_000);

  it('made no call real Slack would refuse, in either team', () => {
    const failed = allCalls().filter((call) => !call.ok && call.error !== 'invalid_code');
    expect(failed.map((call) => `${call.method}: ${call.error ?? call.status}`)).toEqual([]);
    expect(allCalls().flatMap((call) => callProblems(call.method, call.args))).toEqual([]);
  });
});

describe('the first team after the second installed', () => {
  it('still serves the first team with its own token', async () => {
    const { driver, model } = parley.sandbox;
    const before = model.calls.length;
    // Someone whose Home was never published: the buyer's, unchanged since, is not published again (Slack shows it).
    await driver.openHome(PEOPLE.colleague.id);
    await parley.settle();
    const after = model.calls.slice(before);
    expect(after.map((call) => [call.method, call.ok])).toContainEqual(['views.publish', true]);
    expect(second.model.calls.some((call) => JSON.stringify(call.args).includes(PEOPLE.colleague.id))).toBe(false);
  });
});
