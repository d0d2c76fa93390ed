// The stand-in holds an app to Slack's rules: the installed scopes, channel membership for posts and files, replies
// posted where the app pointed them, and events shaped as Slack sends them (threads, Slack Connect, retries, DMs,
// shortcuts, slash commands). Each rule is checked through the real WebClient and a real Bolt receiver.
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, webApi } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackSandbox, type SlackSandbox, type SlackSandboxOptions } from './index.js';
import { readManifest } from './scopes.js';

const { WebClient, WebAPIPlatformError } = webApi;

const ALICE = 'U0ALICE001';
const GUEST = 'U0GUEST001';
const PARTNER_TEAM = 'T0PARTNER1';
const CHANNEL = 'C0SOURCING';
const OUTSIDE = 'C0OUTSIDE1';
const SECRET = 'G0SECRET01';
const CONNECT = 'C0CONNECT1';

let sandbox: SlackSandbox | undefined;
let app: App | undefined;

afterEach(async () => {
  await app?.stop();
  await sandbox?.close();
  app = undefined;
  sandbox = undefined;
});

async function start(options: SlackSandboxOptions = {}) {
  const started = await startSlackSandbox({
    users: [
      { id: ALICE, name: 'alice', realName: 'Alice Buyer' },
      { id: GUEST, name: 'gus', realName: 'Gus Partner', teamId: PARTNER_TEAM },
    ],
    channels: [
      { id: CHANNEL, name: 'sourcing', members: [ALICE] },
      { id: OUTSIDE, name: 'outside', members: [ALICE], botMember: false },
      { id: SECRET, name: 'secret', private: true, members: [ALICE], botMember: false },
      { id: CONNECT, name: 'partner-connect', members: [ALICE, GUEST], sharedWith: { teamId: PARTNER_TEAM } },
    ],
    ...options,
  });
  sandbox = started;
  const client = new WebClient(started.botToken, {
    slackApiUrl: started.apiUrl,
    retryConfig: { retries: 0 },
    logLevel: webApi.LogLevel.ERROR,
  });
  return { sandbox: started, client };
}

async function slackError(call: Promise<unknown>): Promise<{ error: string; needed?: unknown; provided?: unknown }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof WebAPIPlatformError) {
      const data = error.data as { error: string; needed?: unknown; provided?: unknown };
      return { error: data.error, needed: data.needed, provided: data.provided };
    }
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** A Bolt app that records every request body it receives (events, interactions, commands) and acks. */
async function recordingApp(running: SlackSandbox) {
  const bodies: { kind: string; body: Record<string, unknown>; retryNum?: number; retryReason?: string }[] = [];
  const bolt = new App({
    token: running.botToken,
    // Named here so Bolt does not call auth.test in the background, which could outlive a test's sandbox.
    botId: running.model.botId,
    botUserId: running.model.botUserId,
    tokenVerificationEnabled: false,
    receiver: new HTTPReceiver({ signingSecret: running.signingSecret, logLevel: LogLevel.ERROR }),
    clientOptions: { slackApiUrl: running.apiUrl, retryConfig: { retries: 0 } },
    logLevel: LogLevel.ERROR,
  });
  bolt.event('message', async ({ body, context }) => {
    bodies.push({ kind: 'message', body, retryNum: context.retryNum, retryReason: context.retryReason });
  });
  bolt.event('file_shared', async ({ body }) => {
    bodies.push({ kind: 'file_shared', body });
  });
  bolt.action(/.*/, async ({ ack, body }) => {
    await ack();
    bodies.push({ kind: 'action', body: { ...body } });
  });
  bolt.shortcut('negotiate_quote', async ({ ack, body }) => {
    await ack();
    bodies.push({ kind: 'shortcut', body: { ...body } });
  });
  bolt.command('/parley', async ({ ack, body }) => {
    await ack();
    bodies.push({ kind: 'command', body: { ...body } });
  });
  const server = await bolt.start(0);
  running.setEventsUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`);
  app = bolt;
  return bodies;
}

describe('scopes', () => {
  it('installs the manifest’s bot scopes by default and names them on every answer', async () => {
    const { sandbox: running } = await start();
    const response = await fetch(`${running.apiUrl}auth.test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.botToken}` },
    });
    expect(response.headers.get('x-oauth-scopes')?.split(',')).toEqual(readManifest().scopes);
  });

  it('refuses a call without its scope as missing_scope, with needed and provided', async () => {
    const { client } = await start({ scopes: ['chat:write', 'commands'] });
    expect(await slackError(client.reactions.add({ channel: CHANNEL, timestamp: '1.000001', name: 'eyes' }))).toEqual({
      error: 'missing_scope',
      needed: 'reactions:write',
      provided: 'chat:write,commands',
    });
    expect((await slackError(client.files.info({ file: 'F0000000001' }))).needed).toBe('files:read');
    expect((await slackError(client.users.info({ user: ALICE }))).needed).toBe('users:read');
    // The upload pair needs files:write although the 2020 spec gives them no hint.
    expect((await slackError(client.files.getUploadURLExternal({ filename: 'a.csv', length: 3 }))).needed).toBe(
      'files:write',
    );
    // Views and auth.test need none; chat.postMessage has chat:write.
    await client.auth.test();
    await client.chat.postMessage({ channel: CHANNEL, text: 'hello' });
  });

  it('asks for the history scope of the conversation’s kind: channels, groups or im', async () => {
    const { sandbox: running, client } = await start({ scopes: ['chat:write', 'channels:history'] });
    running.model.setBotMember(SECRET, true);
    await client.conversations.history({ channel: CHANNEL });
    expect((await slackError(client.conversations.history({ channel: SECRET }))).needed).toBe('groups:history');
    const dm = running.model.imChannel(ALICE).id;
    expect((await slackError(client.conversations.history({ channel: dm }))).needed).toBe('im:history');
    expect((await slackError(client.conversations.info({ channel: CHANNEL }))).needed).toBe('channels:read');
  });
});

describe('channel membership', () => {
  it('answers each method as its reference does when the bot is not in the channel', async () => {
    const { sandbox: running, client } = await start();
    const bodies = await recordingApp(running);
    const { ts, response } = await running.driver.postMessage(ALICE, OUTSIDE, 'a message the bot cannot see');
    // Slack sends no event from a channel the app is not in.
    expect(response.notDelivered).toContain('not a member of #outside');
    expect(bodies).toEqual([]);
    expect((await slackError(client.chat.postMessage({ channel: OUTSIDE, text: 'x' }))).error).toBe('not_in_channel');
    expect((await slackError(client.chat.postEphemeral({ channel: OUTSIDE, user: ALICE, text: 'x' }))).error).toBe(
      'not_in_channel',
    );
    expect((await slackError(client.chat.update({ channel: OUTSIDE, ts, text: 'x' }))).error).toBe('channel_not_found');
    expect((await slackError(client.reactions.add({ channel: OUTSIDE, timestamp: ts, name: 'eyes' }))).error).toBe(
      'channel_not_found',
    );
    expect((await slackError(client.conversations.history({ channel: OUTSIDE }))).error).toBe('not_in_channel');
    expect((await slackError(client.conversations.replies({ channel: OUTSIDE, ts }))).error).toBe('not_in_channel');
    expect(
      (await slackError(client.files.uploadV2({ channel_id: OUTSIDE, file: Buffer.from('a'), filename: 'a.txt' })))
        .error,
    ).toBe('not_in_channel');
    // A private channel the bot is not in does not exist for it.
    expect((await slackError(client.chat.postMessage({ channel: SECRET, text: 'x' }))).error).toBe('channel_not_found');
    expect(running.model.messages(OUTSIDE).map((m) => m.text)).toEqual(['a message the bot cannot see']);

    // A DM to the person is always open to the bot; an invitation opens the channel.
    await client.chat.postMessage({ channel: ALICE, text: 'Hello from Parley' });
    running.model.setBotMember(OUTSIDE, true);
    await client.chat.postMessage({ channel: OUTSIDE, text: 'Thanks for the invite' });
    await client.reactions.add({ channel: OUTSIDE, timestamp: ts, name: 'eyes' });
  });

  it('serves a file (files.info, url_private_download) only where the bot is a member', async () => {
    const { sandbox: running, client } = await start();
    await recordingApp(running);
    const shared = await running.driver.shareFile(ALICE, OUTSIDE, { name: 'q.xlsx', bytes: Buffer.from('xlsx') });
    expect((await slackError(client.files.info({ file: shared.fileId }))).error).toBe('file_not_found');
    const url = `${running.baseUrl}/files/${shared.fileId}/q.xlsx`;
    const download = () => fetch(url, { headers: { authorization: `Bearer ${running.botToken}` } });
    expect((await download()).status).toBe(403);

    running.model.setBotMember(OUTSIDE, true);
    const info = await client.files.info({ file: shared.fileId });
    expect(info.file?.url_private_download).toBe(url);
    const served = await download();
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).toString()).toBe('xlsx');
  });
});

describe('threads', () => {
  it('leaves an app post whose thread_ts names a reply off the parent’s thread, as Slack’s reference warns', async () => {
    const { sandbox: running, client } = await start();
    await recordingApp(running);
    const parent = await client.chat.postMessage({ channel: CHANNEL, text: 'Parent' });
    const reply = await running.driver.replyInThread(ALICE, CHANNEL, String(parent.ts), 'A reply');
    await client.chat.postMessage({ channel: CHANNEL, thread_ts: String(parent.ts), text: 'In the thread' });
    await client.chat.postMessage({ channel: CHANNEL, thread_ts: reply.ts, text: 'Pointed at the reply' });
    expect(running.model.thread(CHANNEL, String(parent.ts)).map((m) => m.text)).toEqual([
      'Parent',
      'A reply',
      'In the thread',
    ]);
    expect(running.model.message(CHANNEL, reply.ts)?.threadTs).toBe(parent.ts);
  });
});

describe('events as Slack sends them', () => {
  it('shares a file inside a thread: the message is the reply (ts) under the parent (thread_ts)', async () => {
    const { sandbox: running, client } = await start();
    const bodies = await recordingApp(running);
    const parent = await client.chat.postMessage({ channel: CHANNEL, text: 'Send me the quote here' });
    const shared = await running.driver.shareFileInThread(ALICE, CHANNEL, String(parent.ts), {
      name: 'q.xlsx',
      bytes: Buffer.from('xlsx'),
    });
    const message = bodies.find((b) => b.kind === 'message')?.body.event as Record<string, unknown>;
    expect(message).toMatchObject({ subtype: 'file_share', ts: shared.ts, thread_ts: parent.ts, channel: CHANNEL });
    expect(shared.ts).not.toBe(parent.ts);
    expect(bodies.find((b) => b.kind === 'file_shared')?.body.event).toMatchObject({
      channel_id: CHANNEL,
      file_id: shared.fileId,
    });
    const share = (await client.files.info({ file: shared.fileId })).file?.shares?.public?.[CHANNEL]?.[0];
    expect(share).toMatchObject({ ts: shared.ts, thread_ts: parent.ts });
  });

  it('sends a Slack Connect message with the host org’s team_id and the installation in context_team_id', async () => {
    const { sandbox: running } = await start();
    const bodies = await recordingApp(running);
    const posted = await running.driver.postMessage(GUEST, CONNECT, 'Here is our price list');
    expect(posted.response.status).toBe(200);
    const body = bodies.find((b) => b.kind === 'message')?.body;
    expect(body).toMatchObject({
      team_id: PARTNER_TEAM,
      context_team_id: 'T0SANDBOX1',
      is_ext_shared_channel: true,
      authorizations: [{ team_id: 'T0SANDBOX1', user_id: 'U0PARLEYBOT', is_bot: true }],
      event: { user: GUEST, user_team: PARTNER_TEAM, source_team: PARTNER_TEAM, team: PARTNER_TEAM },
    });
    // A click by the guest names the guest's own org in user.team_id.
    await running.driver.postMessage(ALICE, CHANNEL, 'not shared');
    expect(bodies.at(-1)?.body).toMatchObject({ team_id: 'T0SANDBOX1', is_ext_shared_channel: false });
  });

  it('names an external person’s org in an interaction’s user.team_id', async () => {
    const { sandbox: running, client } = await start();
    const bodies = await recordingApp(running);
    const { ts } = await client.chat.postMessage({
      channel: CONNECT,
      text: 'Confirm?',
      blocks: [
        {
          type: 'actions',
          elements: [{ type: 'button', action_id: 'confirm', text: { type: 'plain_text', text: 'Confirm' } }],
        },
      ],
    });
    await running.driver.clickButton(GUEST, { channel: CONNECT, ts: String(ts) }, 'confirm');
    expect(bodies.find((b) => b.kind === 'action')?.body).toMatchObject({
      user: { id: GUEST, team_id: PARTNER_TEAM },
      team: { id: 'T0SANDBOX1' },
    });
  });

  it('retries an event with the same event_id and the retry headers Bolt reads', async () => {
    const { sandbox: running } = await start();
    const bodies = await recordingApp(running);
    const reply = await running.driver.postMessage(ALICE, CHANNEL, 'Yes, split the order');
    const again = await running.driver.retryEvent(reply.response, { retryNum: 2, retryReason: 'http_error' });
    expect(again.request.headers['x-slack-retry-num']).toBe('2');
    const [first, second] = bodies.filter((b) => b.kind === 'message');
    expect(second?.body.event_id).toBe(first?.body.event_id);
    expect(second?.body.event).toEqual(first?.body.event);
    expect(second).toMatchObject({ retryNum: 2, retryReason: 'http_error' });
  });

  it('sends a DM as message.im, and only to an app that subscribes to it', async () => {
    const { sandbox: running } = await start({ botEvents: ['message.channels', 'message.im', 'file_shared'] });
    const bodies = await recordingApp(running);
    const dm = await running.driver.sendDirectMessage(ALICE, 'How do I start?');
    expect(dm.channel).toMatch(/^D/);
    expect(bodies.find((b) => b.kind === 'message')?.body.event).toMatchObject({
      type: 'message',
      channel: dm.channel,
      channel_type: 'im',
      user: ALICE,
      text: 'How do I start?',
    });

    await app?.stop();
    await running.close();
    const unsubscribed = await start({ botEvents: ['message.channels'] });
    const none = await recordingApp(unsubscribed.sandbox);
    const lost = await unsubscribed.sandbox.driver.sendDirectMessage(ALICE, 'Hello?');
    expect(lost.response.status).toBe(0);
    expect(lost.response.notDelivered).toContain('message.im');
    expect(none).toEqual([]);
  });

  it('sends the documented message-shortcut payload, and slash commands without any thread', async () => {
    const { sandbox: running, client } = await start();
    const bodies = await recordingApp(running);
    const parent = await client.chat.postMessage({ channel: CHANNEL, text: 'Thread' });
    const shared = await running.driver.shareFileInThread(ALICE, CHANNEL, String(parent.ts), {
      name: 'q.xlsx',
      bytes: Buffer.from('xlsx'),
    });
    await running.driver.messageShortcut(ALICE, { channel: CHANNEL, ts: shared.ts }, 'negotiate_quote');
    const shortcut = bodies.find((b) => b.kind === 'shortcut')?.body;
    expect(shortcut).toMatchObject({
      type: 'message_action',
      callback_id: 'negotiate_quote',
      trigger_id: expect.any(String),
      response_url: expect.any(String),
      message_ts: shared.ts,
      team: { id: 'T0SANDBOX1' },
      channel: { id: CHANNEL, name: 'sourcing' },
      user: { id: ALICE, team_id: 'T0SANDBOX1' },
      message: {
        user: ALICE,
        ts: shared.ts,
        thread_ts: parent.ts,
        files: [expect.objectContaining({ id: shared.fileId })],
      },
    });

    await running.driver.slashCommand(ALICE, CHANNEL, '/parley', 'negotiate');
    const command = bodies.find((b) => b.kind === 'command')?.body;
    expect(command).toMatchObject({ command: '/parley', text: 'negotiate', channel_id: CHANNEL });
    expect(Object.keys(command ?? {}).filter((key) => key.includes('thread'))).toEqual([]);
  });

  it('submits a modal’s file_input with the file object, which the app may read though it is shared nowhere', async () => {
    const { sandbox: running, client } = await start();
    const opened = await client.views.open({
      trigger_id: running.model.issueTrigger(ALICE),
      view: {
        type: 'modal',
        callback_id: 'catalog',
        title: { type: 'plain_text', text: 'Import catalog' },
        submit: { type: 'plain_text', text: 'Preview' },
        blocks: [
          {
            type: 'input',
            block_id: 'file',
            label: { type: 'plain_text', text: 'Catalog file' },
            element: { type: 'file_input', action_id: 'file_pick', filetypes: ['csv'], max_files: 1 },
          },
        ],
      },
    });
    const viewId = String(opened.view?.id);
    const bodies = await recordingApp(running);
    app?.view('catalog', async ({ ack, body }) => {
      await ack();
      bodies.push({ kind: 'view', body: { ...body } });
    });
    await expect(running.driver.submitView(ALICE, viewId, {})).rejects.toThrow(/required input file/);
    const fileId = running.driver.uploadInForm(ALICE, { name: 'catalog.csv', bytes: Buffer.from('sku,name\n') });
    await running.driver.submitView(ALICE, viewId, { file: [fileId] });
    const state = (bodies.find((b) => b.kind === 'view')?.body.view as { state: { values: unknown } }).state.values;
    expect(state).toMatchObject({
      file: { file_pick: { type: 'file_input', files: [{ id: fileId, name: 'catalog.csv', user: ALICE }] } },
    });
    expect((await client.files.info({ file: fileId })).file?.name).toBe('catalog.csv');
  });
});
