// Confirm all suggestions of a quotation's review at once.
import { confirmAllCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, shownReviewPage, valueOf } from './click.js';

export function confirmAll({ parley }: SlackDeps) {
  return onClick(async ({ body, action }, at) => {
    const value = confirmAllCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.confirmAll(at.teamId, { quotationId: value.qt, by: at.userId, page: shownReviewPage(body) });
  });
}
