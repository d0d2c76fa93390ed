// An approver approves or rejects the draft PO from its modal. The state change (src/decision/purchase-orders.ts) is
// atomic and idempotent; then the thread is told: the status card, a confirmation, and — once fully approved — the PO
// workbook. The outbox keys make a repeated click post nothing twice; and a repeated submission whose first attempt
// committed the change but died before writing these messages (a crash between the two transactions, before Slack
// was acknowledged, so Slack or the person submits again) writes them then.
import { decide, decisionInputFromState } from '../decision/decide.js';
import { purchaseOrderDocument } from '../decision/po-document.js';
import { buildPurchaseOrderWorkbook } from '../decision/po-workbook.js';
import {
  approvalsRequired,
  approvePurchaseOrder,
  loadPurchaseOrder,
  type PurchaseOrderResult,
  type PurchaseOrderView,
  rejectPurchaseOrder,
} from '../db/stores/purchase-orders.js';
import { loadCheckpoint } from '../db/stores/negotiation-store.js';
import type { ServiceContext } from './service-context.js';
import { isEnqueued } from '../outbox/index.js';
import { enqueuePurchaseOrderOutcome, poOutcomeKey } from '../thread/po-outcome.js';

export async function approvePo(
  ctx: ServiceContext,
  options: { purchaseOrderId: string; by: string; expectedVersion: number },
): Promise<PurchaseOrderResult> {
  const { settings } = ctx.workspace;
  const result = await approvePurchaseOrder(ctx.db, {
    purchaseOrderId: options.purchaseOrderId,
    approverSlackUserId: options.by,
    expectedVersion: options.expectedVersion,
    approvers: settings.approvers,
    dualApprovalAboveUsd: settings.dualApprovalAboveUsd,
    now: ctx.now,
  });
  const approved = result.ok && result.po.approvals.some((a) => a.approverSlackUserId === options.by);
  if (approved) await tellThread(ctx, result, 'approval', options.by);
  return result;
}

export async function rejectPo(
  ctx: ServiceContext,
  options: { purchaseOrderId: string; by: string; reason: string; expectedVersion: number },
): Promise<PurchaseOrderResult> {
  const result = await rejectPurchaseOrder(ctx.db, {
    purchaseOrderId: options.purchaseOrderId,
    by: options.by,
    reason: options.reason,
    expectedVersion: options.expectedVersion,
    approvers: ctx.workspace.settings.approvers,
    now: ctx.now,
  });
  if (result.ok && result.po.rejectedBySlackUserId === options.by)
    await tellThread(ctx, result, 'rejection', options.by);
  return result;
}

/**
 * Writes the approver's message (and, once approved, the workbook) — after a change, or on a repeat whose first
 * attempt committed the change but not its messages.
 */
async function tellThread(
  ctx: ServiceContext,
  result: Extract<PurchaseOrderResult, { ok: true }>,
  kind: 'approval' | 'rejection',
  by: string,
): Promise<void> {
  const { po } = result;
  if (!result.changed && (await isEnqueued(ctx.db, poOutcomeKey(po.id, kind, by)))) return;
  const workbook = kind === 'approval' && po.status === 'approved' ? await workbookOf(ctx, po) : null;
  const required = approvalsRequired(po, ctx.workspace.settings.dualApprovalAboveUsd);
  await ctx.db.$transaction((tx) => enqueuePurchaseOrderOutcome(tx, { po, by, kind, required, workbook }));
}

export async function findPurchaseOrder(ctx: ServiceContext, purchaseOrderId: string) {
  return loadPurchaseOrder(ctx.db, purchaseOrderId);
}

/** The approved PO as a workbook: the decision recomputed from the checkpoint (pure, so the same numbers). */
async function workbookOf(ctx: ServiceContext, po: PurchaseOrderView): Promise<Buffer> {
  const { state } = await loadCheckpoint(ctx.db, po.negotiationId);
  const decided = decide(decisionInputFromState(state));
  if (!decided.ok) throw new Error(`The decision of ${po.negotiationId} can no longer be computed`);
  return buildPurchaseOrderWorkbook(
    purchaseOrderDocument(decided.numbers, {
      number: po.number,
      date: (po.approvedAt ?? ctx.now()).toISOString().slice(0, 10),
      status: 'approved',
      buyerName: ctx.workspace.brandName,
      approvals: po.approvals.map((a) => ({ by: a.approverSlackUserId, at: a.approvedAt.toISOString() })),
    }),
  );
}
