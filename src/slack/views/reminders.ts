// What the scheduled jobs say in a quotation's thread: a reminder of a question the buyer has not answered, a reminder
// to the approvers of a PO still in draft, and the notice (plus the question's replacement) when a negotiation that
// waited too long expires. Every reminder mentions the people it is for: a thread message nobody is pinged about is
// not read.
import type { KnownBlock } from '@slack/types';
import { ACTION, BLOCK, poIdCodec } from '../ids.js';
import {
  type SlackMessage,
  actions,
  button,
  context,
  listPeople,
  money,
  plural,
  section,
  slackDate,
  who,
} from './blocks.js';
import { escapeTruncate, inline } from './escape.js';
import { EARLY_TERMINATION_REASON_TEXT } from './question.js';

export type ReminderQuestionKind = 'ask_info' | 'early_termination' | 'curveball_strategy';

export interface QuestionReminderModel {
  buyerId: string;
  kind: ReminderQuestionKind;
  /** Who asked: a supplier's name, or the brand agent's persona. */
  askedBy: string;
  /** The question as stored (for an early-termination offer: its reason code). */
  question: string;
  askedAt: Date;
  /** 1 for the first reminder, 2 for the next day's, … */
  reminderNumber: number;
  /** When the negotiation expires if nobody answers, when known. */
  expiresAt: Date | null;
}

export interface ApprovalReminderModel {
  purchaseOrderId: string;
  poNumber: string;
  /** The approvers who have not approved yet: the people reminded. */
  approverIds: string[];
  supplierNames: string[];
  total: number;
  currency: string;
  approvals: number;
  required: number;
  createdAt: Date;
  daysWaiting: number;
}

export interface ExpiredNoticeModel {
  buyerId: string;
  /** How long it waited for the buyer, in whole days. */
  waitedDays: number;
  /** Questions that were still open and are now closed. */
  closedQuestions: number;
}

export interface ExpiredQuestionModel {
  askedBy: string;
  question: string;
  kind: ReminderQuestionKind;
}

function questionText(kind: ReminderQuestionKind, question: string, max: number): string {
  if (kind === 'early_termination') {
    const reason = EARLY_TERMINATION_REASON_TEXT[question] ?? inline(question, 200);
    return `The offers have converged (${reason.toLowerCase()}): finish now or keep negotiating?`;
  }
  return escapeTruncate(question.trim() || '—', max);
}

export function buildQuestionReminder(model: QuestionReminderModel): SlackMessage {
  const asker = inline(model.askedBy, 80);
  const quoted = questionText(model.kind, model.question, 2000).replace(/\n/g, '\n>');
  const how =
    model.kind === 'ask_info'
      ? 'Answer with a button on the question above, or reply in this thread.'
      : 'Answer with the buttons on the question above.';
  const expiry = model.expiresAt ? ` · Without an answer the negotiation expires ${slackDate(model.expiresAt)}.` : '';
  const blocks: KnownBlock[] = [
    section(
      `:bell: ${who(model.buyerId)}, *${asker}* is still waiting for your answer (asked ${slackDate(model.askedAt)}):` +
        `\n>${quoted}`,
    ),
    context([`${how} Reminder ${Math.max(1, Math.round(model.reminderNumber))}${expiry}`]),
  ];
  return {
    text: `Reminder: ${who(model.buyerId)}, ${asker} is waiting for your answer: ${inline(
      model.kind === 'early_termination' ? 'finish now or keep negotiating?' : model.question,
      300,
    )}`,
    blocks,
  };
}

export function buildApprovalReminder(model: ApprovalReminderModel): SlackMessage {
  const people = listPeople(model.approverIds.slice(0, 10));
  const po = `*${inline(model.poNumber, 40)}*`;
  const suppliers = model.supplierNames.map((name) => inline(name, 60)).join(', ') || '—';
  const waited = plural(Math.max(1, Math.round(model.daysWaiting)), 'day');
  const blocks: KnownBlock[] = [
    section(
      `:bell: ${people}: ${po} (${suppliers} · ${money(model.total, model.currency)}) has been waiting for ` +
        `approval for ${waited}.`,
    ),
    actions(BLOCK.decisionActions, [
      button({
        text: 'Review and approve PO',
        actionId: ACTION.decisionOpenPo,
        style: 'primary',
        value: poIdCodec.encode({ po: model.purchaseOrderId }),
      }),
    ]),
    context([
      `${model.approvals} of ${model.required} approvals · drafted ${slackDate(model.createdAt)} · nothing is ` +
        'ordered until an approver approves it.',
    ]),
  ];
  return {
    text: `Reminder: ${inline(model.poNumber, 40)} is waiting for approval by ${people} (${waited}).`,
    blocks,
  };
}

/** The reason the status card shows for an expired negotiation. */
export function expiredReason(waitedDays: number): string {
  const waited = plural(Math.max(1, Math.round(waitedDays)), 'day');
  return `No answer for ${waited}: the negotiation expired and nothing was ordered.`;
}

export function buildExpiredNotice(model: ExpiredNoticeModel): SlackMessage {
  const waited = plural(Math.max(1, Math.round(model.waitedDays)), 'day');
  const closed =
    model.closedQuestions > 0 ? ` Its ${plural(model.closedQuestions, 'open question')} will not be asked again.` : '';
  const text =
    `:hourglass: ${who(model.buyerId)}, this negotiation waited ${waited} for an answer and has expired. ` +
    `Nothing was ordered.${closed}`;
  return {
    text: `This negotiation expired after waiting ${waited} for an answer.`,
    blocks: [section(text), context(['To negotiate this quotation again, upload the file again.'])],
  };
}

/** Replaces an unanswered question's message when its negotiation expires, so no button is left to click. */
export function buildExpiredQuestion(model: ExpiredQuestionModel): SlackMessage {
  const asker = inline(model.askedBy, 80);
  const question = questionText(model.kind, model.question, 1500);
  return {
    text: `${asker}'s question expired unanswered.`,
    blocks: [section(`:hourglass: *${asker}* asked: ${question}`), context(['Expired unanswered.'])],
  };
}
