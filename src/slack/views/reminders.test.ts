import { describe, expect, it } from 'vitest';
import { ACTION, poIdCodec } from '../ids.js';
import {
  buildApprovalReminder,
  buildExpiredNotice,
  buildExpiredQuestion,
  buildQuestionReminder,
  expiredReason,
} from './reminders.js';
import { buildStatusCard } from './status-card.js';
import { HOSTILE, buttons, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const ASKED = new Date('2026-03-02T09:00:00Z');

const question = {
  buyerId: 'U0BUYER01',
  kind: 'ask_info' as const,
  askedBy: 'Alpine Premium',
  question: 'Can you accept delivery in two batches?',
  askedAt: ASKED,
  reminderNumber: 1,
  expiresAt: new Date('2026-03-09T09:00:00Z'),
};

describe('buildQuestionReminder', () => {
  it('mentions the buyer, quotes the question and says how to answer and when it expires', () => {
    const m = buildQuestionReminder(question);
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('<@U0BUYER01>, *Alpine Premium* is still waiting for your answer');
    expect(text).toContain('>Can you accept delivery in two batches?');
    expect(text).toContain('reply in this thread');
    expect(text).toContain('Reminder 1');
    expect(text).toContain(`<!date^${Math.floor(question.expiresAt.getTime() / 1000)}^`);
    expect(m.text).toContain('<@U0BUYER01>');
    expect(buttons(m)).toHaveLength(0);
  });

  it('counts reminders and leaves out the expiry when there is none', () => {
    const m = buildQuestionReminder({ ...question, reminderNumber: 3, expiresAt: null });
    expect(visibleText(m)).toContain('Reminder 3');
    expect(visibleText(m)).not.toContain('expires');
  });

  it('words an early-termination offer instead of showing its reason code', () => {
    const m = buildQuestionReminder({
      ...question,
      kind: 'early_termination',
      askedBy: 'Alex',
      question: 'high_confidence_convergence',
    });
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('finish now or keep negotiating?');
    expect(text).toContain('every offer has stopped moving');
    expect(text).not.toContain('high_confidence_convergence');
    expect(text).not.toContain('reply in this thread');
  });

  it('escapes hostile names and questions and stays within the limits', () => {
    const long = HOSTILE.repeat(400);
    const m = buildQuestionReminder({ ...question, askedBy: long, question: long });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
    const unknownReason = buildQuestionReminder({ ...question, kind: 'early_termination', question: long });
    expectNoViolations(unknownReason, 'message');
    expectNoInjection(unknownReason);
  });

  it('never pings from a buyer id that is not a Slack user id', () => {
    const m = buildQuestionReminder({ ...question, buyerId: '<!channel>' });
    expectNoInjection(m);
    expect(visibleText(m)).not.toContain('<!channel>');
  });
});

const po = {
  purchaseOrderId: 'clpo0000000000000000001',
  poNumber: 'PO-2026-0001',
  approverIds: ['U0APPROV1', 'U0APPROV2'],
  supplierNames: ['Ningbo Everbright', 'Alpine Premium'],
  total: 42_180.5,
  currency: 'USD',
  approvals: 0,
  required: 2,
  createdAt: ASKED,
  daysWaiting: 2,
};

describe('buildApprovalReminder', () => {
  it('mentions every approver still needed, with the PO, its total and a button to review it', () => {
    const m = buildApprovalReminder(po);
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('<@U0APPROV1> and <@U0APPROV2>: *PO-2026-0001*');
    expect(text).toContain('Ningbo Everbright, Alpine Premium');
    expect(text).toContain('42,180.50');
    expect(text).toContain('waiting for approval for 2 days');
    expect(text).toContain('0 of 2 approvals');
    const [review] = buttons(m);
    expect(review?.actionId).toBe(ACTION.decisionOpenPo);
    expect(poIdCodec.decode(review?.value ?? '')).toEqual({ po: po.purchaseOrderId });
    expect(m.text).toContain('<@U0APPROV1>');
  });

  it('escapes hostile supplier names and PO numbers', () => {
    const m = buildApprovalReminder({
      ...po,
      poNumber: HOSTILE,
      supplierNames: Array.from({ length: 30 }, () => HOSTILE.repeat(20)),
      approverIds: ['<!here>', ...Array.from({ length: 30 }, (_, i) => `U0APPROV${i}`)],
    });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
  });
});

describe('the expiry', () => {
  it('tells the buyer the negotiation expired, nothing was ordered and how to start again', () => {
    const m = buildExpiredNotice({ buyerId: 'U0BUYER01', waitedDays: 7, closedQuestions: 2 });
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('<@U0BUYER01>, this negotiation waited 7 days for an answer and has expired.');
    expect(text).toContain('Nothing was ordered.');
    expect(text).toContain('Its 2 open questions will not be asked again.');
    expect(text).toContain('upload the file again');
    expect(visibleText(buildExpiredNotice({ buyerId: 'U0BUYER01', waitedDays: 1, closedQuestions: 0 }))).not.toContain(
      'open question',
    );
  });

  it('gives the status card its reason', () => {
    const card = buildStatusCard({
      fileName: 'quote.xlsx',
      sharedBy: 'U0BUYER01',
      currency: 'USD',
      state: { stage: 'expired', reason: expiredReason(7) },
    });
    expectNoViolations(card, 'message');
    expect(visibleText(card)).toContain('Expired');
    expect(visibleText(card)).toContain('No answer for 7 days');
  });

  it('replaces a question with an expired one, without buttons, escaped', () => {
    const m = buildExpiredQuestion({ askedBy: 'Alpine Premium', question: 'Two batches?', kind: 'ask_info' });
    expectNoViolations(m, 'message');
    expect(visibleText(m)).toContain('*Alpine Premium* asked: Two batches?');
    expect(visibleText(m)).toContain('Expired unanswered.');
    expect(buttons(m)).toHaveLength(0);
    const hostile = buildExpiredQuestion({ askedBy: HOSTILE, question: HOSTILE.repeat(100), kind: 'ask_info' });
    expectNoViolations(hostile, 'message');
    expectNoInjection(hostile);
  });
});
