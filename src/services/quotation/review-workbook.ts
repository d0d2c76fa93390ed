// The review workbook behind the Slack layer: "Download all lines" uploads every line of a
// quotation as an XLSX into its thread; the same workbook shared back in the thread (read like any file, and known by
// its marker sheet) is checked row by row and applied in one transaction with the review it changes.
import type { WorkspaceTx } from '../../db/scoped.js';
import type { ReadLimits } from '../../quotation/errors.js';
import {
  type CurrentReviewLine,
  type ReviewLineState,
  type SharedReviewWorkbook,
  mightBeReviewWorkbook,
  planReviewWorkbook,
  readSharedReviewWorkbook,
} from '../../quotation/review-workbook.js';
import { readWorkbook } from '../../quotation/xlsx-reader.js';
import type { ReviewWorkbookSummary } from '../../slack/views/index.js';
import { enqueueReviewWorkbook, enqueueReviewWorkbookFailed } from '../../thread/review.js';
import { changeKey } from '../../thread/thread.js';
import { done, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { mayWorkOnQuotation } from '../workspace/workspace-settings.js';
import { afterReviewChange, gateQuotation, reviewed } from './review-quotation.js';

/**
 * "Download all lines": whether this person may have the review workbook, and of which file. The workbook itself is
 * written after the click is acknowledged (`sendReviewWorkbook`, a job the caller stores first): at 3,000 lines it is
 * most of a second of CPU, which the acknowledgement waited for when it was written here.
 */
export async function requestReviewWorkbook(
  ctx: ServiceContext,
  options: { quotationId: string; by: string },
): Promise<ServiceResult<{ quotationId: string }>> {
  const gate = await gateQuotation(ctx, options.quotationId, options.by);
  if (!gate.ok) return gate;
  return done({ quotationId: gate.value.id }, false);
}

/**
 * Uploads the review workbook into the quotation's thread, written in the compute worker (ctx.compute) and posted
 * through the outbox; a second request with no line changed uploads nothing, nor does a quotation gone meanwhile.
 */
export async function sendReviewWorkbook(
  ctx: ServiceContext,
  options: { quotationId: string },
): Promise<ServiceResult<{ lines: number }>> {
  const quotation = await ctx.db.quotation.findUnique({
    where: { id: options.quotationId },
    select: { fileName: true },
  });
  if (!quotation) return done({ lines: 0 }, false);
  const items = await ctx.db.quotationItem.findMany({
    where: { quotationId: options.quotationId },
    orderBy: { position: 'asc' },
    include: { product: { select: { sku: true, name: true } } },
  });
  const content = await ctx.compute.reviewWorkbook({
    quotationId: options.quotationId,
    fileName: quotation.fileName,
    lines: items.map((item) => ({
      itemId: item.id,
      sheet: item.sheet,
      row: item.rowNumber,
      rawSku: item.rawSku,
      description: item.rawDescription,
      color: item.color,
      size: item.size,
      quantity: item.quantity,
      unitPrice: item.unitPrice === null ? null : Number(item.unitPrice),
      matchedSku: item.product?.sku ?? null,
      matchedName: item.product?.name ?? null,
      confidence: item.matchConfidence,
      state: item.reviewState,
    })),
  });
  const version = changeKey(items.map((item) => [item.id, item.reviewState, item.productId]));
  const queued = await ctx.db.$transaction((tx) => enqueueReviewWorkbook(tx, options.quotationId, version, content));
  return done({ lines: items.length }, queued);
}

/**
 * A review workbook whose job used up its retries (the dead-letter queue): the quotation's thread is told, once per
 * failed request (`request`: its job's id), that it could not be made and what to do. `changed: false` when the
 * quotation is gone or this request was told already (a redelivered dead letter).
 */
export async function giveUpReviewWorkbook(
  ctx: ServiceContext,
  options: { quotationId: string; request: string },
): Promise<ServiceResult<null>> {
  const quotation = await ctx.db.quotation.findUnique({ where: { id: options.quotationId }, select: { id: true } });
  if (!quotation) return done(null, false);
  return done(null, await enqueueReviewWorkbookFailed(ctx.db, quotation.id, options.request));
}

/**
 * The review workbook in a shared file, or null when the file is not one. The cheap look at the package comes first,
 * so a quotation is not read twice.
 */
export async function sharedReviewWorkbook(data: Buffer, limits: ReadLimits): Promise<SharedReviewWorkbook | null> {
  if (!(await mightBeReviewWorkbook(data))) return null;
  try {
    return readSharedReviewWorkbook(await readWorkbook(data, limits));
  } catch {
    // Not readable as a workbook after all: the quotation reader says why, as for any file.
    return null;
  }
}

/**
 * Applies a shared-back workbook to the quotation it names, as `sharedBy`: the rows that ask for a change and can
 * have it, in this transaction, with the review re-rendered. Nothing is applied when the quotation is gone, past
 * its review, or not theirs to review.
 */
export async function applyReviewWorkbook(
  tx: WorkspaceTx,
  ctx: Pick<ServiceContext, 'now' | 'workspace'>,
  options: { fileName: string; sharedBy: string; workbook: SharedReviewWorkbook },
): Promise<ReviewWorkbookSummary> {
  const { workbook, fileName } = options;
  const refused = (reason: string): ReviewWorkbookSummary => ({ kind: 'refused', fileName, reason });
  const quotation = await tx.quotation.findUnique({
    where: { id: workbook.quotationId },
    select: { id: true, status: true, uploadedBySlackUserId: true, fileName: true },
  });
  if (!quotation) return refused('the quotation it was made for is not one of this workspace’s.');
  if (!mayWorkOnQuotation(options.sharedBy, quotation.uploadedBySlackUserId, ctx.workspace.settings)) {
    return refused(
      `only <@${quotation.uploadedBySlackUserId}>, who shared the quotation, and the approvers can review it.`,
    );
  }
  if (quotation.status !== 'review' && quotation.status !== 'ready') {
    return refused('that quotation is past its review.');
  }
  if (workbook.problem) return refused(`${workbook.problem}. Download the lines again and edit only Confirmed SKU.`);

  const items = await tx.quotationItem.findMany({
    where: { quotationId: quotation.id },
    select: { id: true, reviewState: true, product: { select: { sku: true } } },
  });
  const lines = new Map<string, CurrentReviewLine>(
    items.map((item) => [
      item.id,
      { itemId: item.id, state: item.reviewState as ReviewLineState, matchedSku: item.product?.sku ?? null },
    ]),
  );
  const asked = [...new Set(workbook.rows.map((row) => row.confirmedSku.trim().toUpperCase()).filter(Boolean))];
  const products = await tx.product.findMany({
    where: { sku: { in: asked }, retiredAt: null },
    select: { id: true, sku: true },
  });
  const bySku = new Map(products.map((product) => [product.sku.toUpperCase(), product]));
  const plan = planReviewWorkbook(workbook.rows, lines, (sku) => bySku.get(sku.trim().toUpperCase())?.sku ?? null);

  let confirmed = 0;
  let notInCatalog = 0;
  for (const change of plan.changes) {
    const data =
      change.kind === 'confirm'
        ? {
            reviewState: 'confirmed' as const,
            productId: bySku.get(change.sku.toUpperCase())?.id ?? null,
            matchMethod: 'manual' as const,
            ...reviewed(ctx, options.sharedBy),
          }
        : { reviewState: 'not_in_catalog' as const, productId: null, ...reviewed(ctx, options.sharedBy) };
    const { count } = await tx.quotationItem.updateMany({
      where: { id: change.itemId, quotationId: quotation.id },
      data,
    });
    if (change.kind === 'confirm') confirmed += count;
    else notInCatalog += count;
  }
  if (confirmed + notInCatalog > 0) {
    await afterReviewChange(tx, quotation.id, `workbook:${changeKey(plan.changes)}`, 1);
  }
  return {
    kind: 'applied',
    fileName,
    quotationFileName: quotation.fileName,
    confirmed,
    notInCatalog,
    unchanged: plan.unchanged,
    problems: plan.problems,
  };
}
