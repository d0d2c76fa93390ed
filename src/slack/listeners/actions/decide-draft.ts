// Send or Skip on a draft Alex wrote for a connected supplier, in the buyer's thread (supplier-drafts.ts decides it).
import { ACTION, draftRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function decideDraft({ parley }: SlackDeps) {
  return onClick(async ({ action }, at) => {
    const value = draftRefCodec.decode(valueOf(action));
    if (!value) return null;
    const send = action.action_id === ACTION.draftSend;
    return parley.decideDraft(at.teamId, { negotiationId: value.n, sequence: value.q, send, by: at.userId });
  });
}
