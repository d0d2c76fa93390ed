// Seed 001's ASK_INFO protocol as pure transitions over a serialisable state (it lives in the engine's checkpoint):
// a question pauses only the run with the supplier whose agent asked; questions wait in one FIFO queue per
// negotiation; the buyer's answer joins the clarifications fed to later prompts and resumes that run; a budget caps
// the questions per negotiation, after which the caller turns ASK_INFO into a normal response.
import { z } from 'zod';
import { QUESTION_BUDGET_DEFAULT } from '../config/business-rules.js';

/** Slack shows suggested answers as buttons: fewer than 2 is no choice, more than 4 crowds the message. */
export const SUGGESTED_ANSWERS = { min: 2, max: 4 } as const;

/** The ASK_INFO action's payload, for parsing what an agent returned. */
export const askInfoPayloadSchema = z.object({
  question: z.string().trim().min(1),
  suggestedAnswers: z.array(z.string().trim().min(1)).min(SUGGESTED_ANSWERS.min).max(SUGGESTED_ANSWERS.max),
});
export type AskInfoPayload = z.infer<typeof askInfoPayloadSchema>;

export const questionSchema = z.object({
  /** `q1`, `q2`, … in the order asked: deterministic, so a replayed negotiation produces the same ids. */
  id: z.string(),
  supplierCode: z.string(),
  askedBy: z.enum(['brand', 'supplier']),
  question: z.string(),
  suggestedAnswers: z.array(z.string()),
  /** What the question is about ("lead_time"), so an agent never asks the same thing twice. */
  topic: z.string().nullable().default(null),
  status: z.enum(['open', 'answered']),
  /** Counts against the budget: the agents' questions do; the engine's own (an impasse) must be asked regardless. */
  budgeted: z.boolean().default(true),
  answer: z.string().nullable(),
  answeredBy: z.string().nullable(),
});
export type Question = z.infer<typeof questionSchema>;

export const clarificationSchema = z.object({
  questionId: z.string(),
  supplierCode: z.string(),
  question: z.string(),
  answer: z.string(),
  answeredBy: z.string(),
});
export type Clarification = z.infer<typeof clarificationSchema>;

export const askInfoStateSchema = z.object({
  budget: z.number().int().nonnegative(),
  /** Every question asked, in order; the open ones are the queue. */
  questions: z.array(questionSchema),
  clarifications: z.array(clarificationSchema),
});
export type AskInfoState = z.infer<typeof askInfoStateSchema>;

export interface AskQuestionInput {
  supplierCode: string;
  question: string;
  suggestedAnswers: readonly string[];
  /** Which agent of that supplier's run asked; the brand's by default. */
  askedBy?: Question['askedBy'];
  topic?: string | null;
  /** False for a question the engine must put to the buyer whatever the budget (an impasse); true by default. */
  budgeted?: boolean;
}

export type AskQuestionResult =
  { kind: 'queued'; state: AskInfoState; question: Question } | { kind: 'budget_exhausted'; state: AskInfoState };

export type AnswerQuestionResult =
  | { kind: 'answered'; state: AskInfoState; question: Question; clarification: Clarification }
  /** The question was answered before (a double click, a Slack retry): nothing changes. */
  | { kind: 'already_answered'; state: AskInfoState; question: Question }
  | { kind: 'unknown_question'; state: AskInfoState };

export function createAskInfoState(budget: number = QUESTION_BUDGET_DEFAULT): AskInfoState {
  if (!Number.isInteger(budget) || budget < 0) throw new RangeError(`question budget ${budget} must be an integer ≥ 0`);
  return { budget, questions: [], clarifications: [] };
}

/** Questions left in the budget. */
export function questionsRemaining(state: AskInfoState): number {
  return Math.max(0, state.budget - state.questions.filter((question) => question.budgeted).length);
}

export function isPaused(state: AskInfoState, supplierCode: string): boolean {
  return state.questions.some((question) => question.status === 'open' && question.supplierCode === supplierCode);
}

/** The question to show the buyer now: the oldest open one (seed 001 surfaces one at a time). */
export function nextOpenQuestion(state: AskInfoState): Question | null {
  return state.questions.find((question) => question.status === 'open') ?? null;
}

export function openQuestions(state: AskInfoState): Question[] {
  return state.questions.filter((question) => question.status === 'open');
}

/**
 * Queues a question and pauses that supplier's run, or reports the budget spent. The input is what
 * askInfoPayloadSchema accepts; anything else is a bug in the caller and throws, as does asking for a run that is
 * already paused (a paused run takes no turns).
 */
export function askQuestion(state: AskInfoState, input: AskQuestionInput): AskQuestionResult {
  const payload = askInfoPayloadSchema.parse({ question: input.question, suggestedAnswers: input.suggestedAnswers });
  if (isPaused(state, input.supplierCode)) {
    throw new Error(`the run with ${input.supplierCode} is paused and cannot ask another question`);
  }
  const budgeted = input.budgeted ?? true;
  if (budgeted && questionsRemaining(state) === 0) return { kind: 'budget_exhausted', state };

  const question: Question = {
    id: `q${state.questions.length + 1}`,
    supplierCode: input.supplierCode,
    askedBy: input.askedBy ?? 'brand',
    question: payload.question,
    suggestedAnswers: payload.suggestedAnswers,
    topic: input.topic ?? null,
    status: 'open',
    budgeted,
    answer: null,
    answeredBy: null,
  };
  return { kind: 'queued', state: { ...state, questions: [...state.questions, question] }, question };
}

/**
 * Records the buyer's answer to any open question (not only the head of the queue: an older Slack message's button
 * still works), appends it to the clarifications and so resumes that supplier's run. Answering twice keeps the first
 * answer.
 */
export function answerQuestion(
  state: AskInfoState,
  questionId: string,
  answer: string,
  by: string,
): AnswerQuestionResult {
  const asked = state.questions.find((question) => question.id === questionId);
  if (!asked) return { kind: 'unknown_question', state };
  if (asked.status === 'answered') return { kind: 'already_answered', state, question: asked };
  const text = answer.trim();
  if (text === '') throw new RangeError('an answer cannot be empty');

  const question: Question = { ...asked, status: 'answered', answer: text, answeredBy: by };
  const clarification: Clarification = {
    questionId,
    supplierCode: asked.supplierCode,
    question: asked.question,
    answer: text,
    answeredBy: by,
  };
  return {
    kind: 'answered',
    state: {
      ...state,
      questions: state.questions.map((existing) => (existing.id === questionId ? question : existing)),
      clarifications: [...state.clarifications, clarification],
    },
    question,
    clarification,
  };
}
