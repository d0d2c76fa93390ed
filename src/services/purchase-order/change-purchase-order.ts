// The one way a purchase order changes state: in a transaction, read the PO, let the pure rules decide the step
// (refuse, nothing to do, or record), record it with a conditional write over the version that was read, write what
// the thread is told in the same transaction, and answer from the PO as it is afterwards. When someone else changed the PO between our read and our write (the conditional
// write finds nothing, or the database reports a write race), the answer comes from the PO as it now stands.
import type { PurchaseOrderRefusal, PurchaseOrderView } from '../../decision/purchase-order-rules.js';
import { isWriteRace, loadPurchaseOrder, PO_TRANSACTION_OPTIONS } from '../../db/stores/purchase-orders.js';
import type { WorkspaceTx } from '../../db/scoped.js';
import { refused } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { purchaseOrderDone, purchaseOrderRefused, type PurchaseOrderResult } from './purchase-order-result.js';

/** What the rules say to do with a PO; `record` carries what the write needs. */
export type PurchaseOrderStep<R> =
  | { kind: 'refuse'; refusal: PurchaseOrderRefusal }
  | { kind: 'unchanged'; message: string }
  | ({ kind: 'record'; message: string } & R);

export interface ChangePurchaseOrderOptions<R> {
  purchaseOrderId: string;
  step(po: PurchaseOrderView): PurchaseOrderStep<R>;
  /** Writes the step (conditional on the PO's version); false when the PO changed since it was read. */
  record(tx: WorkspaceTx, po: PurchaseOrderView, step: R): Promise<boolean>;
  /**
   * What the recorded change tells (the thread's outbox rows), from the PO as it is afterwards: written in the same
   * transaction, so the change and its messages are committed together or not at all.
   */
  tell(tx: WorkspaceTx, updated: PurchaseOrderView): Promise<void>;
  /** The step to answer with when the write lost a race: never `record`. */
  afterLostRace(
    po: PurchaseOrderView,
  ): { kind: 'refuse'; refusal: PurchaseOrderRefusal } | { kind: 'unchanged'; message: string };
}

/** Thrown inside the transaction when the conditional write finds the PO changed: rolls it back. */
class LostRace extends Error {
  override name = 'LostRace';
}

export async function changePurchaseOrder<R>(
  ctx: ServiceContext,
  options: ChangePurchaseOrderOptions<R>,
): Promise<PurchaseOrderResult> {
  const { purchaseOrderId } = options;
  try {
    return await ctx.db.$transaction(async (tx): Promise<PurchaseOrderResult> => {
      const po = await loadPurchaseOrder(tx, purchaseOrderId);
      if (po === null) return notFound();
      const step = options.step(po);
      if (step.kind === 'refuse') return purchaseOrderRefused(step.refusal);
      if (step.kind === 'unchanged') return purchaseOrderDone(po, step.message, false);
      if (!(await options.record(tx, po, step))) throw new LostRace();
      const updated = await loadPurchaseOrder(tx, po.id);
      if (updated === null) throw new Error(`PO ${po.id} vanished inside its own transaction`);
      await options.tell(tx, updated);
      return purchaseOrderDone(updated, step.message, true);
    }, PO_TRANSACTION_OPTIONS);
  } catch (error) {
    if (!(error instanceof LostRace) && !isWriteRace(error)) throw error;
    const po = await loadPurchaseOrder(ctx.db, purchaseOrderId);
    if (po === null) return notFound();
    const step = options.afterLostRace(po);
    return step.kind === 'unchanged' ? purchaseOrderDone(po, step.message, false) : purchaseOrderRefused(step.refusal);
  }
}

function notFound(): PurchaseOrderResult {
  return refused('not_found', 'This purchase order does not exist.');
}
