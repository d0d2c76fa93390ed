// A connected supplier's revised quotation, read by Parley's own ingestion, as the offer it would submit: a unit price
// for each line of the request the file prices, in the request's order (what Submit offer takes), and its terms.
// A line of the file is the request's line when it names that line's SKU (the brand's, or the supplier's own from its
// first quotation) or, failing both, when the catalog matcher was sure of it. Nothing is filled in: a request line
// the file does not price is "not offered", and one priced twice at different prices is left out and said so. Pure.
import type { SubmittedOffer } from '../app-types.js';
import { normalisePaymentTerms } from '../commerce/payment-terms.js';

/** A line the file priced, as the reader returns it (parse-quotation.ts `ParsedItem`). */
export interface FileLine {
  rawSku: string | null;
  description: string | null;
  unitPrice: number | null;
  reviewState: 'auto_accepted' | 'needs_review';
  match: { sku: string | null };
}

export interface OfferFromFile {
  offer: SubmittedOffer;
  /** Request lines the file prices. */
  priced: number;
  /** Lines of the file that are none of the request's lines (or carry no price). */
  unmatched: { sku: string | null; description: string | null }[];
  /** Request SKUs the file prices twice at different prices: left out. */
  conflicting: string[];
  /** The file's currency, when it names one other than the request's: nothing is read as an offer then. */
  otherCurrency: string | null;
}

const key = (sku: string | null | undefined) => sku?.trim().toUpperCase() ?? '';

export function offerFromFile(input: {
  /** The request's lines, in the order Submit offer asks for them. */
  requested: readonly { sku: string }[];
  currency: string;
  /** The first quotation's SKUs as its supplier wrote them, each with the brand's SKU the buyer matched it to. */
  supplierSkus: ReadonlyMap<string, string>;
  lines: readonly FileLine[];
  terms: {
    paymentTerms: string | null;
    leadTimeDays: number | null;
    currency: string | null;
    validityDays: number | null;
  };
}): OfferFromFile {
  const requested = new Set(input.requested.map((line) => key(line.sku)));
  const theirs = new Map([...input.supplierSkus].map(([raw, sku]) => [key(raw), key(sku)]));
  const prices = new Map<string, number>();
  const conflicting = new Set<string>();
  const unmatched: OfferFromFile['unmatched'] = [];
  for (const line of input.lines) {
    const price = line.unitPrice;
    const sku = [key(line.rawSku), theirs.get(key(line.rawSku)) ?? '', sure(line)].find((candidate) =>
      requested.has(candidate),
    );
    if (!sku || price === null || !(price > 0)) {
      unmatched.push({ sku: line.rawSku, description: line.description });
      continue;
    }
    const before = prices.get(sku);
    if (before !== undefined && Math.round(before * 100) !== Math.round(price * 100)) conflicting.add(sku);
    prices.set(sku, price);
  }
  const otherCurrency =
    input.terms.currency && key(input.terms.currency) !== key(input.currency) ? input.terms.currency : null;
  const unitPrices = input.requested.map((line) => {
    const sku = key(line.sku);
    return otherCurrency || conflicting.has(sku) ? null : (prices.get(sku) ?? null);
  });
  return {
    offer: {
      unitPrices,
      leadTimeDays: input.terms.leadTimeDays,
      paymentTerms: normalisePaymentTerms(input.terms.paymentTerms),
      validityDays: input.terms.validityDays,
      notes: null,
    },
    priced: unitPrices.filter((price) => price !== null).length,
    unmatched,
    conflicting: input.requested.map((line) => line.sku).filter((sku) => conflicting.has(key(sku))),
    otherCurrency,
  };
}

/** The catalog's SKU for a line the matcher was sure of (no person needed to look at it). */
function sure(line: FileLine): string {
  return line.reviewState === 'auto_accepted' ? key(line.match.sku) : '';
}
