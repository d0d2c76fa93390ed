// A person's reply in a negotiation's thread, recorded once per Slack message, and taken as an answer only when it
// clearly is one: it comes from the person the questions are addressed to, and exactly one question is open to them.
// With several open, Parley asks in the thread which one it answers (answer-which-question.ts takes the click);
// anyone else's reply is conversation. The record and what the reply did — the answer's engine step, or the
// which-question post — are one transaction under the message's unique key (workspace, channel, ts): Slack's
// re-delivery of the event finds the row and does nothing new, and a crash cannot answer twice or lose the reply.
import type { ThreadReplyInput } from '../../app-types.js';
import type { ThreadReplyOutcome } from '../../generated/prisma/client.js';
import { engineQuestionId, StaleStepError } from '../../db/stores/negotiation-store.js';
import { isWriteRace } from '../../db/stores/purchase-orders.js';
import { receiveSupplierWords } from './receive-supplier-words.js';
import { replyText, threadReplyRow } from './thread-reply-row.js';
import { enqueueWhichQuestion } from '../../thread/thread-replies.js';
import { questionAddressee } from '../../thread/thread.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { applyBuyerStep, ENDED } from './answer-question.js';

/** What a reply did (or, re-delivered, had done), with the negotiation it was read in. */
export type ThreadReplyAnswer = ServiceResult<{
  outcome: ThreadReplyOutcome;
  resume: boolean;
  /** A connected supplier's words while its offer is awaited: their row, for the offer Claude may read in them. */
  proposeFrom?: string;
}> & {
  negotiationId: string;
};

/** How often a reply is taken again after losing a race (its own re-delivery, a step of the negotiation). */
const ATTEMPTS = 3;

/** The engine had the question answered already (a click just before): the reply is taken again from the top. */
class QuestionMovedOn extends Error {
  override name = 'QuestionMovedOn';
}

/**
 * Null when the thread has no negotiation (the message is just conversation). A reply from someone the questions are
 * not addressed to is refused (the caller logs it; nobody is told).
 */
export async function receiveThreadReply(
  ctx: ServiceContext,
  options: ThreadReplyInput,
): Promise<ThreadReplyAnswer | null> {
  for (let attempt = 1; ; attempt++) {
    const recorded = await ctx.db.threadReply.findFirst({
      where: { channelId: options.channelId, messageTs: options.messageTs },
    });
    if (recorded) return repeated(recorded);
    try {
      return await take(ctx, options);
    } catch (error) {
      const lostRace = isWriteRace(error) || error instanceof StaleStepError || error instanceof QuestionMovedOn;
      if (!lostRace || attempt >= ATTEMPTS) throw error;
    }
  }
}

async function take(ctx: ServiceContext, options: ThreadReplyInput): Promise<ThreadReplyAnswer | null> {
  // A thread can hold several negotiations (files shared in one thread); the reply is read against all of them.
  const negotiations = await ctx.db.negotiation.findMany({
    where: { quotation: { slackChannelId: options.channelId, slackThreadTs: options.threadTs } },
    select: { id: true, status: true, startedBySlackUserId: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const latest = negotiations.at(-1);
  // Not a quotation's thread: perhaps a negotiation's thread in a connected supplier's channel.
  if (!latest) return receiveSupplierWords(ctx, options);
  const text = replyText(options);
  const row = (negotiationId: string, outcome: ThreadReplyOutcome) =>
    threadReplyRow(ctx, options, negotiationId, outcome);

  const theirs = negotiations.filter((negotiation) => questionAddressee(negotiation) === options.by);
  if (theirs.length === 0) {
    await ctx.db.threadReply.create({ data: row(latest.id, 'not_addressed') });
    return { ...notAddressed(questionAddressee(latest)), negotiationId: latest.id };
  }
  const open =
    text === ''
      ? []
      : await ctx.db.pendingQuestion.findMany({
          where: {
            negotiationId: { in: theirs.filter((n) => !ENDED[n.status]).map((n) => n.id) },
            status: 'open',
            kind: 'ask_info', // the early-termination choice is a button, never a sentence
          },
          orderBy: [{ askedAt: 'asc' }, { id: 'asc' }],
          select: { id: true, negotiationId: true },
        });
  const [first] = open;

  if (!first) {
    const negotiationId = theirs.at(-1)?.id ?? latest.id;
    await ctx.db.threadReply.create({ data: row(negotiationId, 'nothing_open') });
    return { ...done({ outcome: 'nothing_open' as const, resume: false }, false), negotiationId };
  }
  if (open.length > 1) {
    await ctx.db.$transaction(async (tx) => {
      const reply = await tx.threadReply.create({ data: row(first.negotiationId, 'asked_which') });
      await enqueueWhichQuestion(tx, { replyId: reply.id, questionIds: open.map((q) => q.id) });
    });
    return { ...done({ outcome: 'asked_which' as const, resume: false }), negotiationId: first.negotiationId };
  }
  const answer = { kind: 'answer' as const, questionId: engineQuestionId(first.id), answer: text, by: options.by };
  const step = await applyBuyerStep(ctx, first.negotiationId, answer, (tx) =>
    tx.threadReply.create({ data: { ...row(first.negotiationId, 'answered'), questionId: first.id } }),
  );
  if (!step.ok) return { ...step, negotiationId: first.negotiationId };
  if (!step.changed) throw new QuestionMovedOn(`question ${first.id} was answered while the reply was read`);
  return { ...done({ outcome: 'answered' as const, resume: step.value.resume }), negotiationId: first.negotiationId };
}

/** A delivery of a message already recorded: what it did then, changing nothing now. */
function repeated(reply: { negotiationId: string; outcome: ThreadReplyOutcome; userId: string }): ThreadReplyAnswer {
  if (reply.outcome === 'not_addressed') return { ...notAddressed(null), negotiationId: reply.negotiationId };
  return { ...done({ outcome: reply.outcome, resume: false }, false), negotiationId: reply.negotiationId };
}

function notAddressed(addressee: string | null) {
  const whom = addressee ? `<@${addressee}>, who started the negotiation,` : 'the person who started the negotiation';
  return refused('not_allowed', `Only ${whom} answers its questions by replying in the thread.`);
}
