// A purchase order still in draft a day after it was drafted gets a reminder in its thread, once a day, mentioning the
// approvers who have not approved it. Nothing is added to the schema for this: the reminder's outbox dedupe key names
// the PO and the day of its wait (src/thread/reminders.ts), and writing that row is the claim — two instances (or a
// run repeated within the day) write it once.
import { approvalsRequired } from '../../decision/purchase-order-rules.js';
import { DAY_MS } from '../../time.js';
import { enqueueApprovalReminder } from '../../thread/reminders.js';
import type { ServiceContext } from '../service-context.js';

/**
 * Which day of its wait a PO is in: 0 on the day it was drafted (no reminder), 1 from 24 hours later, … Counted from
 * the draft rather than the calendar, so reminders come at the time of day the PO was made, not at midnight UTC.
 */
export function approvalWaitDay(createdAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - createdAt.getTime()) / DAY_MS));
}

/** The approvers who still have to act, in the configured order. */
export function approversToRemind(approvers: readonly string[], approvedBy: readonly string[]): string[] {
  const approved = new Set(approvedBy);
  return approvers.filter((id) => !approved.has(id));
}

export interface RemindPoApproversOptions {
  purchaseOrderId: string;
  /** The time of the reminder (the run's): the day of the wait is counted to it. */
  now: Date;
}

/**
 * `already_sent`: today's reminder was written before (another instance, an earlier run). `nobody_to_remind`: no
 * approvers are configured, or all have approved. `not_draft`: approved, rejected or gone since it was found due.
 */
export type RemindPoApproversOutcome = 'sent' | 'already_sent' | 'nobody_to_remind' | 'not_draft';

export async function remindPoApprovers(
  ctx: Pick<ServiceContext, 'db' | 'workspace'>,
  options: RemindPoApproversOptions,
): Promise<RemindPoApproversOutcome> {
  const { settings } = ctx.workspace;
  return ctx.db.$transaction(async (tx) => {
    const po = await tx.purchaseOrder.findFirst({
      where: { id: options.purchaseOrderId, status: 'draft' },
      select: {
        id: true,
        number: true,
        negotiationId: true,
        currency: true,
        effectiveLandedCost: true,
        createdAt: true,
        approvals: { select: { approverSlackUserId: true } },
        allocations: {
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          select: { supplier: { select: { name: true } } },
        },
      },
    });
    if (!po) return 'not_draft';
    const remind = approversToRemind(
      settings.approvers,
      po.approvals.map((a) => a.approverSlackUserId),
    );
    if (remind.length === 0) return 'nobody_to_remind';
    const total = po.effectiveLandedCost.toNumber();
    const written = await enqueueApprovalReminder(tx, {
      purchaseOrderId: po.id,
      poNumber: po.number,
      negotiationId: po.negotiationId,
      approverIds: remind,
      supplierNames: po.allocations.map((a) => a.supplier.name),
      total,
      currency: po.currency,
      approvals: po.approvals.length,
      required: approvalsRequired({ currency: po.currency, effectiveLandedCost: total }, settings.dualApprovalAboveUsd),
      createdAt: po.createdAt,
      daysWaiting: approvalWaitDay(po.createdAt, options.now),
    });
    return written ? 'sent' : 'already_sent';
  });
}
