// Converting money between currencies with the business rules' reference table (FX_RATES): one rate per currency
// against USD, so any pair converts through it. The table has a date; every conversion reports it, so a figure in
// another currency can always say which rates it used.
import { FX_RATES } from '../config/business-rules.js';

export interface FxTable {
  asOf: string;
  usdPerUnit: Readonly<Record<string, number>>;
}

export interface FxRate {
  from: string;
  to: string;
  /** Units of `to` per unit of `from`. */
  rate: number;
  asOf: string;
}

/** The rate from one currency to another, or null when the table lacks either (never a guess). */
export function fxRate(from: string, to: string, table: FxTable = FX_RATES): FxRate | null {
  const source = from.trim().toUpperCase();
  const target = to.trim().toUpperCase();
  if (source === target) return { from: source, to: target, rate: 1, asOf: table.asOf };
  const fromUsd = table.usdPerUnit[source];
  const toUsd = table.usdPerUnit[target];
  if (fromUsd === undefined || toUsd === undefined || !(fromUsd > 0) || !(toUsd > 0)) return null;
  return { from: source, to: target, rate: fromUsd / toUsd, asOf: table.asOf };
}

/** `amount` of `from` in `to`, rounded to the cent; null when the table cannot convert it. */
export function convertMoney(amount: number, from: string, to: string, table: FxTable = FX_RATES): number | null {
  const rate = fxRate(from, to, table);
  return rate === null ? null : Math.round(amount * rate.rate * 100) / 100;
}
