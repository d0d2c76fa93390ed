// Confirm on one review line: the product picked in the line's select, or else the suggestion the button carries.
import { ACTION, candidateOptionCodec, reviewConfirmCodec, reviewLineBlockId } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, shownReviewPage, valueOf } from './click.js';

export function confirmMatch({ parley }: SlackDeps) {
  return onClick(async ({ body, action }, at) => {
    const value = reviewConfirmCodec.decode(valueOf(action));
    if (!value) return null;
    const selected = body.state?.values?.[reviewLineBlockId(value.i)]?.[ACTION.reviewSelectCandidate];
    const option = candidateOptionCodec.decode(selected?.selected_option?.value);
    return parley.reviewItem(at.teamId, {
      itemId: value.i,
      by: at.userId,
      decision: { kind: 'confirm', productId: option?.p ?? value.p },
      page: shownReviewPage(body),
    });
  });
}
