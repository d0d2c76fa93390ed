// The buyer's review of a read quotation: confirm a suggested product (or pick another candidate), mark a line as not
// in the catalog, confirm every suggestion at once, and say who the supplier is. Each click is one transaction that
// also writes its audit entry and re-renders the review and the status card; a repeated click changes nothing. When
// every line and the supplier are settled the quotation is `ready` and the thread offers to start the negotiation.
import type { ItemDecision, SupplierChoice } from '../../app-types.js';
import { writeAudit } from '../../db/audit.js';
import { confirmAllScope } from '../../quotation/confirm-all.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { WorkspaceTx } from '../../db/scoped.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { enqueueReviewChanged, reviewCounts } from '../../thread/review.js';
import { mayWorkOnQuotation } from '../workspace/workspace-settings.js';
import { quotedSupplierNamed } from '../suppliers/quoted-supplier.js';
import { z } from 'zod';

const candidatesSchema = z.array(z.object({ productId: z.string(), sku: z.string(), confidence: z.number() }));

export interface ReviewItemOptions {
  itemId: string;
  by: string;
  decision: ItemDecision;
  /** The review page the click came from, re-rendered after the change. */
  page: number;
}

export async function reviewItem(ctx: ServiceContext, options: ReviewItemOptions): Promise<ServiceResult> {
  // The line and its quotation in one read: a click is acknowledged only after its transaction commits.
  const item = await ctx.db.quotationItem.findUnique({
    where: { id: options.itemId },
    select: {
      id: true,
      productId: true,
      candidates: true,
      reviewState: true,
      quotationId: true,
      quotation: { select: gateSelect },
    },
  });
  if (!item) return refused('not_found', 'This line is no longer part of a quotation.');
  const gate = gateOf(ctx, item.quotation, options.by);
  if (!gate.ok) return gate;
  if (item.reviewState !== 'needs_review') return done(undefined, false);

  let productId: string | null = null;
  if (options.decision.kind === 'confirm') {
    productId = options.decision.productId ?? item.productId;
    const candidates = candidatesSchema.catch([]).parse(item.candidates);
    if (!productId || (productId !== item.productId && !candidates.some((c) => c.productId === productId))) {
      return refused('invalid_input', 'Pick one of the suggested products, or mark the line as not in the catalog.');
    }
  }
  const changed = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.quotationItem.updateMany({
      where: { id: item.id, reviewState: 'needs_review' },
      data:
        options.decision.kind === 'confirm'
          ? { reviewState: 'confirmed', productId, matchMethod: 'manual', ...reviewed(ctx, options.by) }
          : { reviewState: 'not_in_catalog', productId: null, ...reviewed(ctx, options.by) },
    });
    if (count === 0) return false;
    await writeAudit(tx, options.by, {
      action: options.decision.kind === 'confirm' ? 'quotation_item.match_confirmed' : 'quotation_item.not_in_catalog',
      entityType: 'quotation_item',
      entityId: item.id,
      data: { quotationId: item.quotationId, productId, suggestedProductId: item.productId },
    });
    await afterReviewChange(tx, item.quotationId, `item:${item.id}`, options.page);
    return true;
  });
  return done(undefined, changed);
}

/**
 * "Confirm all suggestions" clicked on review page `page`: confirms the open suggestions the buyer saw on that page
 * and those the matcher was sure of on any page (src/quotation/confirm-all.ts); the rest stay open, counted in
 * `unseen`, and the re-rendered review says why.
 */
export async function confirmAllSuggestions(
  ctx: ServiceContext,
  options: { quotationId: string; by: string; page: number },
): Promise<ServiceResult<{ confirmed: number; stillOpen: number; unseen: number }>> {
  const gate = await gateQuotation(ctx, options.quotationId, options.by);
  if (!gate.ok) return gate;
  return ctx.db.$transaction(async (tx) => {
    // The review list as the message pages it: every line that needed a person, in sheet order.
    const listed = await tx.quotationItem.findMany({
      where: { quotationId: options.quotationId, reviewState: { not: 'auto_accepted' } },
      orderBy: { position: 'asc' },
      select: { id: true, reviewState: true, productId: true, matchConfidence: true, flags: true },
    });
    const scope = confirmAllScope(
      listed.map((item) => ({
        pending: item.reviewState === 'needs_review',
        suggested: item.productId !== null,
        confidence: item.matchConfidence,
        flagCount: Array.isArray(item.flags) ? item.flags.length : 0,
      })),
      options.page,
    );
    const ids = scope.confirm.flatMap((index) => listed[index]?.id ?? []);
    const { count } = await tx.quotationItem.updateMany({
      // Still open: a line decided by someone else since it was read keeps that decision.
      where: { id: { in: ids }, reviewState: 'needs_review', productId: { not: null } },
      data: { reviewState: 'confirmed', ...reviewed(ctx, options.by) },
    });
    const stillOpen = await tx.quotationItem.count({
      where: { quotationId: options.quotationId, reviewState: 'needs_review' },
    });
    if (count > 0) {
      await writeAudit(tx, options.by, {
        action: 'quotation.suggestions_confirmed',
        entityType: 'quotation',
        entityId: options.quotationId,
        data: { confirmed: count, stillOpen, unseen: scope.unseen },
      });
      await afterReviewChange(tx, options.quotationId, `all:${count}:${stillOpen}`, options.page);
    }
    return done({ confirmed: count, stillOpen, unseen: scope.unseen }, count > 0);
  });
}

/** Settles who quoted: one of the workspace's suppliers, or a new supplier named as the sheet names it. */
export async function chooseSupplier(
  ctx: ServiceContext,
  options: { quotationId: string; by: string; choice: SupplierChoice; page: number },
): Promise<ServiceResult<{ supplierId: string }>> {
  const gate = await gateQuotation(ctx, options.quotationId, options.by);
  if (!gate.ok) return gate;
  if (gate.value.supplierId) return done({ supplierId: gate.value.supplierId }, false);
  const { choice } = options;
  const name = gate.value.supplierNameRaw ?? gate.value.fileName;
  // Two buyers naming two new suppliers at once can race for the next code: the loser tries again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.$transaction(async (tx) => {
        let supplierId: string;
        if (choice.kind === 'existing') {
          const supplier = await tx.supplier.findUnique({ where: { id: choice.supplierId, isSimulated: false } });
          if (!supplier) return refused('not_found', 'That supplier is not one of this workspace’s suppliers.');
          supplierId = supplier.id;
        } else {
          supplierId = await quotedSupplierNamed(tx, ctx.workspace.id, name);
        }
        const { count } = await tx.quotation.updateMany({
          where: { id: options.quotationId, supplierId: null },
          data: { supplierId },
        });
        if (count === 1) {
          await writeAudit(tx, options.by, {
            action: 'quotation.supplier_chosen',
            entityType: 'quotation',
            entityId: options.quotationId,
            data: { supplierId, choice: choice.kind },
          });
          await afterReviewChange(tx, options.quotationId, `supplier:${supplierId}`, options.page);
        }
        return done({ supplierId }, count === 1);
      });
    } catch (error) {
      const lostRace = error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
      if (!lostRace || attempt >= 5) throw error;
    }
  }
}

/** Re-renders another page of the review (Prev / Next): no state changes. */
export async function showReviewPage(
  ctx: ServiceContext,
  options: { quotationId: string; by: string; page: number },
): Promise<ServiceResult> {
  const quotation = await ctx.db.quotation.findUnique({ where: { id: options.quotationId }, select: { id: true } });
  if (!quotation) return refused('not_found', 'This quotation no longer exists.');
  await ctx.db.$transaction((tx) =>
    enqueueReviewChanged(tx, options.quotationId, `page:${options.page}:${ctx.now().getTime()}`, options.page),
  );
  return done(undefined);
}

const gateSelect = {
  id: true,
  status: true,
  uploadedBySlackUserId: true,
  supplierId: true,
  supplierNameRaw: true,
  fileName: true,
} as const;

export async function gateQuotation(ctx: ServiceContext, quotationId: string, by: string) {
  const quotation = await ctx.db.quotation.findUnique({ where: { id: quotationId }, select: gateSelect });
  if (!quotation) return refused('not_found', 'This quotation no longer exists.');
  return gateOf(ctx, quotation, by);
}

/** Whether `by` may review this quotation now: who shared it or an approver, while it is in review. */
function gateOf(ctx: ServiceContext, quotation: Prisma.QuotationGetPayload<{ select: typeof gateSelect }>, by: string) {
  if (!mayWorkOnQuotation(by, quotation.uploadedBySlackUserId, ctx.workspace.settings)) {
    return refused(
      'not_allowed',
      `Only <@${quotation.uploadedBySlackUserId}>, who shared the file, and the approvers can review this quotation.`,
    );
  }
  if (quotation.status !== 'review' && quotation.status !== 'ready') {
    return refused('not_ready', 'This quotation is past its review.');
  }
  return done(quotation);
}

export function reviewed(ctx: Pick<ServiceContext, 'now'>, by: string) {
  return { reviewedBySlackUserId: by, reviewedAt: ctx.now() };
}

/**
 * Moves the quotation between review and ready, then re-renders the review and the status card. The lines are
 * counted once (reviewCounts) for the decision and both renders; the status is written only when it changes.
 */
export async function afterReviewChange(tx: WorkspaceTx, quotationId: string, changeKey: string, page: number) {
  const counts = await reviewCounts(tx, quotationId);
  const ready = counts.needsReview === 0 && counts.supplierId !== null && counts.usable > 0;
  const status = ready ? 'ready' : 'review';
  // Only between review and ready: a quotation that moved on (a negotiation started meanwhile) keeps its status.
  if ((counts.status === 'review' || counts.status === 'ready') && counts.status !== status) {
    const { count } = await tx.quotation.updateMany({
      where: { id: quotationId, status: { in: ['review', 'ready'] } },
      data: { status },
    });
    if (count === 1) counts.status = status;
  }
  await enqueueReviewChanged(tx, quotationId, changeKey, page, counts);
}
