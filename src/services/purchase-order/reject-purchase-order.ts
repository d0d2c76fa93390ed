// An approver rejects the draft PO with a reason (seed 002 §11), at the version their modal showed; the thread is told
// (the status card and the reason) in the same transaction (see approve-purchase-order.ts). Rejecting a rejected PO
// again changes nothing.
import { writeAudit } from '../../db/audit.js';
import {
  approvalsRequired,
  approverRefusal,
  checkRejectReason,
  type PurchaseOrderView,
  rejectionAfterLostRace,
  rejectionStep,
  statusesLeadingTo,
} from '../../decision/purchase-order-rules.js';
import { recordRejection } from '../../db/stores/purchase-orders.js';
import type { OutboxCall } from '../../outbox/index.js';
import { purchaseOrderOutcomeCalls } from '../../thread/po-outcome.js';
import type { ServiceContext } from '../service-context.js';
import { changePurchaseOrder } from './change-purchase-order.js';
import { purchaseOrderRefused, type PurchaseOrderResult } from './purchase-order-result.js';

export interface RejectPurchaseOrderOptions {
  purchaseOrderId: string;
  /** The approver rejecting it. */
  by: string;
  /** Required, at most REJECT_REASON_MAX characters once trimmed: the buyer reads it. */
  reason: string;
  /** The PO version the approver saw. */
  expectedVersion: number;
}

/** Rejects a draft with a reason; only a configured approver can. */
export async function rejectPurchaseOrder(
  ctx: ServiceContext,
  options: RejectPurchaseOrderOptions,
): Promise<PurchaseOrderResult> {
  const refusal = approverRefusal(options.by, ctx.workspace.settings.approvers, 'reject');
  if (refusal) return purchaseOrderRefused(refusal);
  const checked = checkRejectReason(options.reason);
  if (!checked.ok) return purchaseOrderRefused(checked);
  return commit(ctx, options, checked.reason);
}

function commit(
  ctx: ServiceContext,
  options: RejectPurchaseOrderOptions,
  reason: string,
): Promise<PurchaseOrderResult> {
  const { purchaseOrderId, by, expectedVersion } = options;
  const now = ctx.now();
  return changePurchaseOrder(ctx, {
    purchaseOrderId,
    step: (po) => rejectionStep(po, expectedVersion, reason),
    afterLostRace: rejectionAfterLostRace,
    applied: (po) => ({
      ...po,
      version: po.version + 1,
      status: 'rejected',
      rejectedReason: reason,
      rejectedBySlackUserId: by,
      rejectedAt: now,
    }),
    tell: (updated) => tellThread(ctx, updated, by),
    async record(tx, po) {
      const recorded = await recordRejection(tx, {
        purchaseOrderId,
        expectedVersion,
        from: statusesLeadingTo('rejected'),
        by,
        reason,
        now,
      });
      if (!recorded) return false;
      await writeAudit(tx, by, {
        action: 'purchase_order.rejected',
        entityType: 'purchase_order',
        entityId: po.id,
        data: { number: po.number, reason, version: expectedVersion + 1 },
      });
      return true;
    },
  });
}

/** The rejection's message and the status card, for the rejection's transaction. */
function tellThread(ctx: ServiceContext, po: PurchaseOrderView, by: string): Promise<OutboxCall[]> {
  const required = approvalsRequired(po, ctx.workspace.settings.dualApprovalAboveUsd);
  return purchaseOrderOutcomeCalls(ctx.db, { po, by, kind: 'rejection', required, waitingFor: [] });
}
