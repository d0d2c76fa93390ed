import { describe, expect, it } from 'vitest';
import { ACTION, actionIdPattern, answerCodec, questionRefCodec, whichQuestionCodec } from '../ids.js';
import {
  buildAnsweredQuestion,
  buildEarlyTermination,
  buildEarlyTerminationAnswered,
  buildQuestion,
  buildWhichQuestion,
  buildWhichQuestionSettled,
  WHICH_QUESTION_MAX,
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

describe('buildWhichQuestion', () => {
  const R = 'clthreadreply0000000000001';
  const model = {
    replyId: R,
    authorId: 'U0BUYER01',
    reply: 'Yes, split the order',
    questions: [
      {
        questionId: `${Q}_q1`,
        askedBy: 'Alex (about Alpine Premium)',
        question: 'Are you open to splitting the order?',
      },
      { questionId: `${Q}_q2`, askedBy: 'Alex (about RapidGear)', question: 'Is 30 days acceptable?' },
    ],
  };

  it('quotes the reply, lists the open questions, and offers one button per question and none', () => {
    const m = buildWhichQuestion(model);
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('<@U0BUYER01>, 2 questions are waiting for your answer. Which one does your reply answer?');
    expect(text).toContain('>Yes, split the order');
    expect(text).toContain('*1.* *Alex (about Alpine Premium)* asks: Are you open to splitting the order?');
    const b = buttons(m);
    expect(b.map((x) => x.text)).toEqual([
      '1. Are you open to splitting the order?',
      '2. Is 30 days acceptable?',
      'None of these',
    ]);
    expect(b.map((x) => whichQuestionCodec.decode(x.value))).toEqual([
      { r: R, q: `${Q}_q1` },
      { r: R, q: `${Q}_q2` },
      { r: R, q: null },
    ]);
    expect(b.slice(0, 2).every((x) => actionIdPattern(ACTION.whichQuestion).test(x.actionId ?? ''))).toBe(true);
    expect(b[2]?.actionId).toBe(ACTION.whichQuestionNone);
    expect(new Set(b.map((x) => x.actionId)).size).toBe(3);
    expect(m.text).toContain('<@U0BUYER01>');
  });

  it('escapes and cuts a hostile reply and hostile questions, within Block Kit’s limits', () => {
    const long = HOSTILE.repeat(300);
    const questions = Array.from({ length: 30 }, (_, i) => ({
      questionId: `${Q}_q${i}`,
      askedBy: long,
      question: long,
    }));
    const m = buildWhichQuestion({ ...model, reply: long, questions });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
    expect(buttons(m)).toHaveLength(WHICH_QUESTION_MAX + 1);
    expect(buttons(m).every((x) => (x.text ?? '').length <= 75)).toBe(true);
  });

  it('refuses an author id that is not a Slack user id', () => {
    expect(() => buildWhichQuestion({ ...model, authorId: '<!channel>' })).toThrow(TypeError);
  });
});

describe('buildWhichQuestionSettled', () => {
  it('says which question the reply answered, or that it answered none, without buttons', () => {
    const chosen = buildWhichQuestionSettled({
      authorId: 'U0BUYER01',
      reply: 'Yes, split the order',
      chosen: { askedBy: 'Alex (about Alpine Premium)', question: 'Are you open to splitting the order?' },
    });
    expectNoViolations(chosen, 'message');
    expect(buttons(chosen)).toHaveLength(0);
    expect(visibleText(chosen)).toContain(
      "Taken as the answer to *Alex (about Alpine Premium)*'s question: Are you open to splitting the order?",
    );
    const none = buildWhichQuestionSettled({ authorId: 'U0BUYER01', reply: 'thanks', chosen: null });
    expect(visibleText(none)).toContain('Not taken as an answer to any question.');
    const hostile = buildWhichQuestionSettled({
      authorId: 'U0BUYER01',
      reply: HOSTILE.repeat(100),
      chosen: { askedBy: HOSTILE, question: HOSTILE.repeat(100) },
    });
    expectNoViolations(hostile, 'message');
    expectNoInjection(hostile);
  });
});
