// With a key, the offer a connected supplier's words state: once its words are kept and passed to the buyer
// (receive-supplier-words.ts), Claude reads them against the supplier's own standing prices (offer-from-words.ts),
// and the answer in its thread becomes that offer with Submit this offer. It is only a proposal: nothing is recorded
// until one of the supplier's people clicks it, and then through the Submit offer form's path (submit-supplier-
// offer.ts), with the words as the offer's message. Claude failing, or reading no offer, leaves the answer as it was —
// the words are kept either way, and the form is there.
import { z } from 'zod';
import type { SubmittedOffer } from '../../app-types.js';
import { toJsonColumn } from '../../db/json.js';
import { Prisma } from '../../generated/prisma/client.js';
import { LlmError } from '../../llm/llm.js';
import { withUsageScope } from '../../llm/usage-scope.js';
import { log } from '../../log.js';
import { offerFromWords, wordsOfferRequest } from '../../negotiation/offer-from-words.js';
import type { WordsOfferModel } from '../../slack/views/index.js';
import { enqueueSupplierChannelCalls, wordsOfferCalls } from '../../thread/supplier-channel.js';
import { questionAddressee } from '../../thread/thread.js';
import { refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import {
  proposedOfferFigures,
  standingLines,
  submitSupplierOffer,
  submittedOfferSchema,
} from './submit-supplier-offer.js';
import { awaitsSupplier, supplierThreadAt, supplierThreadState } from './supplier-thread.js';

const proposalSchema = z.object({
  round: z.number().int().positive(),
  negotiationSupplierId: z.string(),
  offer: submittedOfferSchema,
});

/** The supplier's words, where they were written, and what the negotiation stands at. */
async function wordsOf(ctx: ServiceContext, threadReplyId: string) {
  const reply = await ctx.db.threadReply.findUnique({
    where: { id: threadReplyId },
    select: { text: true, channelId: true, threadTs: true, messageTs: true, outcome: true, proposedOffer: true },
  });
  if (!reply || reply.outcome !== 'supplier_words') return null;
  const thread = await supplierThreadAt(ctx, reply.channelId, reply.threadTs);
  const state = thread && (await supplierThreadState(ctx, thread));
  if (!thread || !state || !thread.negotiationSupplierId) return null;
  const open = awaitsSupplier(thread.negotiation.status, state, thread.supplierCode);
  const place = {
    negotiationId: thread.negotiationId,
    supplierCode: thread.supplierCode,
    channelId: reply.channelId,
    buyerId: questionAddressee(thread.negotiation),
  };
  return { reply, thread, state, place, open, negotiationSupplierId: thread.negotiationSupplierId };
}

/**
 * Claude's reading of the words, proposed in the supplier's thread; once per reply (a second call finds the proposal).
 * Returns whether an offer was proposed. Nothing without a key, once the round stopped waiting, or on Claude's failure.
 */
export async function proposeOfferFromWords(ctx: ServiceContext, threadReplyId: string): Promise<boolean> {
  const { llm } = ctx;
  const found = llm ? await wordsOf(ctx, threadReplyId) : null;
  if (!llm || !found || !found.open || found.reply.proposedOffer !== null) return false;
  const { reply, thread, state, place } = found;
  const lines = standingLines(state, thread.supplierCode);
  let offer: SubmittedOffer | null;
  try {
    const reading = await withUsageScope({ workspaceId: ctx.workspace.id, negotiationId: thread.negotiationId }, () =>
      llm.structured(wordsOfferRequest({ words: reply.text, currency: state.baseline.currency, lines })),
    );
    offer = offerFromWords(reading, lines);
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    log.warn('reading an offer in a supplier’s words failed; the words stand as they are', { threadReplyId, error });
    return false;
  }
  if (!offer) return false;
  // Claude took its time: a round that moved on meanwhile (the form answered it, the buyer closed it) gets no proposal.
  const still = await wordsOf(ctx, threadReplyId);
  if (!still?.open || still.state.round !== state.round) return false;
  const proposal = { round: state.round, negotiationSupplierId: found.negotiationSupplierId, offer };
  const model: WordsOfferModel = {
    ...proposedOfferFigures(state, offer),
    buyerId: place.buyerId,
    round: state.round,
    offer: { n: thread.negotiationId, s: found.negotiationSupplierId, r: state.round },
    status: { kind: 'proposed', threadReplyId },
  };
  return ctx.db.$transaction(async (tx) => {
    const { count } = await tx.threadReply.updateMany({
      where: { id: threadReplyId, proposedOffer: { equals: Prisma.DbNull } },
      data: { proposedOffer: toJsonColumn(proposal) },
    });
    if (count === 0) return false;
    await enqueueSupplierChannelCalls(tx, wordsOfferCalls(place, state, reply.messageTs, model));
    return true;
  });
}

/**
 * Submit this offer under the offer read in a supplier's words, clicked by `by` of organisation `byTeamId`: recorded
 * as the Submit offer form would record it, with the words as its message — or refused as the form would be.
 */
export async function submitWordsOffer(
  ctx: ServiceContext,
  input: { threadReplyId: string; by: string; byTeamId: string | null },
): Promise<ServiceResult<{ negotiationId: string; resume: boolean }>> {
  const found = await wordsOf(ctx, input.threadReplyId);
  const proposal = proposalSchema.safeParse(found?.reply.proposedOffer);
  if (!found || !proposal.success) return refused('not_found', 'Parley read no offer in this message.');
  const { reply, thread, state, place } = found;
  const { round, negotiationSupplierId } = proposal.data;
  const offer = { ...proposal.data.offer, notes: reply.text };
  const model: WordsOfferModel = {
    ...proposedOfferFigures(state, offer),
    buyerId: place.buyerId,
    round,
    offer: { n: thread.negotiationId, s: negotiationSupplierId, r: round },
    status: { kind: 'submitted', by: input.by },
  };
  const recorded = wordsOfferCalls(place, state, reply.messageTs, model);
  return submitSupplierOffer(
    ctx,
    {
      negotiationId: thread.negotiationId,
      negotiationSupplierId,
      round,
      offer,
      by: input.by,
      byTeamId: input.byTeamId,
    },
    recorded,
  );
}
