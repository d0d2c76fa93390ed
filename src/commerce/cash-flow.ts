// Cash-flow cost of payment terms (seed 002 §10, DESIGN.md): money paid before delivery is capital the buyer cannot
// use, so each instalment costs amount × annual rate × days between that payment and delivery ÷ 365. The decision
// prices suppliers with it and the brand agent argues with it: one formula, so they never disagree about a cost.
import { COST_OF_CAPITAL_ANNUAL } from '../config/business-rules.js';
import { fromCents, toCents } from './money.js';
import { parsePaymentTerms, paymentSchedule } from './payment-terms.js';

const DAYS_PER_YEAR = 365;

export interface CashFlowCostOptions {
  /** The amount paid under these terms, in currency units. */
  amount: number;
  /** "33/33/33", "40/60", "100", any text parsePaymentTerms reads, or the percentages themselves. */
  paymentTerms: string | readonly number[];
  leadTimeDays: number;
  /** Cost of capital per year, as a fraction. */
  annualRate?: number;
}

/**
 * Cash-flow cost as a fraction of the amount: Σ share × rate × days before delivery ÷ 365. The cost is linear in the
 * amount, so allocation multiplies a supplier's FOB by this once instead of recomputing the schedule. Throws a
 * RangeError on terms it cannot read or that do not add up to 100%: they are refused, never rescaled.
 */
export function cashFlowCostRate(
  paymentTerms: string | readonly number[],
  leadTimeDays: number,
  annualRate: number = COST_OF_CAPITAL_ANNUAL,
): number {
  if (!Number.isFinite(annualRate) || annualRate < 0) throw new RangeError(`invalid annual rate ${annualRate}`);
  const schedule = paymentSchedule(percentagesOf(paymentTerms), leadTimeDays);
  return schedule.reduce((sum, p) => sum + (p.share * annualRate * p.daysBeforeDelivery) / DAYS_PER_YEAR, 0);
}

/** The cash-flow cost in currency units, rounded to the cent. Throws a RangeError on terms it cannot read. */
export function cashFlowCost(options: CashFlowCostOptions): number {
  const { amount, paymentTerms, leadTimeDays, annualRate = COST_OF_CAPITAL_ANNUAL } = options;
  if (!Number.isFinite(amount) || amount < 0) throw new RangeError(`invalid amount ${amount}`);
  return fromCents(toCents(amount * cashFlowCostRate(paymentTerms, leadTimeDays, annualRate)));
}

function percentagesOf(paymentTerms: string | readonly number[]): readonly number[] {
  if (typeof paymentTerms !== 'string') return paymentTerms;
  const parsed = parsePaymentTerms(paymentTerms);
  if (parsed === null) throw new RangeError(`unreadable payment terms "${paymentTerms}" (or not adding up to 100%)`);
  return parsed;
}
