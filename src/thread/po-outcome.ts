// A purchase order's approval or rejection in the thread, and the approved workbook. The approver's message is keyed
// by the PO, the kind and the approver, so a repeated click writes nothing twice. The calls are worked out before the
// approval's or rejection's transaction (reads only: that transaction is what the approver's click waits for) and
// enqueued inside it, so the change and its messages are committed together. The approved workbook follows as a job
// (src/services/purchase-order/send-purchase-order-workbook.ts): keyed by the PO, uploaded once however often it runs.
import type { PurchaseOrderView } from '../decision/purchase-order-rules.js';
import type { WorkspaceTx } from '../db/scoped.js';
import { enqueueSlackCalls, isEnqueued, type OutboxCall, type OutboxWriter } from '../outbox/index.js';
import { buildPoOutcome, buildWorkbookFailed } from '../slack/views/index.js';
import { edit, message, negotiationThread, upload } from './thread.js';
import { statusCalls } from './status-card.js';

/** The outbox key of an approver's approval or rejection message. */
export function poOutcomeKey(purchaseOrderId: string, kind: 'approval' | 'rejection', by: string): string {
  return `po:${purchaseOrderId}:${kind}:${by}`;
}

/** The outbox key of an approved PO's workbook upload. */
export function poWorkbookKey(purchaseOrderId: string): string {
  return `po:${purchaseOrderId}:workbook`;
}

/**
 * The outbox key of the reply saying an approved PO's workbook could not be made (its job's dead letter): one per PO,
 * so a redelivered dead letter says nothing more, and queue-unqueued-work stops queueing a workbook that failed for good.
 */
export function poWorkbookFailedKey(purchaseOrderId: string): string {
  return `po:${purchaseOrderId}:workbook-failed`;
}

/** The outbox calls that tell the thread of a PO's approval or rejection (`input.po` as it is once recorded). */
export async function purchaseOrderOutcomeCalls(
  reader: OutboxWriter,
  input: {
    po: PurchaseOrderView;
    by: string;
    kind: 'approval' | 'rejection';
    /** Approvals this PO needs (1, or 2 above the workspace's amount). */
    required: 1 | 2;
    /** The configured approvers who have not approved it: an approval still short of `required` mentions them. */
    waitingFor: readonly string[];
  },
): Promise<OutboxCall[]> {
  const { po } = input;
  const { quotationId, thread } = await negotiationThread(reader, po.negotiationId);
  const approvers = po.approvals.map((a) => a.approverSlackUserId);
  const outcome =
    input.kind === 'approval'
      ? buildPoOutcome({
          kind: 'approval',
          poNumber: po.number,
          approvers,
          required: input.required,
          waitingFor: input.waitingFor,
        })
      : buildPoOutcome({ kind: 'rejected', poNumber: po.number, by: input.by, reason: po.rejectedReason ?? '' });
  // A PO's approvals are one message: a later approval edits the first approver's (one message per event
  // made the thread long), which then says who approved and whether the PO is final.
  const firstApprover = input.kind === 'approval' ? approvers[0] : undefined;
  const key = poOutcomeKey(po.id, input.kind, input.by);
  const calls: OutboxCall[] = [
    firstApprover !== undefined && firstApprover !== input.by
      ? edit(thread, key, poOutcomeKey(po.id, 'approval', firstApprover), outcome)
      : message(thread, key, outcome),
  ];
  if (po.status === 'approved') {
    const status = await statusCalls(
      reader,
      quotationId,
      { stage: 'approved', poNumber: po.number, approvedBy: approvers, approvedAt: po.approvedAt ?? new Date() },
      `po:${po.id}:approved`,
    );
    calls.push(...status);
  } else if (po.status === 'rejected') {
    const status = await statusCalls(
      reader,
      quotationId,
      {
        stage: 'rejected',
        poNumber: po.number,
        reason: po.rejectedReason ?? '',
        rejectedBy: po.rejectedBySlackUserId ?? input.by,
        rejectedAt: po.rejectedAt,
      },
      `po:${po.id}:rejected`,
    );
    calls.push(...status);
  }
  return calls;
}

/** Whether the approved PO's workbook is in the outbox already (sent or not). */
export function isPurchaseOrderWorkbookQueued(reader: OutboxWriter, purchaseOrderId: string): Promise<boolean> {
  return isEnqueued(reader, poWorkbookKey(purchaseOrderId));
}

/**
 * Queues the approved PO's workbook for upload into its thread; false when it was queued already (a retried job).
 * Reads, then writes one row: no transaction needed, the key dedupes.
 */
export async function enqueuePurchaseOrderWorkbook(
  writer: OutboxWriter,
  po: Pick<PurchaseOrderView, 'id' | 'number' | 'negotiationId'>,
  workbook: Buffer,
): Promise<boolean> {
  const { thread } = await negotiationThread(writer, po.negotiationId);
  const call = upload(thread, poWorkbookKey(po.id), {
    filename: `${po.number}.xlsx`,
    title: `${po.number} (approved)`,
    content: workbook,
  });
  return (await enqueueSlackCalls(writer, [call])) > 0;
}

/** Tells the PO's thread its workbook could not be made; false when it was told already. One row: the key dedupes. */
export async function enqueuePurchaseOrderWorkbookFailed(
  writer: OutboxWriter,
  po: Pick<PurchaseOrderView, 'id' | 'number' | 'negotiationId'>,
): Promise<boolean> {
  const { thread } = await negotiationThread(writer, po.negotiationId);
  const call = message(
    thread,
    poWorkbookFailedKey(po.id),
    buildWorkbookFailed({ kind: 'purchase_order', poNumber: po.number }),
  );
  return (await enqueueSlackCalls(writer, [call])) > 0;
}

/** Writes what purchaseOrderOutcomeCalls worked out, in the approval's or rejection's transaction. */
export async function enqueuePurchaseOrderOutcome(tx: WorkspaceTx, calls: readonly OutboxCall[]): Promise<void> {
  await enqueueSlackCalls(tx, calls);
}
