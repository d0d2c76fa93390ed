// The start modal's acknowledgement waits for beginNegotiation (acknowledged means saved), and at 3,000 lines it was
// the slowest ack of the large story. What its transaction does while it holds the connection (on PGlite
// the only one, every other ack waiting behind it) is only writes: the lines, the baseline, the engine's first state,
// its checkpoint's encoding and the thread's reads come before it, and nothing just written is read back. Against a
// real database (PGlite, or PostgreSQL with DATABASE_URL), on a real sample read by the real reader.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { seedWorkspace } from '../../db/seed.js';
import { loadCheckpoint } from '../../db/stores/negotiation-store.js';
import { recordingTransactions } from '../../../test/support/recording-transactions.js';
import { startRequest } from '../../../test/support/negotiation-fixtures.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { chooseSupplier } from '../quotation/review-quotation.js';
import { readQuotation } from '../quotation/read-quotation.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import { beginNegotiation } from './begin-negotiation.js';

const TEAM = 'T0BEGINTX1';
const BUYER = 'U0BUYER001';

let db: TestDatabase;
let ctx: ServiceContext;

beforeAll(async () => {
  db = await createTestDatabase();
  // The seeded catalog: the sample's lines match products, so the baseline has lines to negotiate.
  await seedWorkspace(db.prisma, { slackTeamId: TEAM, brandName: 'Valden Outdoor' });
  const contexts = createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: null });
  const found = await contexts.forTeam(TEAM);
  if (!found) throw new Error('no workspace');
  ctx = found;
}, 120_000);
afterAll(() => db?.destroy());

const request = startRequest;

/** Sample 13 (3,000 lines) shared, read, reviewed and its supplier named: ready to start. */
async function readyQuotation(slackFileId = 'F0BEGINTX1') {
  const quotation = await ctx.db.quotation.create({
    data: {
      workspaceId: ctx.workspace.id,
      slackFileId,
      slackChannelId: 'C0BEGINTX1',
      slackThreadTs: '1767225600.000100',
      slackMessageTs: '1767225600.000100',
      uploadedBySlackUserId: BUYER,
      fileName: 'quote.xlsx',
    },
  });
  const sample = await readFile(new URL('../../../data/samples/13-large-3000-lines.xlsx', import.meta.url));
  await readQuotation(ctx, { quotationId: quotation.id, owner: 'instance-a', download: async () => sample });
  const row = await ctx.db.quotation.findUniqueOrThrow({ where: { id: quotation.id } });
  if (!row.supplierId) {
    const chosen = await chooseSupplier(ctx, {
      quotationId: quotation.id,
      by: BUYER,
      choice: { kind: 'new' },
      page: 1,
    });
    expect(chosen.ok).toBe(true);
  }
  // The buyer's review, as its end state: every suggestion confirmed, the rest not in the catalog.
  await ctx.db.quotationItem.updateMany({
    where: { quotationId: quotation.id, reviewState: 'needs_review', productId: { not: null } },
    data: { reviewState: 'confirmed' },
  });
  await ctx.db.quotationItem.updateMany({
    where: { quotationId: quotation.id, reviewState: 'needs_review' },
    data: { reviewState: 'not_in_catalog' },
  });
  await ctx.db.quotation.update({ where: { id: quotation.id }, data: { status: 'ready' } });
  expect((await ctx.db.quotation.findUniqueOrThrow({ where: { id: quotation.id } })).status).toBe('ready');
  return quotation;
}

describe('beginNegotiation', () => {
  it('starts in a transaction of writes only: nothing built or read back while it holds the connection', async () => {
    const quotation = await readyQuotation();
    const transactions: string[][] = [];
    const started = await beginNegotiation(
      { ...ctx, db: recordingTransactions(ctx.db, transactions) },
      { quotationId: quotation.id, by: BUYER, request },
    );
    expect(started.ok).toBe(true);
    if (!started.ok) return;

    expect(transactions).toEqual([
      [
        // First, fenced on the status and supplier the start was built from.
        'quotation.updateMany',
        'negotiation.create',
        // The rows' ids as the insert returns them, not read back.
        'negotiationSupplier.createManyAndReturn',
        // The quotation's own offer, as round 0.
        'negotiationRound.upsert',
        // The checkpoint's line sets, in one statement (a new negotiation has no deltas to clear).
        '$executeRaw',
        // The outbox: the status card's last edit (an edit that repeats it is skipped) and the database's time in one
        // statement, then the rows.
        '$queryRaw',
        'slackOutbox.createMany',
      ],
    ]);

    // What was saved: the negotiation with its suppliers and checkpoint, the quotation negotiating, the thread told.
    const { negotiationId } = started.value;
    const negotiation = await ctx.db.negotiation.findUniqueOrThrow({
      where: { id: negotiationId },
      include: { suppliers: { include: { supplier: { select: { code: true } } } } },
    });
    expect(negotiation).toMatchObject({
      quotationId: quotation.id,
      status: 'negotiating',
      startedBySlackUserId: BUYER,
    });
    const { state, version } = await loadCheckpoint(ctx.db, negotiationId);
    expect(version).toBe(0);
    expect(state.baseline.lines.length).toBeGreaterThan(0);
    expect(negotiation.suppliers.map((row) => row.supplier.code).sort()).toHaveLength(state.profiles.length);
    expect(await ctx.db.negotiationRound.count({ where: { negotiationId } })).toBeGreaterThan(0);
    expect((await ctx.db.quotation.findUniqueOrThrow({ where: { id: quotation.id } })).status).toBe('negotiating');
    const keys = (await ctx.db.slackOutbox.findMany({ select: { dedupeKey: true } })).map((row) => row.dedupeKey);
    expect(keys).toContain(`q:${quotation.id}:plan`);

    // A second submit (a double click, a Slack retry) starts nothing more.
    const again = await beginNegotiation(ctx, { quotationId: quotation.id, by: BUYER, request });
    expect(again).toMatchObject({ ok: true, changed: false, value: { negotiationId } });
  }, 120_000);

  it('refuses a start whose supplier was named again after it read the quotation, writing nothing', async () => {
    const quotation = await readyQuotation('F0BEGINTX2');
    const before = await ctx.db.quotation.findUniqueOrThrow({ where: { id: quotation.id } });
    const other = await ctx.db.supplier.findFirstOrThrow({
      where: { isSimulated: true, NOT: { id: before.supplierId ?? undefined } },
    });
    // Between the start's reads and its transaction, someone names another supplier (it commits first).
    const db = new Proxy(ctx.db, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property !== '$transaction' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          await target.quotation.update({ where: { id: quotation.id }, data: { supplierId: other.id } });
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const started = await beginNegotiation({ ...ctx, db }, { quotationId: quotation.id, by: BUYER, request });

    expect(started).toMatchObject({ ok: false, error: 'conflict' });
    expect(await ctx.db.negotiation.count({ where: { quotationId: quotation.id } })).toBe(0);
    const after = await ctx.db.quotation.findUniqueOrThrow({ where: { id: quotation.id } });
    expect(after).toMatchObject({ status: 'ready', supplierId: other.id });
  }, 120_000);
});
