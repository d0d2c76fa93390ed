// A purchase order still in draft a day after it was drafted gets a reminder in its thread, once a day, mentioning the
// approvers who have not approved it. Nothing is added to the schema for this: the reminder's outbox dedupe key names
// the PO and the day of its wait (`po:<id>:remind:day:<n>`), and writing that row is the claim — two instances (or a
// run repeated within the day) write it once.
import { approvalsRequired } from '../db/stores/purchase-orders.js';
import { log } from '../log.js';
import { enqueueSlackCall } from '../outbox/index.js';
import { buildApprovalReminder } from '../slack/views/index.js';
import { contextCache, DAY_MS, JOB_BATCH_SIZE, type JobOptions } from './job-options.js';

export interface RemindApproversResult {
  sent: number;
  /** Reminders already written today (another instance, an earlier run). */
  alreadySent: number;
  /** Draft POs with nobody left to remind (no approvers configured, or all have approved). */
  nobodyToRemind: number;
  failed: number;
}

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

export function approvalReminderKey(purchaseOrderId: string, day: number): string {
  return `po:${purchaseOrderId}:remind:day:${day}`;
}

export async function remindApprovers(options: JobOptions): Promise<RemindApproversResult> {
  const { now } = options;
  const drafts = await options.prisma.purchaseOrder.findMany({
    where: { status: 'draft', createdAt: { lte: new Date(now.getTime() - DAY_MS) } },
    orderBy: { createdAt: 'asc' },
    take: options.batchSize ?? JOB_BATCH_SIZE,
    select: { id: true, workspaceId: true, createdAt: true },
  });

  const result: RemindApproversResult = { sent: 0, alreadySent: 0, nobodyToRemind: 0, failed: 0 };
  const contextOf = contextCache(options.contexts);
  for (const draft of drafts) {
    const day = approvalWaitDay(draft.createdAt, now);
    try {
      const ctx = await contextOf(draft.workspaceId);
      if (!ctx) continue;
      const outcome = await ctx.db.$transaction(async (tx) => {
        const po = await tx.purchaseOrder.findFirst({
          where: { id: draft.id, status: 'draft' },
          select: {
            id: true,
            number: true,
            currency: true,
            effectiveLandedCost: true,
            createdAt: true,
            approvals: { select: { approverSlackUserId: true } },
            allocations: {
              orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
              select: { supplier: { select: { name: true } } },
            },
            negotiation: { select: { quotation: { select: { slackChannelId: true, slackThreadTs: true } } } },
          },
        });
        if (!po) return 'gone' as const;
        const remind = approversToRemind(
          ctx.workspace.settings.approvers,
          po.approvals.map((a) => a.approverSlackUserId),
        );
        if (remind.length === 0) return 'nobody' as const;
        const total = po.effectiveLandedCost.toNumber();
        const body = buildApprovalReminder({
          purchaseOrderId: po.id,
          poNumber: po.number,
          approverIds: remind,
          supplierNames: po.allocations.map((a) => a.supplier.name),
          total,
          currency: po.currency,
          approvals: po.approvals.length,
          required: approvalsRequired(
            { currency: po.currency, effectiveLandedCost: total },
            ctx.workspace.settings.dualApprovalAboveUsd,
          ),
          createdAt: po.createdAt,
          daysWaiting: day,
        });
        const { quotation } = po.negotiation;
        const written = await enqueueSlackCall(tx, {
          dedupeKey: approvalReminderKey(po.id, day),
          method: 'chat.postMessage',
          channelId: quotation.slackChannelId,
          threadTs: quotation.slackThreadTs,
          payload: { text: body.text, blocks: body.blocks, unfurl_links: false, unfurl_media: false },
        });
        return written ? ('sent' as const) : ('already' as const);
      });
      if (outcome === 'sent') result.sent++;
      else if (outcome === 'already') result.alreadySent++;
      else if (outcome === 'nobody') result.nobodyToRemind++;
    } catch (error) {
      result.failed++;
      log.error('approval reminder failed', { error, purchaseOrderId: draft.id, day });
    }
  }
  return result;
}
