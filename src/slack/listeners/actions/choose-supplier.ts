// Who quoted: one of the workspace's suppliers (the button names it), or a new one from the name as read.
import { supplierChoiceCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, shownReviewPage, valueOf } from './click.js';

export function chooseSupplier({ parley }: SlackDeps) {
  return onClick(async ({ body, action }, at) => {
    const value = supplierChoiceCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.chooseSupplier(at.teamId, {
      quotationId: value.qt,
      by: at.userId,
      choice: value.s ? { kind: 'existing', supplierId: value.s } : { kind: 'new' },
      page: shownReviewPage(body),
    });
  });
}
