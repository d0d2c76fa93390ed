// Submit offer, in a negotiation's thread in a connected supplier's own channel: the one button of Parley's that
// people of another organisation press. It opens their offer form; whether they may (their own supplier, this round)
// is the screen's to say, from their own team (`user.team_id`), never from where the click came.
import { offerButtonCodec } from '../../views/index.js';
import type { SlackDeps } from '../../deps.js';
import { onModalClick } from '../modal.js';
import { valueOf } from './click.js';

export function openOfferModal({ screens }: SlackDeps) {
  return onModalClick(
    ({ action }, at) => {
      const ref = offerButtonCodec.decode(valueOf(action));
      if (!ref) return null;
      return { how: 'open', read: () => screens.offerModal(at.teamId, ref, at.userTeamId) };
    },
    { outsiders: 'their own form' },
  );
}
