// Accept PO and Query, on the approved PO in a connected supplier's own channel: buttons pressed by people of the
// supplier's organisation. Whether they may (their own supplier's part, the PO still approved) is the service's or the
// screen's to say, from their own team (`user.team_id`), never from where the click came.
import { supplierPoRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onModalClick } from '../modal.js';
import { onClick, valueOf } from './click.js';

export function acceptSupplierPo({ parley }: SlackDeps) {
  return onClick(
    async ({ action }, at) => {
      const ref = supplierPoRefCodec.decode(valueOf(action));
      if (!ref) return null;
      return parley.acceptSupplierPo(at.teamId, {
        purchaseOrderId: ref.po,
        supplierId: ref.s,
        by: at.userId,
        byTeamId: at.userTeamId,
      });
    },
    { outsiders: 'their own part' },
  );
}

export function openPoQueryModal({ screens }: SlackDeps) {
  return onModalClick(
    ({ action }, at) => {
      const ref = supplierPoRefCodec.decode(valueOf(action));
      if (!ref) return null;
      const part = { purchaseOrderId: ref.po, supplierId: ref.s };
      return { how: 'open', read: () => screens.poQueryModal(at.teamId, part, at.userTeamId) };
    },
    { outsiders: 'their own form' },
  );
}
