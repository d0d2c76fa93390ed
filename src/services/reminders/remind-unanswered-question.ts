// A question the buyer has not answered gets a reminder in its thread: the first after a delay
// (QUESTION_REMINDER_AFTER_HOURS), then one a day, until it is answered or its negotiation expires. Each reminder is
// claimed by a conditional update of the question (reminderCount n → n+1) in the transaction that enqueues it, under
// a dedupe key per reminder number, so two instances never both send it.
import { DAY_MS, HOUR_MS } from '../../time.js';
import { enqueueQuestionReminder } from '../../thread/reminders.js';
import { pausedExpiresAt } from '../negotiation/expire-paused-negotiation.js';
import type { ServiceContext } from '../service-context.js';

export interface QuestionReminderPolicy {
  /** How long a question waits before its first reminder. */
  firstAfterMs: number;
  /** How long between two reminders after that. */
  everyMs: number;
}

export function questionReminderPolicy(reminderAfterHours: number): QuestionReminderPolicy {
  return { firstAfterMs: reminderAfterHours * HOUR_MS, everyMs: DAY_MS };
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

export interface RemindUnansweredQuestionOptions {
  questionId: string;
  /** The reminder to send (questionReminderDue): claimed only if the question has had exactly the ones before it. */
  reminderNumber: number;
  /** The time of the reminder (the run's). */
  now: Date;
  /** Days a paused negotiation lasts (the reminder says when it expires); omitted, the reminder does not say. */
  expirePausedAfterDays?: number;
}

/** `claimed_elsewhere`: answered, expired, or reminded by another run since it was found due. */
export type RemindUnansweredQuestionOutcome = 'sent' | 'claimed_elsewhere';

export async function remindUnansweredQuestion(
  ctx: Pick<ServiceContext, 'db'>,
  options: RemindUnansweredQuestionOptions,
): Promise<RemindUnansweredQuestionOutcome> {
  const { questionId, reminderNumber, now } = options;
  return ctx.db.$transaction(async (tx) => {
    const { count } = await tx.pendingQuestion.updateMany({
      where: { id: questionId, status: 'open', reminderCount: reminderNumber - 1 },
      data: { reminderCount: reminderNumber, lastRemindedAt: now },
    });
    if (count === 0) return 'claimed_elsewhere';
    const question = await tx.pendingQuestion.findUniqueOrThrow({
      where: { id: questionId },
      select: {
        negotiationId: true,
        kind: true,
        question: true,
        askedAt: true,
        negotiationSupplier: { select: { supplier: { select: { name: true } } } },
        negotiation: { select: { pausedAt: true } },
      },
    });
    const { pausedAt } = question.negotiation;
    await enqueueQuestionReminder(tx, {
      questionId,
      negotiationId: question.negotiationId,
      kind: question.kind,
      askedBySupplier: question.negotiationSupplier?.supplier.name ?? null,
      question: question.question,
      askedAt: question.askedAt,
      reminderNumber,
      expiresAt:
        options.expirePausedAfterDays !== undefined && pausedAt
          ? pausedExpiresAt(pausedAt, options.expirePausedAfterDays)
          : null,
    });
    return 'sent';
  });
}
