// Cash-flow cost of payment terms (seed 002 §10, DESIGN.md): money paid before delivery is capital the buyer cannot
// use, so each instalment costs amount × annual rate × days between that payment and delivery ÷ 365.
//
// Timing of n instalments: one is paid at order (day 0); two at order and at delivery; three at order, midway and
// delivery; n evenly spaced from order (day 0) to delivery (day = lead time).
//
// Percentages that do not sum to exactly 100 are accepted only when the difference is what writing each instalment as
// a rounded or truncated whole number explains (less than 1 point per instalment: "33/33/33" is thirds), and are then
// normalised to sum to 100. Anything further off ("30/60", "50/60") is not a rounding: cashFlowCost throws and
// parsePaymentTerms returns null, because guessing where the missing money goes would make the cost up.
//
// Credit terms (Net 30, 30 days after delivery, L/C, cash on delivery) pay nothing before delivery. They are read as
// 0% at order and 100% at delivery, so they cost nothing — the credit after delivery is not counted as a gain, which
// keeps the comparison conservative and never makes a supplier look better than paying on delivery.
import { COST_OF_CAPITAL_ANNUAL } from '../config/business-rules.js';

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

export interface Instalment {
  /** Fraction of the amount, after normalisation; the shares of a schedule sum to 1. */
  share: number;
  /** Days after the order when it is paid. */
  paidOnDay: number;
  /** Days between this payment and delivery: how long the money is tied up. */
  daysBeforeDelivery: number;
}

/** When each instalment is paid, for percentages as written (validated and normalised here). */
export function paymentSchedule(percentages: readonly number[], leadTimeDays: number): Instalment[] {
  assertLeadTime(leadTimeDays);
  const shares = normalisedShares(percentages);
  const last = shares.length - 1;
  return shares.map((share, index) => {
    const paidOnDay = last === 0 ? 0 : (leadTimeDays * index) / last;
    return { share, paidOnDay, daysBeforeDelivery: leadTimeDays - paidOnDay };
  });
}

/**
 * Cash-flow cost as a fraction of the amount: Σ share × rate × days before delivery ÷ 365. The cost is linear in the
 * amount, so allocation multiplies a supplier's FOB by this once instead of recomputing the schedule.
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
  return Math.round(amount * cashFlowCostRate(paymentTerms, leadTimeDays, annualRate) * 100) / 100;
}

function percentagesOf(paymentTerms: string | readonly number[]): readonly number[] {
  if (typeof paymentTerms !== 'string') return paymentTerms;
  const parsed = parsePaymentTerms(paymentTerms);
  if (parsed === null) throw new RangeError(`unreadable payment terms "${paymentTerms}"`);
  return parsed;
}

function assertLeadTime(leadTimeDays: number): void {
  if (!Number.isFinite(leadTimeDays) || leadTimeDays < 0) throw new RangeError(`invalid lead time ${leadTimeDays}`);
}

/** True when the percentages are a payment split: non-negative, and summing to 100 up to per-instalment rounding. */
export function isValidSplit(percentages: readonly number[]): boolean {
  if (percentages.length === 0) return false;
  if (percentages.some((p) => !Number.isFinite(p) || p < 0)) return false;
  const sum = percentages.reduce((a, b) => a + b, 0);
  return sum > 0 && Math.abs(sum - 100) < percentages.length;
}

function normalisedShares(percentages: readonly number[]): number[] {
  if (!isValidSplit(percentages)) {
    throw new RangeError(`payment percentages ${percentages.join('/')} do not add up to 100`);
  }
  const sum = percentages.reduce((a, b) => a + b, 0);
  return percentages.map((p) => p / sum);
}

// --- Reading terms as suppliers write them -------------------------------------------------------------------------

const NUMBER = String.raw`\d+(?:\.\d+)?`;
/** "30/70", "33/33/33", "30%/70%", optionally followed by words without numbers ("30/70 T/T"); or a lone "100". */
const SLASH_SPLIT = new RegExp(
  String.raw`^(${NUMBER}\s*%?(?:\s*\/\s*${NUMBER}\s*%?)+)(?:\s+[^\d%]*)?$|^(${NUMBER})\s*%?$`,
);
const PERCENT = new RegExp(String.raw`(${NUMBER})\s*%`);
const PERCENTS = new RegExp(PERCENT.source, 'g');
const BALANCE = /\b(balance|remaining|remainder|rest)\b/;
/** Any of these (regular-expression) words, anywhere in the text. */
const anyOf = (...words: string[]) => new RegExp(words.join('|'));
const AT_ORDER = anyOf(
  'deposit',
  'advance',
  String.raw`up[\s-]?front`,
  'pre-?pay',
  'with (the )?order',
  'on order',
  'at order',
  'order confirmation',
  String.raw`down[\s-]?payment`,
  'booking',
  'signing',
  String.raw`\bpo\b`,
);
const DURING = anyOf('production', 'midway', 'mid-way', 'halfway', 'progress', 'during');
const AT_DELIVERY = anyOf(
  'deliver',
  'ship',
  String.raw`b\/l`,
  'bill of lading',
  'arrival',
  'receipt',
  'after',
  'loading',
  String.raw`\bnet\b`,
  'documents',
  'inspection',
  'dispatch',
  'balance',
  'remaining',
  'remainder',
  String.raw`\brest\b`,
);
const CREDIT = anyOf(
  String.raw`\bnet\s*\d+`,
  String.raw`\b\d+\s*days?\b`,
  String.raw`\bcod\b`,
  'cash on delivery',
  'on delivery',
  'against delivery',
  'open account',
  String.raw`\bo\/a\b`,
  String.raw`\bl\/c\b`,
  'letter of credit',
  'after (delivery|receipt|invoice)',
);
const UPFRONT = anyOf(
  'in advance',
  'advance payment',
  String.raw`up[\s-]?front`,
  'prepaid',
  'pre-?payment',
  'cash in advance',
  String.raw`\bcia\b`,
  'with (the )?order',
);

type Timing = 'order' | 'during' | 'delivery' | 'unstated';
const TIMING_ORDER: Record<Exclude<Timing, 'unstated'>, number> = { order: 0, during: 1, delivery: 2 };

/**
 * Payment terms as percentages, instalment by instalment from order to delivery, or null when the text cannot be read
 * with certainty (a wrong split would price the wrong supplier). Reads "30/70", "33/33/33", "100", "100% upfront",
 * "40% deposit, 60% on delivery", "30% T/T deposit, balance before shipment" ([30, 70]); credit terms ("Net 30",
 * "30 days after delivery") read as [0, 100]: nothing before delivery. "Before shipment" counts as at delivery: the
 * lead time runs to the goods leaving the factory.
 */
export function parsePaymentTerms(text: string): number[] | null {
  const normalised = text.toLowerCase().replace(/\s+/g, ' ').trim();
  if (normalised === '') return null;

  const slash = SLASH_SPLIT.exec(normalised);
  const ratio = slash?.[1] ?? slash?.[2];
  if (ratio !== undefined) {
    const percentages = ratio.split('/').map((part) => Number.parseFloat(part.replace('%', '')));
    return isValidSplit(percentages) ? percentages : null;
  }
  if (PERCENT.test(normalised)) return readPercentClauses(normalised);
  if (UPFRONT.test(normalised)) return [100];
  if (CREDIT.test(normalised)) return [0, 100];
  return null;
}

interface Clause {
  percent: number | 'balance';
  timing: Timing;
}

function readPercentClauses(text: string): number[] | null {
  const clauses: Clause[] = [];
  for (const segment of text.split(/[,;+]| and | then /)) {
    // A segment may hold several percentages ("30% deposit 70% before shipment"): each starts its own clause, and
    // words before the first one ("deposit of 30%") belong to it.
    const starts = [...segment.matchAll(PERCENTS)].map((m) => m.index);
    if (starts.length === 0) {
      if (BALANCE.test(segment)) clauses.push({ percent: 'balance', timing: timingOf(segment) });
      continue;
    }
    starts.forEach((start, i) => {
      const piece = segment.slice(i === 0 ? 0 : start, starts[i + 1] ?? segment.length);
      const amount = /\d+(?:\.\d+)?/.exec(piece.slice(i === 0 ? start : 0));
      if (amount) clauses.push({ percent: Number.parseFloat(amount[0]), timing: timingOf(piece) });
    });
  }

  const stated = clauses.reduce((sum, c) => (c.percent === 'balance' ? sum : sum + c.percent), 0);
  const balances = clauses.filter((c) => c.percent === 'balance').length;
  // "Balance" is what the stated percentages leave; with nothing left (or two balances) the text contradicts itself.
  if (balances > 1 || (balances === 1 && stated >= 100)) return null;

  // Unstated timing follows the clause before it ("30%, 70% on delivery"): a first clause without words is at order.
  let previous: Exclude<Timing, 'unstated'> = 'order';
  const timed = clauses.map((c) => {
    const timing = c.timing === 'unstated' ? previous : c.timing;
    previous = timing;
    return { percent: c.percent === 'balance' ? 100 - stated : c.percent, timing };
  });

  // Everything paid at order is one instalment, and so is everything at delivery; payments during production sit
  // between them in the order written. With nothing at order, a 0% first instalment keeps delivery at delivery.
  const sorted = timed
    .map((c, index) => ({ ...c, index }))
    .sort((a, b) => TIMING_ORDER[a.timing] - TIMING_ORDER[b.timing] || a.index - b.index);
  const atOrder = sorted.filter((c) => c.timing === 'order').reduce((sum, c) => sum + c.percent, 0);
  const during = sorted.filter((c) => c.timing === 'during').map((c) => c.percent);
  const atDelivery = sorted.filter((c) => c.timing === 'delivery');
  const percentages = [atOrder, ...during];
  if (atDelivery.length > 0) percentages.push(atDelivery.reduce((sum, c) => sum + c.percent, 0));
  // Payments during production sit between order and delivery, so the schedule still ends at delivery (with 0%). A
  // lone upfront payment stays one instalment: [100], not [100, 0].
  else if (during.length > 0) percentages.push(0);
  return isValidSplit(percentages) ? percentages : null;
}

function timingOf(words: string): Timing {
  if (AT_ORDER.test(words)) return 'order';
  if (DURING.test(words)) return 'during';
  if (AT_DELIVERY.test(words)) return 'delivery';
  return 'unstated';
}
