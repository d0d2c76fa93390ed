// A connected supplier's Submit offer modal is submitted: its prices and terms are checked by the parser (field errors
// in the modal), then recorded exactly as typed. Who may submit is the service's to say, from the person's own team.
import type { ViewSubmitAction } from '@slack/bolt';
import { BLOCK } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { interactionUserTeamId } from '../../team.js';
import { offerModalRefCodec, offerPriceBlockId, parseOfferModal } from '../../views/index.js';
import { closeWhenCommitted, type SubmitArgs, submittedBy } from './submission.js';

/** How many price inputs the submitted modal had: its lines, as it was built. */
function priceInputs(view: ViewSubmitAction['view']): number {
  return view.blocks.filter((block) => block.block_id?.startsWith(`${BLOCK.offerPrice}:`)).length;
}

export function submitOffer({ parley }: SlackDeps) {
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const ref = offerModalRefCodec.decode(view.private_metadata);
    if (!ref) return void (await ack());
    const form = parseOfferModal(view.state.values, priceInputs(view));
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const { teamId, userId } = submittedBy(body);
    await closeWhenCommitted(
      { ack, client },
      parley.submitSupplierOffer(teamId, {
        negotiationId: ref.n,
        negotiationSupplierId: ref.s,
        round: ref.r,
        offer: form.value,
        by: userId,
        byTeamId: interactionUserTeamId(body),
      }),
      // The person is of another organisation: Parley cannot write to them elsewhere, so the form says what went wrong.
      { userId, channel: () => Promise.resolve(null), field: offerPriceBlockId(0) },
    );
  };
}
