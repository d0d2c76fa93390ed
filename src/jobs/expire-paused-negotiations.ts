// The job that expires negotiations left waiting for the buyer (src/services/negotiation/expire-paused-negotiation.ts):
// it finds the ones paused longer than EXPIRE_PAUSED_AFTER_DAYS, and has each expired in its workspace.
import { log } from '../log.js';
import { expirePausedNegotiation } from '../services/negotiation/expire-paused-negotiation.js';
import { DAY_MS } from '../time.js';
import { contextCache, JOB_BATCH_SIZE, type JobOptions } from './job-options.js';

export interface ExpirePausedNegotiationsOptions extends JobOptions {
  afterDays: number;
}

export interface ExpirePausedNegotiationsResult {
  expired: number;
  questionsClosed: number;
  /** Due, but it moved on (an answer, another instance) before this run could expire it. */
  movedOn: number;
  failed: number;
}

export async function expirePausedNegotiations(
  options: ExpirePausedNegotiationsOptions,
): Promise<ExpirePausedNegotiationsResult> {
  const { now, afterDays } = options;
  const cutoff = new Date(now.getTime() - afterDays * DAY_MS);
  const due = await options.prisma.negotiation.findMany({
    where: {
      status: 'paused',
      // A row paused before `pausedAt` was recorded counts from its last change.
      OR: [{ pausedAt: { lte: cutoff } }, { pausedAt: null, updatedAt: { lte: cutoff } }],
      // Waiting on a connected supplier whose reply-by time is still ahead is not stale: the buyer gave it that time.
      suppliers: { none: { replyBy: { gt: now } } },
    },
    orderBy: { updatedAt: 'asc' },
    take: options.batchSize ?? JOB_BATCH_SIZE,
    select: { id: true, workspaceId: true, checkpointVersion: true, pausedAt: true, updatedAt: true },
  });

  const result: ExpirePausedNegotiationsResult = { expired: 0, questionsClosed: 0, movedOn: 0, failed: 0 };
  const contextOf = contextCache(options.contexts);
  for (const negotiation of due) {
    try {
      const ctx = await contextOf(negotiation.workspaceId);
      if (!ctx) continue;
      const outcome = await expirePausedNegotiation(ctx, { negotiation, now });
      if (outcome.kind === 'moved_on') {
        result.movedOn++;
      } else {
        result.expired++;
        result.questionsClosed += outcome.questionsClosed;
      }
    } catch (error) {
      result.failed++;
      log.error('expiring a paused negotiation failed', { error, negotiationId: negotiation.id });
    }
  }
  return result;
}
