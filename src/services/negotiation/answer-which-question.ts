// The author of a thread reply says which open question it answers (or none), on the post that asked: the reply's
// stored text becomes that question's answer. Only the reply's author may choose, once: the reply's row moves from
// `asked_which` in the transaction of the answer's engine step, so a double click, a second instance or a retried
// request answers once; a question answered meanwhile (a button, another reply) is refused, and nothing is used.
import type { AnswerWhichQuestionInput } from '../../app-types.js';
import { engineQuestionId, StaleStepError } from '../../db/stores/negotiation-store.js';
import { isWriteRace } from '../../db/stores/purchase-orders.js';
import { enqueueWhichQuestionSettled } from '../../thread/thread-replies.js';
import { questionAddressee } from '../../thread/thread.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { applyBuyerStep, ENDED } from './answer-question.js';

const ATTEMPTS = 3;

/** The reply stopped waiting for a choice while this one was being applied (another click won). */
class ChoiceTaken extends Error {
  override name = 'ChoiceTaken';
}

export type WhichQuestionResult = ServiceResult<{ negotiationId: string; resume: boolean }>;

export async function answerWhichQuestion(
  ctx: ServiceContext,
  options: AnswerWhichQuestionInput,
): Promise<WhichQuestionResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await choose(ctx, options);
    } catch (error) {
      const lostRace = error instanceof ChoiceTaken || error instanceof StaleStepError || isWriteRace(error);
      if (!lostRace || attempt >= ATTEMPTS) throw error;
    }
  }
}

const ANSWERED_MEANWHILE =
  'That question was answered meanwhile, so your reply was not used for it. Pick another one, or reply again.';

async function choose(ctx: ServiceContext, options: AnswerWhichQuestionInput): Promise<WhichQuestionResult> {
  const reply = await ctx.db.threadReply.findUnique({ where: { id: options.replyId } });
  if (!reply) return refused('not_found', 'This reply is not part of a negotiation.');
  if (reply.userId !== options.by) {
    return refused('not_allowed', `Only <@${reply.userId}>, who wrote the reply, can say which question it answers.`);
  }
  const unchanged = done({ negotiationId: reply.negotiationId, resume: false }, false);
  switch (reply.outcome) {
    case 'asked_which':
      break;
    case 'answered':
      return reply.questionId === options.questionId
        ? unchanged
        : refused('conflict', 'Your reply was already taken as the answer to another question.');
    case 'answers_none':
      return options.questionId === null
        ? unchanged
        : refused('conflict', 'You already said your reply answers none of these questions.');
    default:
      return refused('invalid_input', 'Parley did not ask which question this reply answers.');
  }

  if (options.questionId === null) {
    await ctx.db.$transaction(async (tx) => {
      const { count } = await tx.threadReply.updateMany({
        where: { id: reply.id, outcome: 'asked_which' },
        data: { outcome: 'answers_none' },
      });
      if (count === 0) throw new ChoiceTaken(`reply ${reply.id} was settled by another click`);
      await enqueueWhichQuestionSettled(tx, { replyId: reply.id });
    });
    return done({ negotiationId: reply.negotiationId, resume: false });
  }

  const question = await ctx.db.pendingQuestion.findUnique({
    where: { id: options.questionId },
    select: {
      id: true,
      kind: true,
      status: true,
      negotiation: {
        select: {
          id: true,
          status: true,
          startedBySlackUserId: true,
          quotation: { select: { slackChannelId: true, slackThreadTs: true } },
        },
      },
    },
  });
  const { negotiation } = question ?? {};
  const sameThread =
    negotiation?.quotation.slackChannelId === reply.channelId && negotiation.quotation.slackThreadTs === reply.threadTs;
  if (!question || !negotiation || !sameThread || question.kind !== 'ask_info') {
    return refused('not_found', 'That question is not one this reply was offered for.');
  }
  if (questionAddressee(negotiation) !== reply.userId) {
    return refused('not_allowed', `That question is for <@${questionAddressee(negotiation)}>.`);
  }
  const ended = ENDED[negotiation.status];
  if (ended) return refused('conflict', `This negotiation ${ended}; nothing was changed.`);
  if (question.status !== 'open') return refused('conflict', ANSWERED_MEANWHILE);

  const answer = {
    kind: 'answer' as const,
    questionId: engineQuestionId(question.id),
    answer: reply.text,
    by: reply.userId,
  };
  const step = await applyBuyerStep(ctx, negotiation.id, answer, async (tx) => {
    const { count } = await tx.threadReply.updateMany({
      where: { id: reply.id, outcome: 'asked_which' },
      data: { outcome: 'answered', questionId: question.id },
    });
    if (count === 0) throw new ChoiceTaken(`reply ${reply.id} was settled by another click`);
    await enqueueWhichQuestionSettled(tx, { replyId: reply.id });
  });
  if (!step.ok) return step;
  if (!step.changed) return refused('conflict', ANSWERED_MEANWHILE);
  return done({ negotiationId: negotiation.id, resume: step.value.resume });
}
