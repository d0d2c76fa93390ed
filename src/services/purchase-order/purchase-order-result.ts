// What every purchase-order use case answers (draft, approve, reject, get): the PO as it stands after the call with a
// sentence for the person, or a refusal with the sentence to show them privately (and, for the reject modal, the
// field error). A repeat that finds its work done is `changed: false`.
import type { PurchaseOrderRefusal, PurchaseOrderView } from '../../decision/purchase-order-rules.js';
import { done, refused, type ServiceResult } from '../outcome.js';

export interface PurchaseOrderOutcome {
  po: PurchaseOrderView;
  message: string;
}

export type PurchaseOrderResult = ServiceResult<PurchaseOrderOutcome>;

export function purchaseOrderDone(po: PurchaseOrderView, message: string, changed: boolean): PurchaseOrderResult {
  return done({ po, message }, changed);
}

export function purchaseOrderRefused(refusal: PurchaseOrderRefusal): PurchaseOrderResult {
  return refused(refusal.error, refusal.message, refusal.fieldErrors);
}
