// An approver approves the draft PO from its modal (seed 002 §11). The approval is recorded in one transaction with
// the version the modal showed and the digest of the PO as shown; the last approval needed makes the PO approved.
// In the same transaction the thread is told (outbox rows): the status card and a confirmation. So an approval exists
// exactly when its messages do: a crash or a database error between the two leaves neither, and the approver's next
// submission records and tells it. The messages are made before that transaction (change-purchase-order.ts), which
// holds only the writes the submission waits for.
//
// Once approved, the PO's workbook follows in the thread as a job the caller queues after the commit
// (send-purchase-order-workbook.ts; the sweep queues it if the process died in between): rendered from the PO as
// drafted and stored, never from the decision computed again. At 3,000 lines it is most of a second of CPU, which the
// approver's submission — answered within Slack's 3 s — no longer waits for.
//
// A connected supplier's part of the approved PO is posted in its own channel in the same transaction, with Accept
// and Query (supplier-answer.ts takes them).
//
// Repeats: a double click or a Slack retry finds the approval recorded and changes nothing, and the outbox keys make
// it post nothing twice.
import { writeAudit } from '../../db/audit.js';
import {
  approvalAfterLostRace,
  approvalsRequired,
  approvalStep,
  approverRefusal,
  purchaseOrderDigest,
  type PurchaseOrderView,
  statusesLeadingTo,
} from '../../decision/purchase-order-rules.js';
import { recordApproval } from '../../db/stores/purchase-orders.js';
import type { OutboxCall } from '../../outbox/index.js';
import { loadCheckpoint } from '../../db/stores/negotiation-store.js';
import { purchaseOrderOutcomeCalls } from '../../thread/po-outcome.js';
import { supplierPoParts, supplierPurchaseOrderCalls } from '../../thread/supplier-channel.js';
import { approversToRemind } from '../reminders/remind-po-approvers.js';
import type { ServiceContext } from '../service-context.js';
import { changePurchaseOrder } from './change-purchase-order.js';
import { purchaseOrderRefused, type PurchaseOrderResult } from './purchase-order-result.js';

export interface ApprovePurchaseOrderOptions {
  purchaseOrderId: string;
  /** The approver. */
  by: string;
  /** The PO version the approver saw (carried by the modal). */
  expectedVersion: number;
}

/**
 * Records one approver's approval. Only a configured approver can ever approve (there is no other way to reach
 * `approved`); above the workspace's amount two different ones are needed; an approver who already approved gets the
 * PO back unchanged.
 */
export async function approvePurchaseOrder(
  ctx: ServiceContext,
  options: ApprovePurchaseOrderOptions,
): Promise<PurchaseOrderResult> {
  const refusal = approverRefusal(options.by, ctx.workspace.settings.approvers, 'approve');
  if (refusal) return purchaseOrderRefused(refusal);
  return commit(ctx, options);
}

function commit(ctx: ServiceContext, options: ApprovePurchaseOrderOptions): Promise<PurchaseOrderResult> {
  const { purchaseOrderId, by, expectedVersion } = options;
  const { dualApprovalAboveUsd } = ctx.workspace.settings;
  const now = ctx.now();
  return changePurchaseOrder(ctx, {
    purchaseOrderId,
    step: (po) => approvalStep(po, by, { expectedVersion, dualApprovalAboveUsd }),
    afterLostRace: (po) => approvalAfterLostRace(po, by, dualApprovalAboveUsd),
    applied: (po, step) => ({
      ...po,
      version: po.version + 1,
      approvals: [...po.approvals, { approverSlackUserId: by, approvedAt: now }],
      ...(step.complete ? { status: 'approved' as const, approvedAt: now } : {}),
    }),
    tell: (updated) => tellThread(ctx, updated, by),
    async record(tx, po, step) {
      // The version matched, so this is the PO the approver's modal showed: its digest says what was approved.
      const shownDigest = purchaseOrderDigest(po);
      const recorded = await recordApproval(tx, {
        purchaseOrderId,
        expectedVersion,
        from: statusesLeadingTo('approved'),
        approverSlackUserId: by,
        complete: step.complete,
        shownDigest,
        now,
      });
      if (!recorded) return false;
      await writeAudit(tx, by, {
        action: 'purchase_order.approval_recorded',
        entityType: 'purchase_order',
        entityId: po.id,
        data: {
          number: po.number,
          approvals: step.approvals,
          required: step.required,
          version: expectedVersion + 1,
          shownDigest,
        },
      });
      if (step.complete) {
        await writeAudit(tx, by, {
          action: 'purchase_order.approved',
          entityType: 'purchase_order',
          entityId: po.id,
          data: {
            number: po.number,
            approvers: [...po.approvals.map((a) => a.approverSlackUserId), by],
            effectiveLandedCost: po.effectiveLandedCost,
            currency: po.currency,
          },
        });
      }
      return true;
    },
  });
}

/** The approver's message (and, once approved, the status card), for the approval's transaction. */
async function tellThread(ctx: ServiceContext, po: PurchaseOrderView, by: string): Promise<OutboxCall[]> {
  const { settings } = ctx.workspace;
  const required = approvalsRequired(po, settings.dualApprovalAboveUsd);
  // Whoever has approved already is not asked again for the second approval.
  const waitingFor = approversToRemind(
    settings.approvers,
    po.approvals.map((a) => a.approverSlackUserId),
  );
  const calls = await purchaseOrderOutcomeCalls(ctx.db, { po, by, kind: 'approval', required, waitingFor });
  return po.status === 'approved' ? [...calls, ...(await toConnectedSuppliers(ctx, po))] : calls;
}

/** Once approved, each connected supplier's part goes to its own channel, to accept or query (supplier-answer.ts). */
async function toConnectedSuppliers(ctx: ServiceContext, po: PurchaseOrderView): Promise<OutboxCall[]> {
  const stateOf = async () => (await loadCheckpoint(ctx.db, po.negotiationId)).state;
  const { parts, state } = await supplierPoParts(ctx.db, po, stateOf);
  return state ? supplierPurchaseOrderCalls(po, parts, state) : [];
}
