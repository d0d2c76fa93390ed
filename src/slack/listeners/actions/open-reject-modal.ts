// Reject… in the PO modal: pushes the reject modal (asking for the reason) on top of it, for approvers only.
import { poRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function openRejectModal({ screens }: SlackDeps) {
  return onClick(async ({ body, action, client }, at) => {
    const value = poRefCodec.decode(valueOf(action));
    if (!value) return null;
    const modal = await screens.rejectModal(at.teamId, value, at.userId);
    if (!modal.ok) return modal;
    await client.views.push({ trigger_id: body.trigger_id, view: modal.value });
    return null;
  });
}
