// Not in catalog on one review line: the line is negotiated without a product of ours.
import { reviewItemCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, shownReviewPage, valueOf } from './click.js';

export function reviewNotInCatalog({ parley }: SlackDeps) {
  return onClick(async ({ body, action }, at) => {
    const value = reviewItemCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.reviewItem(at.teamId, {
      itemId: value.i,
      by: at.userId,
      decision: { kind: 'not_in_catalog' },
      page: shownReviewPage(body),
    });
  });
}
