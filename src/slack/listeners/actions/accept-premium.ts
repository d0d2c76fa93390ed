// The buyer accepts a premium above the quote (the recommendation's or the no-award message's button): the consent is
// recorded and the negotiation concluded again. Paying more than the quote takes this click.
import { premiumChoiceCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function acceptPremium({ parley }: SlackDeps) {
  return onClick(async ({ action }, at) => {
    const value = premiumChoiceCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.acceptPremium(at.teamId, { negotiationId: value.n, optionId: value.p, by: at.userId });
  });
}
