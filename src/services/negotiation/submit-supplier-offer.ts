// A person at a connected supplier submits its offer (Submit offer, in the negotiation's thread in its Slack Connect
// channel): the offer goes on record exactly as they typed it — one saved engine step, audited with their words and
// figures — and the round goes on once every supplier it waits for has answered. Only the supplier's own organisation
// answers for it, and only in its own negotiation; a second submission of the same round changes nothing.
import type { SubmitSupplierOfferInput, SubmittedOffer } from '../../app-types.js';
import { engineRoleOf, loadCheckpoint } from '../../db/stores/negotiation-store.js';
import type { AgentTurn } from '../../negotiation/types.js';
import { OfferNotRecordedError } from '../../negotiation/offers.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { applyBuyerStep, ENDED } from './answer-question.js';

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

export async function submitSupplierOffer(
  ctx: ServiceContext,
  input: SubmitSupplierOfferInput,
): Promise<ServiceResult<{ negotiationId: string; resume: boolean }>> {
  const row = await ctx.db.negotiationSupplier.findUnique({
    where: { id: input.negotiationSupplierId },
    select: {
      negotiationId: true,
      negotiation: { select: { status: true } },
      supplier: { select: { code: true, name: true, slackTeamId: true, connectionLostAt: true } },
    },
  });
  if (!row || row.negotiationId !== input.negotiationId) {
    return refused('not_found', 'This offer form is for no negotiation Parley has.');
  }
  const { supplier, negotiationId } = row;
  // The supplier's organisation, and nobody else — the brand's own people included: an offer is the supplier's word.
  if (supplier.slackTeamId === null || input.byTeamId !== supplier.slackTeamId) {
    return refused('not_allowed', `Only people of ${supplier.name} can submit its offer.`);
  }
  if (supplier.connectionLostAt !== null) {
    return refused('conflict', 'This channel is no longer shared with the buyer: the offer was not sent.');
  }
  const ended = ENDED[row.negotiation.status];
  if (ended) return refused('conflict', `This negotiation ${ended}; your offer was not recorded.`);
  const { state } = await loadCheckpoint(ctx.db, negotiationId);
  const supplierCode = engineRoleOf(state, supplier.code);
  const waiting = state.suppliers[supplierCode];
  if (state.round !== input.round || !waiting?.awaitingReply) {
    return refused(
      'conflict',
      `Round ${input.round} takes no more offers: your answer is recorded already, or the round closed. ` +
        'The buyer’s next message comes with a new form.',
    );
  }
  const skus = state.baseline.lines.map((line) => line.sku);
  if (input.offer.unitPrices.length !== skus.length) {
    return refused('invalid_input', 'This form was made for other lines: open Submit offer again.');
  }
  const turn = supplierTurnFromSubmission(input.offer, skus, state.round);
  try {
    const result = await applyBuyerStep(ctx, negotiationId, {
      kind: 'supplier_turn',
      supplierCode,
      turn,
      by: input.by,
    });
    return result.ok ? done({ negotiationId, ...result.value }, result.changed) : result;
  } catch (error) {
    if (!(error instanceof OfferNotRecordedError)) throw error;
    return refused('invalid_input', `Parley cannot record this offer as you stated it: ${error.problems.join('; ')}.`);
  }
}
