// Review & approve PO under the decision: opens the PO modal as the PO is now. The button carries the PO (older
// messages: with the version they were posted at, which the modal does not need).
import { poIdCodec, poRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function openPoModal({ screens }: SlackDeps) {
  return onClick(async ({ body, action, client }, at) => {
    const raw = valueOf(action);
    const purchaseOrderId = poIdCodec.decode(raw)?.po ?? poRefCodec.decode(raw)?.po;
    if (!purchaseOrderId) return null;
    const modal = await screens.poModal(at.teamId, purchaseOrderId, at.userId);
    if (!modal.ok) return modal;
    await client.views.open({ trigger_id: body.trigger_id, view: modal.value });
    return null;
  });
}
