// The job that reminds approvers of purchase orders still in draft (src/services/reminders/remind-po-approvers.ts): it
// finds the drafts at least a day old, and has each reminded in its workspace — once per day of its wait.
import { log } from '../log.js';
import { approvalWaitDay, remindPoApprovers } from '../services/reminders/remind-po-approvers.js';
import { DAY_MS } from '../time.js';
import { contextCache, JOB_BATCH_SIZE, type JobOptions } from './job-options.js';

export interface RemindApproversResult {
  sent: number;
  /** Reminders already written today (another instance, an earlier run). */
  alreadySent: number;
  /** Draft POs with nobody left to remind (no approvers configured, or all have approved). */
  nobodyToRemind: number;
  failed: number;
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
    try {
      const ctx = await contextOf(draft.workspaceId);
      if (!ctx) continue;
      const outcome = await remindPoApprovers(ctx, { purchaseOrderId: draft.id, now });
      if (outcome === 'sent') result.sent++;
      else if (outcome === 'already_sent') result.alreadySent++;
      else if (outcome === 'nobody_to_remind') result.nobodyToRemind++;
    } catch (error) {
      result.failed++;
      log.error('approval reminder failed', {
        error,
        purchaseOrderId: draft.id,
        day: approvalWaitDay(draft.createdAt, now),
      });
    }
  }
  return result;
}
