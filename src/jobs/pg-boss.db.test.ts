// The background jobs on pg-boss, on a real database (PGlite by default; PostgreSQL with DATABASE_URL): a job whose
// worker died is redone by another instance, two instances never run one negotiation at once, a failing job is
// retried. Two "instances" are two pg-boss starts on the same database, as two processes would be.
import { fromPrisma, PgBoss } from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import {
  type BackgroundWork,
  type BackgroundWorkTuning,
  DRIVE_NEGOTIATION,
  type JobHandlers,
  type NegotiationJob,
  startBackgroundWork,
} from './background-work.js';

let db: TestDatabase;
const started: BackgroundWork[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
// Every instance works every queue: one test's workers must not take the next test's jobs.
afterEach(async () => {
  for (const work of started.splice(0)) await work.stop();
});
afterAll(() => db?.destroy());

/** Quick to notice a dead worker (pg-boss's shortest heartbeat) and quick to retry. */
const FAST: BackgroundWorkTuning = {
  heartbeatSeconds: 10,
  superviseIntervalSeconds: 1,
  retryDelaySeconds: 1,
  pollingIntervalSeconds: 0.5,
};

async function instance(handlers: Partial<JobHandlers>, tuning: BackgroundWorkTuning = FAST) {
  const work = await startBackgroundWork({ connection: db.jobQueue, prisma: db.prisma, concurrency: 4, ...tuning });
  started.push(work);
  await work.work({
    driveNegotiation: handlers.driveNegotiation ?? (() => Promise.resolve()),
    readQuotation: handlers.readQuotation ?? (() => Promise.resolve()),
    sendReviewWorkbook: handlers.sendReviewWorkbook ?? (() => Promise.resolve()),
    sendPurchaseOrderWorkbook: handlers.sendPurchaseOrderWorkbook ?? (() => Promise.resolve()),
  });
  return work;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(50);
  }
}

describe('background jobs on pg-boss', () => {
  // Over 10 s: a dead worker's job is taken back only once its heartbeat lapses, and 10 s is pg-boss's shortest.
  it('redoes a job whose worker died, on another instance', async () => {
    // The dead process: it took the job (pg-boss marked it active for it) and then stopped answering — no
    // completion, no heartbeat, exactly what a killed process leaves in the job table.
    const job: NegotiationJob = { workspaceId: 'W1', negotiationId: 'crashed-run' };
    const sender = await instance({});
    await sender.stop();
    const dying = new PgBoss({ ...db.jobQueue, schema: db.jobQueue.schema ?? 'pgboss', supervise: false });
    await dying.start();
    await dying.send(DRIVE_NEGOTIATION, job, { singletonKey: `negotiation:${job.negotiationId}` });
    const [taken] = await dying.fetch<NegotiationJob>(DRIVE_NEGOTIATION);
    expect(taken?.data).toEqual(job);
    await dying.stop({ graceful: false, close: true });

    const redone: NegotiationJob[] = [];
    const survivor = await instance({
      driveNegotiation: async (data) => {
        redone.push(data);
      },
    });
    await until(() => redone.length > 0, 40_000);
    expect(redone).toEqual([job]);
    await survivor.idle();
    expect(await survivor.pending()).toBe(0);
  }, 60_000);

  it('never runs one negotiation on two instances at once, and runs every negotiation', async () => {
    const running = new Map<string, number>();
    let overlaps = 0;
    const runs: string[] = [];
    const handler = async ({ negotiationId }: NegotiationJob) => {
      const now = (running.get(negotiationId) ?? 0) + 1;
      running.set(negotiationId, now);
      if (now > 1) overlaps++;
      await sleep(150);
      runs.push(negotiationId);
      running.set(negotiationId, (running.get(negotiationId) ?? 1) - 1);
    };
    const a = await instance({ driveNegotiation: handler });
    const b = await instance({ driveNegotiation: handler });
    const ids = ['n1', 'n2', 'n3'];
    // Clicks on both instances, many per negotiation, some while a run of it is going.
    for (let wave = 0; wave < 4; wave++) {
      await Promise.all(
        ids.flatMap((negotiationId) => [
          a.driveNegotiation({ workspaceId: 'W1', negotiationId }),
          b.driveNegotiation({ workspaceId: 'W1', negotiationId }),
        ]),
      );
      await sleep(100);
    }
    await a.idle();
    expect(overlaps).toBe(0);
    for (const id of ids) expect(runs.filter((run) => run === id).length).toBeGreaterThanOrEqual(1);
    // A request while one waited was the same request: far fewer runs than requests (8 per negotiation).
    expect(runs.length).toBeLessThan(ids.length * 8);
  }, 60_000);

  it('retries a job that failed, until it succeeds', async () => {
    let attempts = 0;
    const work = await instance({
      driveNegotiation: async () => {
        attempts++;
        if (attempts < 3) throw new Error(`database blip ${attempts}`);
      },
    });
    await work.driveNegotiation({ workspaceId: 'W1', negotiationId: 'flaky' });
    await until(() => attempts >= 3, 30_000);
    await work.idle();
    expect(attempts).toBe(3);
    expect(await work.pending()).toBe(0);
  }, 60_000);

  // The ground of "one transaction per use case": a job sent through the use case's own Prisma transaction
  // (pg-boss's fromPrisma) is stored with its rows, or not at all — on PGlite's one connection and on PostgreSQL.
  it('stores a job sent inside a Prisma transaction only if that transaction commits', async () => {
    const ran: NegotiationJob[] = [];
    const work = await instance({ driveNegotiation: async (job) => void ran.push(job) });
    const job = (negotiationId: string): NegotiationJob => ({ workspaceId: 'W1', negotiationId });
    const sendIn = (tx: Parameters<typeof fromPrisma>[0], data: NegotiationJob) =>
      work.boss.send(DRIVE_NEGOTIATION, data, {
        singletonKey: `negotiation:${data.negotiationId}`,
        db: fromPrisma(tx),
      });

    const rolledBack = db.prisma.$transaction(async (tx) => {
      await tx.workspace.create({ data: { slackTeamId: 'T0ROLLBACK', name: 'Gone', brandName: 'Gone' } });
      expect(await sendIn(tx, job('rolled-back'))).toEqual(expect.any(String));
      throw new Error('the use case fails after sending');
    });
    await expect(rolledBack).rejects.toThrow('the use case fails after sending');
    expect(await db.prisma.workspace.count({ where: { slackTeamId: 'T0ROLLBACK' } })).toBe(0);
    expect(await work.pending()).toBe(0);

    await db.prisma.$transaction(async (tx) => {
      await tx.workspace.create({ data: { slackTeamId: 'T0COMMITS', name: 'Kept', brandName: 'Kept' } });
      await sendIn(tx, job('committed'));
    });
    await until(() => ran.length > 0, 20_000);
    await work.idle();
    expect(ran).toEqual([job('committed')]);
  }, 60_000);
});
