import { describe, expect, it } from 'vitest';
import { applyAnswer, createMandate } from '../../src/negotiation/mandate.js';
import { readImpasseAnswer } from '../../src/negotiation/impasse.js';
import { spokenBudget, TYPED_REPLIES, typedReply, typedTopic } from './typed-replies.js';

const leadQuestion = {
  id: 'q1',
  topic: 'lead_time',
  question:
    'Ningbo quotes 52 days, while RapidGear Co can ship in 15. Is a 52-day lead time acceptable for this order?',
};
const splitQuestion = {
  id: 'q2',
  topic: 'split_order',
  question:
    'Alpine Premium can now fill only 60% of the order. Are you open to splitting the order between two suppliers?',
};

describe('typed replies', () => {
  it('fill the days the question names and a budget just under the quote, as people write sums', () => {
    const replies = Array.from({ length: 14 }, (_, index) => typedReply(leadQuestion, 123_456, 1, index));
    expect(replies).toContain('52 days works');
    expect(replies).toContain('52 days is ok but keep it under 119k');
    expect(replies.every((reply) => !reply.includes('{'))).toBe(true);
    expect(spokenBudget(1_234_567)).toBe('1.2m');
    expect(spokenBudget(8_765)).toBe('$8,700');
  });

  it('route each topic to its bank', () => {
    expect(typedTopic('lead_time')).toBe('lead_time');
    expect(typedTopic('split_order')).toBe('split_order');
    expect(typedTopic('impasse:SUP-002')).toBe('impasse');
    expect(typedTopic(null)).toBe('other');
  });

  // What the replies mean, read by the product: a reply that states a limit changes the mandate, the rest change
  // nothing — so the benchmark's typed buyer exercises both.
  it.each([
    ['52 days works', leadQuestion, { acceptedLeadTimeDays: 52 }],
    ['yeah 52 days is fine, no rush on this one', leadQuestion, { acceptedLeadTimeDays: 52 }],
    ['52 days is ok but keep it under 119k', leadQuestion, { acceptedLeadTimeDays: 52, walkAwayTotal: 119_000 }],
    ['we need it within 5 weeks', leadQuestion, { maxLeadTimeDays: 35 }],
    ['need delivery in under 30 days, the season starts early', leadQuestion, { maxLeadTimeDays: 30 }],
    ['speed matters more than price for this drop', leadQuestion, { leadTimeOverPrice: true }],
    ['one supplier please', splitQuestion, { sourcing: 'single' }],
    ['fine to split if it saves money', splitQuestion, { sourcing: 'any' }],
    ["let's dual-source this one", splitQuestion, { sourcing: 'split' }],
    ['split only if it saves more than 5%', splitQuestion, { sourcing: 'any', minSplitSaving: 0.05 }],
  ] as const)('"%s" is read', (reply, question, expected) => {
    const { mandate, effect } = applyAnswer(createMandate(), question, reply);
    expect(effect).not.toBeNull();
    expect(mandate).toMatchObject(expected);
  });

  it('"whatever is cheapest" and "your call" change nothing', () => {
    for (const reply of ['whatever is cheapest', 'your call'])
      expect(applyAnswer(createMandate(), leadQuestion, reply).effect).toBeNull();
  });

  it('the impasse replies end or continue the talks as they say', () => {
    expect(TYPED_REPLIES.impasse.map((reply) => readImpasseAnswer(reply))).toEqual([
      'continue',
      'end',
      'end',
      'continue',
    ]);
  });
});
