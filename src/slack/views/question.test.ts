import { describe, expect, it } from 'vitest';
import { ACTION, actionIdPattern, answerCodec, questionRefCodec } from '../ids.js';
import {
  buildAnsweredQuestion,
  buildEarlyTermination,
  buildEarlyTerminationAnswered,
  buildQuestion,
} from './question.js';
import { HOSTILE, buttons, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const Q = 'clquestion000000000000001';

const question = {
  questionId: Q,
  buyerId: 'U0BUYER01',
  askedBy: 'Alpine Premium',
  question: 'Can you accept delivery in two batches?',
  suggestedAnswers: ['Yes, two batches are fine', 'No, one delivery', 'Only if the second is within 2 weeks'],
  round: 2,
};

describe('buildQuestion', () => {
  it('mentions the buyer, shows the question and the suggested answers as buttons', () => {
    const m = buildQuestion(question);
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('<@U0BUYER01>, *Alpine Premium* asks (round 2)');
    expect(text).toContain('>Can you accept delivery in two batches?');
    expect(text).toContain('or reply in this thread');
    const b = buttons(m);
    expect(b.map((x) => x.text)).toEqual(question.suggestedAnswers);
    expect(b.map((x) => answerCodec.decode(x.value))).toEqual([
      { q: Q, a: 0 },
      { q: Q, a: 1 },
      { q: Q, a: 2 },
    ]);
    expect(b.every((x) => actionIdPattern(ACTION.questionAnswer).test(x.actionId ?? ''))).toBe(true);
    expect(new Set(b.map((x) => x.actionId)).size).toBe(3);
    expect(m.text).toContain('<@U0BUYER01>');
  });

  it('caps suggestions at 4, and without any asks for a thread reply', () => {
    const many = buildQuestion({ ...question, suggestedAnswers: ['a', 'b', 'c', 'd', 'e', 'f'] });
    expect(buttons(many)).toHaveLength(4);
    const none = buildQuestion({ ...question, suggestedAnswers: ['  '] });
    expectNoViolations(none, 'message');
    expect(buttons(none)).toHaveLength(0);
    expect(visibleText(none)).toContain('Reply in this thread to answer.');
  });

  it('refuses a buyer id that is not a Slack user id', () => {
    expect(() => buildQuestion({ ...question, buyerId: '<!channel>' })).toThrow(TypeError);
  });

  it('escapes hostile LLM questions and answers', () => {
    const long = HOSTILE.repeat(300);
    const m = buildQuestion({ ...question, askedBy: long, question: long, suggestedAnswers: [long, long, long, long] });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
  });
});

describe('buildAnsweredQuestion', () => {
  it('shows the question, the answer and who gave it, without buttons', () => {
    const m = buildAnsweredQuestion({
      askedBy: 'Alpine Premium',
      question: question.question,
      answer: 'Yes, two batches are fine',
      answeredBy: 'U0BUYER01',
    });
    expectNoViolations(m, 'message');
    expect(buttons(m)).toHaveLength(0);
    const text = visibleText(m);
    expect(text).toContain('*Alpine Premium* asked: Can you accept delivery in two batches?');
    expect(text).toContain('*Answer:* Yes, two batches are fine');
    expect(text).toContain('Answered by <@U0BUYER01>');
    expect(
      visibleText(buildAnsweredQuestion({ askedBy: 'A', question: 'q', answer: 'a', answeredBy: null })),
    ).toContain('Answered by the default');
  });

  it('escapes hostile answers typed in the thread', () => {
    const long = HOSTILE.repeat(300);
    const m = buildAnsweredQuestion({ askedBy: long, question: long, answer: long, answeredBy: '<!here>' });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
  });
});

describe('buildEarlyTermination', () => {
  const model = {
    questionId: Q,
    buyerId: 'U0BUYER01',
    confidence: 0.93,
    reason: 'high_confidence_convergence',
    round: 2,
    maxRounds: 4,
    roundsSkipped: 2,
    estimatedCostSavedUsd: 0.42,
  };

  it('offers Finish now / Keep negotiating with the confidence, skipped rounds and cost saved', () => {
    const m = buildEarlyTermination(model);
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('<@U0BUYER01>');
    expect(text).toContain('after round 2 of 4');
    expect(text).toContain('Every offer has stopped moving — 93% confidence');
    expect(text).toContain('skips 2 rounds and saves about $0.42 of AI usage');
    const b = buttons(m);
    expect(b.map((x) => [x.text, x.actionId, x.style])).toEqual([
      ['Finish now', ACTION.earlyTerminationFinish, 'primary'],
      ['Keep negotiating', ACTION.earlyTerminationContinue, undefined],
    ]);
    expect(b.map((x) => questionRefCodec.decode(x.value))).toEqual([{ q: Q }, { q: Q }]);
    expect(visibleText(buildEarlyTermination({ ...model, estimatedCostSavedUsd: 0 }))).toContain('no AI cost');
  });

  it('escapes an unknown reason', () => {
    const m = buildEarlyTermination({ ...model, reason: HOSTILE.repeat(50) });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
  });

  it('has answered variants', () => {
    const finish = buildEarlyTerminationAnswered({ decision: 'finish', by: 'U0BUYER01', roundsSkipped: 2 });
    expectNoViolations(finish, 'message');
    expect(visibleText(finish)).toContain('Finishing now — 2 rounds skipped.');
    expect(visibleText(finish)).toContain('Decided by <@U0BUYER01>');
    expect(buttons(finish)).toHaveLength(0);
    const keep = buildEarlyTerminationAnswered({ decision: 'continue', by: null, roundsSkipped: 2 });
    expect(visibleText(keep)).toContain('Negotiating on');
    expect(visibleText(keep)).toContain('Decided by the default');
  });
});
