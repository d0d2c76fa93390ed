// A reply in a thread as it is recorded, once per Slack message: shared by the quotation's thread
// (receive-thread-reply.ts) and a connected supplier's (receive-supplier-words.ts).
import type { ThreadReplyInput } from '../../app-types.js';
import type { Prisma, ThreadReplyOutcome } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../service-context.js';
import { ANSWER_MAX } from './answer-question.js';

/** What a reply records of its text: trimmed and cut to an answer's length (data, escaped wherever it is shown). */
export function replyText(reply: Pick<ThreadReplyInput, 'text'>): string {
  return reply.text.trim().slice(0, ANSWER_MAX);
}

/** The ThreadReply row of `reply`, read in `negotiationId` with `outcome`: one per Slack message (its ts). */
export function threadReplyRow(
  ctx: ServiceContext,
  reply: ThreadReplyInput,
  negotiationId: string,
  outcome: ThreadReplyOutcome,
): Prisma.ThreadReplyUncheckedCreateInput {
  return {
    workspaceId: ctx.workspace.id,
    negotiationId,
    channelId: reply.channelId,
    threadTs: reply.threadTs,
    messageTs: reply.messageTs,
    clientMsgId: reply.clientMsgId,
    userId: reply.by,
    text: replyText(reply),
    outcome,
  };
}
