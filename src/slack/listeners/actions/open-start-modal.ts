// Start negotiation… under a finished review: opens the start modal, or tells the person why they cannot.
import { quotationRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function openStartModal({ screens }: SlackDeps) {
  return onClick(async ({ body, action, client }, at) => {
    const value = quotationRefCodec.decode(valueOf(action));
    if (!value) return null;
    const modal = await screens.startModal(at.teamId, value.qt, at.userId);
    if (!modal.ok) return modal;
    await client.views.open({ trigger_id: body.trigger_id, view: modal.value });
    return null;
  });
}
