// A question the buyer has not answered gets a reminder in its thread, mentioning the buyer: the first after a delay
// (QUESTION_REMINDER_AFTER_HOURS), then one a day, until it is answered or its negotiation expires. Each reminder is
// claimed by a conditional update of the question (reminderCount n → n+1) in the transaction that enqueues it, under
// a dedupe key per reminder number, so two instances never both send it.
import { log } from '../log.js';
import { enqueueSlackCall } from '../outbox/index.js';
import { BRAND_AGENT_NAME, buildQuestionReminder } from '../slack/views/index.js';
import { contextCache, DAY_MS, HOUR_MS, JOB_BATCH_SIZE, type JobOptions } from './job-options.js';

export interface QuestionReminderPolicy {
  /** How long a question waits before its first reminder. */
  firstAfterMs: number;
  /** How long between two reminders after that. */
  everyMs: number;
}

export interface RemindUnansweredQuestionsOptions extends JobOptions {
  reminderAfterHours: number;
  /** Days a paused negotiation lasts (the reminder says when it expires); omitted, the reminder does not say. */
  expirePausedAfterDays?: number;
}

export interface RemindUnansweredQuestionsResult {
  /** Reminders this run enqueued. */
  sent: number;
  /** Reminders that were due but another run claimed first. */
  claimedElsewhere: number;
  failed: number;
}

/** The number of the reminder due now (1 for the first), or null when none is due. */
export function questionReminderDue(
  question: { askedAt: Date; reminderCount: number; lastRemindedAt: Date | null },
  now: Date,
  policy: QuestionReminderPolicy,
): number | null {
  const since =
    question.reminderCount === 0
      ? now.getTime() - question.askedAt.getTime()
      : now.getTime() - (question.lastRemindedAt ?? question.askedAt).getTime();
  const wait = question.reminderCount === 0 ? policy.firstAfterMs : policy.everyMs;
  return since >= wait ? question.reminderCount + 1 : null;
}

export function questionReminderKey(questionId: string, reminderNumber: number): string {
  return `remind:q:${questionId}:${reminderNumber}`;
}

export async function remindUnansweredQuestions(
  options: RemindUnansweredQuestionsOptions,
): Promise<RemindUnansweredQuestionsResult> {
  const { now } = options;
  const policy: QuestionReminderPolicy = { firstAfterMs: options.reminderAfterHours * HOUR_MS, everyMs: DAY_MS };
  const candidates = await options.prisma.pendingQuestion.findMany({
    where: {
      status: 'open',
      // Only a negotiation waiting for the buyer; an expired or cancelled one asks nothing any more.
      negotiation: { status: 'paused' },
      OR: [
        { reminderCount: 0, askedAt: { lte: new Date(now.getTime() - policy.firstAfterMs) } },
        { reminderCount: { gt: 0 }, lastRemindedAt: { lte: new Date(now.getTime() - policy.everyMs) } },
      ],
    },
    orderBy: { askedAt: 'asc' },
    take: options.batchSize ?? JOB_BATCH_SIZE,
    select: { id: true, workspaceId: true, askedAt: true, reminderCount: true, lastRemindedAt: true },
  });

  const result: RemindUnansweredQuestionsResult = { sent: 0, claimedElsewhere: 0, failed: 0 };
  const contextOf = contextCache(options.contexts);
  for (const candidate of candidates) {
    const number = questionReminderDue(candidate, now, policy);
    if (number === null) continue;
    try {
      const ctx = await contextOf(candidate.workspaceId);
      if (!ctx) continue;
      const sent = await ctx.db.$transaction(async (tx) => {
        const { count } = await tx.pendingQuestion.updateMany({
          where: { id: candidate.id, status: 'open', reminderCount: number - 1 },
          data: { reminderCount: number, lastRemindedAt: now },
        });
        if (count === 0) return false;
        const question = await tx.pendingQuestion.findUniqueOrThrow({
          where: { id: candidate.id },
          select: {
            kind: true,
            question: true,
            askedAt: true,
            negotiationSupplier: { select: { supplier: { select: { name: true } } } },
            negotiation: {
              select: {
                pausedAt: true,
                quotation: { select: { slackChannelId: true, slackThreadTs: true, uploadedBySlackUserId: true } },
              },
            },
          },
        });
        const { quotation, pausedAt } = question.negotiation;
        const body = buildQuestionReminder({
          buyerId: quotation.uploadedBySlackUserId,
          kind: question.kind,
          askedBy: question.negotiationSupplier?.supplier.name ?? BRAND_AGENT_NAME,
          question: question.question,
          askedAt: question.askedAt,
          reminderNumber: number,
          expiresAt:
            options.expirePausedAfterDays !== undefined && pausedAt
              ? new Date(pausedAt.getTime() + options.expirePausedAfterDays * DAY_MS)
              : null,
        });
        await enqueueSlackCall(tx, {
          dedupeKey: questionReminderKey(candidate.id, number),
          method: 'chat.postMessage',
          channelId: quotation.slackChannelId,
          threadTs: quotation.slackThreadTs,
          payload: { text: body.text, blocks: body.blocks, unfurl_links: false, unfurl_media: false },
        });
        return true;
      });
      if (sent) result.sent++;
      else result.claimedElsewhere++;
    } catch (error) {
      result.failed++;
      log.error('question reminder failed', { error, questionId: candidate.id, reminder: number });
    }
  }
  return result;
}
