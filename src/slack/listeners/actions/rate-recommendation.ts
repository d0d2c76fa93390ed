// 👍 / 👎 on a recommendation: the rating is stored with the negotiation (one a person; the same click changes nothing).
import { feedbackCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function rateRecommendation({ parley }: SlackDeps) {
  return onClick(async ({ action }, at) => {
    const value = feedbackCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.rateRecommendation(at.teamId, { negotiationId: value.n, rating: value.r, by: at.userId });
  });
}
