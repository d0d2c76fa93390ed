// Send or Skip on a draft Alex wrote for a connected supplier, in the buyer's thread, and once sent, Close the round or
// Give more time (supplier-drafts.ts decides each).
import type { DecideDraftInput } from '../../../app-types.js';
import { ACTION, draftRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onModalClick } from '../modal.js';
import { onClick, valueOf } from './click.js';

const DECISIONS: Partial<Record<string, DecideDraftInput['decision']>> = {
  [ACTION.draftSend]: 'send',
  [ACTION.draftSkip]: 'skip',
  [ACTION.draftCloseRound]: 'close',
  [ACTION.draftExtend]: 'extend',
};

/** Edit…: the draft in a modal, for the buyer to change before it is sent (views/edit-draft.ts sends it). */
export function openDraftEditModal({ screens }: SlackDeps) {
  return onModalClick(({ action }, at) => {
    const value = draftRefCodec.decode(valueOf(action));
    if (!value) return null;
    return { how: 'open', read: () => screens.draftEditModal(at.teamId, value, at.userId) };
  });
}

export function decideDraft({ parley }: SlackDeps) {
  return onClick(async ({ action }, at) => {
    const value = draftRefCodec.decode(valueOf(action));
    if (!value) return null;
    const decision = DECISIONS[action.action_id];
    if (!decision) return null;
    return parley.decideDraft(at.teamId, { negotiationId: value.n, sequence: value.q, decision, by: at.userId });
  });
}
