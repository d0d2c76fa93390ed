// Reading and review: the file error, the review message with its buttons (edited on each decision) and the
// status card's review stage.
import { z } from 'zod';
import { MATCH_REVIEW } from '../config/business-rules.js';
import type { QuotationErrorCode } from '../quotation/errors.js';
import type { WorkspaceTx } from '../db/scoped.js';
import { hasActiveProducts } from '../db/stores/catalog-store.js';
import { QUOTATION_ITEM_SCALE, sumNumeric } from '../db/numeric.js';
import { enqueueSlackCall, enqueueSlackCalls, type OutboxCall, type OutboxWriter } from '../outbox/index.js';
import { supplierColumnsSchema } from '../quotation/document-kind.js';
import {
  buildComparisonChoice,
  buildReviewMessage,
  buildReviewWorkbookSummary,
  buildFileError,
  buildWorkbookFailed,
  type ReviewWorkbookSummary,
  type ReviewLine,
  type ReviewModel,
  type StatusStage,
} from '../slack/views/index.js';
import { reviewKey, statusKey, threadColumns, threadOf, message, edit, upload, type Thread } from './thread.js';
import { enqueueStatus, statusCalls } from './status-card.js';

// ───────────────────────────── Reading and review ─────────────────────────────

const QUOTATION_ERROR_CODES: readonly QuotationErrorCode[] = [
  'not_xlsx',
  'encrypted',
  'corrupt',
  'empty',
  'too_large',
  'too_many_rows',
  'too_many_cells',
  'zip_bomb',
  'no_item_table',
  'download_timeout',
];

/** The stored error code as the file-error reply knows it; an internal error reads as a corrupt file's advice. */
function fileErrorCode(code: string | null): QuotationErrorCode {
  return QUOTATION_ERROR_CODES.find((known) => known === code) ?? 'corrupt';
}

export async function enqueueQuotationFailed(tx: WorkspaceTx, quotationId: string) {
  const quotation = await tx.quotation.findUniqueOrThrow({
    where: { id: quotationId },
    select: { errorCode: true, errorMessage: true },
  });
  const thread = await threadOf(tx, quotationId);
  const sentence = quotation.errorMessage ?? 'Parley could not read this file.';
  await enqueueSlackCall(
    tx,
    message(
      thread,
      `q:${quotationId}:error`,
      buildFileError({ fileName: thread.fileName, code: fileErrorCode(quotation.errorCode), message: sentence }),
    ),
  );
  await enqueueStatus(tx, quotationId, { stage: 'failed', message: sentence }, 'failed');
}

/** What a reader writes to its quotation, as the review shows it (the columns it does not write are read). */
export interface WrittenQuotation {
  status: 'review' | 'ready';
  supplierId?: string | null;
  supplierNameRaw?: string | null;
  /** The supplier's identification as the reader stores it (JSON). */
  supplierMatch?: unknown;
  currency?: string | null;
  paymentTerms?: string | null;
  leadTimeDays?: number | null;
  incoterm?: string | null;
  comparisonColumns?: unknown;
}

/**
 * A line as its row holds it once written: the numeric columns as their stored text (storedNumeric), the JSON ones
 * as written. A freshly read quotation's review is built from these, not read back from the rows.
 */
export interface WrittenLine {
  id: string;
  sheet: string;
  rowNumber: number;
  rawSku: string | null;
  rawDescription: string | null;
  color: string | null;
  size: string | null;
  quantity: number | null;
  /** Decimal(14, 4), as stored. */
  unitPrice: string | null;
  /** Decimal(16, 2), as stored. */
  totalPrice: string | null;
  productId: string | null;
  matchConfidence: number;
  candidates: unknown;
  flags: unknown;
  reviewState: 'needs_review' | 'auto_accepted' | 'confirmed' | 'not_in_catalog';
}

/** The review's (or the comparison choice's) post and the status card's calls, built and ready to write. */
export interface PreparedQuotationRead {
  readonly calls: readonly OutboxCall[];
}

/**
 * After reading: the review (when a person must look) or the ready card with its Start button. A comparison sheet
 * first gets the choice of a supplier column in the review's place; once one is picked and read, the review replaces
 * that choice in the same message. Built before the reader's transaction, read without writing (as prepareDecision):
 * on PGlite a transaction holds the only connection, and reading 3,000 lines back to build the review inside it kept
 * every click and the outbox waiting for over a second. What only the database has (the thread, the products the
 * lines suggest, the supplier's name) is read here, under the reader's lease; the lines and the quotation's columns
 * are the ones the reader is about to write, so the review is the one a re-render would show.
 */
export async function prepareQuotationRead(
  reader: OutboxWriter,
  input: { quotationId: string; quotation: WrittenQuotation; lines: readonly WrittenLine[] },
): Promise<PreparedQuotationRead> {
  const { quotationId } = input;
  const stored = await reader.quotation.findUniqueOrThrow({
    where: { id: quotationId },
    select: {
      ...threadColumns,
      comparisonColumns: true,
      chosenColumn: true,
      supplierId: true,
      supplierNameRaw: true,
      supplierMatch: true,
      paymentTerms: true,
      leadTimeDays: true,
      incoterm: true,
    },
  });
  const quotation = { ...stored, ...input.quotation };
  const thread: Thread = {
    id: stored.id,
    slackChannelId: stored.slackChannelId,
    slackThreadTs: stored.slackThreadTs,
    slackMessageTs: stored.slackMessageTs,
    uploadedBySlackUserId: stored.uploadedBySlackUserId,
    fileName: stored.fileName,
    currency: quotation.currency,
  };
  const suppliers = supplierColumnsSchema.parse(quotation.comparisonColumns);
  if (suppliers.length > 0 && quotation.chosenColumn === null) {
    const fileName = quotation.fileName;
    const choice = buildComparisonChoice({ quotationId, fileName, suppliers: suppliers.map((s) => s.name) });
    return { calls: [message(thread, reviewKey(quotationId), choice)] };
  }
  const counts = writtenCounts(quotation, input.lines);
  const needed = input.lines.filter((line) => line.reviewState !== 'auto_accepted');
  const productIds = [
    ...new Set(
      needed.flatMap((line) => [
        ...(line.productId === null ? [] : [line.productId]),
        ...candidatesSchema.parse(line.candidates).map((c) => c.productId),
      ]),
    ),
  ];
  const products = new Map(
    (
      await reader.product.findMany({ where: { id: { in: productIds } }, select: { id: true, sku: true, name: true } })
    ).map((p) => [p.id, p]),
  );
  const supplier =
    quotation.supplierId === null
      ? null
      : await reader.supplier.findUniqueOrThrow({ where: { id: quotation.supplierId }, select: { name: true } });
  const review = buildReviewMessage(
    reviewModelOf({
      quotationId,
      quotation: { ...quotation, supplier },
      needed: needed.map((line) => {
        const product = line.productId === null ? undefined : products.get(line.productId);
        return {
          ...line,
          unitPrice: line.unitPrice === null ? null : Number(line.unitPrice),
          product: product ? { sku: product.sku, name: product.name } : null,
          reviewedBySlackUserId: null,
        };
      }),
      products,
      counts,
      page: 1,
      catalogEmpty: !(await hasActiveProducts(reader)),
    }),
  );
  if (quotation.chosenColumn !== null) {
    const change = `column:${quotation.chosenColumn}`;
    const status = await statusCalls(reader, quotationId, reviewStage(counts), `read:${change}`, thread);
    return {
      calls: [edit(thread, `${reviewKey(quotationId)}:${change}`, reviewKey(quotationId), review), ...status],
    };
  }
  const status = await statusCalls(reader, quotationId, reviewStage(counts), 'read', thread);
  return { calls: [message(thread, reviewKey(quotationId), review), ...status] };
}

/** The review and status card as prepareQuotationRead built them: in the reader's transaction, only the writes. */
export async function enqueueQuotationRead(tx: WorkspaceTx, prepared: PreparedQuotationRead): Promise<void> {
  await enqueueSlackCalls(tx, prepared.calls);
}

/** A review decision (or a page turn): the review message and the status card show it. */
export async function enqueueReviewChanged(
  tx: WorkspaceTx,
  quotationId: string,
  change: string,
  page: number,
  /** The counts as the caller just read them (afterReviewChange), with the status it wrote; read here otherwise. */
  known?: ReviewCounts,
) {
  const counts = known ?? (await reviewCounts(tx, quotationId));
  const model = await reviewModel(tx, quotationId, page, counts);
  const status = await statusCalls(tx, quotationId, reviewStage(counts), `review:${change}`, model.thread);
  // One insert for the review and the status card (the click's transaction waits for each statement).
  await enqueueSlackCalls(tx, [
    edit(model.thread, `${reviewKey(quotationId)}:${change}`, reviewKey(quotationId), buildReviewMessage(model)),
    ...status,
  ]);
}

/** The review workbook of every line, uploaded into the thread; `version` tells two states of the lines apart. */
export async function enqueueReviewWorkbook(tx: WorkspaceTx, quotationId: string, version: string, content: Buffer) {
  const thread = await threadOf(tx, quotationId);
  const base = thread.fileName.replace(/\.[^.]*$/, '').slice(0, 80) || 'quotation';
  return enqueueSlackCall(
    tx,
    upload(thread, `q:${quotationId}:workbook:${version}`, {
      filename: `${base} - review.xlsx`,
      title: `Review workbook: every line of ${thread.fileName.slice(0, 100)}`,
      content,
    }),
  );
}

/**
 * Tells the quotation's thread its review workbook could not be made (the job's dead letter). `request` names the
 * failed request (its job), so a redelivered dead letter says nothing more while a later request that fails again is
 * told again. False when it was told already.
 */
export async function enqueueReviewWorkbookFailed(writer: OutboxWriter, quotationId: string, request: string) {
  const thread = await threadOf(writer, quotationId);
  return enqueueSlackCall(
    writer,
    message(
      thread,
      `q:${quotationId}:workbook-failed:${request}`,
      buildWorkbookFailed({ kind: 'review', fileName: thread.fileName }),
    ),
  );
}

/**
 * A review workbook shared back (read as a file of its own, `fileQuotationId`): its status card becomes the summary
 * of what was applied, so the thread has one answer to the file, not a second status card.
 */
export async function enqueueReviewWorkbookApplied(
  tx: WorkspaceTx,
  fileQuotationId: string,
  summary: ReviewWorkbookSummary,
) {
  const thread = await threadOf(tx, fileQuotationId);
  await enqueueSlackCall(
    tx,
    edit(
      thread,
      `${statusKey(fileQuotationId)}:workbook`,
      statusKey(fileQuotationId),
      buildReviewWorkbookSummary(summary),
    ),
  );
}

/**
 * What a review decision and its re-render need to know of a quotation's lines, counted by the database in one
 * statement: a click used to run six queries over all 3,000 lines of a large quotation (two counts, an aggregate, two
 * groupBys and the status), each compiled by Prisma on the event loop that acknowledges Slack.
 */
export interface ReviewCounts {
  status: string;
  supplierId: string | null;
  /** Every line of the quotation. */
  lines: number;
  needsReview: number;
  autoAccepted: number;
  confirmed: number;
  /** Lines a negotiation can use: accepted or confirmed, with a product. */
  usable: number;
  /** The quoted total of every line, null when no line has one. */
  total: number | null;
  /** Sheets in the order their first line appears. */
  sheets: string[];
}

export async function reviewCounts(tx: WorkspaceTx, quotationId: string): Promise<ReviewCounts> {
  // As Postgres returns them: the sum as text (numeric), no sheets as null.
  const rows = await tx.$queryRaw<
    (Omit<ReviewCounts, 'total' | 'sheets'> & { total: string | null; sheets: string[] | null })[]
  >`
    SELECT q."status"::text AS "status", q."supplierId",
      count(i."id")::int AS "lines",
      count(i."id") FILTER (WHERE i."reviewState" = 'needs_review')::int AS "needsReview",
      count(i."id") FILTER (WHERE i."reviewState" = 'auto_accepted')::int AS "autoAccepted",
      count(i."id") FILTER (WHERE i."reviewState" = 'confirmed')::int AS "confirmed",
      count(i."id") FILTER (WHERE i."reviewState" IN ('auto_accepted', 'confirmed')
                             AND i."productId" IS NOT NULL)::int AS "usable",
      sum(i."totalPrice")::text AS "total",
      (SELECT array_agg(s."sheet" ORDER BY s."first") FROM (
         SELECT "sheet", min("position") AS "first" FROM "QuotationItem"
         WHERE "quotationId" = q."id" GROUP BY "sheet") s) AS "sheets"
    FROM "Quotation" q
    LEFT JOIN "QuotationItem" i ON i."quotationId" = q."id"
    WHERE q."id" = ${quotationId} AND q."workspaceId" = ${tx.$workspaceId}
    GROUP BY q."id"`;
  const row = rows[0];
  if (!row) throw new Error(`Quotation ${quotationId} not found`);
  return { ...row, total: row.total === null ? null : Number(row.total), sheets: row.sheets ?? [] };
}

/**
 * What reviewCounts would count once `lines` are written with `quotation`'s status: the same numbers, from the lines
 * in memory (in their order, which is their position).
 */
function writtenCounts(
  quotation: { status: string; supplierId: string | null },
  lines: readonly WrittenLine[],
): ReviewCounts {
  const count = (keep: (line: WrittenLine) => boolean) => lines.filter(keep).length;
  const total = sumNumeric(
    lines.flatMap((line) => (line.totalPrice === null ? [] : [line.totalPrice])),
    QUOTATION_ITEM_SCALE.totalPrice,
  );
  return {
    status: quotation.status,
    supplierId: quotation.supplierId,
    lines: lines.length,
    needsReview: count((line) => line.reviewState === 'needs_review'),
    autoAccepted: count((line) => line.reviewState === 'auto_accepted'),
    confirmed: count((line) => line.reviewState === 'confirmed'),
    usable: count(
      (line) => (line.reviewState === 'auto_accepted' || line.reviewState === 'confirmed') && line.productId !== null,
    ),
    total: total === null ? null : Number(total),
    sheets: [...new Set(lines.map((line) => line.sheet))],
  };
}

function reviewStage(counts: ReviewCounts): StatusStage {
  if (counts.status === 'ready') {
    return { stage: 'ready', lineCount: counts.autoAccepted + counts.confirmed };
  }
  return { stage: 'review', needsReview: counts.needsReview, autoAccepted: counts.autoAccepted };
}

const candidatesSchema = z
  .array(z.object({ productId: z.string(), sku: z.string(), confidence: z.number() }))
  .catch([]);
const flagsSchema = z.array(z.object({ message: z.string() })).catch([]);
const identificationSchema = z
  .object({ status: z.string(), supplier: z.object({ id: z.string(), name: z.string() }).nullable() })
  .nullable()
  .catch(null);

async function reviewModel(
  tx: WorkspaceTx,
  quotationId: string,
  page: number,
  counts: ReviewCounts,
): Promise<ReviewModel & { thread: Thread }> {
  const quotation = await tx.quotation.findUniqueOrThrow({
    where: { id: quotationId },
    include: { supplier: { select: { name: true, slackChannelId: true, connectionLostAt: true } } },
  });
  // Only the lines a person must look at are read row by row: the review is re-rendered on every click, and reading
  // all 3,000 lines of a large quotation each time (to count and total them) was most of a click's cost.
  const needed = await tx.quotationItem.findMany({
    where: { quotationId, reviewState: { not: 'auto_accepted' } },
    orderBy: { position: 'asc' },
    include: { product: { select: { sku: true, name: true } } },
  });
  const productIds = [
    ...new Set(needed.flatMap((item) => candidatesSchema.parse(item.candidates).map((c) => c.productId))),
  ];
  const products = new Map(
    (await tx.product.findMany({ where: { id: { in: productIds } }, select: { id: true, sku: true, name: true } })).map(
      (p) => [p.id, p],
    ),
  );
  const model = reviewModelOf({
    quotationId,
    quotation,
    needed: needed.map((item) => ({ ...item, unitPrice: item.unitPrice === null ? null : Number(item.unitPrice) })),
    products,
    counts,
    page,
    catalogEmpty: !(await hasActiveProducts(tx)),
  });
  // Offered only where suppliers are connected already: a workspace that negotiates with agents alone is not nagged.
  const supplier = quotation.supplier;
  const unconnected = supplier !== null && (supplier.slackChannelId === null || supplier.connectionLostAt !== null);
  const offerToConnect =
    unconnected &&
    (await tx.supplier.count({
      where: { isSimulated: false, slackChannelId: { not: null }, connectionLostAt: null },
    })) > 0;
  return { ...model, offerToConnect, thread: quotation };
}

/** A line the review lists, as its row holds it (the unit price as a number), with its product. */
type NeededLine = Omit<WrittenLine, 'unitPrice' | 'totalPrice' | 'reviewState'> & {
  unitPrice: number | null;
  reviewState: string;
  product: { sku: string; name: string } | null;
  reviewedBySlackUserId: string | null;
};

/** The review, from the quotation, the lines a person must look at and their products: the same for every caller. */
function reviewModelOf(input: {
  quotationId: string;
  quotation: {
    fileName: string;
    uploadedBySlackUserId: string;
    supplierNameRaw: string | null;
    supplierMatch: unknown;
    currency: string | null;
    paymentTerms: string | null;
    leadTimeDays: number | null;
    incoterm: string | null;
    supplier: { name: string } | null;
  };
  needed: readonly NeededLine[];
  products: ReadonlyMap<string, { name: string }>;
  counts: ReviewCounts;
  page: number;
  catalogEmpty: boolean;
}): ReviewModel {
  const { quotationId, quotation, needed, products, counts, page } = input;
  const product = (c: { productId: string; sku: string; confidence: number }) => ({
    productId: c.productId,
    sku: c.sku,
    name: products.get(c.productId)?.name ?? c.sku,
    confidence: c.confidence,
  });
  const lines = needed.map((item): ReviewLine => {
    const candidates = candidatesSchema.parse(item.candidates).slice(0, MATCH_REVIEW.maxCandidates).map(product);
    // The line's own confidence (the matcher's, lowered by its flags) is the one "Confirm all" judges by.
    const candidate = candidates.find((c) => c.productId === item.productId);
    const suggested = candidate ? { ...candidate, confidence: item.matchConfidence } : null;
    return {
      itemId: item.id,
      sheet: item.sheet,
      row: item.rowNumber,
      rawSku: item.rawSku,
      rawDescription: item.rawDescription,
      color: item.color,
      size: item.size,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      suggestion:
        suggested ??
        (item.productId && item.product
          ? {
              productId: item.productId,
              sku: item.product.sku,
              name: item.product.name,
              confidence: item.matchConfidence,
            }
          : null),
      candidates,
      flags: flagsSchema.parse(item.flags).map((flag) => flag.message),
      decision:
        item.reviewState === 'confirmed' && item.product
          ? { kind: 'confirmed', sku: item.product.sku, name: item.product.name, by: item.reviewedBySlackUserId ?? '' }
          : item.reviewState === 'not_in_catalog'
            ? { kind: 'not_in_catalog', by: item.reviewedBySlackUserId ?? '' }
            : null,
    };
  });
  const identified = identificationSchema.parse(quotation.supplierMatch);
  const total = counts.total ?? 0;
  return {
    quotationId,
    fileName: quotation.fileName,
    summary: {
      supplierNameAsRead: quotation.supplierNameRaw,
      sheets: counts.sheets,
      lineCount: counts.lines,
      quotedTotal: total > 0 ? Math.round(total * 100) / 100 : null,
      currency: quotation.currency ?? 'USD',
      paymentTerms: quotation.paymentTerms,
      leadTimeDays: quotation.leadTimeDays,
      incoterm: quotation.incoterm,
    },
    supplier: quotation.supplier
      ? identified?.status === 'existing'
        ? { kind: 'certain', name: quotation.supplier.name }
        : { kind: 'decided', name: quotation.supplier.name, created: true, by: quotation.uploadedBySlackUserId }
      : {
          kind: 'uncertain',
          existing: identified?.supplier
            ? { supplierId: identified.supplier.id, name: identified.supplier.name }
            : null,
        },
    autoAccepted: counts.lines - needed.length,
    lines,
    page,
    catalogEmpty: input.catalogEmpty,
  };
}
