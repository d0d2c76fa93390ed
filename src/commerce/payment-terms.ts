// Payment terms, the one reading of them for quotation, negotiation and decision alike (seed 002 §10, DESIGN.md).
//
// Parley holds terms as instalment percentages from order to delivery, written "30/70", "33/33/33", "100" (all at
// order) or "0/100" (all at delivery). One instalment is paid at order (day 0); two at order and at delivery; three at
// order, midway and delivery; n evenly spaced from order to delivery (day = lead time).
//
// Percentages must add up to 100. The one allowance is for whole numbers written down from a split that does not
// divide evenly: "33/33/33" is thirds (99), so a split of two or more instalments may fall short by at most one point,
// and is then read in proportion. Anything further off ("30/60", "50/51", a lone "99") is refused — null from the
// parser, a failed schema, a RangeError from the schedule — because guessing where the missing money goes would make
// a cost up.
//
// Credit terms (Net 30, 30 days after delivery, L/C, cash on delivery) pay nothing before delivery. They are read as
// 0% at order and 100% at delivery, so they cost nothing: the credit after delivery is not counted as a gain, which
// keeps comparisons conservative and never makes a supplier look better than paying on delivery.
import { z } from 'zod';

/** Most a written split may fall short of 100 (thirds written "33/33/33"). */
const ROUNDING_SHORTFALL = 1;
/** Float noise on summing decimal percentages (33.3 + 33.3 + 33.4). */
const SUM_EPSILON = 1e-9;

const PERCENT_TEXT = String.raw`\d{1,3}(?:\.\d+)?`;
/** The stored form: "30/70", "33/33/33", "100", "0/100", "33.3/33.3/33.4". */
const SPLIT_FORM = new RegExp(String.raw`^${PERCENT_TEXT}(?:\/${PERCENT_TEXT})*$`);

/** Terms as Parley stores them, in an offer, an ask or a PO: instalments from order to delivery adding up to 100%. */
export const paymentTermsSchema = z
  .string()
  .regex(SPLIT_FORM, { error: 'payment terms are instalment percentages, "40/60" or "100"', abort: true })
  .refine((terms) => isValidSplit(percentagesOf(terms)), { error: 'instalments must add up to 100%' });

/** True when the percentages are a payment split: non-negative, and adding up to 100 (thirds written 33/33/33 too). */
export function isValidSplit(percentages: readonly number[]): boolean {
  if (percentages.length === 0) return false;
  if (percentages.some((p) => !Number.isFinite(p) || p < 0)) return false;
  const sum = percentages.reduce((a, b) => a + b, 0);
  const shortfallAllowed = percentages.length > 1 ? ROUNDING_SHORTFALL : 0;
  return sum <= 100 + SUM_EPSILON && sum >= 100 - shortfallAllowed - SUM_EPSILON;
}

/** The stored form of a split: [30, 70] → "30/70". */
export function formatPaymentSplit(percentages: readonly number[]): string {
  return percentages.join('/');
}

/** Terms as a supplier wrote them, in the stored form ("30% deposit, balance before shipment" → "30/70"), or null. */
export function normalisePaymentTerms(text: string | null | undefined): string | null {
  const percentages = parsePaymentTerms(text);
  return percentages === null ? null : formatPaymentSplit(percentages);
}

export interface Instalment {
  /** Fraction of the amount; the shares of a schedule sum to 1. */
  share: number;
  /** Days after the order when it is paid. */
  paidOnDay: number;
  /** Days between this payment and delivery: how long the money is tied up. */
  daysBeforeDelivery: number;
}

/**
 * When each instalment is paid: n instalments evenly spaced from order (day 0) to delivery (day = lead time), or one
 * at order. Throws a RangeError on a split that does not add up or a negative lead time.
 */
export function paymentSchedule(percentages: readonly number[], leadTimeDays: number): Instalment[] {
  if (!Number.isFinite(leadTimeDays) || leadTimeDays < 0) throw new RangeError(`invalid lead time ${leadTimeDays}`);
  if (!isValidSplit(percentages)) {
    throw new RangeError(`payment percentages ${formatPaymentSplit(percentages)} do not add up to 100`);
  }
  const sum = percentages.reduce((a, b) => a + b, 0);
  const last = percentages.length - 1;
  return percentages.map((percent, index) => {
    const paidOnDay = last === 0 ? 0 : (leadTimeDays * index) / last;
    return { share: percent / sum, paidOnDay, daysBeforeDelivery: leadTimeDays - paidOnDay };
  });
}

export interface DescribeTermsOptions {
  /** "40/60 over 25 days", "100% upfront, 50 days before delivery": the terms with the time the money is tied up. */
  leadTimeDays?: number;
  /** "40/60 (40% at order, 60% at delivery)": each instalment and when it falls, as on a PO. */
  instalments?: boolean;
}

/**
 * Terms in words, as buyers and suppliers say them: split terms stay as written ("40/60"), "100" is "100% upfront".
 * Text that is not a valid split ("Net 30" kept from a sheet) is shown as it is.
 */
export function describePaymentTerms(terms: string, options: DescribeTermsOptions = {}): string {
  const percentages = SPLIT_FORM.test(terms) ? parsePaymentTerms(terms) : null;
  if (percentages === null) return terms;
  const upfront = percentages.length === 1;
  if (options.instalments === true) {
    // Four or more instalments fall on days no one names; the split as written says it better.
    if (percentages.length > 3) return terms;
    const moments = upfront
      ? ['at order']
      : percentages.length === 2
        ? ['at order', 'at delivery']
        : ['at order', 'midway', 'at delivery'];
    return `${terms} (${percentages.map((percent, i) => `${percent}% ${moments[i] ?? ''}`).join(', ')})`;
  }
  const { leadTimeDays } = options;
  if (leadTimeDays === undefined) return upfront ? '100% upfront' : terms;
  return upfront ? `100% upfront, ${leadTimeDays} days before delivery` : `${terms} over ${leadTimeDays} days`;
}

/** A sheet's sentence that names a payment arrangement, for quotes that state their terms without a label. */
export function mentionsPaymentTerms(text: string): boolean {
  return PAYMENT_WORDS.test(text);
}

const PAYMENT_WORDS =
  /\bT\/T\b|\bTT\b|\bL\/C\b|\bD\/P\b|\bD\/A\b|\bdeposit\b|\bbalance\b|\bnet\s*\d+\b|预付|定金|订金|尾款/i;

// --- Reading terms as suppliers write them -------------------------------------------------------------------------

/**
 * "30/70", "33/33/33", "30%/70%", "40-60", optionally after words without numbers ("T/T 30/70") and before words
 * without numbers ("30/70 T/T"). Not "30-60 days": a range of days is credit, not a split.
 */
const SPLIT = new RegExp(
  String.raw`^(?:[^\d%]*\s)?(${PERCENT_TEXT}\s*%?(?:\s*[\/\-–]\s*${PERCENT_TEXT}\s*%?)+)(\s+[^\d%]*)?$`,
);
/** A lone "100" or "100%". */
const LONE_PERCENT = new RegExp(String.raw`^(${PERCENT_TEXT})\s*%?$`);
const DAYS = /\bdays?\b/;
const PERCENT = new RegExp(String.raw`(${PERCENT_TEXT})\s*%`);
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
  // "70% within 30 days": a time allowed to pay runs after the goods, never before the order.
  String.raw`\b\d+\s*days?\b`,
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
 * with certainty or does not add up to 100% (a wrong split would price the wrong supplier). Reads "30/70",
 * "33/33/33", "100", "40-60", "T/T 30/70", "100% upfront", "40% deposit, 60% on delivery", "30% T/T deposit, balance
 * before shipment" ([30, 70]), "50% deposit, 50% during production" ([50, 50, 0]); credit terms ("Net 30", "30 days
 * after delivery", "L/C at sight") read as [0, 100]: nothing before delivery. "Before shipment" counts as at delivery:
 * the lead time runs to the goods leaving the factory.
 */
export function parsePaymentTerms(text: string | null | undefined): number[] | null {
  const normalised = (text ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
  if (normalised === '') return null;

  const split = SPLIT.exec(normalised);
  const ratio = split !== null && !DAYS.test(split[2] ?? '') ? split[1] : LONE_PERCENT.exec(normalised)?.[1];
  if (ratio !== undefined) {
    const percentages = ratio.split(/[/\-–]/).map((part) => Number.parseFloat(part.replace('%', '')));
    return isValidSplit(percentages) ? percentages : null;
  }
  if (PERCENT.test(normalised)) return readPercentClauses(normalised);
  if (UPFRONT.test(normalised)) return [100];
  if (CREDIT.test(normalised)) return [0, 100];
  return null;
}

/** The percentages of terms already in the stored form; anything else reads as no split at all. */
function percentagesOf(terms: string): number[] {
  return SPLIT_FORM.test(terms) ? terms.split('/').map(Number) : [];
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
