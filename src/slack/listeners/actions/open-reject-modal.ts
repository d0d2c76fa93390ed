// Reject… in the PO modal: pushes the reject modal (asking for the reason) on top of it; for approvers only, so anyone
// else sees why in its place.
import { poRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onModalClick } from '../modal.js';
import { valueOf } from './click.js';

export function openRejectModal({ screens }: SlackDeps) {
  return onModalClick(({ action }, at) => {
    const value = poRefCodec.decode(valueOf(action));
    if (!value) return null;
    return { how: 'push', read: () => screens.rejectModal(at.teamId, value, at.userId) };
  });
}
