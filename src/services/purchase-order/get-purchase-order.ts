// Reading a PO for one person: the modal an approver opens, the reject modal. Another workspace's id finds nothing.
import { statusSentence } from '../../decision/purchase-order-rules.js';
import { loadPurchaseOrder } from '../../db/stores/purchase-orders.js';
import { refused } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { purchaseOrderDone, type PurchaseOrderResult } from './purchase-order-result.js';

export interface GetPurchaseOrderOptions {
  purchaseOrderId: string;
}

/** The PO with its allocations, lines and approvals, and a sentence on where it stands. */
export async function getPurchaseOrder(
  ctx: ServiceContext,
  options: GetPurchaseOrderOptions,
): Promise<PurchaseOrderResult> {
  const po = await loadPurchaseOrder(ctx.db, options.purchaseOrderId);
  if (po === null) return refused('not_found', 'This purchase order no longer exists.');
  return purchaseOrderDone(po, statusSentence(po, ctx.workspace.settings.dualApprovalAboveUsd), false);
}
