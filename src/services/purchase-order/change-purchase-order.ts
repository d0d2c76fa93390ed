// The one way a purchase order changes state: read the PO, let the pure rules decide the step (refuse, nothing to do,
// or record), work out what the thread will be told, then — in a short transaction — record the step with a
// conditional write over the version that was read and enqueue those messages, so the change and its messages are
// committed together or not at all. When someone else changed the PO between our read and our write (the conditional
// write finds nothing, or the database reports a write race), the answer comes from the PO as it now stands.
//
// Only the writes are in the transaction: it is what the approver's click is answered after, and on PGlite it holds
// the one connection everyone shares. The reads and the messages come before it (the approved workbook, most of a
// second of CPU at 3,000 lines, after it: send-purchase-order-workbook.ts). That is sound because every change of a PO bumps its version and the write is
// conditional on the version read: when the write matches, the PO is the one the reads saw.
import type { PurchaseOrderRefusal, PurchaseOrderView } from '../../decision/purchase-order-rules.js';
import { isWriteRace, loadPurchaseOrder, PO_TRANSACTION_OPTIONS } from '../../db/stores/purchase-orders.js';
import type { WorkspaceTx } from '../../db/scoped.js';
import type { OutboxCall } from '../../outbox/index.js';
import { enqueuePurchaseOrderOutcome } from '../../thread/po-outcome.js';
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
  /** The PO as recording the step makes it (pure: what the write below will have made of it, version included). */
  applied(po: PurchaseOrderView, step: R): PurchaseOrderView;
  /**
   * What the recorded change tells (the thread's outbox calls), from the PO as it is afterwards. Reads only: it runs
   * before the transaction, which enqueues the calls.
   */
  tell(updated: PurchaseOrderView): Promise<OutboxCall[]>;
  /**
   * Writes the step, conditional on the PO's version (every change bumps it); false when the PO changed since it was
   * read.
   */
  record(tx: WorkspaceTx, po: PurchaseOrderView, step: R): Promise<boolean>;
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
  const po = await loadPurchaseOrder(ctx.db, purchaseOrderId);
  if (po === null) return notFound();
  const step = options.step(po);
  if (step.kind === 'refuse') return purchaseOrderRefused(step.refusal);
  if (step.kind === 'unchanged') return purchaseOrderDone(po, step.message, false);
  const updated = options.applied(po, step);
  const calls = await options.tell(updated);
  try {
    await ctx.db.$transaction(async (tx) => {
      if (!(await options.record(tx, po, step))) throw new LostRace();
      await enqueuePurchaseOrderOutcome(tx, calls);
    }, PO_TRANSACTION_OPTIONS);
    return purchaseOrderDone(updated, step.message, true);
  } catch (error) {
    if (!(error instanceof LostRace) && !isWriteRace(error)) throw error;
    const now = await loadPurchaseOrder(ctx.db, purchaseOrderId);
    if (now === null) return notFound();
    const after = options.afterLostRace(now);
    return after.kind === 'unchanged'
      ? purchaseOrderDone(now, after.message, false)
      : purchaseOrderRefused(after.refusal);
  }
}

function notFound(): PurchaseOrderResult {
  return refused('not_found', 'This purchase order does not exist.');
}
