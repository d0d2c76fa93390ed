// The purchase order as a document (the workbook's input): from the decision's award (the unattended CLI, which has
// no database), or from the PO as it was drafted and stored (what an approver approved). One place maps both.
import { fromCents, toCents } from '../commerce/money.js';
import type { AwardedLine, DecisionNumbers } from './decide.js';
import type {
  PurchaseOrderAllocation,
  PurchaseOrderDocument,
  PurchaseOrderLine,
  PurchaseOrderStatus,
} from './po-workbook.js';
import type { PurchaseOrderView } from './purchase-order-rules.js';

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
  const allocations = numbers.award.map((award) =>
    allocationOf({ code: award.supplierCode, name: award.name }, award, {
      lines: award.lines,
      fobCost: award.fob,
      otherCosts: otherCostsOf(award),
    }),
  );
  return documentOf(allocations, {
    ...options,
    currency: numbers.currency,
    splitOverhead: numbers.allocation.splitOverhead,
    notes: [basisOfAward(numbers), ...(options.notes ?? [])],
  });
}

export interface StoredDocumentOptions {
  /** The document's date: the approval's for an approved PO. */
  date: string;
  buyerName: string;
  notes?: string[];
}

/**
 * The PO as drafted and stored: its suppliers, lines, terms and amounts, its approvals and the basis of award written
 * when it was drafted — never the decision computed again, so what the approvers approved is what the file says.
 */
export function storedPurchaseOrderDocument(
  po: PurchaseOrderView,
  options: StoredDocumentOptions,
): PurchaseOrderDocument {
  const allocations = po.allocations.map((a) =>
    allocationOf({ code: a.supplierCode, name: a.supplierName }, a, {
      lines: a.items.map(orderLine),
      fobCost: a.fobCost,
      otherCosts: a.otherCosts ?? 0,
    }),
  );
  return documentOf(allocations, {
    number: po.number,
    date: options.date,
    status: po.status,
    buyerName: options.buyerName,
    currency: po.currency,
    splitOverhead: po.splitOverhead,
    approvals: po.approvals.map((a) => ({ by: a.approverSlackUserId, at: a.approvedAt.toISOString() })),
    notes: [...(po.basisOfAward === null ? [] : [po.basisOfAward]), ...(options.notes ?? [])],
  });
}

/** What an awarded or stored allocation says alike about its terms and costs. */
interface AllocationTerms {
  paymentTerms: string;
  leadTimeDays: number;
  share: number;
  incoterm: string | null;
  cashFlowCost: number;
  effectiveLandedCost: number;
}

function allocationOf(
  supplier: PurchaseOrderAllocation['supplier'],
  terms: AllocationTerms,
  amounts: { lines: readonly PurchaseOrderLine[]; fobCost: number; otherCosts: number },
): PurchaseOrderAllocation {
  return {
    supplier,
    paymentTerms: terms.paymentTerms,
    leadTimeDays: terms.leadTimeDays,
    share: terms.share,
    incoterm: terms.incoterm,
    lines: amounts.lines,
    fobCost: amounts.fobCost,
    cashFlowCost: terms.cashFlowCost,
    otherCosts: amounts.otherCosts,
    effectiveLandedCost: terms.effectiveLandedCost,
  };
}

/** A line of the PO as the document and a draft hold it: the SKU, its amounts and its price breaks, nothing else. */
export function orderLine({ sku, description, quantity, unitPrice, lineTotal, tiers }: AwardedLine): AwardedLine {
  return { sku, description, quantity, unitPrice, lineTotal, tiers };
}

/** Charges, freight and duty (the landed-cost assumptions) as one amount, summed in cents. */
export function otherCostsOf(costs: { charges: number; freight: number; duty: number }): number {
  return fromCents(toCents(costs.charges) + toCents(costs.freight) + toCents(costs.duty));
}

function documentOf(
  allocations: PurchaseOrderAllocation[],
  options: Omit<PurchaseOrderDocumentOptions, 'notes'> & { currency: string; splitOverhead: number; notes: string[] },
): PurchaseOrderDocument {
  const sumCents = (pick: (a: PurchaseOrderAllocation) => number) =>
    allocations.reduce((sum, allocation) => sum + toCents(pick(allocation)), 0);
  const fob = sumCents((a) => a.fobCost);
  const cashFlow = sumCents((a) => a.cashFlowCost);
  const other = sumCents((a) => a.otherCosts ?? 0);
  const overhead = toCents(options.splitOverhead);
  return {
    number: options.number,
    date: options.date,
    status: options.status,
    buyer: { name: options.buyerName },
    currency: options.currency,
    incoterm: allocations[0]?.incoterm ?? null,
    allocations,
    totals: {
      fobCost: fromCents(fob),
      cashFlowCost: fromCents(cashFlow),
      otherCosts: fromCents(other),
      splitOverhead: fromCents(overhead),
      effectiveLandedCost: fromCents(fob + cashFlow + other + overhead),
    },
    approvals: options.approvals ?? [],
    notes: options.notes,
  };
}

/**
 * Finance checks the award against its rule: the allocation's own reason, with names a reader knows. Each supplier
 * code of the reason (the negotiation's, SUP-001 for the quoting supplier) becomes "Name (CODE)" on first mention and
 * the name after it; `codeOf` gives the code to show (the workspace's own supplier code; none shows the name alone).
 */
export function basisOfAward(
  numbers: DecisionNumbers,
  codeOf: (supplierCode: string) => string | null = (code) => code,
): string {
  const names = new Map(numbers.offers.map((offer) => [offer.supplierCode, offer.name]));
  const codes = [...names.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const mentioned = new Set<string>();
  // One pass, so a code put into the text is never itself replaced by a later one.
  const reason =
    codes.length === 0
      ? numbers.allocation.reason
      : numbers.allocation.reason.replace(new RegExp(codes.join('|'), 'g'), (code) => {
          const name = names.get(code) ?? code;
          if (mentioned.has(code)) return name;
          mentioned.add(code);
          const shown = codeOf(code);
          return shown === null ? name : `${name} (${shown})`;
        });
  return `Basis of award (${numbers.mode} mode): ${reason}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
