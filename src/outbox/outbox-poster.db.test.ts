// The poster against a real database (PGlite, or PostgreSQL with DATABASE_URL) and the real WebClient, built as the
// app builds it, pointed at the project's Slack stand-in (dev/slack-stand-in/): it checks arguments the way Slack does,
// lists every call from its arrival, and plays scripted faults — 429 with Retry-After, 5xx, ok:false, and answers that
// hang while the call takes effect at once, late or never.
import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import { LogLevel, webApi } from '@slack/bolt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { env } from '../config/env.js';
import { scopeToWorkspace, type WorkspaceDb } from '../db/scoped.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import {
  createFile,
  createMessage,
  type SandboxMessage,
  type SlackSandbox,
  type SlackSandboxOptions,
  startSlackSandbox,
} from '../../dev/slack-stand-in/index.js';
import { enqueueSlackCall, enqueueSlackCalls, sentTs } from './enqueue-slack-call.js';
import { OUTBOX_EVENT_TYPE, type OutboxCall } from './outbox-call.js';
import {
  createOutboxPoster,
  type OutboxLog,
  type OutboxPoster,
  type OutboxPosterOptions,
  OutboxDrainTimeoutError,
} from './outbox-poster.js';
import { countingOperations } from '../../test/support/counting-operations.js';

interface LogEntry {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

const post = (dedupeKey: string, channelId = 'C1', extra: Partial<OutboxCall> = {}): OutboxCall => ({
  dedupeKey,
  method: 'chat.postMessage',
  channelId,
  payload: { text: dedupeKey },
  ...extra,
});

const outboxKey = (key: string) => ({ event_type: OUTBOX_EVENT_TYPE, event_payload: { key } });

/** The stand-in answers only for people and channels it knows, with the bot a member: each test uses its own channel. */
const PEOPLE = ['U1', 'U2', 'U9'];
const CHANNELS =
  'C1 CA CB CC CD CE CE1 CE2 CF CG CJ CK CL CM CM2 CN CO CP1 CP2 CP3 CQ CR CS CT CU CV CW CX CY CZ CH1 CH2 CH3 CH4 CH5 CH6 CS1 CS2 CQ2'.split(
    ' ',
  );

describe('outbox poster', () => {
  let db: TestDatabase;
  let ws: WorkspaceDb;
  let slack: SlackSandbox;
  let client: webApi.WebClient;
  let logs: LogEntry[];
  let posters: OutboxPoster[];

  const capture: OutboxLog = {
    debug: (message, fields = {}) => logs.push({ level: 'debug', message, fields }),
    info: (message, fields = {}) => logs.push({ level: 'info', message, fields }),
    warn: (message, fields = {}) => logs.push({ level: 'warn', message, fields }),
    error: (message, fields = {}) => logs.push({ level: 'error', message, fields }),
  };

  function poster(options: Partial<OutboxPosterOptions> = {}): OutboxPoster {
    const created = createOutboxPoster({
      prisma: db.prisma,
      clientFor: () => client,
      owner: 'test',
      postIntervalMs: 50,
      recheckMs: 20,
      backoffBaseMs: 30,
      log: capture,
      ...options,
    });
    posters.push(created);
    return created;
  }

  async function startSlack(options: SlackSandboxOptions = {}): Promise<void> {
    slack = await startSlackSandbox({
      users: PEOPLE.map((id) => ({ id, name: id.toLowerCase() })),
      channels: CHANNELS.map((id) => ({ id, name: id.toLowerCase(), members: PEOPLE })),
      ...options,
    });
    client = new webApi.WebClient(slack.botToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      logLevel: LogLevel.ERROR,
    });
  }

  const row = (dedupeKey: string) => ws.slackOutbox.findFirstOrThrow({ where: { dedupeKey } });
  const messages = (channel: string) => slack.model.messages(channel);
  const texts = (channel: string) => messages(channel).map((message) => message.text);
  const callsTo = (method: string) => slack.model.callsTo(method);
  /** Every reaction in the workspace, one entry per message, name and person who reacted. */
  const reactions = () =>
    [...slack.model.channels.keys()].flatMap((channel) =>
      messages(channel).flatMap((message) =>
        message.reactions.flatMap(({ name, users }) => users.map(() => ({ channel, timestamp: message.ts, name }))),
      ),
    );
  /** A message an earlier process of the app posted: put straight into the workspace, so no call of this test. */
  const earlierPost = (channel: string, fields: Partial<SandboxMessage>): SandboxMessage =>
    slack.model.addMessage(
      createMessage({
        channel,
        ts: slack.model.nextTs(),
        user: slack.model.botUserId,
        botId: slack.model.botId,
        text: '',
        postedAt: slack.model.clock(),
        ...fields,
      }),
    );
  const filesOf = (message: SandboxMessage | undefined) =>
    (message?.fileIds ?? []).flatMap((id) => slack.model.file(id) ?? []);

  beforeAll(async () => {
    db = await createTestDatabase();
    const workspace = await db.prisma.workspace.create({
      data: { slackTeamId: 'T1', name: 'Valden', brandName: 'Valden Outdoor' },
    });
    ws = scopeToWorkspace(db.prisma, workspace.id);
  });
  afterAll(async () => {
    await db.destroy();
  });
  beforeEach(async () => {
    await db.prisma.slackOutbox.deleteMany();
    await startSlack();
    logs = [];
    posters = [];
  });
  afterEach(async () => {
    await Promise.all(posters.map((p) => p.stop()));
    await slack.close();
  });

  it('runs on the backend the environment asks for', () => {
    expect(db.kind).toBe(env.DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('posts, threads replies under the post and edits it, in order, recording each ts', async () => {
    await enqueueSlackCalls(ws, [
      post('card'),
      post('reply-1', 'C1', { threadOf: 'card' }),
      { dedupeKey: 'card-v2', method: 'chat.update', channelId: 'C1', updateOf: 'card', payload: { text: 'card v2' } },
      post('reply-2', 'C1', { threadOf: 'card' }),
      { dedupeKey: 'seen', method: 'reactions.add', channelId: 'C1', updateOf: 'card', payload: { name: 'eyes' } },
    ]);
    await poster().drain(10_000);

    const cardTs = await sentTs(ws, 'card');
    expect(cardTs).toMatch(/^\d+\.\d{6}$/);
    expect(slack.model.calls.map((call) => call.method)).toEqual([
      'chat.postMessage',
      'chat.postMessage',
      'chat.update',
      'chat.postMessage',
      'reactions.add',
    ]);
    const [card, reply1, reply2] = messages('C1');
    // Edited once: the first version is kept in its history.
    expect(card).toMatchObject({ ts: cardTs, text: 'card v2', history: [{ text: 'card' }] });
    // Its post's key kept (what a resend check of the post looks for), and the edit named (what a retried edit looks for).
    expect(card?.metadata).toEqual({ event_type: OUTBOX_EVENT_TYPE, event_payload: { key: 'card', edit: 'card-v2' } });
    expect(reply1).toMatchObject({ text: 'reply-1', threadTs: cardTs });
    expect(reply2).toMatchObject({ text: 'reply-2', threadTs: cardTs });
    expect(reactions()).toEqual([{ channel: 'C1', timestamp: cardTs, name: 'eyes' }]);
    expect(await row('reply-1')).toMatchObject({ status: 'sent', threadTs: cardTs, resultTs: reply1?.ts, attempts: 1 });
    expect((await row('card-v2')).resultTs).toBe(cardTs);
    expect((await row('reply-2')).sentAt).toBeInstanceOf(Date);
    expect(await ws.slackOutbox.count({ where: { status: { not: 'sent' } } })).toBe(0);
  });

  it('paces posts per channel from the last recorded send, while channels proceed in parallel', async () => {
    const interval = 300;
    await enqueueSlackCalls(ws, [
      ...['a1', 'a2', 'a3'].map((key) => post(key, 'CA')),
      ...['b1', 'b2', 'b3'].map((key) => post(key, 'CB')),
    ]);
    await poster({ postIntervalMs: interval }).drain(10_000);

    const arrivals = (channel: string) => slack.model.callsTo('chat.postMessage', { channel }).map((call) => call.atMs);
    for (const channel of ['CA', 'CB']) {
      const at = arrivals(channel);
      expect(at).toHaveLength(3);
      const gaps = at.slice(1).map((time, i) => time - (at[i] ?? Infinity));
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(interval - 5);
    }
    expect(texts('CA')).toEqual(['a1', 'a2', 'a3']);
    expect(texts('CB')).toEqual(['b1', 'b2', 'b3']);
    // In parallel: the second channel did not wait for the first one's three posts.
    expect(Math.abs((arrivals('CA')[0] ?? 0) - (arrivals('CB')[0] ?? Infinity))).toBeLessThan(interval);
  });

  it('pacing holds across instances: a new poster waits for the previous post another one recorded', async () => {
    const interval = 400;
    await enqueueSlackCall(ws, post('x1', 'CX'));
    await poster({ postIntervalMs: interval, owner: 'one' }).drain(5_000);
    await enqueueSlackCall(ws, post('x2', 'CX'));
    const second = poster({ postIntervalMs: interval, owner: 'two' });
    await second.drain(5_000);
    const [first, next] = callsTo('chat.postMessage').map((call) => call.atMs);
    expect((next ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(interval - 5);
  });

  it('honours a 429 Retry-After, keeps the channel waiting, and the message arrives once', async () => {
    slack.faults.set('chat.postMessage', { status: 429, retryAfterSeconds: 1 }, { times: 1 });
    await enqueueSlackCalls(ws, [post('limited', 'CR'), post('after', 'CR')]);
    await poster().drain(10_000);

    const calls = callsTo('chat.postMessage');
    expect(calls.map((call) => [call.args.text, call.fault])).toEqual([
      ['limited', '429 retry-after 1s'],
      ['limited', undefined],
      ['after', undefined],
    ]);
    expect((calls[1]?.atMs ?? 0) - (calls[0]?.atMs ?? 0)).toBeGreaterThanOrEqual(990);
    expect(texts('CR')).toEqual(['limited', 'after']);
    // A 429 proves nothing was posted: it is not an attempt, and no lookup is needed.
    expect((await row('limited')).attempts).toBe(1);
    expect(callsTo('conversations.history')).toHaveLength(0);
  });

  it('retries a 5xx with backoff, looks before re-posting, and succeeds once', async () => {
    slack.faults.set('chat.postMessage', { status: 503 }, { times: 2 });
    await enqueueSlackCall(ws, post('flaky', 'CF'));
    await poster().drain(10_000);

    expect(callsTo('chat.postMessage').map((call) => call.fault)).toEqual(['503', '503', undefined]);
    expect(callsTo('conversations.history')).toHaveLength(2);
    expect(texts('CF')).toEqual(['flaky']);
    expect(await row('flaky')).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(logs.filter((entry) => entry.level === 'warn' && entry.message.includes('retried'))).toHaveLength(2);
  });

  it('gives up after maxAttempts and does not block the channel', async () => {
    slack.faults.set('chat.postMessage', { status: 500 }, { times: 10, when: (args) => args.text === 'doomed' });
    await enqueueSlackCalls(ws, [post('doomed', 'CD'), post('next', 'CD')]);
    await poster({ maxAttempts: 3 }).drain(10_000);

    expect(callsTo('chat.postMessage').filter((call) => call.args.text === 'doomed')).toHaveLength(3);
    expect(await row('doomed')).toMatchObject({ status: 'failed', attempts: 3 });
    expect((await row('doomed')).lastError).toMatch(/gave up after 3 attempts: HTTP 500/);
    expect(texts('CD')).toEqual(['next']);
  });

  it('fails an ok:false call at once, logs it with the row id, and sends the next row; dependants fail clearly', async () => {
    slack.faults.set(
      'chat.postMessage',
      { error: 'invalid_blocks' },
      { times: 1, when: (args) => args.text === 'broken' },
    );
    await enqueueSlackCalls(ws, [
      post('broken', 'CE'),
      post('fine', 'CE'),
      post('reply-to-broken', 'CE', { threadOf: 'broken' }),
      { dedupeKey: 'edit-broken', method: 'chat.update', channelId: 'CE', updateOf: 'broken', payload: { text: 'x' } },
    ]);
    await poster().drain(10_000);

    const broken = await row('broken');
    expect(broken).toMatchObject({ status: 'failed', attempts: 1, lastError: 'Slack error invalid_blocks' });
    expect(texts('CE')).toEqual(['fine']);
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'error', fields: expect.objectContaining({ rowId: broken.id }) }),
    );
    expect(await row('reply-to-broken')).toMatchObject({
      status: 'failed',
      lastError: 'threadOf broken failed: Slack error invalid_blocks',
    });
    expect((await row('edit-broken')).lastError).toBe('updateOf broken failed: Slack error invalid_blocks');
    expect(callsTo('chat.update')).toHaveLength(0);
  });

  it('a row that meets a 429, then a 500, then ok:false fails, and the rows behind it follow in order', async () => {
    slack.faults.set('chat.postMessage', { status: 429, retryAfterSeconds: 1 }, { times: 1 });
    slack.faults.set('chat.postMessage', { status: 500 }, { times: 1 });
    slack.faults.set('chat.postMessage', { error: 'invalid_blocks' }, { times: 1 });
    await enqueueSlackCalls(ws, [post('m1', 'CY'), post('m2', 'CY'), post('m3', 'CY')]);
    await poster().drain(10_000);

    expect(await row('m1')).toMatchObject({ status: 'failed', lastError: 'Slack error invalid_blocks' });
    expect(texts('CY')).toEqual(['m2', 'm3']);
    const calls = callsTo('chat.postMessage');
    expect((calls[1]?.atMs ?? 0) - (calls[0]?.atMs ?? Infinity)).toBeGreaterThanOrEqual(990);
  });

  it('two posters on one database send 30 rows exactly once each, in order per channel', async () => {
    const channels = ['CP1', 'CP2', 'CP3'];
    const calls = Array.from({ length: 30 }, (_, i) => post(`multi:${i}`, channels[i % 3]));
    await enqueueSlackCalls(ws, calls.slice(0, 15));
    const sentBy = new Map<string, string>();
    const make = (owner: string) =>
      poster({ owner, postIntervalMs: 20, onSent: (sent) => void sentBy.set(sent.dedupeKey, owner) });
    const [one, two] = [make('one'), make('two')];
    // In lockstep first: both read the same three lane heads; the conditional claim lets each go out once.
    const firstPass = await Promise.all([one.drainOnce(), two.drainOnce()]);
    expect(firstPass[0] + firstPass[1]).toBe(3);
    expect(callsTo('chat.postMessage')).toHaveLength(3);
    const draining = Promise.all([one.drain(30_000), two.drain(30_000)]);
    await enqueueSlackCalls(ws, calls.slice(15));
    await draining;
    await Promise.all([one.drain(30_000), two.drain(30_000)]);

    expect(callsTo('chat.postMessage')).toHaveLength(30);
    expect(sentBy.size).toBe(30);
    for (const [index, channel] of channels.entries()) {
      const expected = calls.filter((_, i) => i % 3 === index).map((call) => call.dedupeKey);
      expect(texts(channel)).toEqual(expected);
    }
    expect(await ws.slackOutbox.count({ where: { status: 'sent' } })).toBe(30);
  });

  it('after a crash, records the message an expired sending row already posted instead of posting again', async () => {
    const seeded = earlierPost('CC', { text: 'posted before the crash', metadata: outboxKey('crash:1') });
    earlierPost('CC', { text: 'another row', metadata: outboxKey('crash:0') });
    await enqueueSlackCall(ws, post('crash:1', 'CC'));
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: 'crash:1' },
      data: { status: 'sending', attempts: 1, lockedBy: 'dead#1', lockedUntil: new Date(Date.now() - 1_000) },
    });
    const recovered: boolean[] = [];
    await poster({ onSent: (_, result) => void recovered.push(result.recovered) }).drain(5_000);

    expect(callsTo('chat.postMessage')).toHaveLength(0);
    expect(callsTo('conversations.history')).toHaveLength(1);
    expect(callsTo('conversations.history')[0]?.args.include_all_metadata).toBe('true');
    expect(await row('crash:1')).toMatchObject({ status: 'sent', resultTs: seeded.ts, attempts: 2, lockedBy: null });
    expect(recovered).toEqual([true]);
  });

  it('after a crash inside a thread, looks in the thread and finds the reply', async () => {
    const parent = earlierPost('CT', { text: 'parent' });
    const reply = earlierPost('CT', { text: 'reply', threadTs: parent.ts, metadata: outboxKey('thread:reply') });
    await enqueueSlackCalls(ws, [
      post('thread:parent', 'CT'),
      post('thread:reply', 'CT', { threadOf: 'thread:parent' }),
    ]);
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: 'thread:parent' },
      data: { status: 'sent', resultTs: parent.ts, sentAt: new Date(Date.now() - 5_000) },
    });
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: 'thread:reply' },
      data: { status: 'sending', attempts: 1, lockedBy: 'dead#2', lockedUntil: new Date(Date.now() - 1) },
    });
    await poster().drain(5_000);

    expect(callsTo('chat.postMessage')).toHaveLength(0);
    expect(callsTo('conversations.replies')[0]?.args.ts).toBe(parent.ts);
    expect(await row('thread:reply')).toMatchObject({ status: 'sent', resultTs: reply.ts, threadTs: parent.ts });
  });

  /**
   * A long thread: `before` replies by people, then the reply an earlier attempt of `key` posted, then `after` more.
   * Its parent is recorded as the lane's previous post, sent before the reply's row was ever claimed.
   */
  async function longThread(channel: string, key: string, before: number, after: number) {
    const parent = earlierPost(channel, { text: 'parent' });
    const chatter = (n: number) => {
      for (let i = 0; i < n; i++) {
        earlierPost(channel, { text: `chatter ${i}`, threadTs: parent.ts, user: 'U1', botId: undefined });
      }
    };
    chatter(before);
    const reply = earlierPost(channel, { text: 'reply', threadTs: parent.ts, metadata: outboxKey(key) });
    chatter(after);
    await enqueueSlackCalls(ws, [post(`${key}:parent`, channel), post(key, channel, { threadOf: `${key}:parent` })]);
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: `${key}:parent` },
      data: { status: 'sent', resultTs: parent.ts, sentAt: new Date(Date.now() - 5_000) },
    });
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: key },
      data: { status: 'sending', attempts: 1, lockedBy: 'dead#9', lockedUntil: new Date(Date.now() - 1) },
    });
    return { parent, reply };
  }

  it('the resend check asks only after the previous post, in pages as large as Slack allows, and stops at the match', async () => {
    // Page one (999 messages) holds only people's replies, page two the match, and a third page follows it.
    const { parent, reply } = await longThread('CH1', 'long:reply', 1_200, 1_500);
    await poster().drain(10_000);

    const lookups = callsTo('conversations.replies');
    expect(lookups).toHaveLength(2);
    expect(lookups[0]?.args).toMatchObject({ ts: parent.ts, oldest: parent.ts, limit: '999' });
    expect(lookups[1]?.args.cursor).toBeTruthy();
    expect(callsTo('chat.postMessage')).toHaveLength(0);
    expect(await row('long:reply')).toMatchObject({ status: 'sent', resultTs: reply.ts, attempts: 2 });
  });

  it('a 429 midway through the resend check resumes from its cursor after Retry-After; other channels go on', async () => {
    const { reply } = await longThread('CH2', 'paged:reply', 1_200, 10);
    slack.faults.set(
      'conversations.replies',
      { status: 429, retryAfterSeconds: 1 },
      { times: 1, when: (args) => typeof args.cursor === 'string' && args.cursor !== '' },
    );
    await enqueueSlackCall(ws, post('elsewhere', 'CH3'));
    await poster().drain(10_000);

    const lookups = callsTo('conversations.replies');
    expect(lookups.map((call) => call.fault)).toEqual([undefined, '429 retry-after 1s', undefined]);
    expect(lookups[1]?.args.cursor).toBeTruthy();
    expect(lookups[2]?.args.cursor).toBe(lookups[1]?.args.cursor);
    expect((lookups[2]?.atMs ?? 0) - (lookups[1]?.atMs ?? 0)).toBeGreaterThanOrEqual(990);
    // The other channel did not wait for this one's rate limit.
    expect(callsTo('chat.postMessage').map((call) => call.args.text)).toEqual(['elsewhere']);
    expect(callsTo('chat.postMessage')[0]?.atMs).toBeLessThan(lookups[2]?.atMs ?? 0);
    expect(await row('paged:reply')).toMatchObject({ status: 'sent', resultTs: reply.ts, attempts: 2 });
  });

  it('a 5xx midway through the resend check resumes from its cursor too', async () => {
    const { reply } = await longThread('CH4', 'flaky:reply', 1_200, 10);
    slack.faults.set(
      'conversations.replies',
      { status: 503 },
      { times: 1, when: (args) => typeof args.cursor === 'string' && args.cursor !== '' },
    );
    await poster().drain(10_000);

    const lookups = callsTo('conversations.replies');
    expect(lookups.map((call) => call.fault)).toEqual([undefined, '503', undefined]);
    expect(lookups[2]?.args.cursor).toBe(lookups[1]?.args.cursor);
    expect(callsTo('chat.postMessage')).toHaveLength(0);
    expect(await row('flaky:reply')).toMatchObject({ status: 'sent', resultTs: reply.ts, attempts: 3 });
  });

  it('starts the resend check over when another attempt may have posted since it was interrupted', async () => {
    await longThread('CH5', 'taken:reply', 1_200, 10);
    slack.faults.set(
      'conversations.replies',
      { status: 429, retryAfterSeconds: 1 },
      { times: 1, when: (args) => typeof args.cursor === 'string' && args.cursor !== '' },
    );
    const first = poster();
    await first.drainOnce();
    expect(callsTo('conversations.replies')).toHaveLength(2);
    // Meanwhile another instance claimed the row and died after sending: the pages already read prove nothing now.
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: 'taken:reply' },
      data: {
        status: 'sending',
        attempts: { increment: 1 },
        lockedBy: 'dead#10',
        lockedUntil: new Date(Date.now() - 1),
      },
    });
    await first.drain(10_000);

    const lookups = callsTo('conversations.replies');
    expect(lookups[2]?.args.cursor).toBeUndefined();
    expect(callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('a post rate-limited right after a resend check found nothing is not looked up again', async () => {
    await enqueueSlackCall(ws, post('crash:3', 'CH6'));
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: 'crash:3' },
      data: { status: 'sending', attempts: 1, lockedBy: 'dead#11', lockedUntil: new Date(Date.now() - 1_000) },
    });
    slack.faults.set('chat.postMessage', { status: 429, retryAfterSeconds: 1 }, { times: 1 });
    await poster().drain(10_000);

    expect(callsTo('conversations.history')).toHaveLength(1);
    expect(callsTo('chat.postMessage').map((call) => call.fault)).toEqual(['429 retry-after 1s', undefined]);
    expect(texts('CH6')).toEqual(['crash:3']);
  });

  it('after a crash before the message reached Slack, posts it once', async () => {
    await enqueueSlackCall(ws, post('crash:2', 'CC'));
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: 'crash:2' },
      data: { status: 'sending', attempts: 1, lockedBy: 'dead#3', lockedUntil: new Date(Date.now() - 1_000) },
    });
    await poster().drain(5_000);

    expect(callsTo('conversations.history')).toHaveLength(1);
    expect(callsTo('chat.postMessage')).toHaveLength(1);
    expect(texts('CC')).toEqual(['crash:2']);
    expect(await row('crash:2')).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('leaves a row whose lock is still live to its owner', async () => {
    await enqueueSlackCall(ws, post('busy', 'CL'));
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: 'busy' },
      data: { status: 'sending', attempts: 1, lockedBy: 'alive#1', lockedUntil: new Date(Date.now() + 60_000) },
    });
    expect(await poster().drainOnce()).toBe(0);
    expect(slack.model.calls).toHaveLength(0);
    expect((await row('busy')).lockedBy).toBe('alive#1');
  });

  it('a database blip while recording a sent row is ridden out: recorded at once, not left locked, posted once', async () => {
    await enqueueSlackCall(ws, post('blip', 'CB'));
    // The connection drops once, just as the poster records what Slack answered.
    let cuts = 0;
    const outbox = db.prisma.slackOutbox;
    const flaky = new Proxy(db.prisma, {
      get(target, property) {
        if (property !== 'slackOutbox') return Reflect.get(target, property, target) as unknown;
        return new Proxy(outbox, {
          get(model, method) {
            if (method !== 'updateMany') return Reflect.get(model, method, model) as unknown;
            return (args: { data?: { status?: string } }) => {
              if (args.data?.status === 'sent' && cuts++ === 0) {
                return Promise.reject(new DriverAdapterError({ kind: 'ConnectionClosed' }));
              }
              return outbox.updateMany(args as Parameters<typeof outbox.updateMany>[0]);
            };
          },
        });
      },
    });
    await poster({ prisma: flaky, lockMs: 60_000 }).drain(10_000);
    expect(cuts).toBe(2);
    expect(await row('blip')).toMatchObject({ status: 'sent', lockedBy: null });
    expect(texts('CB')).toEqual(['blip']);
  });

  it('a call that timed out after reaching Slack is found on retry, not posted twice', async () => {
    slack.faults.set('chat.postMessage', { hangMs: 1_500, apply: 'first' }, { times: 1 });
    await enqueueSlackCall(ws, post('slow', 'CS'));
    await poster({ sendTimeoutMs: 200, lockMs: 1_000 }).drain(10_000);

    expect(callsTo('chat.postMessage')).toHaveLength(1);
    expect(texts('CS')).toEqual(['slow']);
    const slow = await row('slow');
    expect(slow).toMatchObject({ status: 'sent', attempts: 2, resultTs: messages('CS')[0]?.ts });
    expect(logs.some((entry) => String(entry.fields.error).includes('no answer from Slack within 200 ms'))).toBe(true);
  });

  it('an edit that timed out after reaching Slack is found on retry, not made twice: in a thread and at the top level', async () => {
    const parent = earlierPost('CE1', { text: 'quote.xlsx', user: 'U1', botId: undefined });
    const edit = (key: string, channel: string, text: string): OutboxCall => ({
      dedupeKey: `${key}:edit`,
      method: 'chat.update',
      channelId: channel,
      updateOf: key,
      payload: { text },
    });
    await enqueueSlackCalls(ws, [
      post('card', 'CE1', { threadTs: parent.ts }),
      edit('card', 'CE1', 'card, edited'),
      post('top', 'CE2'),
      edit('top', 'CE2', 'top, edited'),
    ]);
    // Slack makes each edit, then the answer is lost: the poster gives up waiting and tries again.
    slack.faults.set('chat.update', { hangMs: 1_500, apply: 'first' }, { times: 2 });
    await poster({ sendTimeoutMs: 200, lockMs: 1_000 }).drain(15_000);

    expect(callsTo('chat.update')).toHaveLength(2);
    expect(slack.model.thread('CE1', parent.ts).map((m) => m.text)).toEqual(['quote.xlsx', 'card, edited']);
    expect(texts('CE2')).toEqual(['top, edited']);
    const edited = { card: slack.model.thread('CE1', parent.ts)[1], top: messages('CE2')[0] };
    for (const [key, message] of Object.entries(edited)) {
      expect(await row(`${key}:edit`)).toMatchObject({ status: 'sent', attempts: 2, resultTs: message?.ts });
      // The message still carries its post's key: a resend check of the post finds it after the edit.
      expect(message?.metadata).toEqual({ event_type: OUTBOX_EVENT_TYPE, event_payload: { key, edit: `${key}:edit` } });
    }
    expect(callsTo('conversations.replies')[0]?.args).toMatchObject({ ts: parent.ts, oldest: expect.any(String) });
    expect(callsTo('conversations.history')).toHaveLength(1);
  });

  /** The fallback a streaming row carries: the status card's edit showing `text`. */
  const cardShowing = (text: string) => ({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
  const planTask = (status: string) => [{ type: 'task_update', id: 'review', title: 'Review', status }];

  /** A thread with its status card, and the start of a streamed plan under it, as status-card.ts enqueues them. */
  async function startPlan(channel: string) {
    const parent = earlierPost(channel, { text: 'quote.xlsx', user: 'U1', botId: undefined });
    await enqueueSlackCalls(ws, [
      post(`${channel}:card`, channel, { threadTs: parent.ts }),
      {
        dedupeKey: `${channel}:plan`,
        method: 'chat.startStream',
        channelId: channel,
        threadTs: parent.ts,
        fallbackOf: `${channel}:card`,
        payload: {
          recipient_user_id: 'U1',
          recipient_team_id: slack.model.teamOf('U1'),
          task_display_mode: 'plan',
          chunks: [{ type: 'plan_update', title: 'Plan' }, ...planTask('in_progress')],
          fallback: cardShowing('reviewing'),
        },
      },
    ]);
    return parent;
  }

  /** The rest of the plan: one append, then the stop. */
  async function finishPlan(channel: string) {
    const streamed = { channelId: channel, fallbackOf: `${channel}:card`, updateOf: `${channel}:plan` };
    await enqueueSlackCalls(ws, [
      {
        ...streamed,
        dedupeKey: `${channel}:plan:append`,
        method: 'chat.appendStream',
        payload: { chunks: planTask('in_progress'), fallback: cardShowing('still reviewing') },
      },
      {
        ...streamed,
        dedupeKey: `${channel}:plan:stop`,
        method: 'chat.stopStream',
        payload: { chunks: planTask('complete'), fallback: cardShowing('reviewed') },
      },
    ]);
  }

  it('a chat.startStream that timed out after reaching Slack is found in its thread on retry, not streamed twice', async () => {
    slack.faults.set('chat.startStream', { hangMs: 1_500, apply: 'first' }, { times: 1 });
    const parent = await startPlan('CS1');
    await finishPlan('CS1');
    await poster({ sendTimeoutMs: 200, lockMs: 1_000 }).drain(15_000);

    expect(callsTo('chat.startStream')).toHaveLength(1);
    expect(callsTo('conversations.replies')[0]?.args.ts).toBe(parent.ts);
    const streams = messages('CS1').filter((message) => message.stream !== undefined);
    expect(streams).toHaveLength(1);
    const [stream] = streams;
    expect(await row('CS1:plan')).toMatchObject({ status: 'sent', attempts: 2, resultTs: stream?.ts });
    // The rest of the plan went to that one stream, which ended with the last task done.
    expect(stream?.stream).toMatchObject({ state: 'stopped', tasks: [{ id: 'review', status: 'complete' }] });
    expect(callsTo('chat.update')).toHaveLength(0);
  });

  it('a stream that ends partway (message_not_in_streaming_state) goes on on the status card: no step is lost', async () => {
    await startPlan('CS2');
    await poster().drain(10_000);
    const stream = messages('CS2').find((message) => message.stream !== undefined);
    if (!stream?.stream) throw new Error('the plan did not start streaming');
    // Slack ends a stream left without a call for a while (the buyer took a day to answer).
    stream.stream.state = 'stopped';
    await finishPlan('CS2');
    await poster().drain(10_000);

    expect(callsTo('chat.appendStream').map((call) => call.error)).toEqual(['message_not_in_streaming_state']);
    expect(callsTo('chat.stopStream').map((call) => call.error)).toEqual(['message_not_in_streaming_state']);
    for (const key of ['CS2:plan:append', 'CS2:plan:stop']) expect(await row(key)).toMatchObject({ status: 'sent' });
    // The card showed each later step in turn, and ends on the last.
    const card = await row('CS2:card');
    const edits = callsTo('chat.update').filter((call) => call.args.ts === card.resultTs);
    expect(edits.map((call) => call.args.text)).toEqual(['still reviewing', 'reviewed']);
    expect(slack.model.message('CS2', card.resultTs ?? '')?.text).toBe('reviewed');
  });

  it('a timed-out call that Slack completes later is seen by the retry, which waits as long again first', async () => {
    slack.faults.set('chat.postMessage', { hangMs: 500, apply: 'last' }, { times: 1 });
    await enqueueSlackCall(ws, post('late', 'CJ'));
    await poster({ sendTimeoutMs: 300, lockMs: 2_000 }).drain(10_000);

    expect(texts('CJ')).toEqual(['late']);
    expect(callsTo('chat.postMessage')).toHaveLength(1);
    const [first] = callsTo('chat.postMessage');
    const [lookup] = callsTo('conversations.history');
    expect((lookup?.atMs ?? 0) - (first?.atMs ?? Infinity)).toBeGreaterThanOrEqual(600 - 5);
    expect(await row('late')).toMatchObject({ status: 'sent', attempts: 2, resultTs: messages('CJ')[0]?.ts });
  });

  it('publishes only the newest Home tab per user and marks older ones superseded', async () => {
    const home = (key: string, user: string, version: number): OutboxCall => ({
      dedupeKey: key,
      method: 'views.publish',
      channelId: null,
      payload: { user_id: user, view: { type: 'home', blocks: [], private_metadata: String(version) } },
    });
    await enqueueSlackCalls(ws, [home('h1', 'U1', 1), home('h2', 'U1', 2), home('g1', 'U2', 1), home('h3', 'U1', 3)]);
    await poster().drain(5_000);

    expect(callsTo('views.publish').map((call) => call.args.user_id)).toEqual(expect.arrayContaining(['U1', 'U2']));
    expect(callsTo('views.publish')).toHaveLength(2);
    expect(slack.model.home('U1')?.view).toMatchObject({ private_metadata: '3' });
    for (const key of ['h1', 'h2']) {
      expect(await row(key)).toMatchObject({ status: 'sent', resultTs: null, lastError: 'superseded by h3' });
    }
    expect(await row('h3')).toMatchObject({ status: 'sent', lastError: null });
  });

  it('uploads a file (files.uploadV2) into a thread and records the share ts', async () => {
    await slack.close();
    await startSlack({ uploadAnswerNamesShare: true });
    await enqueueSlackCalls(ws, [
      post('po-card', 'CU'),
      {
        dedupeKey: 'po-file',
        method: 'files.uploadV2',
        channelId: 'CU',
        threadOf: 'po-card',
        payload: { filename: 'po.xlsx', title: 'Purchase order', contentBase64: Buffer.from('PK…').toString('base64') },
      },
    ]);
    await poster().drain(5_000);

    const [card, share] = messages('CU');
    expect(filesOf(share).map(({ id, name, title }) => ({ id, name, title }))).toEqual([
      { id: expect.stringMatching(/^F/), name: 'po.xlsx', title: 'Purchase order' },
    ]);
    expect(filesOf(share)[0]?.bytes?.toString()).toBe('PK…');
    expect(share?.threadTs).toBe(card?.ts);
    expect(await row('po-file')).toMatchObject({ status: 'sent', resultTs: share?.ts, threadTs: card?.ts });
    expect(callsTo('files.completeUploadExternal')).toHaveLength(1);
  });

  it("records an upload's file id when Slack's answer does not name the share yet", async () => {
    // Slack shares an upload asynchronously; the stand-in's default answer is `{ id, title }` alone.
    await enqueueSlackCalls(ws, [
      post('csv-card', 'CU'),
      {
        dedupeKey: 'csv',
        method: 'files.uploadV2',
        channelId: 'CU',
        threadOf: 'csv-card',
        payload: { filename: 'po.csv', title: 'PO', contentBase64: Buffer.from('sku,qty\nA,1\n').toString('base64') },
      },
    ]);
    await poster().drain(5_000);

    const [card, share] = messages('CU');
    expect(share?.threadTs).toBe(card?.ts);
    expect(filesOf(share)[0]?.bytes?.toString()).toBe('sku,qty\nA,1\n');
    expect(await row('csv')).toMatchObject({ status: 'sent', resultTs: share?.fileIds[0], threadTs: card?.ts });
  });

  it('an upload retried after a crash finds its earlier share instead of uploading again', async () => {
    const chart = createFile(slack.model, {
      name: 'chart.png',
      title: 'Prices',
      user: slack.model.botUserId,
      bytes: Buffer.from('iVBORw0KGgo=', 'base64'),
    });
    const earlier = earlierPost('CV', { fileIds: [chart.id] });
    chart.shares.push({ channel: 'CV', ts: earlier.ts, threadTs: undefined });
    await enqueueSlackCall(ws, {
      dedupeKey: 'chart',
      method: 'files.uploadV2',
      channelId: 'CV',
      payload: { filename: 'chart.png', title: 'Prices', contentBase64: 'iVBORw0KGgo=' },
    });
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: 'chart' },
      data: { status: 'sending', attempts: 1, lockedBy: 'dead#4', lockedUntil: new Date(Date.now() - 1) },
    });
    await poster().drain(5_000);

    expect(callsTo('files.getUploadURLExternal')).toHaveLength(0);
    expect((await row('chart')).resultTs).toBe(earlier.ts);
  });

  it('does not send before notBefore, and a waiting row holds back later rows of its channel', async () => {
    await enqueueSlackCalls(ws, [
      post('later', 'CN', { notBefore: new Date(Date.now() + 60 * 60_000) }),
      post('behind', 'CN'),
      post('elsewhere', 'CO'),
    ]);
    const p = poster();
    expect(await p.drainOnce()).toBe(1);
    expect(await p.drainOnce()).toBe(0);
    expect(callsTo('chat.postMessage').map((call) => call.args.text)).toEqual(['elsewhere']);
    expect((await row('behind')).status).toBe('pending');
    await expect(p.drain(300)).rejects.toBeInstanceOf(OutboxDrainTimeoutError);
  });

  it('a reference to a row enqueued later in the same channel fails instead of deadlocking the channel', async () => {
    await enqueueSlackCalls(ws, [post('early-reply', 'CW', { threadOf: 'late-parent' }), post('late-parent', 'CW')]);
    await poster().drain(5_000);
    expect((await row('early-reply')).lastError).toBe('threadOf late-parent was enqueued after this row');
    expect(texts('CW')).toEqual(['late-parent']);
  });

  it('a reference not in the table waits for its grace period, then fails', async () => {
    await enqueueSlackCall(ws, post('orphan', 'CG', { threadOf: 'ghost' }));
    const p = poster({ referenceGraceMs: 60_000 });
    await p.drainOnce();
    expect(await row('orphan')).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await row('orphan')).lastError).toMatch(/not in the outbox yet/);
    await poster({ referenceGraceMs: 0 }).drain(5_000);
    expect(await row('orphan')).toMatchObject({ status: 'failed', lastError: 'threadOf ghost names no outbox row' });
    expect(slack.model.calls).toHaveLength(0);
  });

  it("a lane's run sends its rows in order at pace, ends when the next one is due later, and stop() ends it early", async () => {
    const p = poster({ postIntervalMs: 200 });
    await enqueueSlackCalls(ws, [post('lane-1', 'CK'), post('lane-2', 'CK'), post('other-lane', 'CL')]);
    const lane = `${ws.$workspaceId}/c:CK`;
    expect(await p.sendLane(lane, { lockOwner: 'job:a#0@test' })).toEqual({ dueInMs: null, handled: 2 });
    expect(texts('CK')).toEqual(['lane-1', 'lane-2']);
    const [first, second] = messages('CK');
    expect(Number(second?.ts) - Number(first?.ts)).toBeGreaterThanOrEqual(0.2);
    expect(texts('CL')).toEqual([]); // another lane is another job's

    // A row due later than the run waits for: the run ends and says when (its job is sent again to start then).
    await enqueueSlackCall(ws, { ...post('later', 'CK'), notBefore: new Date(Date.now() + 60_000) });
    const ended = await p.sendLane(lane, { lockOwner: 'job:b#0@test', waitUpToMs: 1_000 });
    expect(ended.handled).toBe(0);
    expect(ended.dueInMs).toBeGreaterThan(50_000);

    // stop() ends a run before its next row; the row stays for the job sent again.
    await ws.slackOutbox.updateMany({ where: { dedupeKey: 'later' }, data: { notBefore: new Date() } });
    await p.stop();
    expect(await p.sendLane(lane, { lockOwner: 'job:c#0@test' })).toEqual({ dueInMs: 0, handled: 0 });
    expect(await row('later')).toMatchObject({ status: 'pending' });
  });

  it("a lane's run reads each head in one statement: a click's two edits wait for no second read of each", async () => {
    // Every operation asked of the database, as the client hands it to Prisma.
    const { client: counting, operations } = countingOperations(db.prisma);
    await enqueueSlackCall(ws, post('card', 'CQ2'));
    await poster().drain(5_000);
    // A review click's output: two edits in one lane, the first of them of a message already posted.
    await enqueueSlackCalls(ws, [
      { dedupeKey: 'card:1', method: 'chat.update', channelId: 'CQ2', updateOf: 'card', payload: { text: 'one' } },
      { dedupeKey: 'card:2', method: 'chat.update', channelId: 'CQ2', updateOf: 'card', payload: { text: 'two' } },
    ]);
    const p = poster({ prisma: counting });
    expect(await p.sendLane(`${ws.$workspaceId}/c:CQ2`, { lockOwner: 'job:q#0@test' })).toEqual({
      dueInMs: null,
      handled: 2,
    });
    expect(texts('CQ2')).toEqual(['two']);
    expect(await row('card:2')).toMatchObject({ status: 'sent', attempts: 1, lockedBy: null });
    // The heads (two rows, then the empty lane): one statement each; the only row read by id is the edits' target.
    expect(operations.filter((op) => op === '$queryRaw')).toHaveLength(3);
    expect(operations.filter((op) => op === 'SlackOutbox.findUnique')).toHaveLength(2);
  });

  it('a malformed row fails on its own without stopping other lanes', async () => {
    for (const [dedupeKey, method, channelId] of [
      ['bad-post', 'chat.postMessage', 'CM'],
      ['bad-home', 'views.publish', null],
      ['bad-method', 'chat.delete', 'CM'],
    ] as const) {
      await ws.slackOutbox.create({
        data: { workspaceId: ws.$workspaceId, dedupeKey, method, channelId, payload: ['not', 'an', 'object'] },
      });
    }
    await enqueueSlackCall(ws, post('good', 'CM2'));
    await poster().drain(5_000);

    expect((await row('bad-post')).lastError).toMatch(/^unreadable payload/);
    expect(await row('bad-home')).toMatchObject({ status: 'failed' });
    expect(await row('bad-method')).toMatchObject({ status: 'failed', lastError: 'unknown outbox method chat.delete' });
    expect(texts('CM2')).toEqual(['good']);
  });

  it('sends ephemeral messages and treats an existing reaction as done', async () => {
    await enqueueSlackCalls(ws, [
      post('target', 'CQ'),
      { dedupeKey: 'eph', method: 'chat.postEphemeral', channelId: 'CQ', payload: { user: 'U9', text: 'only you' } },
      { dedupeKey: 'r1', method: 'reactions.add', channelId: 'CQ', updateOf: 'target', payload: { name: 'tada' } },
      { dedupeKey: 'r2', method: 'reactions.add', channelId: 'CQ', updateOf: 'target', payload: { name: 'tada' } },
    ]);
    await poster().drain(5_000);

    expect(callsTo('chat.postEphemeral')[0]?.args).toMatchObject({ channel: 'CQ', user: 'U9', text: 'only you' });
    expect((await row('eph')).resultTs).toMatch(/^\d+\.\d{6}$/);
    expect(callsTo('reactions.add')).toHaveLength(2);
    expect(reactions()).toHaveLength(1);
    expect(await row('r2')).toMatchObject({ status: 'sent', lastError: null });
  });

  it('errors never escape: a failing client factory is logged and the rows are retried later', async () => {
    await enqueueSlackCall(ws, post('no-client', 'CZ'));
    const p = poster({
      clientFor: () => {
        throw new Error('no installation for this workspace');
      },
    });
    expect(await p.drainOnce()).toBe(1);
    expect(await row('no-client')).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await row('no-client')).lastError).toBe('no installation for this workspace');
  });
});
