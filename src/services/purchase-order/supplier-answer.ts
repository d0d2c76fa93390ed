// A connected supplier answers the approved PO in its own channel: Accept records who accepted its part and when —
// audited, the buyer told, the status card listing it — and Query sends a question back to the buyer. Only people of
// the supplier's own organisation answer for it (their `user.team_id`), only on its own part, only while the PO stands
// approved and the channel is still shared. Accepting twice changes nothing.
import type { SupplierPoAnswerInput, SupplierPoQueryInput } from '../../app-types.js';
import { writeAudit } from '../../db/audit.js';
import { loadCheckpoint } from '../../db/stores/negotiation-store.js';
import { loadPurchaseOrder } from '../../db/stores/purchase-orders.js';
import type { PurchaseOrderView } from '../../decision/purchase-order-rules.js';
import type { NegotiationState } from '../../negotiation/engine.js';
import {
  supplierPoAcceptedCalls,
  supplierPoParts,
  supplierPoQueryCalls,
  type SupplierPoPart,
  enqueueSupplierChannelCalls,
} from '../../thread/supplier-channel.js';
import type { SupplierPoRef } from '../../slack/views/index.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';

interface OpenPart {
  po: PurchaseOrderView;
  part: SupplierPoPart;
  state: NegotiationState;
}

/** Whether this person may answer this part of the PO: of the supplier's organisation, on an approved PO, shared. */
async function openPart(
  ctx: ServiceContext,
  who: SupplierPoRef & { byTeamId: string | null },
): Promise<ServiceResult<OpenPart>> {
  const supplier = await ctx.db.supplier.findUnique({
    where: { id: who.supplierId },
    select: { name: true, slackTeamId: true, connectionLostAt: true },
  });
  const po = supplier && (await loadPurchaseOrder(ctx.db, who.purchaseOrderId));
  if (!supplier || !po) return refused('not_found', 'This order is not one Parley has.');
  // The supplier's organisation, and nobody else — the brand's own people included: acceptance is the supplier's word.
  if (supplier.slackTeamId === null || who.byTeamId !== supplier.slackTeamId) {
    return refused('not_allowed', `Only people of ${supplier.name} can answer for its order.`);
  }
  if (supplier.connectionLostAt !== null) {
    return refused('conflict', 'This channel is no longer shared with the buyer: nothing can be answered here.');
  }
  if (po.status !== 'approved') {
    return refused('conflict', `${po.number} no longer stands: the buyer replaced or withdrew it.`);
  }
  const { state } = await loadCheckpoint(ctx.db, po.negotiationId);
  const { parts } = await supplierPoParts(ctx.db, po, async () => state);
  const part = parts.find((p) => p.allocation.supplierId === who.supplierId);
  if (!part) return refused('not_found', `${po.number} orders nothing from ${supplier.name}.`);
  return done({ po, part, state });
}

export async function acceptSupplierPurchaseOrder(
  ctx: ServiceContext,
  who: SupplierPoAnswerInput,
): Promise<ServiceResult> {
  const open = await openPart(ctx, who);
  if (!open.ok) return open;
  const { po, part, state } = open.value;
  if (part.allocation.accepted) return done(undefined, false);
  const at = ctx.now();
  const accepted = { by: who.by, at };
  const acceptedPo: PurchaseOrderView = {
    ...po,
    allocations: po.allocations.map((a) => (a.supplierId === who.supplierId ? { ...a, accepted } : a)),
  };
  const calls = await supplierPoAcceptedCalls(ctx.db, {
    po: acceptedPo,
    part: { ...part, allocation: { ...part.allocation, accepted } },
    state,
  });
  const changed = await ctx.db.$transaction(async (tx) => {
    // Conditional: of two clicks at once, one records the acceptance, the other finds it recorded.
    const recorded = await tx.purchaseOrderAllocation.updateMany({
      where: {
        purchaseOrderId: po.id,
        supplierId: who.supplierId,
        acceptedAt: null,
        purchaseOrder: { status: 'approved' },
      },
      data: { acceptedAt: at, acceptedBySlackUserId: who.by },
    });
    if (recorded.count === 0) return false;
    await writeAudit(tx, who.by, {
      action: 'purchase_order.accepted_by_supplier',
      entityType: 'purchase_order',
      entityId: po.id,
      data: { number: po.number, supplierCode: part.allocation.supplierCode, teamId: who.byTeamId },
    });
    await enqueueSupplierChannelCalls(tx, calls);
    return true;
  });
  return done(undefined, changed);
}

/** The Query modal's contents, for someone who may answer this part. */
export async function supplierPoQueryFormFor(
  ctx: ServiceContext,
  who: SupplierPoRef & { byTeamId: string | null },
): Promise<ServiceResult<SupplierPoRef & { poNumber: string; brandName: string }>> {
  const open = await openPart(ctx, who);
  if (!open.ok) return open;
  return done({
    purchaseOrderId: who.purchaseOrderId,
    supplierId: who.supplierId,
    poNumber: open.value.po.number,
    brandName: open.value.state.brandName,
  });
}

/**
 * The supplier's question on its part, to the buyer. `submissionId` (the modal's view id) keys its messages, so a
 * submission delivered twice asks once.
 */
export async function querySupplierPurchaseOrder(
  ctx: ServiceContext,
  who: SupplierPoQueryInput,
): Promise<ServiceResult> {
  const open = await openPart(ctx, who);
  if (!open.ok) return open;
  const { po, part, state } = open.value;
  const text = who.text.trim();
  const calls = await supplierPoQueryCalls(ctx.db, { po, part, state, by: who.by, text, id: who.submissionId });
  const written = await ctx.db.$transaction(async (tx) => {
    const enqueued = await enqueueSupplierChannelCalls(tx, calls);
    if (enqueued === 0) return false;
    await writeAudit(tx, who.by, {
      action: 'purchase_order.queried_by_supplier',
      entityType: 'purchase_order',
      entityId: po.id,
      data: { number: po.number, supplierCode: part.allocation.supplierCode, text },
    });
    return true;
  });
  return done(undefined, written);
}
