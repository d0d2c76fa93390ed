// Connect supplier… under a finished review whose supplier is not connected: the suppliers modal, with that supplier
// picked, so that an approver connects it to its Slack Connect channel before the negotiation starts.
import { quotationRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onModalClick } from '../modal.js';
import { valueOf } from './click.js';

export function connectQuotingSupplier({ screens }: SlackDeps) {
  return onModalClick(({ action }, at) => {
    const value = quotationRefCodec.decode(valueOf(action));
    if (!value) return null;
    return { how: 'open', read: () => screens.suppliersModal(at.teamId, at.userId, value.qt) };
  });
}
