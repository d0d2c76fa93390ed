// What an offer costs once it is at the buyer's door, beyond its price: the charges the quote adds (freight, samples,
// tooling), the freight and duty its Incoterm leaves to the buyer (INCOTERM_COSTS, assumptions named in the business
// rules), and — in allocation — the cash-flow cost of its terms and any split overhead. Every part is a share of the
// offer's goods value, so a part of the order carries its share of them: a supplier's charges are spread over its
// lines by value (an award of its whole offer pays them in full).
import { INCOTERM_ASSUMED, INCOTERM_COSTS, type Incoterm } from '../config/business-rules.js';

/** Freight and duty shares per Incoterm: the business rules' by default. */
export type IncotermCosts = Readonly<Record<Incoterm, { freight: number; duty: number }>>;

export interface Charge {
  description: string;
  /** Null when the quote names a charge without an amount: it cannot be counted, and the decision says so. */
  amount: number | null;
}

export interface IncotermReading {
  term: Incoterm;
  /** The quote named no Incoterm Parley knows: INCOTERM_ASSUMED was used. */
  assumed: boolean;
}

export interface LandedRates extends IncotermReading {
  /** Shares of the goods value. */
  freight: number;
  duty: number;
  charges: number;
}

/** "FOB Ningbo" → FOB; "exw Porto" → EXW; nothing or an unknown term → the assumed one, marked as assumed. */
export function readIncoterm(text: string | null | undefined): IncotermReading {
  const code = /^\s*([A-Za-z]{3})\b/.exec(text ?? '')?.[1]?.toUpperCase();
  return code !== undefined && isIncoterm(code)
    ? { term: code, assumed: false }
    : { term: INCOTERM_ASSUMED, assumed: true };
}

function isIncoterm(code: string): code is Incoterm {
  return Object.hasOwn(INCOTERM_COSTS, code);
}

/**
 * The basis an offer's price is on, for labels: "EXW" for an ex-works quote (never "FOB"), "FOB" for a free-on-board
 * one, "price" when the quote names no term.
 */
export function priceBasisLabel(incoterm: string | null | undefined): string {
  const reading = readIncoterm(incoterm);
  return reading.assumed ? 'price' : reading.term;
}

/** Σ the charges that state an amount. */
export function chargesTotal(charges: readonly Charge[]): number {
  return Math.round(charges.reduce((sum, c) => sum + (c.amount ?? 0), 0) * 100) / 100;
}

/** The landed-cost shares of an offer of `goodsTotal` on `incoterm` that carries `charges` (in its currency). */
export function landedRates(
  incoterm: string | null | undefined,
  goodsTotal: number,
  charges: number,
  table: IncotermCosts = INCOTERM_COSTS,
): LandedRates {
  const reading = readIncoterm(incoterm);
  const costs = table[reading.term];
  return {
    ...reading,
    freight: costs.freight,
    duty: costs.duty,
    charges: goodsTotal > 0 && charges > 0 ? charges / goodsTotal : 0,
  };
}

/** freight + duty + charges, as one share of the goods value. */
export function extraCostRate(rates: Pick<LandedRates, 'freight' | 'duty' | 'charges'>): number {
  return rates.freight + rates.duty + rates.charges;
}
