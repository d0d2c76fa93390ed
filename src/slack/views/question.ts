// Questions for the buyer in the thread: an agent's ASK_INFO (answer by button or by replying in the thread) and the
// early-termination offer (offers have converged: finish now and save the remaining rounds?). Each has an answered
// variant that replaces it (chat.update), so a question can only be answered once on screen too. And, when a thread
// reply could answer several open questions, the post asking which one it answers (settled the same way).
import type { KnownBlock } from '@slack/types';
import { ACTION, BLOCK, answerCodec, indexedActionId, questionRefCodec, whichQuestionCodec } from '../ids.js';
import { type SlackMessage, actions, button, context, percent, plural, section, who } from './blocks.js';
import { escapeTruncate, inline, mention, oneLine, quoted } from './escape.js';
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

/** Questions a which-question post offers at most (the oldest first); the others keep their own buttons. */
export const WHICH_QUESTION_MAX = 10;

export interface WhichQuestionModel {
  /** The thread reply's row id, carried by every button. */
  replyId: string;
  /** Who wrote the reply: the person the questions are addressed to, the only one whose click counts. */
  authorId: string;
  /** What they typed (untrusted). */
  reply: string;
  /** The questions open to them, oldest first. */
  questions: { questionId: string; askedBy: string; question: string }[];
}

export interface WhichQuestionSettledModel {
  authorId: string;
  reply: string;
  /** The question the reply was taken as the answer to; null when its author said it answers none. */
  chosen: { askedBy: string; question: string } | null;
}

/** Several questions are open to the reply's author: one button per question (its text cut to a label) and none. */
export function buildWhichQuestion(model: WhichQuestionModel): SlackMessage {
  const shown = model.questions.slice(0, WHICH_QUESTION_MAX);
  const listed = shown.map((q, i) => `*${i + 1}.* *${inline(q.askedBy, 80)}* asks: ${inline(q.question, 200)}`);
  const blocks: KnownBlock[] = [
    section(
      `:thinking_face: ${mention(model.authorId)}, ${model.questions.length} questions are waiting for your answer. ` +
        `Which one does your reply answer?\n${quoted(model.reply, 600)}`,
    ),
    section(listed.join('\n')),
    actions(BLOCK.whichQuestion, [
      ...shown.map((q, i) =>
        button({
          text: `${i + 1}. ${oneLine(q.question)}`,
          actionId: indexedActionId(ACTION.whichQuestion, i),
          value: whichQuestionCodec.encode({ r: model.replyId, q: q.questionId }),
        }),
      ),
      button({
        text: 'None of these',
        actionId: ACTION.whichQuestionNone,
        value: whichQuestionCodec.encode({ r: model.replyId, q: null }),
      }),
    ]),
  ];
  return {
    text: `${mention(model.authorId)}, which question does your reply answer? ${inline(model.reply, 200)}`,
    blocks,
  };
}

/** The which-question post once its author chose: what the reply became, without buttons. */
export function buildWhichQuestionSettled(model: WhichQuestionSettledModel): SlackMessage {
  const reply = quoted(model.reply, 600);
  const what = model.chosen
    ? `:white_check_mark: Taken as the answer to *${inline(model.chosen.askedBy, 80)}*'s question: ` +
      inline(model.chosen.question, 300)
    : ':speech_balloon: Not taken as an answer to any question.';
  return {
    text: `${who(model.authorId)}'s reply: ${model.chosen ? 'taken as an answer' : 'not taken as an answer'}.`,
    blocks: [section(`${who(model.authorId)} replied:\n${reply}`), section(what)],
  };
}
