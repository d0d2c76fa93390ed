// The end of a negotiation on a real database (PGlite, or PostgreSQL with DATABASE_URL): the recommendation is
// committed and its post queued as soon as the decision and the draft PO are, without waiting for the price chart to be
// drawn (seconds of CPU at 3,000 lines); the chart follows under it. A process that dies between the two leaves its
// drive job to be retried, and the retry queues the chart — once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { scopeToWorkspace, type WorkspaceDb } from '../../db/scoped.js';
import { seedWorkspace } from '../../db/seed.js';
import { createOfflineBrandAgent } from '../../negotiation/agents/offline/brand-agent.js';
import { createOfflineSupplierAgent } from '../../negotiation/agents/offline/supplier-agent.js';
import type * as Views from '../../slack/views/index.js';
import { priceChartKey } from '../../thread/decision.js';
import { type Compute, computeInProcess } from '../../worker/compute.js';
import { completedNegotiations, seedNegotiationSuppliers } from '../../../test/support/negotiation-workspace.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { recordingTransactions } from '../../../test/support/recording-transactions.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import { concludeNegotiation, driveNegotiation } from './drive-negotiation.js';

const BUYER = 'UBUYER0001';

/** The calls of the transaction open right now, if any: a Block Kit builder called then notes itself in them. */
const building = vi.hoisted(() => ({ open: null as string[] | null }));
vi.mock('../../slack/views/index.js', async (importOriginal) => {
  const views = await importOriginal<typeof Views>();
  const noted =
    <A extends unknown[], R>(name: string, build: (...args: A) => R) =>
    (...args: A): R => {
      building.open?.push(`build:${name}`);
      return build(...args);
    };
  return {
    ...views,
    buildDecision: noted('buildDecision', views.buildDecision),
    buildStatusCard: noted('buildStatusCard', views.buildStatusCard),
  };
});

/** recordingTransactions, and whatever is built while one of its transactions is open noted in its calls. */
function recordingBuilds(db: WorkspaceDb, transactions: string[][]): WorkspaceDb {
  const recorded = recordingTransactions(db, transactions);
  return new Proxy(recorded, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== '$transaction' || typeof value !== 'function') return value;
      return (work: unknown, options?: unknown) => {
        const run = value as (...a: unknown[]) => unknown;
        if (typeof work !== 'function') return run.call(target, work, options);
        return run.call(
          target,
          async (tx: object) => {
            building.open = transactions.at(-1) ?? null;
            try {
              return await (work as (tx: object) => Promise<unknown>)(tx);
            } finally {
              building.open = null;
            }
          },
          options,
        );
      };
    },
  });
}

/** A price chart the test draws when it says so (or fails, as a process that dies while drawing it). */
function heldCharts() {
  const waiting: { draw: () => void; fail: () => void }[] = [];
  const compute: Compute = {
    ...computeInProcess,
    priceChart: (input) =>
      new Promise<Buffer>((resolve, reject) => {
        waiting.push({
          draw: () => void computeInProcess.priceChart(input).then(resolve, reject),
          fail: () => reject(new Error('the process died while drawing the chart')),
        });
      }),
  };
  return { compute, waiting };
}

describe('concluding a negotiation', () => {
  let db: TestDatabase;
  let ws: WorkspaceDb;
  let workspaceId: string;
  /** A negotiation that has just completed with the hand-worked offers (the engine's own run is tested elsewhere). */
  let completedNegotiation: () => Promise<string>;

  beforeAll(async () => {
    db = await createTestDatabase();
    ({ workspaceId } = await seedWorkspace(db.prisma, { slackTeamId: 'TCONCL', brandName: 'Valden', catalog: [] }));
    ws = scopeToWorkspace(db.prisma, workspaceId);
    const completed = completedNegotiations(ws, await seedNegotiationSuppliers(ws), BUYER);
    completedNegotiation = () => completed('cost');
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
  });

  async function contextWith(compute: Compute): Promise<ServiceContext> {
    const factory = createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: null, compute });
    const ctx = await factory.forWorkspace(workspaceId);
    if (!ctx) throw new Error('workspace not seeded');
    return ctx;
  }

  const keys = async (negotiationId: string) =>
    (
      await ws.slackOutbox.findMany({
        where: { dedupeKey: { startsWith: `neg:${negotiationId}:` } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      })
    ).map((row) => row.dedupeKey);
  const decisionQueued = async (negotiationId: string) =>
    (await keys(negotiationId)).some((key) => key.startsWith(`neg:${negotiationId}:decision:`));

  async function until(condition: () => Promise<boolean>, what: string) {
    for (let tries = 0; tries < 200; tries++) {
      if (await condition()) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  it('queues the recommendation while the chart is still being drawn, and the chart after it', async () => {
    const negotiationId = await completedNegotiation();
    const charts = heldCharts();
    const concluding = concludeNegotiation(await contextWith(charts.compute), negotiationId);
    // Before this change the decision's transaction waited for the chart: the post was not queued until it was drawn.
    await until(async () => charts.waiting.length === 1, 'the chart to be asked for');
    expect(await decisionQueued(negotiationId)).toBe(true);
    expect(await keys(negotiationId)).not.toContain(priceChartKey(negotiationId));
    const quotation = await ws.negotiation.findUniqueOrThrow({
      where: { id: negotiationId },
      include: { quotation: true },
    });
    expect(quotation.quotation.status).toBe('completed');

    charts.waiting[0]?.draw();
    await concluding;
    const queued = await keys(negotiationId);
    const decisionAt = queued.findIndex((key) => key.startsWith(`neg:${negotiationId}:decision:`));
    expect(queued.indexOf(priceChartKey(negotiationId))).toBeGreaterThan(decisionAt);
  });

  it("drafts the PO's lines in one statement and reads the PO back only after the draft's transaction", async () => {
    const negotiationId = await completedNegotiation();
    const ctx = await contextWith(computeInProcess);
    const transactions: string[][] = [];
    const recorded: ServiceContext = { ...ctx, db: recordingTransactions(ctx.db, transactions) };
    await concludeNegotiation(recorded, negotiationId);
    const draft = transactions.find((calls) => calls.includes('purchaseOrder.create'));
    if (!draft) throw new Error('no draft transaction');
    // On PGlite a transaction holds the only connection: per-line work in it (Prisma compiling each line's values, a
    // 3,000-line read back through its includes) kept every ack waiting. Before: product.findMany,
    // purchaseOrderItem.createMany and purchaseOrder.findUnique in here.
    expect(draft.filter((call) => /^(product|purchaseOrderItem)\./.test(call))).toEqual([]);
    expect(draft).not.toContain('purchaseOrder.findUnique');
    const po = await ws.purchaseOrder.findFirstOrThrow({
      where: { negotiationId },
      include: { allocations: { include: { items: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } } } },
    });
    expect(po.allocations.flatMap((a) => a.items.map((item) => item.sku))).toEqual(['A', 'B']);
  });

  it("builds the decision's post and status card before its transaction, which only writes them", async () => {
    const negotiationId = await completedNegotiation();
    const ctx = await contextWith(computeInProcess);
    const transactions: string[][] = [];
    await concludeNegotiation({ ...ctx, db: recordingBuilds(ctx.db, transactions) }, negotiationId);
    const decision = transactions.find((calls) => calls.includes('quotation.updateMany'));
    if (!decision) throw new Error('no decision transaction');
    // On PGlite the decision's transaction held the only connection for up to 2.4 s under load: before, the message
    // and the card were built in it (build:buildDecision, build:buildStatusCard) after reading the thread
    // (negotiation.findUniqueOrThrow, quotation.findUniqueOrThrow) and the card's stream, and written in two statements.
    expect(decision.filter((call) => call.startsWith('build:'))).toEqual([]);
    expect(decision.filter((call) => /^(negotiation|quotation|workspace)\./.test(call))).toEqual([
      'quotation.updateMany',
    ]);
    expect(decision.filter((call) => call === 'slackOutbox.createMany')).toHaveLength(1);
    // What is written is the same: the decision's post and the card's edit.
    const queued = await keys(negotiationId);
    expect(queued.filter((key) => key.startsWith(`neg:${negotiationId}:decision:`))).toHaveLength(1);
    const quotationId = (await ws.negotiation.findUniqueOrThrow({ where: { id: negotiationId } })).quotationId;
    const card = await ws.slackOutbox.findMany({
      where: { dedupeKey: { startsWith: `q:${quotationId}:status:decision:` } },
    });
    expect(card).toHaveLength(1);
  });

  it('draws the chart on the retry of a drive whose process died after the recommendation was committed', async () => {
    const negotiationId = await completedNegotiation();
    const agents = { brand: createOfflineBrandAgent(), supplier: () => createOfflineSupplierAgent() };
    const dying = heldCharts();
    const first = driveNegotiation(await contextWith(dying.compute), { negotiationId, agents, owner: 'first' });
    await until(async () => dying.waiting.length === 1, 'the chart to be asked for');
    dying.waiting[0]?.fail();
    await expect(first).rejects.toThrow('died while drawing');
    expect(await decisionQueued(negotiationId)).toBe(true);
    expect(await keys(negotiationId)).not.toContain(priceChartKey(negotiationId));

    // The job's retry: the conclusion is done (the quotation left `negotiating`), the chart is not.
    const retry = await contextWith(computeInProcess);
    expect(await driveNegotiation(retry, { negotiationId, agents, owner: 'retry' })).toBe('completed');
    expect(await keys(negotiationId)).toContain(priceChartKey(negotiationId));
    // Driven again (a click queued after the end): nothing more is drawn or queued.
    const before = await keys(negotiationId);
    const never = heldCharts();
    expect(await driveNegotiation(await contextWith(never.compute), { negotiationId, agents, owner: 'late' })).toBe(
      'completed',
    );
    expect(never.waiting).toHaveLength(0);
    expect(await keys(negotiationId)).toEqual(before);
  });
});
