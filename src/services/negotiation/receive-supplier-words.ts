// A person of a connected supplier writes in words in its negotiation thread, in its own channel, instead of (or
// before) submitting an offer. The words are kept — a ThreadReply row, once per Slack message, audited — and passed to
// the buyer in the negotiation's thread; the supplier is answered there with Submit offer while the round waits for
// its offer, since only what it submits is recorded as an offer: words are never turned into figures behind its back.
// Someone of the brand writing in that thread is conversation with the supplier, and is left alone.
import type { ThreadReplyInput } from '../../app-types.js';
import { writeAudit } from '../../db/audit.js';
import { supplierWordsCalls, enqueueSupplierChannelCalls } from '../../thread/supplier-channel.js';
import { questionAddressee } from '../../thread/thread.js';
import { done, refused } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import type { ThreadReplyAnswer } from './receive-thread-reply.js';
import { replyText, threadReplyRow } from './thread-reply-row.js';
import { awaitsSupplier, supplierThreadAt, supplierThreadState } from './supplier-thread.js';

/** Null when the thread is no negotiation's thread in a connected supplier's channel. */
export async function receiveSupplierWords(
  ctx: ServiceContext,
  reply: ThreadReplyInput,
): Promise<ThreadReplyAnswer | null> {
  const thread = await supplierThreadAt(ctx, reply.channelId, reply.threadTs);
  if (!thread) return null;
  const { negotiationId, supplierCode, supplier, negotiation } = thread;
  const text = replyText(reply);
  const theirs = supplier.slackTeamId !== null && reply.byTeamId === supplier.slackTeamId;
  if (!theirs || text === '') {
    await ctx.db.threadReply.create({ data: threadReplyRow(ctx, reply, negotiationId, 'not_addressed') });
    return {
      ...refused('not_allowed', `Only people of ${supplier.name} write for it in this thread.`),
      negotiationId,
    };
  }
  const state = await supplierThreadState(ctx, thread);
  if (!state) return null;
  const { negotiationSupplierId } = thread;
  const awaiting = awaitsSupplier(negotiation.status, state, supplierCode);
  const offer =
    awaiting && negotiationSupplierId ? { n: negotiationId, s: negotiationSupplierId, r: state.round } : null;
  const place = {
    negotiationId,
    supplierCode,
    channelId: reply.channelId,
    buyerId: questionAddressee(negotiation),
  };
  const calls = await supplierWordsCalls(ctx.db, {
    place,
    state,
    messageTs: reply.messageTs,
    by: reply.by,
    text,
    offer,
  });
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await tx.threadReply.create({
      data: threadReplyRow(ctx, reply, negotiationId, 'supplier_words'),
      select: { id: true },
    });
    await writeAudit(tx, reply.by, {
      action: 'negotiation.supplier_wrote',
      entityType: 'negotiation',
      entityId: negotiationId,
      data: { supplierCode, round: state.round, text, teamId: reply.byTeamId },
    });
    await enqueueSupplierChannelCalls(tx, calls);
    return created;
  });
  const proposal = offer ? { proposeFrom: row.id } : {};
  return { ...done({ outcome: 'supplier_words' as const, resume: false, ...proposal }), negotiationId };
}
