import { describe, expect, it } from 'vitest';
import { QUESTION_BUDGET_DEFAULT } from '../config/business-rules.js';
import {
  answerQuestion,
  askInfoStateSchema,
  type AskInfoState,
  askQuestion,
  type AskQuestionInput,
  createAskInfoState,
  isPaused,
  nextOpenQuestion,
  openQuestions,
  questionsRemaining,
} from './ask-info.js';

const ask = (supplierCode: string, question = `What does ${supplierCode} need to know?`): AskQuestionInput => ({
  supplierCode,
  question,
  suggestedAnswers: ['Yes', 'No'],
});

/** Asks and expects the question to be queued, returning the new state. */
function queued(state: AskInfoState, input: AskQuestionInput): AskInfoState {
  const result = askQuestion(state, input);
  if (result.kind !== 'queued') throw new Error(`expected the question to be queued, got ${result.kind}`);
  return result.state;
}

function answered(state: AskInfoState, questionId: string, answer = 'Yes'): AskInfoState {
  const result = answerQuestion(state, questionId, answer, 'U123');
  if (result.kind !== 'answered') throw new Error(`expected ${questionId} to be answered, got ${result.kind}`);
  return result.state;
}

describe('askQuestion', () => {
  it('queues a question with a deterministic id and pauses only that supplier', () => {
    const state = createAskInfoState();
    const result = askQuestion(state, {
      supplierCode: 'SUP-002',
      question: ' Is a 40/60 split acceptable? ',
      suggestedAnswers: [' Yes ', 'No, keep 30/70', 'Ask for 50/50'],
      askedBy: 'supplier',
    });
    expect(result).toEqual({
      kind: 'queued',
      state: expect.any(Object),
      question: {
        id: 'q1',
        supplierCode: 'SUP-002',
        askedBy: 'supplier',
        question: 'Is a 40/60 split acceptable?',
        suggestedAnswers: ['Yes', 'No, keep 30/70', 'Ask for 50/50'],
        topic: null,
        status: 'open',
        budgeted: true,
        answer: null,
        answeredBy: null,
      },
    });
    if (result.kind !== 'queued') return;
    expect(isPaused(result.state, 'SUP-002')).toBe(true);
    expect(isPaused(result.state, 'SUP-001')).toBe(false);
    expect(isPaused(result.state, 'SUP-003')).toBe(false);
    expect(questionsRemaining(result.state)).toBe(QUESTION_BUDGET_DEFAULT - 1);
  });

  it('leaves the state it was given untouched', () => {
    const state = createAskInfoState();
    const snapshot = structuredClone(state);
    const after = queued(state, ask('SUP-001'));
    expect(state).toEqual(snapshot);
    answered(after, 'q1');
    expect(after.questions[0]?.status).toBe('open');
  });

  it('numbers questions q1, q2, … in the order asked', () => {
    let state = createAskInfoState();
    state = queued(state, ask('SUP-001'));
    state = queued(state, ask('SUP-002'));
    state = answered(state, 'q1');
    state = queued(state, ask('SUP-001'));
    expect(state.questions.map((question) => question.id)).toEqual(['q1', 'q2', 'q3']);
  });

  it('reports the budget exhausted after the configured number of questions, answered or not', () => {
    let state = createAskInfoState();
    state = queued(state, ask('SUP-001'));
    state = answered(state, 'q1');
    state = queued(state, ask('SUP-002'));
    state = queued(state, ask('SUP-003'));
    expect(questionsRemaining(state)).toBe(0);
    const result = askQuestion(state, ask('SUP-001'));
    expect(result).toEqual({ kind: 'budget_exhausted', state });
    expect(isPaused(state, 'SUP-001')).toBe(false);
  });

  it('honours a custom budget, including none at all', () => {
    const none = createAskInfoState(0);
    expect(askQuestion(none, ask('SUP-001')).kind).toBe('budget_exhausted');
    let one = createAskInfoState(1);
    one = queued(one, ask('SUP-001'));
    expect(askQuestion(one, ask('SUP-002')).kind).toBe('budget_exhausted');
    expect(() => createAskInfoState(-1)).toThrow(RangeError);
    expect(() => createAskInfoState(1.5)).toThrow(RangeError);
  });

  it('asks a question outside the budget (an impasse) even when the budget is spent, and it does not spend it', () => {
    let one = createAskInfoState(1);
    const outside = askQuestion(one, { ...ask('SUP-002'), budgeted: false });
    expect(outside.kind).toBe('queued');
    if (outside.kind !== 'queued') return;
    expect(outside.question.budgeted).toBe(false);
    expect(questionsRemaining(outside.state)).toBe(1);
    one = queued(outside.state, ask('SUP-001'));
    expect(askQuestion(one, ask('SUP-003')).kind).toBe('budget_exhausted');
    expect(askQuestion(one, { ...ask('SUP-003'), budgeted: false }).kind).toBe('queued');
  });

  it('refuses a second question from a run that is already paused', () => {
    const state = queued(createAskInfoState(), ask('SUP-001'));
    expect(() => askQuestion(state, ask('SUP-001'))).toThrow(/paused/);
  });

  it('refuses malformed questions: empty, or not 2–4 suggested answers', () => {
    const state = createAskInfoState();
    expect(() => askQuestion(state, { ...ask('SUP-001'), question: '  ' })).toThrow();
    expect(() => askQuestion(state, { ...ask('SUP-001'), suggestedAnswers: ['Yes'] })).toThrow();
    expect(() => askQuestion(state, { ...ask('SUP-001'), suggestedAnswers: ['a', 'b', 'c', 'd', 'e'] })).toThrow();
    expect(() => askQuestion(state, { ...ask('SUP-001'), suggestedAnswers: ['Yes', ' '] })).toThrow();
    expect(askQuestion(state, { ...ask('SUP-001'), suggestedAnswers: ['a', 'b', 'c', 'd'] }).kind).toBe('queued');
  });
});

describe('the queue', () => {
  it('serves open questions first in, first out', () => {
    let state = createAskInfoState();
    expect(nextOpenQuestion(state)).toBeNull();
    state = queued(state, ask('SUP-002', 'first'));
    state = queued(state, ask('SUP-001', 'second'));
    state = queued(state, ask('SUP-003', 'third'));
    expect(nextOpenQuestion(state)?.question).toBe('first');
    state = answered(state, 'q1');
    expect(nextOpenQuestion(state)?.question).toBe('second');
    // Answering out of order (an older message's button) leaves the rest of the queue in order.
    state = answered(state, 'q3');
    expect(nextOpenQuestion(state)?.question).toBe('second');
    expect(openQuestions(state).map((question) => question.id)).toEqual(['q2']);
    state = answered(state, 'q2');
    expect(nextOpenQuestion(state)).toBeNull();
  });
});

describe('answerQuestion', () => {
  it('records the answer as a clarification and resumes that supplier while the others stay as they were', () => {
    let state = createAskInfoState();
    state = queued(state, ask('SUP-001', 'Which port?'));
    state = queued(state, ask('SUP-002', 'Can you pay 40% upfront?'));

    const result = answerQuestion(state, 'q1', '  Ningbo  ', 'U123');
    expect(result.kind).toBe('answered');
    if (result.kind !== 'answered') return;
    expect(result.clarification).toEqual({
      questionId: 'q1',
      supplierCode: 'SUP-001',
      question: 'Which port?',
      answer: 'Ningbo',
      answeredBy: 'U123',
    });
    expect(result.question).toMatchObject({ id: 'q1', status: 'answered', answer: 'Ningbo', answeredBy: 'U123' });
    expect(result.state.clarifications).toEqual([result.clarification]);
    expect(isPaused(result.state, 'SUP-001')).toBe(false);
    expect(isPaused(result.state, 'SUP-002')).toBe(true);
  });

  it('lets a resumed supplier ask again while budget remains', () => {
    let state = queued(createAskInfoState(), ask('SUP-001'));
    state = answered(state, 'q1');
    state = queued(state, ask('SUP-001', 'And the colour?'));
    expect(isPaused(state, 'SUP-001')).toBe(true);
  });

  it('is idempotent: a second answer is ignored and reported', () => {
    let state = queued(createAskInfoState(), ask('SUP-001'));
    state = answered(state, 'q1', 'Yes');
    const again = answerQuestion(state, 'q1', 'No', 'U999');
    expect(again.kind).toBe('already_answered');
    expect(again.state).toBe(state);
    if (again.kind !== 'already_answered') return;
    expect(again.question.answer).toBe('Yes');
    expect(again.state.clarifications).toHaveLength(1);
  });

  it('reports an unknown question and changes nothing', () => {
    const state = queued(createAskInfoState(), ask('SUP-001'));
    expect(answerQuestion(state, 'q9', 'Yes', 'U123')).toEqual({ kind: 'unknown_question', state });
  });

  it('refuses an empty answer', () => {
    const state = queued(createAskInfoState(), ask('SUP-001'));
    expect(() => answerQuestion(state, 'q1', '   ', 'U123')).toThrow(RangeError);
  });
});

it('survives a checkpoint round trip through JSON, pauses and all', () => {
  let state = createAskInfoState(2);
  state = queued(state, ask('SUP-001'));
  state = queued(state, ask('SUP-002'));
  state = answered(state, 'q2');
  const restored = askInfoStateSchema.parse(JSON.parse(JSON.stringify(state)));
  expect(restored).toEqual(state);
  expect(isPaused(restored, 'SUP-001')).toBe(true);
  expect(isPaused(restored, 'SUP-002')).toBe(false);
  expect(askQuestion(restored, ask('SUP-003')).kind).toBe('budget_exhausted');
});
