// The poster against the project's Slack stand-in (dev/slack-stand-in/), with its own fault injection: the same WebClient
// configuration the app uses, and a stand-in that checks arguments the way Slack does.
import { LogLevel, webApi } from '@slack/bolt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scopeToWorkspace, type WorkspaceDb } from '../db/scoped.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { type SlackSandbox, startSlackSandbox } from '../../dev/slack-stand-in/index.js';
import { enqueueSlackCall, enqueueSlackCalls, sentTs } from './enqueue-slack-call.js';
import { OUTBOX_EVENT_TYPE, type OutboxCall } from './outbox-call.js';
import { createOutboxPoster, type OutboxPoster, type OutboxPosterOptions } from './outbox-poster.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

const post = (dedupeKey: string, channelId: string, extra: Partial<OutboxCall> = {}): OutboxCall => ({
  dedupeKey,
  method: 'chat.postMessage',
  channelId,
  payload: { text: dedupeKey },
  ...extra,
});

describe('outbox poster against the Slack sandbox', () => {
  let db: TestDatabase;
  let ws: WorkspaceDb;
  let sandbox: SlackSandbox;
  let posters: OutboxPoster[];

  function poster(options: Partial<OutboxPosterOptions> = {}): OutboxPoster {
    const client = new webApi.WebClient(sandbox.botToken, {
      slackApiUrl: sandbox.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      logLevel: LogLevel.ERROR,
    });
    const created = createOutboxPoster({
      prisma: db.prisma,
      clientFor: () => client,
      owner: 'sandbox-test',
      postIntervalMs: 100,
      pollMs: 20,
      backoffBaseMs: 30,
      log: quiet,
      ...options,
    });
    posters.push(created);
    return created;
  }

  const row = (dedupeKey: string) => ws.slackOutbox.findFirstOrThrow({ where: { dedupeKey } });
  const texts = (channel: string) => sandbox.model.messages(channel).map((message) => message.text);

  beforeAll(async () => {
    db = await createTestDatabase();
    const workspace = await db.prisma.workspace.create({
      data: { slackTeamId: 'T0SANDBOX1', name: 'Sandbox', brandName: 'Valden Outdoor' },
    });
    ws = scopeToWorkspace(db.prisma, workspace.id);
  });
  afterAll(async () => {
    await db.destroy();
  });
  beforeEach(async () => {
    await db.prisma.slackOutbox.deleteMany();
    sandbox = await startSlackSandbox({
      users: [{ id: 'U0BUYER', name: 'buyer' }],
      channels: ['C0ONE', 'C0TWO', 'C0THREE'].map((id) => ({ id, name: id.toLowerCase(), members: ['U0BUYER'] })),
    });
    posters = [];
  });
  afterEach(async () => {
    await Promise.all(posters.map((p) => p.stop()));
    await sandbox.close();
  });

  it('posts a status card, threads replies and a file under it, edits it and publishes a Home tab', async () => {
    await enqueueSlackCalls(ws, [
      post('card', 'C0ONE'),
      post('reply', 'C0ONE', { threadOf: 'card' }),
      {
        dedupeKey: 'po',
        method: 'files.uploadV2',
        channelId: 'C0ONE',
        threadOf: 'card',
        payload: { filename: 'po.csv', title: 'PO', contentBase64: Buffer.from('sku,qty\nA,1\n').toString('base64') },
      },
      { dedupeKey: 'card-2', method: 'chat.update', channelId: 'C0ONE', updateOf: 'card', payload: { text: 'done' } },
      {
        dedupeKey: 'home',
        method: 'views.publish',
        channelId: null,
        payload: { user_id: 'U0BUYER', view: { type: 'home', blocks: [] } },
      },
    ]);
    await poster().drain(10_000);

    const cardTs = await sentTs(ws, 'card');
    expect(cardTs).not.toBeNull();
    const [card, reply, share] = sandbox.model.messages('C0ONE');
    expect(card).toMatchObject({ ts: cardTs, text: 'done' });
    expect(card?.metadata).toMatchObject({ event_type: OUTBOX_EVENT_TYPE, event_payload: { key: 'card' } });
    expect(reply).toMatchObject({ text: 'reply', threadTs: cardTs });
    expect(share?.threadTs).toBe(cardTs);
    expect(sandbox.model.file(share?.fileIds[0] ?? '')?.bytes?.toString()).toBe('sku,qty\nA,1\n');
    // Slack shares an upload asynchronously: completeUploadExternal may not name the share, then the file id is kept.
    const po = await row('po');
    expect(po.status).toBe('sent');
    expect([share?.ts, share?.fileIds[0]]).toContain(po.resultTs);
    expect(sandbox.model.home('U0BUYER')).toBeDefined();
    expect(await ws.slackOutbox.count({ where: { status: { not: 'sent' } } })).toBe(0);
  });

  it('waits out a 429, retries a 500, fails an ok:false row, and keeps channel order', async () => {
    sandbox.faults.set('chat.postMessage', { status: 429, retryAfterSeconds: 1 }, { times: 1 });
    sandbox.faults.set('chat.postMessage', { status: 500 }, { times: 1 });
    sandbox.faults.set('chat.postMessage', { error: 'invalid_blocks' }, { times: 1 });
    await enqueueSlackCalls(ws, [post('m1', 'C0TWO'), post('m2', 'C0TWO'), post('m3', 'C0TWO')]);
    await poster().drain(10_000);

    // m1: 429, then 500, then invalid_blocks → failed; m2 and m3 follow in order.
    expect(await row('m1')).toMatchObject({ status: 'failed', lastError: 'Slack error invalid_blocks' });
    expect(texts('C0TWO')).toEqual(['m2', 'm3']);
    const calls = sandbox.model.callsTo('chat.postMessage', { channel: 'C0TWO' });
    expect((calls[1]?.atMs ?? 0) - (calls[0]?.atMs ?? Infinity)).toBeGreaterThanOrEqual(990);
  });

  it('a row re-claimed after a crash finds the message it already posted', async () => {
    await enqueueSlackCall(ws, post('once', 'C0THREE'));
    await poster().drain(5_000);
    const ts = (await row('once')).resultTs;
    // As if the process had died after Slack answered but before the row was marked sent.
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: 'once' },
      data: { status: 'sending', resultTs: null, lockedBy: 'dead#1', lockedUntil: new Date(Date.now() - 1) },
    });
    await poster().drain(5_000);

    expect(texts('C0THREE')).toEqual(['once']);
    expect(await row('once')).toMatchObject({ status: 'sent', resultTs: ts, attempts: 2 });
  });

  it('a call that hangs past the send timeout but completes is not posted twice', async () => {
    sandbox.faults.set('chat.postMessage', { hangMs: 500 }, { times: 1 });
    await enqueueSlackCall(ws, post('slow', 'C0ONE'));
    await poster({ sendTimeoutMs: 300, lockMs: 2_000 }).drain(10_000);

    expect(texts('C0ONE')).toEqual(['slow']);
    expect(await row('slow')).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
