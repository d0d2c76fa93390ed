// ◀ Prev / Next ▶ under a long review: shows the page the button names.
import { reviewPageCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function reviewPage({ parley }: SlackDeps) {
  return onClick(async ({ action }, at) => {
    const value = reviewPageCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.showReviewPage(at.teamId, { quotationId: value.qt, by: at.userId, page: value.pg });
  });
}
