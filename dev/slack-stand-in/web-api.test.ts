// The sandbox's Web API through the real WebClient (@slack/web-api, via Bolt), as Parley will call it.
import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSlackSandbox, type SlackSandbox } from './index.js';
import { readManifest } from './scopes.js';

const { WebClient, WebAPIPlatformError, WebAPIRateLimitedError, WebAPIHTTPError, LogLevel } = webApi;

const ALICE = 'U0ALICE001';
const BOB = 'U0BOB00001';
const CHANNEL = 'C0SOURCING';

let sandbox: SlackSandbox;
let client: InstanceType<typeof WebClient>;

beforeEach(async () => {
  sandbox = await startSlackSandbox({
    // The manifest's scopes and the two read scopes these tests' users.info and conversations.info calls need.
    scopes: [...readManifest().scopes, 'users:read', 'channels:read'],
    users: [
      { id: ALICE, name: 'alice', realName: 'Alice Buyer' },
      { id: BOB, name: 'bob', realName: 'Bob Approver' },
    ],
    channels: [
      { id: CHANNEL, name: 'sourcing', members: [ALICE, BOB] },
      { id: 'C0ELSEWHER', name: 'elsewhere', members: [ALICE], botMember: false },
    ],
  });
  client = new WebClient(sandbox.botToken, {
    slackApiUrl: sandbox.apiUrl,
    retryConfig: { retries: 0 },
    logLevel: LogLevel.ERROR,
  });
});

afterEach(async () => {
  await sandbox.close();
});

async function slackError(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof WebAPIPlatformError) return error.data.error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('auth and dispatch', () => {
  it('answers auth.test with the bot identity', async () => {
    const auth = await client.auth.test();
    expect(auth).toMatchObject({ ok: true, user_id: 'U0PARLEYBOT', bot_id: 'B0PARLEYBOT', team_id: 'T0SANDBOX1' });
  });

  it('rejects a wrong token with invalid_auth and an unknown method with unknown_method', async () => {
    const stranger = new WebClient('xoxb-not-ours', { slackApiUrl: sandbox.apiUrl, retryConfig: { retries: 0 } });
    expect(await slackError(stranger.auth.test())).toBe('invalid_auth');
    expect(await slackError(client.apiCall('pins.fly'))).toBe('unknown_method');
  });

  it('checks required arguments the way Slack answers them', async () => {
    expect(await slackError(client.apiCall('chat.postMessage', { text: 'hi' }))).toBe('channel_not_found');
    expect(await slackError(client.apiCall('chat.postMessage', { channel: CHANNEL }))).toBe('no_text');
    expect(await slackError(client.apiCall('reactions.add', { channel: CHANNEL, timestamp: '1.000001' }))).toBe(
      'invalid_arguments',
    );
    expect(await slackError(client.chat.postMessage({ channel: 'C0NOSUCH01', text: 'x' }))).toBe('channel_not_found');
    expect(await slackError(client.chat.postMessage({ channel: 'C0ELSEWHER', text: 'x' }))).toBe('not_in_channel');
  });
});

describe('messages', () => {
  it('posts, threads, edits and keeps the edit history; ts strictly increase', async () => {
    const parent = await client.chat.postMessage({
      channel: CHANNEL,
      text: 'Reading the quotation…',
      blocks: [section('*Reading* the quotation…')],
    });
    expect(parent.ok).toBe(true);
    const reply = await client.chat.postMessage({
      channel: CHANNEL,
      thread_ts: parent.ts,
      text: 'Round 1',
      username: 'Brand negotiator',
      icon_emoji: ':handshake:',
    });
    expect(reply.message?.thread_ts).toBe(parent.ts);
    expect(Number(reply.ts)).toBeGreaterThan(Number(parent.ts));

    const edited = await client.chat.update({
      channel: CHANNEL,
      ts: String(parent.ts),
      text: 'Quotation read: 12 lines',
      blocks: [section('Quotation read: *12 lines*')],
    });
    expect(edited.ok).toBe(true);
    const stored = sandbox.model.message(CHANNEL, String(parent.ts));
    expect(stored?.text).toBe('Quotation read: 12 lines');
    expect(stored?.history.map((v) => v.text)).toEqual(['Reading the quotation…']);
    const thread = sandbox.model.thread(CHANNEL, String(parent.ts));
    expect(thread.map((m) => m.username)).toEqual([undefined, 'Brand negotiator']);

    expect(await slackError(client.chat.update({ channel: CHANNEL, ts: '1.000001', text: 'x' }))).toBe(
      'message_not_found',
    );
    expect(await slackError(client.chat.postMessage({ channel: CHANNEL, thread_ts: '9.000009', text: 'x' }))).toBe(
      'thread_not_found',
    );
  });

  it('keeps ephemerals per user, reactions, permalinks', async () => {
    const { ts } = await client.chat.postMessage({ channel: CHANNEL, text: 'Decision ready' });
    const eph = await client.chat.postEphemeral({ channel: CHANNEL, user: BOB, text: 'Only approvers may approve' });
    expect(eph.message_ts).toMatch(/^\d+\.\d{6}$/);
    expect(sandbox.model.ephemerals(BOB).map((e) => e.text)).toEqual(['Only approvers may approve']);
    expect(sandbox.model.ephemerals(ALICE)).toEqual([]);
    expect(await slackError(client.chat.postEphemeral({ channel: CHANNEL, user: 'U0NOBODY01', text: 'x' }))).toBe(
      'user_not_found',
    );

    await client.reactions.add({ channel: CHANNEL, timestamp: String(ts), name: 'eyes' });
    expect(sandbox.model.reactions(CHANNEL, String(ts))).toEqual([{ name: 'eyes', users: ['U0PARLEYBOT'] }]);
    expect(await slackError(client.reactions.add({ channel: CHANNEL, timestamp: String(ts), name: 'eyes' }))).toBe(
      'already_reacted',
    );

    const link = await client.chat.getPermalink({ channel: CHANNEL, message_ts: String(ts) });
    expect(link.permalink).toBe(`https://sandbox.slack.com/archives/${CHANNEL}/p${String(ts).replace('.', '')}`);
  });

  it('rejects blocks over Block Kit limits with invalid_blocks, as Slack does', async () => {
    const tooLong = section('x'.repeat(3001));
    expect(await slackError(client.chat.postMessage({ channel: CHANNEL, text: 'long', blocks: [tooLong] }))).toBe(
      'invalid_blocks',
    );
    const tooMany = Array.from({ length: 51 }, (_, i) => section(`line ${i}`));
    expect(await slackError(client.chat.postMessage({ channel: CHANNEL, text: 'many', blocks: tooMany }))).toBe(
      'invalid_blocks',
    );
    expect(sandbox.model.messages(CHANNEL)).toEqual([]);
  });

  it('pages conversations.replies and history, returning metadata only when asked', async () => {
    const root = await client.chat.postMessage({
      channel: CHANNEL,
      text: 'status',
      metadata: { event_type: 'parley_status', event_payload: { negotiation: 'neg-1' } },
    });
    for (let i = 1; i <= 4; i += 1) {
      await client.chat.postMessage({
        channel: CHANNEL,
        thread_ts: String(root.ts),
        text: `turn ${i}`,
        metadata: { event_type: 'parley_turn', event_payload: { turn: i } },
      });
    }
    const first = await client.conversations.replies({
      channel: CHANNEL,
      ts: String(root.ts),
      limit: 3,
      include_all_metadata: true,
    });
    expect(first.messages?.map((m) => m.text)).toEqual(['status', 'turn 1', 'turn 2']);
    expect(first.has_more).toBe(true);
    expect(first.messages?.[1]?.metadata).toEqual({ event_type: 'parley_turn', event_payload: { turn: 1 } });
    const second = await client.conversations.replies({
      channel: CHANNEL,
      ts: String(root.ts),
      limit: 3,
      cursor: first.response_metadata?.next_cursor,
    });
    expect(second.messages?.map((m) => m.text)).toEqual(['turn 3', 'turn 4']);
    expect(second.has_more).toBe(false);
    expect(second.messages?.[0]?.metadata).toBeUndefined();

    await client.chat.postMessage({ channel: CHANNEL, text: 'another top-level' });
    const history = await client.conversations.history({ channel: CHANNEL, limit: 1, include_all_metadata: true });
    expect(history.messages?.map((m) => m.text)).toEqual(['another top-level']);
    const older = await client.conversations.history({
      channel: CHANNEL,
      limit: 5,
      cursor: history.response_metadata?.next_cursor,
      include_all_metadata: true,
    });
    expect(older.messages?.map((m) => m.text)).toEqual(['status']);
    expect(older.messages?.[0]?.reply_count).toBe(4);
    expect(older.messages?.[0]?.metadata?.event_type).toBe('parley_status');
  });

  it('answers users.info and conversations.info', async () => {
    const user = await client.users.info({ user: ALICE });
    expect(user.user).toMatchObject({ id: ALICE, name: 'alice', real_name: 'Alice Buyer' });
    const info = await client.conversations.info({ channel: CHANNEL });
    expect(info.channel).toMatchObject({ id: CHANNEL, name: 'sourcing', is_member: true, is_private: false });
    expect(await slackError(client.users.info({ user: 'U0NOBODY01' }))).toBe('user_not_found');
  });
});

describe('files', () => {
  it('uploads with files.uploadV2 into a thread, then serves the bytes to the bot token only', async () => {
    const root = await client.chat.postMessage({ channel: CHANNEL, text: 'PO ready' });
    const bytes = Buffer.from('PK\u0003\u0004 fake xlsx bytes');
    const upload = await client.files.uploadV2({
      channel_id: CHANNEL,
      thread_ts: String(root.ts),
      file: bytes,
      filename: 'PO-0001.xlsx',
      title: 'Purchase order',
      initial_comment: 'The purchase order',
    });
    expect(upload.ok).toBe(true);
    const thread = sandbox.model.thread(CHANNEL, String(root.ts));
    expect(thread.map((m) => m.text)).toEqual(['PO ready', 'The purchase order']);
    const fileId = thread[1]?.fileIds[0] ?? '';

    const info = await client.files.info({ file: fileId });
    expect(info.file).toMatchObject({
      name: 'PO-0001.xlsx',
      title: 'Purchase order',
      filetype: 'xlsx',
      size: bytes.length,
    });
    const shares = info.file?.shares?.public?.[CHANNEL];
    expect(shares?.[0]).toMatchObject({ thread_ts: root.ts });

    const url = String(info.file?.url_private_download);
    const download = await fetch(url, { headers: { authorization: `Bearer ${sandbox.botToken}` } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
    expect((await fetch(url)).status).toBe(403);
    expect(await slackError(client.files.info({ file: 'F0NOSUCH01' }))).toBe('file_not_found');
  });

  it('answers completeUploadExternal with { id, title }, or with the whole file and its share when asked', async () => {
    // uploadV2 answers with one completeUploadExternal answer per file.
    const answer = z.object({ files: z.array(z.object({ files: z.array(z.json()) })) });
    const upload = async () =>
      answer.parse(await client.files.uploadV2({ channel_id: CHANNEL, file: Buffer.from('a,b\n'), filename: 'a.csv' }))
        .files[0]?.files;
    expect(await upload()).toEqual([{ id: expect.stringMatching(/^F/), title: 'a.csv' }]);

    await sandbox.close();
    sandbox = await startSlackSandbox({ channels: [{ id: CHANNEL, name: 'sourcing' }], uploadAnswerNamesShare: true });
    client = new WebClient(sandbox.botToken, { slackApiUrl: sandbox.apiUrl, retryConfig: { retries: 0 } });
    const full = await upload();
    const share = sandbox.model.messages(CHANNEL)[0];
    expect(full).toEqual([
      expect.objectContaining({
        name: 'a.csv',
        shares: { public: { [CHANNEL]: [expect.objectContaining({ ts: share?.ts })] } },
      }),
    ]);
  });
});

describe('views', () => {
  const modal = (title: string, extra: Record<string, unknown> = {}) => ({
    type: 'modal' as const,
    title: { type: 'plain_text' as const, text: title },
    blocks: [section('Approve this purchase order?')],
    ...extra,
  });

  it('opens with a fresh trigger once, updates with the hash, pushes, and publishes a home tab', async () => {
    const trigger = sandbox.model.issueTrigger(BOB);
    const opened = await client.views.open({ trigger_id: trigger, view: modal('Approve PO', { external_id: 'po-1' }) });
    const viewId = String(opened.view?.id);
    expect(sandbox.model.openViews(BOB).map((v) => v.id)).toEqual([viewId]);
    expect(await slackError(client.views.open({ trigger_id: trigger, view: modal('Again') }))).toBe(
      'exchanged_trigger_id',
    );
    expect(await slackError(client.views.open({ trigger_id: '123.456.nope', view: modal('Again') }))).toBe(
      'expired_trigger_id',
    );

    const updated = await client.views.update({
      view_id: viewId,
      hash: opened.view?.hash,
      view: modal('Approve PO 2'),
    });
    expect(updated.view?.title?.text).toBe('Approve PO 2');
    expect(await slackError(client.views.update({ view_id: viewId, hash: opened.view?.hash, view: modal('x') }))).toBe(
      'hash_conflict',
    );
    await client.views.update({ external_id: 'po-1', view: modal('By external id') });
    expect(sandbox.model.view(viewId)?.view.title).toEqual({ type: 'plain_text', text: 'By external id' });

    const pushed = await client.views.push({ trigger_id: sandbox.model.issueTrigger(BOB), view: modal('Reason') });
    expect(sandbox.model.openViews(BOB).map((v) => v.id)).toEqual([viewId, String(pushed.view?.id)]);
    expect(pushed.view?.previous_view_id).toBe(viewId);

    await client.views.publish({
      user_id: ALICE,
      view: { type: 'home', blocks: [section('Your active negotiations')] },
    });
    expect(sandbox.model.home(ALICE)?.view.blocks).toMatchObject([section('Your active negotiations')]);
  });

  it('expires triggers after the TTL and rejects over-limit modals', async () => {
    let now = 1_700_000_000_000;
    await sandbox.close();
    sandbox = await startSlackSandbox({ users: [{ id: BOB, name: 'bob' }], clock: () => now });
    client = new WebClient(sandbox.botToken, { slackApiUrl: sandbox.apiUrl, retryConfig: { retries: 0 } });
    const stale = sandbox.model.issueTrigger(BOB);
    now += 3001;
    expect(await slackError(client.views.open({ trigger_id: stale, view: modal('Late') }))).toBe('expired_trigger_id');
    const longTitle = modal('A title far longer than twenty-four characters');
    expect(await slackError(client.views.open({ trigger_id: sandbox.model.issueTrigger(BOB), view: longTitle }))).toBe(
      'invalid_blocks',
    );
  });
});

describe('faults', () => {
  it('answers 429 with Retry-After, which the client sees, then recovers', async () => {
    sandbox.faults.set('chat.postMessage', { status: 429, retryAfterSeconds: 7 }, { times: 1 });
    const strict = new WebClient(sandbox.botToken, {
      slackApiUrl: sandbox.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    const error = await strict.chat.postMessage({ channel: CHANNEL, text: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebAPIRateLimitedError);
    expect(error instanceof WebAPIRateLimitedError && error.retryAfter).toBe(7);
    const ok = await strict.chat.postMessage({ channel: CHANNEL, text: 'x' });
    expect(ok.ok).toBe(true);
    const calls = sandbox.model.callsTo('chat.postMessage');
    expect(calls.map((c) => [c.status, c.fault])).toEqual([
      [429, '429 retry-after 7s'],
      [200, undefined],
    ]);
  });

  it('answers 500 for every method with "*", until cleared', async () => {
    sandbox.faults.set('*', { status: 500 });
    const error = await client.auth.test().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebAPIHTTPError);
    expect(error instanceof WebAPIHTTPError && error.statusCode).toBe(500);
    sandbox.faults.clear();
    expect((await client.auth.test()).ok).toBe(true);
  });

  it('lists a hanging call from its arrival; it takes effect last by default, at once with "first", or never', async () => {
    const posted = () => sandbox.model.messages(CHANNEL).map((m) => m.text);
    const callOf = (text: string) => sandbox.model.callsTo('chat.postMessage').find((c) => c.args.text === text);
    const hang = (text: string, apply?: 'first' | 'last' | 'never') => {
      sandbox.faults.set('chat.postMessage', { hangMs: 300, apply }, { times: 1 });
      const answered = client.chat.postMessage({ channel: CHANNEL, text }).then(
        (answer) => answer.ok,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      return { answered, arrived: sandbox.waitFor(() => callOf(text), { what: `the ${text} call` }) };
    };

    const late = hang('late');
    expect(await late.arrived).toMatchObject({ status: 0, ok: false, fault: 'hang 300ms' });
    expect(posted()).toEqual([]);
    expect(await late.answered).toBe(true);
    expect(posted()).toEqual(['late']);
    const done = callOf('late');
    expect(done).toMatchObject({ status: 200, ok: true });
    expect((done?.doneAtMs ?? 0) - (done?.atMs ?? Infinity)).toBeGreaterThanOrEqual(290);

    const early = hang('early', 'first');
    expect(await early.arrived).toMatchObject({ status: 0, fault: 'hang 300ms, applied at once' });
    expect(posted()).toEqual(['late', 'early']);
    expect(await early.answered).toBe(true);

    const lost = hang('lost', 'never');
    await lost.arrived;
    expect(await lost.answered).not.toBe(true);
    expect(posted()).toEqual(['late', 'early']);
    expect(callOf('lost')).toMatchObject({ status: 0, ok: false, fault: 'hang 300ms, never applied' });
    expect(callOf('lost')?.doneAtMs).toBeDefined();
  });

  it('delays an answer with hangMs and can fail with a Slack error code', async () => {
    sandbox.faults.set('users.info', { hangMs: 150 }, { times: 1 });
    const started = performance.now();
    await client.users.info({ user: ALICE });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    sandbox.faults.set('chat.update', { error: 'ratelimited' }, { times: 1 });
    expect(await slackError(client.chat.update({ channel: CHANNEL, ts: '1.000001', text: 'x' }))).toBe('ratelimited');
  });
});

describe('assistant.threads.setStatus', () => {
  it('shows a status under a thread, clears it on an empty status or the app’s next reply, and records each change', async () => {
    const parent = await client.chat.postMessage({ channel: CHANNEL, text: 'quotation.xlsx' });
    const threadTs = z.string().parse(parent.ts);
    const key = `${CHANNEL}:${threadTs}`;
    await client.assistant.threads.setStatus({ channel_id: CHANNEL, thread_ts: threadTs, status: 'is thinking…' });
    expect(sandbox.model.threadStatus.get(key)).toBe('is thinking…');
    await client.assistant.threads.setStatus({ channel_id: CHANNEL, thread_ts: threadTs, status: '' });
    expect(sandbox.model.threadStatus.has(key)).toBe(false);
    await client.assistant.threads.setStatus({ channel_id: CHANNEL, thread_ts: threadTs, status: 'again' });
    await client.chat.postMessage({ channel: CHANNEL, thread_ts: threadTs, text: 'the reply' });
    expect(sandbox.model.threadStatus.has(key)).toBe(false);
    expect(sandbox.model.threadStatusLog.map((s) => s.status)).toEqual(['is thinking…', '', 'again']);
    // Not a message: the thread holds the parent and the one reply only.
    expect(sandbox.model.thread(CHANNEL, threadTs)).toHaveLength(2);
  });

  it('refuses an unknown thread, a channel the bot is not in, and more than 10 loading messages', async () => {
    const parent = await client.chat.postMessage({ channel: CHANNEL, text: 'quotation.xlsx' });
    const threadTs = z.string().parse(parent.ts);
    expect(
      await slackError(client.assistant.threads.setStatus({ channel_id: CHANNEL, thread_ts: '1.000009', status: 'x' })),
    ).toBe('invalid_thread_ts');
    expect(
      await slackError(
        client.assistant.threads.setStatus({ channel_id: 'C0ELSEWHER', thread_ts: threadTs, status: 'x' }),
      ),
    ).toBe('channel_not_found');
    const loading = Array.from({ length: 11 }, (_, i) => `step ${i}`);
    expect(
      await slackError(
        client.assistant.threads.setStatus({
          channel_id: CHANNEL,
          thread_ts: threadTs,
          status: 'x',
          loading_messages: loading,
        }),
      ),
    ).toBe('invalid_arguments');
    expect(sandbox.model.threadStatusLog).toEqual([]);
  });

  it('needs chat:write or assistant:write', async () => {
    await sandbox.close();
    sandbox = await startSlackSandbox({
      scopes: ['assistant:write'],
      users: [{ id: ALICE, name: 'alice', realName: 'Alice Buyer' }],
      channels: [{ id: CHANNEL, name: 'sourcing', members: [ALICE] }],
    });
    const narrow = new WebClient(sandbox.botToken, { slackApiUrl: sandbox.apiUrl, retryConfig: { retries: 0 } });
    // chat:write missing: the post is refused, while assistant:write still allows the status.
    expect(await slackError(narrow.chat.postMessage({ channel: CHANNEL, text: 'x' }))).toBe('missing_scope');
    expect(
      await slackError(narrow.assistant.threads.setStatus({ channel_id: CHANNEL, thread_ts: '1.1', status: 'x' })),
    ).toBe('invalid_thread_ts');
  });
});
