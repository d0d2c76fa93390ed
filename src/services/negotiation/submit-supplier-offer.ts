// A person at a connected supplier submits its offer (Submit offer, in the negotiation's thread in its Slack Connect
// channel): the offer goes on record exactly as they typed it — one saved engine step, audited with their words and
// figures — and the round goes on once every supplier it waits for has answered. Only the supplier's own organisation
// answers for it, and only in its own negotiation; a second submission of the same round changes nothing.
import { z } from 'zod';
import type { SubmitSupplierOfferInput, SubmittedOffer } from '../../app-types.js';
import { engineRoleOf, loadCheckpoint } from '../../db/stores/negotiation-store.js';
import type { AgentTurn } from '../../negotiation/types.js';
import { assumedFacts } from '../../negotiation/facts.js';
import { OfferNotRecordedError } from '../../negotiation/offers.js';
import type { OfferModalModel } from '../../slack/views/index.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import type { NegotiationState } from '../../negotiation/engine.js';
import { draftAnsweredCalls, enqueueSupplierChannelCalls } from '../../thread/supplier-channel.js';
import { negotiationThread } from '../../thread/thread.js';
import type { OutboxCall } from '../../outbox/index.js';
import { applyBuyerStep, ENDED } from './answer-question.js';
import { currentSentDraft } from './supplier-drafts.js';

/** What a reply without notes says in the history: the form's figures are the whole message. */
export const SUBMITTED_WITHOUT_NOTES = 'Offer submitted through the form.';

/**
 * The submission as the supplier's turn: a line per price typed, at that price, for the SKU the form showed in that
 * place (`skus`, the form's order); an empty line is left out (not offered); the terms only where typed, so that an
 * unstated one stays the supplier's previous word. The notes are its message, in its own words.
 */
export function supplierTurnFromSubmission(offer: SubmittedOffer, skus: readonly string[], round: number): AgentTurn {
  const lines = skus.flatMap((sku, index) => {
    const unitPrice = offer.unitPrices[index];
    return unitPrice === null || unitPrice === undefined ? [] : [{ sku, unitPrice }];
  });
  return {
    action: {
      type: round === 1 ? 'PROPOSE_OFFER' : 'COUNTER_OFFER',
      payload: {
        offer: {
          lines,
          ...(offer.leadTimeDays === null ? {} : { leadTimeDays: offer.leadTimeDays }),
          ...(offer.paymentTerms === null ? {} : { paymentTerms: offer.paymentTerms }),
          ...(offer.validityDays === null ? {} : { conditions: [`Valid ${offer.validityDays} days`] }),
        },
      },
    },
    message_text: offer.notes?.trim() || SUBMITTED_WITHOUT_NOTES,
    used_strategies: [],
  };
}

/** The request's lines with the supplier's own standing prices (none before its first offer): what it offers on. */
export function standingLines(state: NegotiationState, supplierCode: string) {
  const latest = state.suppliers[supplierCode]?.offers.at(-1);
  const priced = new Map((latest?.lines ?? []).map((line) => [line.sku, line.unitPrice]));
  return state.baseline.lines.map((line) => ({
    sku: line.sku,
    description: line.description,
    quantity: line.quantity,
    lastUnitPrice: priced.get(line.sku) ?? null,
  }));
}

/** A submission as stored until its supplier confirms it (an offer Parley read from a file or from words). */
export const submittedOfferSchema = z.object({
  unitPrices: z.array(z.number().positive().nullable()),
  leadTimeDays: z.number().int().positive().nullable(),
  paymentTerms: z.string().nullable(),
  validityDays: z.number().int().positive().nullable(),
  notes: z.string().nullable(),
}) satisfies z.ZodType<SubmittedOffer>;

/** A submission's figures as a proposal shows them: its total at the requested quantities, the lines it prices. */
export function proposedOfferFigures(state: NegotiationState, offer: SubmittedOffer) {
  const { lines, currency } = state.baseline;
  const total = lines.reduce((sum, line, index) => sum + line.quantity * (offer.unitPrices[index] ?? 0), 0);
  return {
    currency,
    requested: lines.length,
    priced: offer.unitPrices.filter((price) => price !== null).length,
    total: Math.round(total * 100) / 100,
    leadTimeDays: offer.leadTimeDays,
    paymentTerms: offer.paymentTerms,
    validityDays: offer.validityDays,
  };
}

/** The modal's reference and who is acting: a Submit offer button's, or the modal's own on submit. */
interface OfferFormRef {
  negotiationId: string;
  negotiationSupplierId: string;
  round: number;
  byTeamId: string | null;
}

/**
 * Whether this person may answer for this supplier in this round: of the supplier's own organisation (its channel
 * still shared), in a negotiation that is going on and waiting for it in that round. With the checkpoint and the
 * supplier's engine role when so.
 */
async function openForSupplier(ctx: ServiceContext, ref: OfferFormRef) {
  const row = await ctx.db.negotiationSupplier.findUnique({
    where: { id: ref.negotiationSupplierId },
    select: {
      negotiationId: true,
      negotiation: { select: { status: true } },
      supplier: { select: { code: true, name: true, slackTeamId: true, connectionLostAt: true } },
    },
  });
  if (!row || row.negotiationId !== ref.negotiationId) {
    return refused('not_found', 'This offer form is for no negotiation Parley has.');
  }
  const { supplier, negotiationId } = row;
  // The supplier's organisation, and nobody else — the brand's own people included: an offer is the supplier's word.
  if (supplier.slackTeamId === null || ref.byTeamId !== supplier.slackTeamId) {
    return refused('not_allowed', `Only people of ${supplier.name} can submit its offer.`);
  }
  if (supplier.connectionLostAt !== null) {
    return refused('conflict', 'This channel is no longer shared with the buyer: nothing can be submitted here.');
  }
  const ended = ENDED[row.negotiation.status];
  if (ended) return refused('conflict', `This negotiation ${ended}; it takes no more offers.`);
  const { state } = await loadCheckpoint(ctx.db, negotiationId);
  const supplierCode = engineRoleOf(state, supplier.code);
  if (state.round !== ref.round || !state.suppliers[supplierCode]?.awaitingReply) {
    return refused(
      'conflict',
      `Round ${ref.round} takes no more offers: your answer is recorded already, or the round closed. ` +
        'The buyer’s next message comes with a new form.',
    );
  }
  return done({ negotiationId, state, supplierCode });
}

/**
 * The Submit offer modal's contents for the person who clicked: the quotation's lines with the supplier's own latest
 * prices, and the terms it stated itself — never one Parley assumed for it, which would be put in its mouth.
 */
export async function offerFormFor(ctx: ServiceContext, ref: OfferFormRef): Promise<ServiceResult<OfferModalModel>> {
  const open = await openForSupplier(ctx, ref);
  if (!open.ok) return open;
  const { state, supplierCode } = open.value;
  const latest = state.suppliers[supplierCode]?.offers.at(-1) ?? null;
  const assumed = new Set(assumedFacts(state.assumptions, supplierCode));
  return done({
    negotiationId: ref.negotiationId,
    negotiationSupplierId: ref.negotiationSupplierId,
    round: state.round,
    brandName: state.brandName,
    currency: state.baseline.currency,
    lines: standingLines(state, supplierCode),
    last: {
      leadTimeDays: assumed.has('leadTimeDays') ? null : (latest?.leadTimeDays ?? null),
      paymentTerms: assumed.has('paymentTerms') ? null : (latest?.paymentTerms ?? null),
    },
  });
}

export async function submitSupplierOffer(
  ctx: ServiceContext,
  input: SubmitSupplierOfferInput,
  /** More of the supplier's thread to change in the step's transaction (an offer file's card: recorded). */
  alsoCalls: readonly OutboxCall[] = [],
): Promise<ServiceResult<{ negotiationId: string; resume: boolean }>> {
  const open = await openForSupplier(ctx, input);
  if (!open.ok) return open;
  const { negotiationId, state, supplierCode } = open.value;
  const skus = state.baseline.lines.map((line) => line.sku);
  if (input.offer.unitPrices.length !== skus.length) {
    return refused('invalid_input', 'This form was made for other lines: open Submit offer again.');
  }
  const turn = supplierTurnFromSubmission(input.offer, skus, state.round);
  try {
    // The draft's card in the buyer's thread stops waiting: the supplier answered it.
    const answered = await answeredCardCalls(ctx, {
      negotiationId,
      negotiationSupplierId: input.negotiationSupplierId,
      state,
      supplierCode,
      by: input.by,
    });
    const result = await applyBuyerStep(
      ctx,
      negotiationId,
      { kind: 'supplier_turn', supplierCode, turn, by: input.by },
      (tx) => enqueueSupplierChannelCalls(tx, [...answered, ...alsoCalls]),
    );
    return result.ok ? done({ negotiationId, ...result.value }, result.changed) : result;
  } catch (error) {
    if (!(error instanceof OfferNotRecordedError)) throw error;
    return refused('invalid_input', `Parley cannot record this offer as you stated it: ${error.problems.join('; ')}.`);
  }
}

/** The draft card's edit saying the supplier answered it (none when nothing was sent to its channel). */
async function answeredCardCalls(
  ctx: ServiceContext,
  input: {
    negotiationId: string;
    negotiationSupplierId: string;
    state: NegotiationState;
    supplierCode: string;
    by: string;
  },
) {
  const { thread, buyerId } = await negotiationThread(ctx.db, input.negotiationId);
  const draft = await currentSentDraft(ctx, { ...input, buyerId });
  const row = await ctx.db.negotiationSupplier.findUnique({
    where: { id: input.negotiationSupplierId },
    select: { supplier: { select: { slackChannelId: true } } },
  });
  const channelId = row?.supplier.slackChannelId;
  if (!draft || !channelId) return [];
  return draftAnsweredCalls({ state: input.state, thread, draft, channelId, answeredBy: input.by });
}
