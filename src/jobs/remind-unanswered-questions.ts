// The job that reminds the buyer of unanswered questions (src/services/reminders/remind-unanswered-question.ts): it
// finds the open questions of paused negotiations whose next reminder is due, and has each sent in its workspace.
import { log } from '../log.js';
import {
  questionReminderDue,
  questionReminderPolicy,
  remindUnansweredQuestion,
} from '../services/reminders/remind-unanswered-question.js';
import { contextCache, JOB_BATCH_SIZE, type JobOptions } from './job-options.js';

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

export async function remindUnansweredQuestions(
  options: RemindUnansweredQuestionsOptions,
): Promise<RemindUnansweredQuestionsResult> {
  const { now } = options;
  const policy = questionReminderPolicy(options.reminderAfterHours);
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
      const outcome = await remindUnansweredQuestion(ctx, {
        questionId: candidate.id,
        reminderNumber: number,
        now,
        expirePausedAfterDays: options.expirePausedAfterDays,
      });
      if (outcome === 'sent') result.sent++;
      else result.claimedElsewhere++;
    } catch (error) {
      result.failed++;
      log.error('question reminder failed', { error, questionId: candidate.id, reminder: number });
    }
  }
  return result;
}
