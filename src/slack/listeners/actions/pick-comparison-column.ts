// A supplier's button on a comparison sheet's read-out: that supplier's column becomes the quotation's prices (the
// service saves the pick and queues the re-read; the review then replaces the choice in the same message).
import { comparisonColumnCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function pickComparisonColumn({ parley }: SlackDeps) {
  return onClick(async ({ action }, at) => {
    const value = comparisonColumnCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.chooseComparisonColumn(at.teamId, { quotationId: value.qt, by: at.userId, column: value.c });
  });
}
