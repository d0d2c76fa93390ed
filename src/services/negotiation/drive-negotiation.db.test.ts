// A curveball choice clicked while the engine is in the middle of a step: the click and the step
// are both saved over the same checkpoint version, so one of them loses. The step that loses is computed again from
// the checkpoint with the buyer's choice in it, and the run goes on to its end at once — not after the recovery sweep
// finds it stalled. Through the facade (src/services/parley.ts: the click, the pg-boss jobs) on a real database
// (PGlite, or PostgreSQL with DATABASE_URL), with the offline agents.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { LEASE_MS, loadCheckpoint, saveStep } from '../../db/stores/negotiation-store.js';
import { DECISION_PURPOSE } from '../../decision/write-decision.js';
import { type Llm, LlmError } from '../../llm/llm.js';
import { createOfflineBrandAgent } from '../../negotiation/agents/offline/brand-agent.js';
import { createOfflineSupplierAgent } from '../../negotiation/agents/offline/supplier-agent.js';
import { advance, type EngineAgents } from '../../negotiation/engine.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { noFiles } from '../../../test/support/facade-fakes.js';
import { BUYER, negotiationWorkspace, type NegotiationWorkspace } from '../../../test/support/negotiation-workspace.js';
import { createParley, type Parley } from '../parley.js';
import { decisionFailedKey, priceChartKey } from '../../thread/decision.js';
import { giveUpNegotiation } from './drive-negotiation.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import { PgBoss } from 'pg-boss';
import {
  type BackgroundWork,
  type BackgroundWorkTuning,
  DRIVE_NEGOTIATION,
  type NegotiationJob,
  startBackgroundWork,
} from '../../jobs/background-work.js';

const TEAM = 'T0DRIVECB1';
/** A seed whose run, with no questions asked, goes to its end without waiting for the buyer. */
const SEED = 2;

let db: TestDatabase;
let ctx: ServiceContext;
let runningNegotiation: NegotiationWorkspace['runningNegotiation'];

beforeAll(async () => {
  db = await createTestDatabase();
  ({ ctx, runningNegotiation } = await negotiationWorkspace(db.prisma, TEAM));
}, 60_000);
const started: BackgroundWork[] = [];
// A facade's workers take any negotiation's jobs: one test's must not run the next test's.
afterEach(async () => {
  for (const work of started.splice(0)) await work.stop();
});
afterAll(() => db?.destroy());

const offline: EngineAgents = { brand: createOfflineBrandAgent(), supplier: () => createOfflineSupplierAgent() };

/**
 * Claude as the decision's writer sees it: every call counted, each one failing so the deterministic text is used. A
 * negotiation is concluded once, however often it is queued: a second conclusion would pay for its memo again.
 */
function countingLlm() {
  const purposes: string[] = [];
  const llm: Llm = {
    structured: async (request) => {
      purposes.push(request.purpose);
      throw new LlmError(`${request.purpose}: no Claude in this test`);
    },
    cacheable: () => false,
  };
  return { llm, decisionsWritten: () => purposes.filter((purpose) => purpose === DECISION_PURPOSE).length };
}

async function facade(
  agents: EngineAgents,
  llm: Llm,
  { owner = 'instance-a', tuning = {} }: { owner?: string; tuning?: BackgroundWorkTuning } = {},
): Promise<Parley> {
  const work = await startBackgroundWork({ connection: db.jobQueue, prisma: db.prisma, concurrency: 2, ...tuning });
  started.push(work);
  const parley = createParley({
    contexts: createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm }),
    work,
    agents,
    owner,
    files: noFiles,
    kickOutbox: () => {},
  });
  await work.work(parley.jobs);
  return parley;
}

/** Ends as a run must: completed, lease released, the buyer's strategy in force, the decision written once. */
async function expectConcluded(negotiationId: string, strategyId: string | undefined, decisionsWritten: number) {
  const negotiation = await ctx.db.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
  expect(negotiation.status).toBe('completed');
  expect(negotiation.leaseOwner).toBeNull();
  const { state } = await loadCheckpoint(ctx.db, negotiationId);
  expect(state.status).toBe('completed');
  expect(state.curveball).toMatchObject({ chosen: strategyId, chosenBy: BUYER });
  // The transcript has no gap and no repeat where a lost step was computed again.
  const sequences = (await ctx.db.message.findMany({ where: { negotiationId }, orderBy: { sequence: 'asc' } })).map(
    (m) => m.sequence,
  );
  expect(sequences).toEqual(sequences.map((_, index) => (sequences[0] ?? 0) + index));
  // Concluded: the decision is posted (the quotation leaves `negotiating`), and written once.
  expect((await ctx.db.quotation.findFirstOrThrow({ where: { negotiation: { id: negotiationId } } })).status).toBe(
    'completed',
  );
  expect(decisionsWritten).toBe(1);
}

describe('a curveball choice while the run takes a step', () => {
  it('is saved, and the run continues from it to the end without waiting for the sweep', async () => {
    const { negotiationId } = await runningNegotiation(SEED);
    // The facade the agents click through (it is built from these agents, just below).
    const buyer: { parley?: Parley; strategyId?: string; result?: unknown } = {};
    // The first supplier turn after the curveball: the buyer clicks another strategy before this turn is saved.
    const agents: EngineAgents = {
      brand: offline.brand,
      supplier: (code) => ({
        async respond(context) {
          const { state } = await loadCheckpoint(ctx.db, negotiationId);
          if (state.curveball && buyer.parley && buyer.strategyId === undefined) {
            const strategyId = state.curveball.strategies.find((s) => s.id !== state.curveball?.chosen)?.id ?? '';
            buyer.strategyId = strategyId;
            buyer.result = await buyer.parley.chooseCurveballStrategy(TEAM, { negotiationId, strategyId, by: BUYER });
          }
          return offline.supplier(code).respond(context);
        },
      }),
    };
    const claude = countingLlm();
    const parley = await facade(agents, claude.llm);
    buyer.parley = parley;

    await parley.resume(ctx.workspace.id, negotiationId);
    await parley.idle();

    expect(buyer.result).toMatchObject({ ok: true, changed: true });
    await expectConcluded(negotiationId, buyer.strategyId, claude.decisionsWritten());
  }, 60_000);

  it('starts the run again when none was going (it stopped, or its process died), rather than leaving it to the sweep', async () => {
    const { negotiationId } = await runningNegotiation(SEED);
    // Steps saved by a run that then stopped without its lease: the curveball is out, the rounds go on.
    let { state, version } = await loadCheckpoint(ctx.db, negotiationId);
    while (!state.curveball && state.status === 'running') {
      const result = await advance(state, offline);
      version = await saveStep(ctx.db, negotiationId, version, result);
      state = result.state;
    }
    expect(state.status).toBe('running');
    if (!state.curveball) throw new Error('no curveball before the run stopped');
    const strategyId = state.curveball.strategies.find((s) => s.id !== state.curveball?.chosen)?.id;
    if (!strategyId) throw new Error('the curveball offers one strategy');

    const claude = countingLlm();
    const parley = await facade(offline, claude.llm);
    expect(await parley.chooseCurveballStrategy(TEAM, { negotiationId, strategyId, by: BUYER })).toMatchObject({
      ok: true,
      changed: true,
    });
    await parley.idle();
    await expectConcluded(negotiationId, strategyId, claude.decisionsWritten());
  }, 60_000);
});

/** pg-boss's shortest heartbeat, a supervisor that looks every second, quick retries. */
const FAST: BackgroundWorkTuning = {
  heartbeatSeconds: 10,
  superviseIntervalSeconds: 1,
  retryDelaySeconds: 1,
  pollingIntervalSeconds: 0.5,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(100);
  }
}

describe('a worker that dies in the middle of a negotiation (pg-boss replaces the recovery sweep)', () => {
  // Over 10 s: the dead worker's job comes back only once its heartbeat lapses (10 s, pg-boss's shortest).
  it('is replaced by an instance with a new id, which finishes from the checkpoint without waiting out the dead lease', async () => {
    const { negotiationId } = await runningNegotiation(SEED);
    // The queues, with a 10-second heartbeat, as every instance of this test starts them.
    const setup = await startBackgroundWork({ connection: db.jobQueue, prisma: db.prisma, concurrency: 1, ...FAST });
    await setup.stop();

    // The dying process: it takes the job (pg-boss marks it active for it), runs a few supplier turns, then hangs in
    // one — and is killed: no completion, no failure, no more heartbeats, exactly what SIGKILL leaves behind. Its
    // pg-boss has no supervisor and no worker of its own (a stop would fail the job, which a killed process cannot).
    const dying = new PgBoss({ ...db.jobQueue, schema: db.jobQueue.schema ?? 'pgboss', supervise: false });
    await dying.start();
    await dying.send(DRIVE_NEGOTIATION, { workspaceId: ctx.workspace.id, negotiationId } satisfies NegotiationJob, {
      singletonKey: `negotiation:${negotiationId}`,
    });
    const [taken] = await dying.fetch<NegotiationJob>(DRIVE_NEGOTIATION);
    if (!taken) throw new Error('the dying process took no job');
    let turns = 0;
    let hung: () => void = () => {};
    const hanging = new Promise<void>((resolve) => (hung = resolve));
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const doomed: EngineAgents = {
      brand: offline.brand,
      supplier: (code) => ({
        async respond(context) {
          if (++turns === 4) {
            hung();
            await released;
          }
          return offline.supplier(code).respond(context);
        },
      }),
    };
    const deadParley = createParley({
      contexts: createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: countingLlm().llm }),
      work: setup,
      agents: doomed,
      owner: 'instance-dead',
      files: noFiles,
      kickOutbox: () => {},
    });
    const zombie = deadParley.jobs.driveNegotiation(taken.data, taken).catch((error: unknown) => error);
    await hanging;
    await dying.stop({ graceful: false, close: true });
    const killedAt = Date.now();
    const atDeath = await ctx.db.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
    expect(atDeath.leaseOwner).toMatch(/^job:.*@instance-dead$/);
    expect(atDeath.leaseExpiresAt?.getTime()).toBeGreaterThan(Date.now() + LEASE_MS / 2);
    const savedBeforeDeath = atDeath.checkpointVersion;
    expect(savedBeforeDeath).toBeGreaterThan(0);

    // A new process, under a name of its own: pg-boss sees the dead job's heartbeat stop and retries it here.
    const claude = countingLlm();
    await facade(offline, claude.llm, { owner: 'instance-new', tuning: FAST });
    const concluded = async () =>
      (await ctx.db.quotation.count({ where: { negotiation: { id: negotiationId }, status: 'completed' } })) === 1;
    // The new instance holds the negotiation (or has already finished it) within a heartbeat and a few supervisor
    // passes — not when the dead process's lease runs out, a minute after it hung.
    const takenOver = async () =>
      (await concluded()) ||
      /@instance-new$/.test(
        (await ctx.db.negotiation.findUniqueOrThrow({ where: { id: negotiationId } })).leaseOwner ?? '',
      );
    await until(takenOver, 2 * LEASE_MS);
    expect(Date.now() - killedAt).toBeLessThan(LEASE_MS * 0.75);
    // The new instance's job ends with the price chart, queued after the recommendation's commit: until then the
    // outbox still grows, and the count below would race it.
    const finished = async () =>
      (await concluded()) &&
      (await ctx.db.slackOutbox.count({ where: { dedupeKey: priceChartKey(negotiationId) } })) === 1;
    await until(finished, 2 * LEASE_MS);

    const negotiation = await ctx.db.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
    expect(negotiation.status).toBe('completed');
    expect(negotiation.leaseOwner).toBeNull();
    expect(claude.decisionsWritten()).toBe(1);
    // From the checkpoint: the steps the dead process saved stand, the transcript has no gap and no repeat.
    const transcript = async () =>
      (await ctx.db.message.findMany({ where: { negotiationId }, orderBy: { sequence: 'asc' } })).map(
        (m) => m.sequence,
      );
    const sequences = await transcript();
    expect(sequences).toEqual(sequences.map((_, index) => (sequences[0] ?? 0) + index));
    const outboxRows = await ctx.db.slackOutbox.count();

    // The dead process was only frozen, and wakes: its next write finds the lease gone and it stops, saving nothing.
    release();
    await zombie;
    expect(await transcript()).toEqual(sequences);
    expect((await ctx.db.negotiation.findUniqueOrThrow({ where: { id: negotiationId } })).checkpointVersion).toBe(
      negotiation.checkpointVersion,
    );
    expect(await ctx.db.slackOutbox.count()).toBe(outboxRows);
  }, 180_000);
});

describe('a negotiation whose job failed for good (the dead-letter queue)', () => {
  it('is marked failed and its thread told once; one a run outside the jobs still leases is left alone', async () => {
    const { negotiationId } = await runningNegotiation(SEED);
    await ctx.db.negotiation.update({
      where: { id: negotiationId },
      data: {
        status: 'negotiating',
        leaseOwner: 'job:dead#12@instance-a',
        leaseExpiresAt: new Date(Date.now() + LEASE_MS),
      },
    });
    expect(await giveUpNegotiation(ctx, negotiationId)).toBe(true);
    expect(await ctx.db.negotiation.findUniqueOrThrow({ where: { id: negotiationId } })).toMatchObject({
      status: 'failed',
      leaseOwner: null,
    });
    const told = await ctx.db.slackOutbox.findMany({ where: { dedupeKey: decisionFailedKey(negotiationId) } });
    expect(told).toHaveLength(1);
    expect(JSON.stringify(told[0]?.payload)).toContain('stopped after repeated errors');
    expect(await giveUpNegotiation(ctx, negotiationId)).toBe(false);

    const cli = await runningNegotiation(SEED);
    await ctx.db.negotiation.update({
      where: { id: cli.negotiationId },
      data: { status: 'negotiating', leaseOwner: 'cli-run', leaseExpiresAt: new Date(Date.now() + LEASE_MS) },
    });
    expect(await giveUpNegotiation(ctx, cli.negotiationId)).toBe(false);
    expect((await ctx.db.negotiation.findUniqueOrThrow({ where: { id: cli.negotiationId } })).status).toBe(
      'negotiating',
    );
  });
});
