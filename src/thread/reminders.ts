// Reminders in the thread: of a question the buyer has not answered, and to the approvers of a PO still in draft.
// Each is posted under a key naming what it reminds of and its number (the day of the wait, for a PO), so a reminder
// enqueued twice — two instances, a repeated run — is written once.
import type { WorkspaceTx } from '../db/scoped.js';
import { enqueueSlackCall } from '../outbox/index.js';
import {
  type ApprovalReminderModel,
  buildApprovalReminder,
  buildQuestionReminder,
  type ReminderQuestionKind,
} from '../slack/views/index.js';
import { askerName, message, negotiationThread } from './thread.js';

export function questionReminderKey(questionId: string, reminderNumber: number): string {
  return `remind:q:${questionId}:${reminderNumber}`;
}

export function approvalReminderKey(purchaseOrderId: string, day: number): string {
  return `po:${purchaseOrderId}:remind:day:${day}`;
}

export interface QuestionReminderInput {
  /** The question's row id. */
  questionId: string;
  negotiationId: string;
  kind: ReminderQuestionKind;
  /** The supplier who asked, or null for the brand agent. */
  askedBySupplier: string | null;
  question: string;
  askedAt: Date;
  /** 1 for the first reminder, 2 for the next day's, … */
  reminderNumber: number;
  /** When the negotiation expires if nobody answers, when known. */
  expiresAt: Date | null;
}

/** The reminder, mentioning the buyer; true when it was written, false when this reminder was there already. */
export async function enqueueQuestionReminder(tx: WorkspaceTx, input: QuestionReminderInput): Promise<boolean> {
  const { thread, buyerId } = await negotiationThread(tx, input.negotiationId);
  const body = buildQuestionReminder({
    buyerId,
    kind: input.kind,
    askedBy: askerName(input.askedBySupplier),
    question: input.question,
    askedAt: input.askedAt,
    reminderNumber: input.reminderNumber,
    expiresAt: input.expiresAt,
  });
  return enqueueSlackCall(tx, message(thread, questionReminderKey(input.questionId, input.reminderNumber), body));
}

/** The view's model, with the negotiation whose thread it goes to; `daysWaiting` is the day of the wait (1 from 24 hours
 * after the draft): one reminder per day. */
export type ApprovalReminderInput = ApprovalReminderModel & { negotiationId: string };

/** The reminder, mentioning the approvers; true when it was written, false when today's was there already. */
export async function enqueueApprovalReminder(tx: WorkspaceTx, input: ApprovalReminderInput): Promise<boolean> {
  const { thread } = await negotiationThread(tx, input.negotiationId);
  const { negotiationId: _negotiationId, ...model } = input;
  const body = buildApprovalReminder(model);
  return enqueueSlackCall(tx, message(thread, approvalReminderKey(input.purchaseOrderId, input.daysWaiting), body));
}
