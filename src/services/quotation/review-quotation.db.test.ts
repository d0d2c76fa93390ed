// The buyer's review behind the Slack layer, against a real database (PGlite, or DATABASE_URL's PostgreSQL):
// "Confirm all suggestions" confirms what the buyer saw and what the matcher was sure of, nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogProduct } from '../../catalog/products-csv.js';
import { loadEnv } from '../../config/env.js';
import { seedWorkspace } from '../../db/seed.js';
import { REVIEW_PAGE_SIZE } from '../../quotation/confirm-all.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import type { PrismaClient } from '../../db/client.js';
import { confirmAllSuggestions, reviewItem } from './review-quotation.js';
import { applyReviewWorkbook } from './review-workbook.js';
import { countingOperations } from '../../../test/support/counting-operations.js';

const TEAM = 'T0REVIEW01';
const BUYER = 'U0BUYER001';
const LINES = 40;
/** Page 3: matched at 1.0, one flag on its quantity lowered it to 0.8. */
const SURE = 35;
/** Page 1: below mustActBelow, decided on its own. */
const WEAK = 3;

const jacket = (n: number): CatalogProduct => ({
  brand: 'Valden Outdoor',
  sku: `MC${String(n).padStart(3, '0')}-GLW-M`,
  name: `Summit Jacket ${n}`,
  color: 'Glacier White',
  size: 'M',
  category: 'Jackets',
});

let db: TestDatabase;
let ctx: ServiceContext;
let files = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorkspace(db.prisma, {
    slackTeamId: TEAM,
    brandName: 'Valden Outdoor',
    catalog: Array.from({ length: LINES }, (_, n) => jacket(n + 1)),
  });
  ctx = await contextOver(db.prisma);
});
afterAll(() => db?.destroy());

/** The workspace's services over `prisma`: the test's client, or one extended to count what a click does. */
async function contextOver(prisma: PrismaClient): Promise<ServiceContext> {
  const contexts = createContextFactory({ prisma, env: loadEnv({}), llm: null, now: () => new Date() });
  const found = await contexts.forTeam(TEAM);
  if (!found) throw new Error('no workspace');
  return found;
}

/** The buyer confirms a line's suggestion, on the review's first page. */
const confirmLine = (context: ServiceContext, item: { id: string; productId: string | null }) =>
  reviewItem(context, {
    itemId: item.id,
    by: BUYER,
    decision: { kind: 'confirm', productId: item.productId },
    page: 1,
  });

/** A quotation in review: every line suggested at 0.72 unless said otherwise, in sheet order. */
async function quotationInReview() {
  const n = ++files;
  const quotation = await ctx.db.quotation.create({
    data: {
      workspaceId: ctx.workspace.id,
      slackFileId: `F0REVIEW${n}`,
      slackChannelId: 'C0REVIEW01',
      slackThreadTs: `1767225600.00020${n}`,
      slackMessageTs: `1767225600.00020${n}`,
      uploadedBySlackUserId: BUYER,
      fileName: 'quote.xlsx',
      status: 'review',
    },
  });
  const products = await ctx.db.product.findMany({ orderBy: { sku: 'asc' }, select: { id: true, sku: true } });
  await ctx.db.quotationItem.createMany({
    data: products.map((product, position) => ({
      workspaceId: ctx.workspace.id,
      quotationId: quotation.id,
      position,
      sheet: 'Quote',
      rowNumber: position + 2,
      rawSku: product.sku,
      productId: product.id,
      matchConfidence: position === SURE ? 0.8 : position === WEAK ? 0.4 : 0.72,
      matchMethod: 'fuzzy_sku' as const,
      candidates: [{ productId: product.id, sku: product.sku, confidence: 0.72 }],
      flags:
        position === SURE
          ? [{ code: 'arithmetic_mismatch', message: 'qty × price ≠ total', sheet: 'Quote', row: 37, column: 4 }]
          : [],
      reviewState: 'needs_review' as const,
    })),
  });
  return quotation;
}

const states = async (quotationId: string) =>
  (await ctx.db.quotationItem.findMany({ where: { quotationId }, orderBy: { position: 'asc' } })).map(
    (item) => item.reviewState,
  );

describe('confirmAllSuggestions', () => {
  it('confirms the page shown and the lines the matcher was sure of; the rest stay open, counted', async () => {
    const quotation = await quotationInReview();
    const result = await confirmAllSuggestions(ctx, { quotationId: quotation.id, by: BUYER, page: 2 });
    // Page 2 is lines 15–29 (all 15 clickable), plus line 35 from page 3.
    expect(result).toMatchObject({ ok: true, value: { confirmed: REVIEW_PAGE_SIZE + 1, unseen: 23 } });
    const after = await states(quotation.id);
    after.forEach((state, position) => {
      const seen = position >= REVIEW_PAGE_SIZE && position < 2 * REVIEW_PAGE_SIZE;
      expect([position, state]).toEqual([position, seen || position === SURE ? 'confirmed' : 'needs_review']);
    });

    // The re-rendered review (page 2) tells the buyer what stayed open and why.
    const edits = await ctx.db.slackOutbox.findMany({ where: { method: 'chat.update' } });
    const review = JSON.stringify(edits.map((row) => row.payload));
    expect(review).toContain('23 suggestions on other pages are not included');

    // The same click again on page 1: that page's clickable lines (not the must-act one) are confirmed now.
    const again = await confirmAllSuggestions(ctx, { quotationId: quotation.id, by: BUYER, page: 1 });
    expect(again).toMatchObject({ ok: true, value: { confirmed: REVIEW_PAGE_SIZE - 1, unseen: 9 } });
    expect((await states(quotation.id))[WEAK]).toBe('needs_review');
  });

  it('refuses someone who may not review, and changes nothing', async () => {
    const quotation = await quotationInReview();
    const result = await confirmAllSuggestions(ctx, { quotationId: quotation.id, by: 'U0STRANGER', page: 1 });
    expect(result).toMatchObject({ ok: false, error: 'not_allowed' });
    expect(new Set(await states(quotation.id))).toEqual(new Set(['needs_review']));
  });

  it('applies a shared-back review workbook only for someone who may review, and only to a quotation in review', async () => {
    const quotation = await quotationInReview();
    const [first] = await ctx.db.quotationItem.findMany({
      where: { quotationId: quotation.id },
      orderBy: { position: 'asc' },
    });
    const other = await ctx.db.product.findFirstOrThrow({ where: { sku: jacket(LINES).sku } });
    if (!first) throw new Error('no line');
    const workbook = {
      quotationId: quotation.id,
      problem: null,
      rows: [{ row: 2, itemId: first.id, confirmedSku: other.sku }],
    };
    const apply = (sharedBy: string) =>
      ctx.db.$transaction((tx) =>
        applyReviewWorkbook(tx, ctx, { fileName: 'quote - review.xlsx', sharedBy, workbook }),
      );

    expect(await apply('U0STRANGER')).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining(`<@${BUYER}>`),
    });
    expect(await ctx.db.quotationItem.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      productId: first.productId,
      reviewState: 'needs_review',
    });

    expect(await apply(BUYER)).toMatchObject({ kind: 'applied', confirmed: 1, problems: [] });
    expect(await ctx.db.quotationItem.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      productId: other.id,
      reviewState: 'confirmed',
      matchMethod: 'manual',
    });

    await ctx.db.quotation.update({ where: { id: quotation.id }, data: { status: 'negotiating' } });
    expect(await apply(BUYER)).toMatchObject({ kind: 'refused', reason: 'that quotation is past its review.' });
  });
});

describe('a review click on a quotation most of whose lines were matched for sure', () => {
  it('reads the lines that need a person, not every line, to re-render the review', async () => {
    const quotation = await quotationInReview();
    const NEEDED = 5;
    await ctx.db.quotationItem.updateMany({
      where: { quotationId: quotation.id, position: { gte: NEEDED } },
      data: { reviewState: 'auto_accepted', matchConfidence: 1 },
    });
    const first = await ctx.db.quotationItem.findFirstOrThrow({ where: { quotationId: quotation.id, position: 0 } });
    // The same services over a client that counts the quotation lines every findMany returns.
    let linesRead = 0;
    const counting = db.prisma.$extends({
      query: {
        quotationItem: {
          async findMany({ args, query }) {
            const rows = await query(args);
            linesRead += rows.length;
            return rows;
          },
        },
      },
    }) as unknown as PrismaClient;
    const counted = await contextOver(counting);

    const result = await confirmLine(counted, first);
    expect(result).toMatchObject({ ok: true, changed: true });
    // The re-rendered review still counts and totals every line.
    const edit = await ctx.db.slackOutbox.findFirstOrThrow({
      where: {
        method: 'chat.update',
        dedupeKey: { contains: `item:${first.id}` },
        NOT: { dedupeKey: { contains: 'status' } },
      },
    });
    expect(JSON.stringify(edit.payload)).toContain(`${LINES - NEEDED} lines`);
    // Reading every line (40 here, 3,000 in sample 13) on each click was most of a large review's time.
    expect(linesRead).toBeLessThanOrEqual(NEEDED);
  });

  it('writes the review and the status card in one outbox insert, reading the thread once', async () => {
    const quotation = await quotationInReview();
    const first = await ctx.db.quotationItem.findFirstOrThrow({ where: { quotationId: quotation.id, position: 0 } });
    // Every operation asked of the database, as the client hands it to Prisma.
    const { client: counting, operations } = countingOperations(db.prisma);
    const counted = await contextOver(counting);
    operations.length = 0;
    const result = await confirmLine(counted, first);
    expect(result).toMatchObject({ ok: true, changed: true });
    expect(operations.filter((op) => op === 'SlackOutbox.createMany')).toHaveLength(1);
    expect(operations.filter((op) => op === 'Quotation.findUniqueOrThrow')).toHaveLength(1);
    const keys = (await ctx.db.slackOutbox.findMany({ where: { dedupeKey: { contains: `item:${first.id}` } } })).map(
      (row) => row.dedupeKey,
    );
    expect(keys.sort()).toEqual([
      `q:${quotation.id}:review:item:${first.id}`,
      `q:${quotation.id}:status:review:item:${first.id}`,
    ]);
  });

  it('does not ask whether a plan was started: a card in review shows none', async () => {
    const quotation = await quotationInReview();
    const first = await ctx.db.quotationItem.findFirstOrThrow({ where: { quotationId: quotation.id, position: 0 } });
    // The outbox rows the click looks up by their key (`isEnqueued`, `sentTs`), as the client hands them to Prisma.
    const lookedUp: unknown[] = [];
    const counting = db.prisma.$extends({
      query: {
        slackOutbox: {
          async findFirst({ args, query }) {
            if (args.where && 'dedupeKey' in args.where) lookedUp.push(args.where.dedupeKey);
            return query(args);
          },
        },
      },
    }) as unknown as PrismaClient;
    const contexts = createContextFactory({ prisma: counting, env: loadEnv({}), llm: null, now: () => new Date() });
    const counted = await contexts.forTeam(TEAM);
    if (!counted) throw new Error('no workspace');
    const result = await reviewItem(counted, {
      itemId: first.id,
      by: BUYER,
      decision: { kind: 'confirm', productId: first.productId },
      page: 1,
    });
    expect(result).toMatchObject({ ok: true, changed: true });
    // Each statement in the click's transaction is waited for before the click is acknowledged.
    expect(lookedUp).toEqual([]);
  });
});
