// The job that keeps connected suppliers' reply-by times (src/services/reminders/supplier-reply-due.ts): it finds the
// rows whose reminder or reply-by time has come, has each handled in its workspace, and sends the negotiations whose
// round it closed on their way. A negotiation waiting days for a supplier holds no worker: only this row says when.
import { log } from '../log.js';
import { SUPPLIER_REMINDER_BEFORE_MS, supplierReplyDue } from '../services/reminders/supplier-reply-due.js';
import type { BackgroundWork } from './background-work.js';
import { contextCache, JOB_BATCH_SIZE, type JobOptions } from './job-options.js';

export interface RemindSuppliersResult {
  reminded: number;
  /** Rounds closed without the supplier's answer. */
  closed: number;
  failed: number;
}

export async function remindSuppliers(
  options: JobOptions & { work: Pick<BackgroundWork, 'driveUnqueued'> },
): Promise<RemindSuppliersResult> {
  const { now } = options;
  const due = await options.prisma.negotiationSupplier.findMany({
    where: {
      OR: [
        { replyBy: { lte: now } },
        { replyRemindedAt: null, replyBy: { lte: new Date(now.getTime() + SUPPLIER_REMINDER_BEFORE_MS) } },
      ],
    },
    orderBy: { replyBy: 'asc' },
    take: options.batchSize ?? JOB_BATCH_SIZE,
    select: { id: true, workspaceId: true },
  });
  const result: RemindSuppliersResult = { reminded: 0, closed: 0, failed: 0 };
  const resume: { workspaceId: string; negotiationId: string }[] = [];
  const contextOf = contextCache(options.contexts);
  for (const row of due) {
    try {
      const ctx = await contextOf(row.workspaceId);
      if (!ctx) continue;
      const handled = await supplierReplyDue(ctx, { negotiationSupplierId: row.id, now });
      if (handled.outcome === 'reminded') result.reminded++;
      if (handled.outcome === 'closed') result.closed++;
      if (handled.resume && handled.negotiationId) {
        resume.push({ workspaceId: row.workspaceId, negotiationId: handled.negotiationId });
      }
    } catch (error) {
      result.failed++;
      log.error('a supplier reply-by time could not be handled', { error, negotiationSupplierId: row.id });
    }
  }
  if (resume.length > 0) await options.work.driveUnqueued(resume);
  return result;
}
