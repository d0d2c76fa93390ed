// The outbox sent as pg-boss jobs (`send-outbox`, one per lane), on a real database (PGlite, or PostgreSQL with
// DATABASE_URL), the real WebClient and the Slack stand-in. Two "instances" are two pg-boss starts, each with its own
// poster and name, on the same database, as two processes would be.
import { LogLevel, webApi } from '@slack/bolt';
import { PgBoss } from 'pg-boss';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scopeToWorkspace, type WorkspaceDb } from '../db/scoped.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { createMessage, type SlackSandbox, startSlackSandbox } from '../../dev/slack-stand-in/index.js';
import {
  type BackgroundWork,
  type BackgroundWorkTuning,
  type DeadJob,
  READ_QUOTATION,
  SEND_OUTBOX,
  startBackgroundWork,
} from '../jobs/background-work.js';
import { jobLeaseOwner } from '../jobs/job-lease.js';
import { queueUnqueuedWork } from '../jobs/queue-unqueued-work.js';
import { enqueueSlackCalls } from './enqueue-slack-call.js';
import { OUTBOX_EVENT_TYPE, type OutboxCall } from './outbox-call.js';
import { createOutboxPoster, type OutboxPoster } from './outbox-poster.js';

const CHANNELS = ['C1', 'C2', 'C3', 'C4', 'C5'];
const PACE_MS = 300;
/** Quick to notice a dead worker and quick to retry. */
const FAST: BackgroundWorkTuning = {
  heartbeatSeconds: 10,
  superviseIntervalSeconds: 1,
  retryDelaySeconds: 1,
  pollingIntervalSeconds: 0.5,
};

let db: TestDatabase;
let ws: WorkspaceDb;
let slack: SlackSandbox;
const started: Array<{ work: BackgroundWork; poster: OutboxPoster }> = [];

const post = (dedupeKey: string, channelId: string): OutboxCall => ({
  dedupeKey,
  method: 'chat.postMessage',
  channelId,
  payload: { text: dedupeKey },
});

/** One instance: its pg-boss, its poster, its name; `sendOutbox` as src/server.ts wires it. */
async function instance(name: string, tuning: BackgroundWorkTuning = FAST, deadLetters: DeadJob[] = []) {
  const client = new webApi.WebClient(slack.botToken, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logLevel: LogLevel.ERROR,
  });
  const poster = createOutboxPoster({
    prisma: db.prisma,
    clientFor: () => client,
    owner: name,
    postIntervalMs: PACE_MS,
    lockMs: 60_000,
  });
  const work = await startBackgroundWork({ connection: db.jobQueue, prisma: db.prisma, concurrency: 2, ...tuning });
  started.push({ work, poster });
  await work.work({
    driveNegotiation: () => Promise.resolve(),
    readQuotation: () => Promise.reject(new Error('this file cannot be read')),
    sendReviewWorkbook: () => Promise.resolve(),
    sendPurchaseOrderWorkbook: () => Promise.resolve(),
    sendOutbox: (job, attempt) =>
      poster.sendLane(job.lane, { lockOwner: jobLeaseOwner(name, attempt), signal: attempt.signal }),
    deadLetter: async (job) => {
      deadLetters.push(job);
    },
  });
  return { work, poster };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(50);
  }
}

const unsent = () => ws.slackOutbox.count({ where: { status: { in: ['pending', 'sending'] } } });
const texts = (channel: string) => slack.model.messages(channel).map((message) => message.text);
const laneOf = (channel: string) => `${ws.$workspaceId}/c:${channel}`;

beforeAll(async () => {
  db = await createTestDatabase();
  const workspace = await db.prisma.workspace.create({
    data: { slackTeamId: 'T1', name: 'Valden', brandName: 'Valden Outdoor' },
  });
  ws = scopeToWorkspace(db.prisma, workspace.id);
}, 60_000);
afterAll(() => db?.destroy());
beforeEach(async () => {
  await db.prisma.slackOutbox.deleteMany();
  slack = await startSlackSandbox({
    users: [{ id: 'U1', name: 'u1' }],
    channels: CHANNELS.map((id) => ({ id, name: id.toLowerCase(), members: ['U1'] })),
  });
});
afterEach(async () => {
  for (const { work, poster } of started.splice(0)) {
    await poster.stop();
    await work.stop();
  }
  await slack.close();
});

describe('the outbox on pg-boss', () => {
  it("sends each lane's rows once, in order and at Slack's pace, with two instances taking jobs", async () => {
    const a = await instance('instance-a');
    const b = await instance('instance-b');
    const calls = ['C1', 'C2'].flatMap((channel) =>
      Array.from({ length: 6 }, (_, i) => post(`${channel}-${i}`, channel)),
    );
    await enqueueSlackCalls(ws, calls);
    // Both instances queue after "their" commit: the stately queue keeps one job per lane.
    await Promise.all([a.work.queueOutbox(), b.work.queueOutbox(), a.work.queueOutbox()]);
    await until(async () => (await unsent()) === 0, 30_000);

    for (const channel of ['C1', 'C2']) {
      expect(texts(channel)).toEqual(Array.from({ length: 6 }, (_, i) => `${channel}-${i}`));
      const sent = await ws.slackOutbox.findMany({ where: { channelId: channel }, orderBy: { sentAt: 'asc' } });
      expect(sent.map((row) => row.dedupeKey)).toEqual(texts(channel));
      // The pace on the database's clock (sentAt), whichever instance sent each row.
      const times = sent.map((row) => row.sentAt?.getTime() ?? Number.NaN);
      const gaps = times.slice(1).map((time, i) => time - (times[i] ?? Number.NaN));
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(PACE_MS);
      expect(sent.every((row) => row.attempts === 1)).toBe(true);
    }
    expect(slack.model.callsTo('chat.postMessage')).toHaveLength(12);
  }, 60_000);

  it("a sender that died mid-send: the job's retry takes the row over at once and records the earlier post", async () => {
    await enqueueSlackCalls(ws, [post('crashed', 'C3'), post('behind', 'C3')]);
    // The queues, as every instance starts them (this test may run alone).
    const setup = await startBackgroundWork({ connection: db.jobQueue, prisma: db.prisma, concurrency: 1, ...FAST });
    await setup.stop();
    // The dead process: it took the lane's job, claimed the row under its attempt and posted it, then died before
    // recording. Its lock would last another minute.
    const dead = new PgBoss({ ...db.jobQueue, schema: db.jobQueue.schema ?? 'pgboss' });
    await dead.start();
    try {
      await dead.send(SEND_OUTBOX, { lane: laneOf('C3') }, { singletonKey: `lane:${laneOf('C3')}` });
      const [job] = await dead.fetch<{ lane: string }>(SEND_OUTBOX);
      if (!job) throw new Error('the dead instance took no job');
      await ws.slackOutbox.updateMany({
        where: { dedupeKey: 'crashed' },
        data: {
          status: 'sending',
          attempts: 1,
          lockedBy: jobLeaseOwner('instance-a', job),
          lockedUntil: new Date(Date.now() + 60_000),
        },
      });
      slack.model.addMessage(
        createMessage({
          channel: 'C3',
          ts: slack.model.nextTs(),
          user: slack.model.botUserId,
          botId: slack.model.botId,
          text: 'crashed',
          postedAt: slack.model.clock(),
          metadata: { event_type: OUTBOX_EVENT_TYPE, event_payload: { key: 'crashed' } },
        }),
      );
      // What pg-boss's supervisor does once the dead worker's heartbeat stops: the attempt fails, to be retried.
      await dead.fail(SEND_OUTBOX, job.id);
    } finally {
      await dead.stop({ graceful: false });
    }
    // A live instance, whose worker takes the retry.
    await instance('instance-b');
    const retried = Date.now();
    await until(async () => (await unsent()) === 0, 20_000);
    // Well before the dead attempt's lock would have expired.
    expect(Date.now() - retried).toBeLessThan(30_000);
    expect(texts('C3')).toEqual(['crashed', 'behind']);
    expect(slack.model.callsTo('chat.postMessage')).toHaveLength(1); // only 'behind'
    const row = await ws.slackOutbox.findFirstOrThrow({ where: { dedupeKey: 'crashed' } });
    expect(row.resultTs).toBe(slack.model.messages('C3')[0]?.ts);
    expect(row.attempts).toBe(2);
    expect(row.lockedBy).toBeNull();
  }, 60_000);

  it("a commit's lane is sent by one of this instance's workers at once: not at a poll, and not all eight woken", async () => {
    // Polls far apart: a send that waited for one would take 30 s.
    const { work } = await instance('instance-a', { ...FAST, pollingIntervalSeconds: 30 });
    // Every send-outbox fetch pg-boss makes (one statement each, `FOR UPDATE … SKIP LOCKED`).
    const jobDb = work.boss.getDb();
    const executeSql = jobDb.executeSql.bind(jobDb);
    let fetches = 0;
    jobDb.executeSql = (text: string, values?: unknown[]) => {
      if (text.includes('SKIP LOCKED') && text.includes(`j.name = '${SEND_OUTBOX}'`)) fetches++;
      return executeSql(text, values);
    };
    // The workers' first look, at start, is over.
    await sleep(500);
    for (const [i, channel] of ['C1', 'C2', 'C1'].entries()) {
      fetches = 0;
      const asked = Date.now();
      await enqueueSlackCalls(ws, [post(`wake-${i}`, channel)]);
      await work.queueOutbox();
      await until(() => texts(channel).includes(`wake-${i}`), 20_000);
      expect(Date.now() - asked).toBeLessThan(10_000);
      await until(async () => (await work.pending([SEND_OUTBOX])) === 0, 20_000);
      // One worker woken for the one job (eight used to race for it, each with a fetch).
      expect(fetches).toBeLessThanOrEqual(2);
      await sleep(PACE_MS);
    }
  }, 60_000);

  it('a row whose job was never sent is queued by queue-unqueued-work, once', async () => {
    const { work } = await instance('instance-a');
    // Written, and the process died before queueing the lane's job.
    await enqueueSlackCalls(ws, [post('orphan-1', 'C4'), post('orphan-2', 'C4')]);
    await sleep(1_500);
    expect(await unsent()).toBe(2);
    const sweep = () => queueUnqueuedWork({ prisma: db.prisma, now: new Date(), work });
    const [first, second] = await Promise.all([sweep(), sweep()]);
    expect(first.outboxLanesQueued + second.outboxLanesQueued).toBe(1);
    await until(async () => (await unsent()) === 0, 20_000);
    expect(texts('C4')).toEqual(['orphan-1', 'orphan-2']);
    expect((await sweep()).outboxLanesQueued).toBe(0);
  }, 60_000);

  it("stopping waits for a commit's queueing under way, and a commit after it queues nothing", async () => {
    const { work, poster } = await instance('instance-a');
    started.splice(0);
    await enqueueSlackCalls(ws, [post('late-1', 'C5')]);
    let queued = false;
    const queueing = work.queueOutbox().then(() => (queued = true));
    await poster.stop();
    await work.stop();
    expect(queued).toBe(true);
    await queueing;
    // A listener's commit that finishes while its process stops: no job is sent to a stopped pg-boss (whose database
    // may be closed next); the row waits for the next process's sweep.
    const outboxJobs = async () => {
      const schema = db.jobQueue.schema ?? 'pgboss';
      const [row] = await db.prisma.$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM "${schema}".job WHERE name = $1`,
        SEND_OUTBOX,
      );
      return row?.n ?? 0;
    };
    const before = await outboxJobs();
    await enqueueSlackCalls(ws, [post('late-2', 'C5')]);
    await expect(work.queueOutbox()).resolves.toBeUndefined();
    expect(await outboxJobs()).toBe(before);
  }, 30_000);

  it('a job past its retries lands in the dead-letter queue, with what it was about', async () => {
    const deadLetters: DeadJob[] = [];
    const { work } = await instance('instance-a', { ...FAST, retryLimit: 1 }, deadLetters);
    const read = { workspaceId: ws.$workspaceId, quotationId: 'q-unreadable', fileId: 'F1' };
    await work.readQuotation(read);
    await until(() => deadLetters.length > 0, 30_000);
    expect(deadLetters).toEqual([
      expect.objectContaining({ queue: READ_QUOTATION, data: read, retryCount: 1, id: expect.any(String) }),
    ]);
    expect(await work.pending([READ_QUOTATION])).toBe(0);
  }, 60_000);
});
