// Start negotiation… under a finished review: opens the start modal, or says in it why the person cannot start.
import { quotationRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onModalClick } from '../modal.js';
import { valueOf } from './click.js';

export function openStartModal({ screens }: SlackDeps) {
  return onModalClick(({ action }, at) => {
    const value = quotationRefCodec.decode(valueOf(action));
    if (!value) return null;
    return { how: 'open', read: () => screens.startModal(at.teamId, value.qt, at.userId) };
  });
}
