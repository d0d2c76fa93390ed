// Review & approve PO under the decision: opens the PO modal as the PO is now (a loading view at once, then the PO).
// The button carries the PO (older messages: with the version they were posted at, which the modal does not need).
import { poIdCodec, poRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onModalClick } from '../modal.js';
import { valueOf } from './click.js';

export function openPoModal({ screens }: SlackDeps) {
  return onModalClick(({ action }, at) => {
    const raw = valueOf(action);
    const purchaseOrderId = poIdCodec.decode(raw)?.po ?? poRefCodec.decode(raw)?.po;
    if (!purchaseOrderId) return null;
    return { how: 'open', read: () => screens.poModal(at.teamId, purchaseOrderId, at.userId) };
  });
}
