// A negotiation that waited too long for the buyer, in the thread: a notice mentioning the buyer, each unanswered
// question's message replaced by a version without buttons, and the status card's `expired` stage.
import type { WorkspaceTx } from '../db/scoped.js';
import { enqueueSlackCalls, isEnqueued, type OutboxCall } from '../outbox/index.js';
import {
  buildExpiredNotice,
  buildExpiredQuestion,
  expiredReason,
  type ReminderQuestionKind,
} from '../slack/views/index.js';
import { askerName, edit, message, negKey, negotiationThread, questionKey } from './thread.js';
import { enqueueStatus } from './status-card.js';

export const expiredNoticeKey = (negotiationId: string) => negKey(negotiationId, 'expired');

export interface ExpiredQuestion {
  /** The engine's question id (the one its message was posted under). */
  engineQuestionId: string;
  kind: ReminderQuestionKind;
  /** The supplier who asked, or null for the brand agent. */
  askedBySupplier: string | null;
  question: string;
}

export async function enqueueNegotiationExpired(
  tx: WorkspaceTx,
  input: { negotiationId: string; waitedDays: number; closedQuestions: ExpiredQuestion[] },
) {
  const { negotiationId, waitedDays, closedQuestions } = input;
  const { quotationId, thread, buyerId } = await negotiationThread(tx, negotiationId);
  const notice = buildExpiredNotice({
    buyerId,
    waitedDays,
    closedQuestions: closedQuestions.length,
  });
  const calls: OutboxCall[] = [message(thread, expiredNoticeKey(negotiationId), notice)];
  for (const question of closedQuestions) {
    const posted = questionKey(negotiationId, question.engineQuestionId);
    // Only a message that was enqueued can be edited.
    if (!(await isEnqueued(tx, posted))) continue;
    const body = buildExpiredQuestion({
      askedBy: askerName(question.askedBySupplier),
      question: question.question,
      kind: question.kind,
    });
    calls.push(edit(thread, `${posted}:expired`, posted, body));
  }
  await enqueueSlackCalls(tx, calls);
  await enqueueStatus(tx, quotationId, { stage: 'expired', reason: expiredReason(waitedDays) }, 'expired');
}
