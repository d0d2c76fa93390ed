// The stand-in's OAuth install: the authorize page as a signed-in person, oauth.v2.access through the real WebClient
// (as Bolt's installer calls it), one bot token per workspace, and each token reaching only its own workspace.
import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signedInAs, startSlackSandbox, type SlackSandbox } from './index.js';
import { readManifest } from './scopes.js';

const { WebClient, WebAPIPlatformError, LogLevel } = webApi;

const APP = { clientId: '111.222', clientSecret: 'shh', redirectUrl: 'https://parley.example/slack/oauth_redirect' };
const ADA = 'U0ADA00001';
const BEA = 'U0BEA00001';
const OTHER_TEAM = { id: 'T0OTHER001', name: 'Other Co' };
const SCOPES = readManifest().scopes;

let sandbox: SlackSandbox;

beforeEach(async () => {
  sandbox = await startSlackSandbox({ oauth: APP, users: [{ id: ADA, name: 'ada' }] });
  sandbox.addTeam({ ...OTHER_TEAM, users: [{ id: BEA, name: 'bea' }] });
});

afterEach(async () => {
  await sandbox.close();
});

const client = (token?: string) =>
  new WebClient(token, { slackApiUrl: sandbox.apiUrl, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });

async function slackError(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof WebAPIPlatformError) return error.data.error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** Opens the authorize page as `user`; the redirect's URL, or the page's status and text. */
async function authorize(user: string | undefined, query: Record<string, string>) {
  const url = new URL('/oauth/v2/authorize', sandbox.baseUrl);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  const response = await fetch(url, {
    redirect: 'manual',
    headers: user === undefined ? {} : { cookie: signedInAs(user) },
  });
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

async function codeFor(user: string, state = 'st4te') {
  const page = await authorize(user, { client_id: APP.clientId, scope: SCOPES.join(','), state });
  expect(page.status).toBe(302);
  const location = new URL(page.location ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(APP.redirectUrl);
  expect(location.searchParams.get('state')).toBe(state);
  return location.searchParams.get('code') ?? '';
}

const access = (code: string, overrides: Record<string, string> = {}) =>
  client().oauth.v2.access({ client_id: APP.clientId, client_secret: APP.clientSecret, code, ...overrides });

describe('the OAuth install', () => {
  it('has no valid token before anyone installs the app', async () => {
    expect(await slackError(client(sandbox.botToken).auth.test())).toBe('invalid_auth');
    expect(sandbox.installation(sandbox.model.teamId)).toBeUndefined();
  });

  it('trades a code for the signed-in person’s workspace bot token, answered as Slack documents it', async () => {
    const answer = await access(await codeFor(ADA));
    expect(answer).toMatchObject({
      ok: true,
      token_type: 'bot',
      scope: SCOPES.join(','),
      bot_user_id: sandbox.model.botUserId,
      app_id: sandbox.model.appId,
      team: { id: sandbox.model.teamId, name: sandbox.model.teamName },
      enterprise: null,
      authed_user: { id: ADA },
      is_enterprise_install: false,
    });
    expect(answer.access_token).toMatch(/^xoxb-/);
    expect(sandbox.installation(sandbox.model.teamId)).toMatchObject({
      token: answer.access_token,
      installerUserId: ADA,
    });
    const auth = await client(answer.access_token).auth.test();
    expect(auth).toMatchObject({ team_id: sandbox.model.teamId, user_id: sandbox.model.botUserId });
    // The secret is not written to the call log.
    expect(JSON.stringify(sandbox.model.calls.map((call) => call.args))).not.toContain(APP.clientSecret);
  });

  it('refuses what Slack refuses: wrong client id or secret, a used, unknown or mismatched code', async () => {
    const code = await codeFor(ADA);
    expect(await slackError(access(code, { client_id: '999.999' }))).toBe('invalid_client_id');
    expect(await slackError(access(code, { client_secret: 'wrong' }))).toBe('bad_client_secret');
    expect(await slackError(access('made-up'))).toBe('invalid_code');
    expect(await slackError(access(code, { redirect_uri: 'https://elsewhere.example/cb' }))).toBe('bad_redirect_uri');
    await access(code);
    expect(await slackError(access(code))).toBe('invalid_code');
  });

  it('refuses an authorize request from nobody, for another app, or for scopes the app does not have', async () => {
    expect((await authorize(undefined, { client_id: APP.clientId, scope: 'chat:write' })).status).toBe(401);
    expect((await authorize(ADA, { client_id: '999.999', scope: 'chat:write' })).text).toMatch(/invalid_client_id/);
    expect((await authorize(ADA, { client_id: APP.clientId, scope: 'admin' })).text).toMatch(/invalid_scope/);
    expect(
      (await authorize(ADA, { client_id: APP.clientId, scope: 'chat:write', redirect_uri: 'https://evil.example/' }))
        .text,
    ).toMatch(/bad_redirect_uri/);
  });

  it('gives each workspace its own token, which reaches only that workspace', async () => {
    const first = await access(await codeFor(ADA));
    const second = await access(await codeFor(BEA));
    expect(second.team).toEqual(OTHER_TEAM);
    expect(second.access_token).not.toBe(first.access_token);
    const other = sandbox.team(OTHER_TEAM.id);
    expect(second.bot_user_id).toBe(other?.model.botUserId);
    expect(second.bot_user_id).not.toBe(first.bot_user_id);

    expect(await client(second.access_token).auth.test()).toMatchObject({ team_id: OTHER_TEAM.id });
    expect(await client(second.access_token).users.info({ user: BEA })).toMatchObject({ user: { id: BEA } });
    // Ada is not in the other workspace, and Bea is not in the first: each token sees only its own.
    expect(await slackError(client(second.access_token).users.info({ user: ADA }))).toBe('user_not_found');
    expect(await slackError(client(first.access_token).users.info({ user: BEA }))).toBe('user_not_found');
    // Calls are listed in the workspace the token reached.
    expect(other?.model.calls.map((call) => call.method)).toEqual(['auth.test', 'users.info', 'users.info']);
  });
});
