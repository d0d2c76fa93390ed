// Submit this offer, under the offer Parley read from a connected supplier's revised quotation (or Claude read in its
// words) in its own channel:
// pressed by people of the supplier's organisation. Whether they may (their own supplier, the round still waiting
// for it) is the service's to say, from their own team (`user.team_id`), never from where the click came.
import { quotationRefCodec, threadReplyRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function submitOfferFile({ parley }: SlackDeps) {
  return onClick(
    async ({ action }, at) => {
      const ref = quotationRefCodec.decode(valueOf(action));
      if (!ref) return null;
      return parley.submitOfferFile(at.teamId, { quotationId: ref.qt, by: at.userId, byTeamId: at.userTeamId });
    },
    { outsiders: 'their own part' },
  );
}

/** Submit this offer, under the offer Claude read in a supplier's words in its thread: the same rule as above. */
export function submitWordsOffer({ parley }: SlackDeps) {
  return onClick(
    async ({ action }, at) => {
      const ref = threadReplyRefCodec.decode(valueOf(action));
      if (!ref) return null;
      return parley.submitWordsOffer(at.teamId, { threadReplyId: ref.tr, by: at.userId, byTeamId: at.userTeamId });
    },
    { outsiders: 'their own part' },
  );
}
