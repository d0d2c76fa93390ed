// Recording a large read quotation: the 3,000 lines of sample 13 go to the database in one INSERT,
// not Prisma's per-row bind values in chunked statements, and only under the reader's lease (item 3): a reader that
// lost it writes no line at all. The statements are counted where Prisma hands them to the database driver: a real
// PGlite behind the driver adapter Parley uses, wrapped only to note each statement's text.
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from '@prisma/driver-adapter-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { PGliteAdapterFactory } from '../../db/pglite-adapter.js';
import { PrismaClient } from '../../generated/prisma/client.js';
import { loadCatalogIndex } from '../../db/stores/catalog-store.js';
import { parseQuotation } from '../../quotation/parse-quotation.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import { SEEDED_WORKSPACE } from '../../../test/support/database-templates.js';
import { pgliteTemplateDump } from '../../../test/support/test-database.js';
import { readQuotation } from './read-quotation.js';
import { reviewItem } from './review-quotation.js';
import { enqueueReviewChanged } from '../../thread/review.js';

const TEAM = SEEDED_WORKSPACE.slackTeamId;
const BUYER = 'U0BUYER001';

/** Every statement Prisma sent, in order. */
const statements: string[] = [];

/** Each transaction: its statements, and how long it held the connection (from its start to its commit). */
interface NotedTransaction {
  statements: string[];
  startedAt: number;
  ms: number | null;
}
const transactions: NotedTransaction[] = [];

function noted<T extends SqlDriverAdapter | Transaction>(queryable: T, transaction?: NotedTransaction): T {
  return new Proxy(queryable, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'queryRaw' || property === 'executeRaw') {
        return (query: SqlQuery) => {
          statements.push(query.sql);
          transaction?.statements.push(query.sql);
          return value.call(target, query) as unknown;
        };
      }
      if (property === 'startTransaction') {
        return async (...args: unknown[]) => {
          const opened: NotedTransaction = { statements: [], startedAt: performance.now(), ms: null };
          transactions.push(opened);
          return noted((await value.apply(target, args)) as Transaction, opened);
        };
      }
      if (transaction && (property === 'commit' || property === 'rollback')) {
        return async () => {
          await (value as () => Promise<void>).call(target);
          transaction.ms = performance.now() - transaction.startedAt;
        };
      }
      return value.bind(target) as unknown;
    },
  });
}

function notingStatements(inner: SqlMigrationAwareDriverAdapterFactory): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => noted(await inner.connect()),
    connectToShadowDb: async () => noted(await inner.connectToShadowDb()),
  };
}

const insertsOf = (table: string) =>
  statements.filter((sql) => new RegExp(`^\\s*INSERT INTO "(public"\\.")?${table}"`, 'i').test(sql)).length;

let pglite: PGlite;
let prisma: PrismaClient;
let ctx: ServiceContext;
let large: Buffer;
let files = 0;

beforeAll(async () => {
  // The seeded template: its catalog matches the lines, so each carries its product and candidates as the review shows.
  pglite = new PGlite({ loadDataDir: new Blob([await readFile(pgliteTemplateDump('seeded'))]) });
  await pglite.waitReady;
  prisma = new PrismaClient({ adapter: notingStatements(new PGliteAdapterFactory(pglite)) });
  const contexts = createContextFactory({ prisma, env: loadEnv({}), llm: null });
  const found = await contexts.forTeam(TEAM);
  if (!found) throw new Error('no workspace');
  ctx = found;
  large = await readFile(new URL('../../../data/samples/13-large-3000-lines.xlsx', import.meta.url));
}, 120_000);
afterAll(async () => {
  await prisma?.$disconnect();
  await pglite?.close();
});

async function receivedQuotation() {
  const n = ++files;
  return ctx.db.quotation.create({
    data: {
      workspaceId: ctx.workspace.id,
      slackFileId: `F0RECORD${n}`,
      slackChannelId: 'C0RECORD01',
      slackThreadTs: `1767225600.00020${n}`,
      slackMessageTs: `1767225600.00020${n}`,
      uploadedBySlackUserId: BUYER,
      fileName: 'quote.xlsx',
    },
  });
}

describe('recording the lines of a 3,000-line quotation', () => {
  it('writes every line in one INSERT, each as the parser read it, in the file’s order', async () => {
    const quotation = await receivedQuotation();
    statements.length = 0;
    const outcome = await readQuotation(ctx, {
      quotationId: quotation.id,
      owner: 'instance-a',
      download: async () => large,
    });
    expect(outcome).toBe('review');
    expect(insertsOf('QuotationItem')).toBe(1);

    const items = await ctx.db.quotationItem.findMany({
      where: { quotationId: quotation.id },
      orderBy: { position: 'asc' },
    });
    expect(items).toHaveLength(3000);
    expect(new Set(items.map((item) => item.id)).size).toBe(3000);
    // The same file parsed again, as the reader parsed it: every column holds what the parser gave.
    const parsed = await parseQuotation({
      data: large,
      catalog: await loadCatalogIndex(ctx.db),
      suppliers: await ctx.db.supplier.findMany({
        where: { isSimulated: false },
        select: { id: true, code: true, name: true },
      }),
      limits: ctx.limits,
      llm: null,
    });
    const asStored = (value: { toString(): string } | null) => (value === null ? null : Number(value.toString()));
    expect(
      items.map((item) => ({
        position: item.position,
        sheet: item.sheet,
        row: item.rowNumber,
        rawSku: item.rawSku,
        rawDescription: item.rawDescription,
        rawQuantity: item.rawQuantity,
        rawUnitPrice: item.rawUnitPrice,
        notes: item.rawNotes,
        description: item.description,
        color: item.color,
        size: item.size,
        quantity: item.quantity,
        unitPrice: asStored(item.unitPrice),
        totalPrice: asStored(item.totalPrice),
        tiers: item.tiers,
        productId: item.productId,
        confidence: item.matchConfidence,
        method: item.matchMethod,
        candidates: item.candidates,
        flags: item.flags,
        reviewState: item.reviewState,
      })),
    ).toEqual(
      parsed.items.map((item, position) => ({
        position,
        sheet: item.sheet,
        row: item.row,
        rawSku: item.rawSku,
        rawDescription: item.description,
        rawQuantity: item.quantity === null ? null : String(item.quantity),
        rawUnitPrice: item.unitPrice === null ? null : String(item.unitPrice),
        notes: item.notes,
        description: item.description,
        color: item.color,
        size: item.size,
        quantity: item.quantity === null ? null : Math.round(item.quantity),
        unitPrice: item.unitPrice === null ? null : Math.round(item.unitPrice * 10_000) / 10_000,
        totalPrice: item.totalPrice === null ? null : Math.round(item.totalPrice * 100) / 100,
        tiers: JSON.parse(JSON.stringify(item.tiers)) as unknown,
        productId: item.match.productId,
        confidence: item.match.confidence,
        method: item.match.method,
        candidates: JSON.parse(JSON.stringify(item.match.candidates)) as unknown,
        flags: JSON.parse(JSON.stringify(item.flags)) as unknown,
        reviewState: item.reviewState,
      })),
    );
    // What the matcher decided travels with each line: most matched to a product with candidates to choose from,
    // the rest left for the buyer.
    const matched = items.filter((item) => item.productId !== null);
    expect(matched.length).toBeGreaterThan(2500);
    expect(matched.every((item) => Array.isArray(item.candidates) && item.candidates.length > 0)).toBe(true);
    expect(items.filter((item) => item.reviewState === 'needs_review').length).toBeGreaterThan(0);
    expect(items.every((item) => Array.isArray(item.flags) && Array.isArray(item.tiers))).toBe(true);
  }, 120_000);

  it('holds the connection only for its writes: the review and the status card are built before its transaction', async () => {
    const quotation = await receivedQuotation();
    transactions.length = 0;
    expect(
      await readQuotation(ctx, { quotationId: quotation.id, owner: 'instance-a', download: async () => large }),
    ).toBe('review');
    const completion = transactions.find((t) =>
      t.statements.some((sql) => /INSERT INTO "(public"\.")?QuotationItem"/.test(sql)),
    );
    if (!completion) throw new Error('no completion transaction');
    // On PGlite every other statement (a click's, the outbox's) waits behind this transaction. It used to run 19
    // statements (1.1–1.4 s on this file): after its writes it read the lines back (a count of all 3,000, the open
    // ones with their products, the candidates' products, the catalog, the thread, the plan's calls) to build the
    // review and the status card. Now: the fenced update, the delete, the insert, and the outbox's own statements.
    const reads = completion.statements.filter((sql) => /^\s*SELECT/i.test(sql));
    const summary = `${completion.statements.length} statements in ${Math.round(completion.ms ?? -1)} ms`;
    console.info(`the completion transaction of a 3,000-line file: ${summary}`);
    expect(
      reads.filter((sql) => /"QuotationItem"|"Product"/.test(sql)),
      summary,
    ).toEqual([]);
    expect(completion.statements.length, summary).toBeLessThanOrEqual(8);
    // What the thread is told is the review a re-render from the written rows shows, to the byte (prices as the
    // numeric columns hold them, the quoted total, the sheets, the suggestions' product names), and so is the card.
    const posted = async (dedupeKey: string) =>
      (await ctx.db.slackOutbox.findFirstOrThrow({ where: { dedupeKey } })).payload as Record<string, unknown>;
    const review = await posted(`q:${quotation.id}:review`);
    expect(await posted(`q:${quotation.id}:status:read`)).toBeDefined();
    await ctx.db.$transaction((tx) => enqueueReviewChanged(tx, quotation.id, 'again', 1));
    const rerendered = await posted(`q:${quotation.id}:review:again`);
    const open = await ctx.db.quotationItem.count({
      where: { quotationId: quotation.id, reviewState: 'needs_review' },
    });
    expect(JSON.stringify(review.blocks)).toContain(`${open} still open`);
    expect([review.text, review.blocks]).toEqual([rerendered.text, rerendered.blocks]);
    // The card's re-render is not even queued: the outbox skips an edit that is the same as the card's last one.
    expect(await ctx.db.slackOutbox.count({ where: { dedupeKey: `q:${quotation.id}:status:review:again` } })).toBe(0);
  }, 120_000);

  it('writes no line at all for a reader that lost its lease while it read', async () => {
    const quotation = await receivedQuotation();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const started = vi.fn();
    const first = readQuotation(ctx, {
      quotationId: quotation.id,
      owner: 'instance-a',
      download: async () => {
        started();
        await released;
        return large;
      },
    });
    await vi.waitFor(() => expect(started).toHaveBeenCalled());
    // Another reader takes the quotation (the first one's lease expired): the first one's token no longer matches.
    await ctx.db.quotation.update({
      where: { id: quotation.id },
      data: { readLeaseOwner: 'instance-b', readLeaseExpiresAt: new Date(Date.now() + 60_000) },
    });
    statements.length = 0;
    release();
    expect(await first).toBe('lease_lost');
    expect(insertsOf('QuotationItem')).toBe(0);
    expect(await ctx.db.quotationItem.count({ where: { quotationId: quotation.id } })).toBe(0);
    expect(await ctx.db.quotation.findUniqueOrThrow({ where: { id: quotation.id } })).toMatchObject({
      status: 'parsing',
      readLeaseOwner: 'instance-b',
    });
  }, 120_000);
});

describe('a review click on a 3,000-line quotation', () => {
  it('reads the lines once to count them and the open ones to render: not the whole quotation query by query', async () => {
    const quotation = await receivedQuotation();
    await readQuotation(ctx, { quotationId: quotation.id, owner: 'instance-a', download: async () => large });
    const open = await ctx.db.quotationItem.findMany({
      where: { quotationId: quotation.id, reviewState: 'needs_review', productId: { not: null } },
      orderBy: { position: 'asc' },
    });
    const before = await ctx.db.quotationItem.count({
      where: { quotationId: quotation.id, reviewState: 'needs_review' },
    });
    const line = open[0];
    if (!line) throw new Error('no open line with a suggestion');
    statements.length = 0;
    const clicked = await reviewItem(ctx, {
      itemId: line.id,
      by: BUYER,
      decision: { kind: 'confirm', productId: null },
      page: 1,
    });
    expect(clicked).toMatchObject({ ok: true, changed: true });
    // The line's read (with its quotation), its update, one count of all lines, the open lines for the page.
    expect(statements.filter((sql) => sql.includes('"QuotationItem"')).length).toBeLessThanOrEqual(4);
    // …and what the thread is told is right: the review and the status card count one open line fewer.
    const edits = await ctx.db.slackOutbox.findMany({
      where: { method: 'chat.update', dedupeKey: { contains: `item:${line.id}` } },
    });
    const texts = edits.map((row) => JSON.stringify(row.payload));
    expect(texts.some((text) => text.includes(`Review of quote.xlsx: ${before - 1} lines need a look`))).toBe(true);
    expect(texts.some((text) => text.includes(`${before - 1} lines need a look`) && !text.includes('Review of'))).toBe(
      true,
    );
  }, 120_000);
});
