// The purchase order as a document (the workbook's input) from the decision's award: one place that maps the two.
import { fromCents, toCents } from '../commerce/money.js';
import type { DecisionNumbers } from './decide.js';
import type { PurchaseOrderDocument, PurchaseOrderStatus } from './po-workbook.js';

export interface PurchaseOrderDocumentOptions {
  number: string;
  date: string;
  status: PurchaseOrderStatus;
  buyerName: string;
  approvals?: { by: string; at: string }[];
  notes?: string[];
}

export function purchaseOrderDocument(
  numbers: DecisionNumbers,
  options: PurchaseOrderDocumentOptions,
): PurchaseOrderDocument {
  const allocations = numbers.award.map((award) => ({
    supplier: { code: award.supplierCode, name: award.name },
    paymentTerms: award.paymentTerms,
    leadTimeDays: award.leadTimeDays,
    share: award.share,
    incoterm: award.incoterm,
    lines: award.lines,
    fobCost: award.fob,
    cashFlowCost: award.cashFlowCost,
    effectiveLandedCost: award.effectiveLandedCost,
  }));
  const sumCents = (pick: (a: (typeof allocations)[number]) => number) =>
    allocations.reduce((sum, allocation) => sum + toCents(pick(allocation)), 0);
  const fob = sumCents((a) => a.fobCost);
  const cashFlow = sumCents((a) => a.cashFlowCost);
  const overhead = toCents(numbers.allocation.splitOverhead);
  return {
    number: options.number,
    date: options.date,
    status: options.status,
    buyer: { name: options.buyerName },
    currency: numbers.currency,
    incoterm: numbers.award[0]?.incoterm ?? null,
    allocations,
    totals: {
      fobCost: fromCents(fob),
      cashFlowCost: fromCents(cashFlow),
      splitOverhead: fromCents(overhead),
      effectiveLandedCost: fromCents(fob + cashFlow + overhead),
    },
    approvals: options.approvals ?? [],
    // Finance checks the award against its rule: the allocation's own reason, with names a reader knows.
    notes: [
      `Basis of award (${numbers.mode} mode): ${withNames(numbers.allocation.reason, numbers)}`,
      ...(options.notes ?? []),
    ],
  };
}

/** Supplier codes in a reason replaced by "Name (CODE)" on first mention and the name after it. */
function withNames(reason: string, numbers: DecisionNumbers): string {
  let text = reason;
  for (const offer of numbers.offers) {
    const parts = text.split(offer.supplierCode);
    text = parts
      .map((part, i) => (i === 0 ? part : `${i === 1 ? `${offer.name} (${offer.supplierCode})` : offer.name}${part}`))
      .join('');
  }
  return text;
}
