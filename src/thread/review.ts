// Reading and review: the file error, the review message with its buttons (edited on each decision) and the
// status card's review stage.
import { z } from 'zod';
import { MATCH_REVIEW } from '../config/business-rules.js';
import type { QuotationErrorCode } from '../quotation/errors.js';
import type { WorkspaceTx } from '../db/scoped.js';
import { hasActiveProducts } from '../db/stores/catalog-store.js';
import { enqueueSlackCall, enqueueSlackCalls, type OutboxWriter } from '../outbox/index.js';
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
import { reviewKey, statusKey, threadOf, message, edit, upload, type Thread } from './thread.js';
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

/**
 * After reading: the review (when a person must look) or the ready card with its Start button. A comparison sheet
 * first gets the choice of a supplier column in the review's place; once one is picked and read, the review replaces
 * that choice in the same message.
 */
export async function enqueueQuotationRead(tx: WorkspaceTx, quotationId: string) {
  const thread = await threadOf(tx, quotationId);
  const { comparisonColumns, chosenColumn, fileName } = await tx.quotation.findUniqueOrThrow({
    where: { id: quotationId },
    select: { comparisonColumns: true, chosenColumn: true, fileName: true },
  });
  const suppliers = supplierColumnsSchema.parse(comparisonColumns);
  if (suppliers.length > 0 && chosenColumn === null) {
    const choice = buildComparisonChoice({ quotationId, fileName, suppliers: suppliers.map((s) => s.name) });
    await enqueueSlackCall(tx, message(thread, reviewKey(quotationId), choice));
    return;
  }
  const counts = await reviewCounts(tx, quotationId);
  const review = buildReviewMessage(await reviewModel(tx, quotationId, 1, counts));
  if (chosenColumn !== null) {
    const change = `column:${chosenColumn}`;
    await enqueueSlackCall(tx, edit(thread, `${reviewKey(quotationId)}:${change}`, reviewKey(quotationId), review));
    await enqueueStatus(tx, quotationId, reviewStage(counts), `read:${change}`);
    return;
  }
  await enqueueSlackCall(tx, message(thread, reviewKey(quotationId), review));
  await enqueueStatus(tx, quotationId, reviewStage(counts), 'read');
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
    include: { supplier: { select: { name: true } } },
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
      unitPrice: item.unitPrice === null ? null : Number(item.unitPrice),
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
    thread: quotation,
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
    catalogEmpty: !(await hasActiveProducts(tx)),
  };
}
