// The baseline a negotiation starts from: the reviewed quotation's lines that are catalog products, at their quoted
// net prices, and the quoting supplier's profile as the sheet describes it.
import { QUOTED_SUPPLIER_DEFAULTS, type SupplierProfile } from '../config/business-rules.js';
import type { QuotationTerms } from '../quotation/types.js';
import { normalisePaymentTerms } from '../commerce/payment-terms.js';
import type { Baseline, BaselineLine, PriceTier } from './types.js';
import { assumedFacts, initialAssumptions, type SupplierFact } from './facts.js';

/** What a baseline needs of a quotation: a freshly parsed one, or one the buyer reviewed in Slack (from the DB). */
export interface BaselineSource {
  supplier: { name: string | null };
  terms: Pick<QuotationTerms, 'paymentTerms' | 'currency' | 'leadTimeDays' | 'incoterm' | 'moq'>;
  notes: string[];
  /** Freight, samples, tooling the quote adds: they count in its landed cost (decision/landed-cost.ts). */
  charges?: readonly { description: string; amount: number | null }[];
  items: {
    sheet: string;
    row: number;
    rawSku: string | null;
    description: string | null;
    quantity: number | null;
    unitPrice: number | null;
    tiers: PriceTier[];
    notes: string | null;
    /** The chosen catalog SKU; null when the line is not in the catalog. */
    match: { sku: string | null };
  }[];
}

export interface BaselineFromQuotation {
  baseline: Baseline;
  quotedSupplier: SupplierProfile;
  /**
   * The quoting supplier's figures that are defaults, not the sheet's: a lead time or terms it does not state, and a
   * track record it has none of. The negotiation tracks them (facts.ts) until the supplier states them.
   */
  assumedFacts: SupplierFact[];
  /** Lines left out, and why (no catalog product, no quantity or price). */
  skipped: string[];
}

/** Why a baseline cannot be negotiated, in the buyer's words; null when it can. */
export function whyNotNegotiable(baseline: Baseline): string | null {
  return baseline.lines.length === 0
    ? 'No line of this quotation is a catalog product with a quantity and a price.'
    : null;
}

/**
 * Uses each line's chosen catalog product (the buyer's confirmation, or the top candidate when run unattended).
 * Lines for the same SKU are merged, keeping the smallest quoted price and adding quantities.
 */
export function baselineFromQuotation(
  parsed: BaselineSource,
  catalogNames: ReadonlyMap<string, string>,
): BaselineFromQuotation {
  const bySku = new Map<string, BaselineLine>();
  const skipped: string[] = [];
  for (const item of parsed.items) {
    const where = `${item.sheet}!${item.row}`;
    const sku = item.match.sku;
    if (!sku) {
      skipped.push(`${where} ${item.rawSku ?? item.description ?? ''}: not in the catalog`);
      continue;
    }
    if (!item.quantity || item.quantity <= 0 || !item.unitPrice || item.unitPrice <= 0) {
      skipped.push(`${where} ${sku}: no usable quantity or price`);
      continue;
    }
    const existing = bySku.get(sku);
    if (existing) {
      existing.quantity += Math.round(item.quantity);
      existing.unitPrice = Math.min(existing.unitPrice, item.unitPrice);
      continue;
    }
    bySku.set(sku, {
      sku,
      description: catalogNames.get(sku) ?? item.description ?? sku,
      quantity: Math.round(item.quantity),
      unitPrice: item.unitPrice,
      tiers: item.tiers,
      notes: item.notes,
    });
  }
  const lines = [...bySku.values()];
  const total = Math.round(lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0) * 100) / 100;
  const supplierName = parsed.supplier.name ?? 'the quoting supplier';
  // Quotations word their terms ("30% T/T deposit, balance before shipment"): the prose-reading parser.
  const terms = normalisePaymentTerms(parsed.terms.paymentTerms);
  const quotedSupplier: SupplierProfile = {
    ...QUOTED_SUPPLIER_DEFAULTS,
    name: supplierName,
    leadTimeDays: parsed.terms.leadTimeDays ?? QUOTED_SUPPLIER_DEFAULTS.leadTimeDays,
    paymentTerms: terms ?? QUOTED_SUPPLIER_DEFAULTS.paymentTerms,
  };
  return {
    baseline: {
      supplierName,
      currency: parsed.terms.currency ?? 'USD',
      lines,
      total,
      paymentTerms: terms,
      leadTimeDays: parsed.terms.leadTimeDays,
      incoterm: parsed.terms.incoterm,
      moq: parsed.terms.moq,
      notes: parsed.notes,
      charges: (parsed.charges ?? []).map(({ description, amount }) => ({ description, amount })),
    },
    // Scoring needs a number for every factor: what the sheet leaves out is filled from the defaults here, and named
    // in `assumedFacts` so that no message ever attributes it to the supplier.
    quotedSupplier,
    assumedFacts: assumedFacts(
      initialAssumptions({ leadTimeDays: parsed.terms.leadTimeDays, paymentTerms: terms }, [quotedSupplier]),
      quotedSupplier.code,
    ),
    skipped,
  };
}
