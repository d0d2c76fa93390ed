// The approved PO's workbook, uploaded into its thread after the approval: a job (src/jobs/background-work.ts,
// `send-po-workbook`) that the approval queues right after its commit, and that queue-unqueued-work queues for an
// approved PO whose workbook is not in the outbox (the process died between the commit and queueing). At 3,000 lines
// the workbook is most of a second of CPU, which the approver's submission used to wait for (its ack p99 in the large story).
//
// Written from the PO's stored rows, dated the day it was approved: what the approvers were shown and approved, the
// same bytes however often the job runs. Idempotent: the upload's outbox key is the PO's, so a retry after a crash
// (or a second job) uploads nothing twice, and one that finds it queued does not write the workbook again.
import { storedPurchaseOrderDocument } from '../../decision/po-document.js';
import { loadPurchaseOrder } from '../../db/stores/purchase-orders.js';
import {
  enqueuePurchaseOrderWorkbook,
  enqueuePurchaseOrderWorkbookFailed,
  isPurchaseOrderWorkbookQueued,
} from '../../thread/po-outcome.js';
import { done, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';

export interface SendPurchaseOrderWorkbookOptions {
  purchaseOrderId: string;
}

/** Queues the approved PO's workbook for upload; `changed: false` when it was queued already or the PO is not approved. */
export async function sendPurchaseOrderWorkbook(
  ctx: ServiceContext,
  options: SendPurchaseOrderWorkbookOptions,
): Promise<ServiceResult<null>> {
  const po = await loadPurchaseOrder(ctx.db, options.purchaseOrderId);
  if (po === null || po.status !== 'approved' || po.approvedAt === null) return done(null, false);
  if (await isPurchaseOrderWorkbookQueued(ctx.db, po.id)) return done(null, false);
  const workbook = await ctx.compute.purchaseOrderWorkbook(
    storedPurchaseOrderDocument(po, {
      date: po.approvedAt.toISOString().slice(0, 10),
      buyerName: ctx.workspace.brandName,
    }),
  );
  return done(null, await enqueuePurchaseOrderWorkbook(ctx.db, po, workbook));
}

/**
 * An approved PO whose workbook job used up its retries (the dead-letter queue): its thread is told, once, that the
 * workbook could not be made and that the PO stands. `changed: false` when there is nothing to tell (the PO is not
 * approved, or its workbook was queued after all) or it was told already (a redelivered dead letter).
 */
export async function giveUpPurchaseOrderWorkbook(
  ctx: ServiceContext,
  options: SendPurchaseOrderWorkbookOptions,
): Promise<ServiceResult<null>> {
  const po = await loadPurchaseOrder(ctx.db, options.purchaseOrderId);
  if (po === null || po.status !== 'approved') return done(null, false);
  if (await isPurchaseOrderWorkbookQueued(ctx.db, po.id)) return done(null, false);
  return done(null, await enqueuePurchaseOrderWorkbookFailed(ctx.db, po));
}
