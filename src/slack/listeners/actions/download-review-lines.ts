// "Download all lines" under a large review: the review workbook is uploaded into the thread (through the outbox).
import { downloadLinesCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function downloadReviewLines({ parley }: SlackDeps) {
  return onClick(async ({ action }, at) => {
    const value = downloadLinesCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.downloadReviewLines(at.teamId, { quotationId: value.qt, by: at.userId });
  });
}
