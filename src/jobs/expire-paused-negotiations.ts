// A negotiation that has waited for the buyer longer than EXPIRE_PAUSED_AFTER_DAYS expires: its status becomes
// `expired` and its open questions `expired`, in one transaction with what the thread shows — a notice mentioning the
// buyer, the status card's `expired` stage, each unanswered question replaced by a version without buttons. The App
// Home lists neither afterwards (it shows active negotiations and open questions only). The status change is
// conditional on the row still being paused at the checkpoint the run saw, so an answer that lands at the same moment
// wins, and a second instance finds nothing to do; once expired, no engine step is saved (negotiation-store.ts).
import { log } from '../log.js';
import { engineQuestionId } from '../db/stores/negotiation-store.js';
import { enqueueStatus } from '../thread/status-card.js';
import { enqueueSlackCalls, type OutboxCall } from '../outbox/index.js';
import { BRAND_AGENT_NAME, buildExpiredNotice, buildExpiredQuestion, expiredReason } from '../slack/views/index.js';
import { contextCache, DAY_MS, JOB_BATCH_SIZE, type JobOptions } from './job-options.js';

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

/** When a negotiation paused at `pausedAt` expires. */
export function pausedExpiresAt(pausedAt: Date, afterDays: number): Date {
  return new Date(pausedAt.getTime() + afterDays * DAY_MS);
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
    },
    orderBy: { updatedAt: 'asc' },
    take: options.batchSize ?? JOB_BATCH_SIZE,
    select: { id: true, workspaceId: true, checkpointVersion: true, pausedAt: true, updatedAt: true },
  });

  const result: ExpirePausedNegotiationsResult = { expired: 0, questionsClosed: 0, movedOn: 0, failed: 0 };
  const contextOf = contextCache(options.contexts);
  for (const negotiation of due) {
    const waitedDays = Math.floor((now.getTime() - (negotiation.pausedAt ?? negotiation.updatedAt).getTime()) / DAY_MS);
    try {
      const ctx = await contextOf(negotiation.workspaceId);
      if (!ctx) continue;
      const closed = await ctx.db.$transaction(async (tx) => {
        const { count } = await tx.negotiation.updateMany({
          where: { id: negotiation.id, status: 'paused', checkpointVersion: negotiation.checkpointVersion },
          data: { status: 'expired', leaseOwner: null, leaseExpiresAt: null },
        });
        if (count === 0) return null;
        const open = await tx.pendingQuestion.findMany({
          where: { negotiationId: negotiation.id, status: 'open' },
          orderBy: { askedAt: 'asc' },
          select: {
            id: true,
            kind: true,
            question: true,
            negotiationSupplier: { select: { supplier: { select: { name: true } } } },
          },
        });
        await tx.pendingQuestion.updateMany({
          where: { negotiationId: negotiation.id, status: 'open' },
          data: { status: 'expired' },
        });
        const row = await tx.negotiation.findUniqueOrThrow({
          where: { id: negotiation.id },
          select: {
            quotationId: true,
            quotation: { select: { slackChannelId: true, slackThreadTs: true, uploadedBySlackUserId: true } },
          },
        });
        const { quotation } = row;
        const notice = buildExpiredNotice({
          buyerId: quotation.uploadedBySlackUserId,
          waitedDays,
          closedQuestions: open.length,
        });
        const calls: OutboxCall[] = [
          {
            dedupeKey: `neg:${negotiation.id}:expired`,
            method: 'chat.postMessage',
            channelId: quotation.slackChannelId,
            threadTs: quotation.slackThreadTs,
            payload: { text: notice.text, blocks: notice.blocks, unfurl_links: false, unfurl_media: false },
          },
        ];
        for (const question of open) {
          // The question's message, under the key src/thread/negotiation-events.ts posted it with; edited only if it was enqueued.
          const posted = `neg:${negotiation.id}:q:${engineQuestionId(question.id)}`;
          if (!(await tx.slackOutbox.findFirst({ where: { dedupeKey: posted }, select: { id: true } }))) continue;
          const body = buildExpiredQuestion({
            askedBy: question.negotiationSupplier?.supplier.name ?? BRAND_AGENT_NAME,
            question: question.question,
            kind: question.kind,
          });
          calls.push({
            dedupeKey: `${posted}:expired`,
            method: 'chat.update',
            channelId: quotation.slackChannelId,
            updateOf: posted,
            payload: { text: body.text, blocks: body.blocks },
          });
        }
        await enqueueSlackCalls(tx, calls);
        await enqueueStatus(tx, row.quotationId, { stage: 'expired', reason: expiredReason(waitedDays) }, 'expired');
        await tx.auditLog.create({
          data: {
            workspaceId: ctx.workspace.id,
            actorKind: 'system',
            action: 'negotiation.expired',
            entityType: 'Negotiation',
            entityId: negotiation.id,
            data: { waitedDays, questionsClosed: open.length },
          },
        });
        return open.length;
      });
      if (closed === null) {
        result.movedOn++;
      } else {
        result.expired++;
        result.questionsClosed += closed;
      }
    } catch (error) {
      result.failed++;
      log.error('expiring a paused negotiation failed', { error, negotiationId: negotiation.id });
    }
  }
  return result;
}
