// Questions for the buyer in the thread: an agent's ASK_INFO (answer by button or by replying in the thread) and the
// early-termination offer (offers have converged: finish now and save the remaining rounds?). Each has an answered
// variant that replaces it (chat.update), so a question can only be answered once on screen too.
import type { KnownBlock } from '@slack/types';
import { ACTION, BLOCK, answerCodec, indexedActionId, questionRefCodec } from '../ids.js';
import { type SlackMessage, actions, button, context, percent, plural, section, who } from './blocks.js';
import { escapeTruncate, inline, mention, oneLine } from './escape.js';
import { formatMoney } from '../../commerce/money.js';

export interface QuestionModel {
  questionId: string;
  buyerId: string;
  /** Who asks: the brand agent's persona, with the supplier the question is about (thread.ts askerName). */
  askedBy: string;
  question: string;
  /** 2–4 answers the agent suggests; more are cut, none leaves only the thread reply. */
  suggestedAnswers: string[];
  round: number;
}

export interface AnsweredQuestionModel {
  askedBy: string;
  question: string;
  answer: string;
  /** A user id, or words ("the default") when nobody answered. */
  answeredBy: string | null;
}

export interface EarlyTerminationModel {
  questionId: string;
  buyerId: string;
  /** 0–1: the lowest convergence confidence across suppliers. */
  confidence: number;
  reason: string;
  round: number;
  maxRounds: number;
  roundsSkipped: number;
  estimatedCostSavedUsd: number;
}

export interface EarlyTerminationAnsweredModel {
  decision: 'finish' | 'continue';
  by: string | null;
  roundsSkipped: number;
}

const MAX_ANSWERS = 4;

export const EARLY_TERMINATION_REASON_TEXT: Readonly<Record<string, string>> = {
  high_confidence_convergence: 'Every offer has stopped moving',
};

export function buildQuestion(model: QuestionModel): SlackMessage {
  const asker = inline(model.askedBy, 80);
  const q = escapeTruncate(model.question.trim(), 2500);
  const answers = model.suggestedAnswers
    .map((a) => oneLine(a))
    .filter((a) => a !== '')
    .slice(0, MAX_ANSWERS);
  const blocks: KnownBlock[] = [
    section(
      `:question: ${mention(model.buyerId)}, *${asker}* asks (round ${model.round}):\n>${q.replace(/\n/g, '\n>')}`,
    ),
  ];
  if (answers.length > 0) {
    blocks.push(
      actions(
        BLOCK.questionAnswers,
        answers.map((a, i) =>
          button({
            text: a,
            actionId: indexedActionId(ACTION.questionAnswer, i),
            value: answerCodec.encode({ q: model.questionId, a: i }),
          }),
        ),
      ),
    );
  }
  blocks.push(context([answers.length > 0 ? '…or reply in this thread.' : 'Reply in this thread to answer.']));
  return {
    text: `${mention(model.buyerId)}, ${asker} asks: ${inline(model.question, 300)}`,
    blocks,
  };
}

export function buildAnsweredQuestion(model: AnsweredQuestionModel): SlackMessage {
  const asker = inline(model.askedBy, 80);
  const q = inline(model.question, 1200);
  const a = escapeTruncate(model.answer.trim(), 1500);
  const by = model.answeredBy ? who(model.answeredBy) : 'the default';
  return {
    text: `${asker}'s question was answered by ${by}: ${inline(model.answer, 300)}`,
    blocks: [
      section(`:speech_balloon: *${asker}* asked: ${q}\n:white_check_mark: *Answer:* ${a}`),
      context([`Answered by ${by}`]),
    ],
  };
}

export function buildEarlyTermination(model: EarlyTerminationModel): SlackMessage {
  const reason = EARLY_TERMINATION_REASON_TEXT[model.reason] ?? inline(model.reason, 200);
  const saved =
    model.estimatedCostSavedUsd > 0
      ? `about ${escapeTruncate(formatMoney(model.estimatedCostSavedUsd, 'USD'), 40)} of AI usage`
      : 'no AI cost (offline agents), only time';
  const skipped = plural(model.roundsSkipped, 'round');
  const blocks: KnownBlock[] = [
    section(
      `:checkered_flag: ${mention(model.buyerId)}, the offers have converged after round ${model.round} of ` +
        `${model.maxRounds}. *Finish now?*\n` +
        `• ${reason} — ${percent(model.confidence)} confidence\n` +
        `• Finishing skips ${skipped} and saves ${saved}`,
    ),
    actions(BLOCK.earlyTermination, [
      button({
        text: 'Finish now',
        actionId: ACTION.earlyTerminationFinish,
        style: 'primary',
        value: questionRefCodec.encode({ q: model.questionId }),
      }),
      button({
        text: 'Keep negotiating',
        actionId: ACTION.earlyTerminationContinue,
        value: questionRefCodec.encode({ q: model.questionId }),
      }),
    ]),
  ];
  return {
    text: `${mention(model.buyerId)}, offers have converged (${percent(model.confidence)} confidence): finish now and skip ${skipped}?`,
    blocks,
  };
}

export function buildEarlyTerminationAnswered(model: EarlyTerminationAnsweredModel): SlackMessage {
  const by = model.by ? who(model.by) : 'the default';
  const what =
    model.decision === 'finish'
      ? `:checkered_flag: Finishing now — ${plural(model.roundsSkipped, 'round')} skipped.`
      : ':repeat: Negotiating on through the remaining rounds.';
  return { text: `${what} Decided by ${by}.`, blocks: [section(what), context([`Decided by ${by}`])] };
}
