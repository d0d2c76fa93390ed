// Scoring 0–100 per supplier from the final offers (seed 002 §6.7, §10; DESIGN.md adds Reliability). Every sub-score
// is a straight line between two anchors a finance person can check by hand, and each comes with the one line that
// says how it was reached:
//
// - Price: the lowest offer total scores 100; each 1% above it costs 2 points, so +50% and beyond scores 0. An offer
//   that leaves lines out (a real supplier may) is priced on the lines it offers, against the lowest any offer asks
//   for those lines: a line it does not offer is not one it offers for nothing.
// - Quality: the supplier's rating out of 5, as a percentage.
// - Lead time: the fastest offer scores 100, falling linearly to 0 at 90 days — or at twice the fastest lead time when
//   even the fastest takes more than 45 days, so that slow markets still separate their suppliers.
// - Terms: the cash-flow cost of the payment terms as a share of the amount; 0% (nothing paid before delivery) scores
//   100, and the cost of paying everything upfront 90 days ahead scores 0. Because both ends scale with the cost of
//   capital, the score does not depend on the rate: it measures how long, weighted by amount, money is paid early.
// - Reliability: the share of orders expected on time and defect-free, on-time rate × (1 − defect rate).
//
// Weights come from SCORING_WEIGHTS by mode; custom weights are validated and normalised to sum to 1. The total is
// Σ weight × sub-score, rounded to 0.1, with sub-scores rounded to 0.1 first so the sum can be redone from the display.
import { z } from 'zod';
import {
  COST_OF_CAPITAL_ANNUAL,
  SCORING_FACTORS,
  SCORING_SCALES,
  SCORING_WEIGHTS,
  type NegotiationMode,
  type ScoringFactor,
  type ScoringWeights,
  type SupplierProfile,
} from '../config/business-rules.js';
import { firstBySku, type Offer } from '../negotiation/types.js';
import { cashFlowCostRate } from '../commerce/cash-flow.js';
import { formatMoney, formatPercent, fromCents } from '../commerce/money.js';
import { describePaymentTerms } from '../commerce/payment-terms.js';

export const PRICE_ZERO_ABOVE_LOWEST = SCORING_SCALES.priceZeroAboveLowest;
export const LEAD_TIME_ZERO_DAYS = SCORING_SCALES.leadTimeZeroDays;
/** The rating quality is scored out of. */
export const QUALITY_RATING_MAX = 5;

const MAX_SCORE = 100;
/** Offer totals are cents: closer than half a cent is the same price. */
const HALF_CENT = 0.005;
const DAYS_PER_YEAR = 365;

export const FACTOR_LABELS: Readonly<Record<ScoringFactor, string>> = {
  price: 'Price',
  quality: 'Quality',
  leadTime: 'Lead time',
  terms: 'Terms',
  reliability: 'Reliability',
};

/** What scoring needs to know about a supplier beyond its offer. */
export type SupplierRecord = Pick<SupplierProfile, 'qualityRating' | 'onTimeDeliveryRate' | 'defectRate'>;

export interface ScoredInput {
  offer: Offer;
  profile: SupplierRecord;
}

export type FactorValues = Record<ScoringFactor, number>;

export interface SupplierScore {
  supplierCode: string;
  /** 1 = best; ties on the total are broken by supplier code, so ranks are always 1..n. */
  rank: number;
  /** 0–100. */
  total: number;
  /** Each sub-score 0–100. */
  factors: FactorValues;
  /** weight × sub-score: the points each factor contributes to the total. */
  weighted: FactorValues;
  weights: ScoringWeights;
  /** One line per factor, e.g. "Price: $41,650.00 is the lowest of 3 offers → 100". */
  explanations: Record<ScoringFactor, string>;
  /** The cash-flow cost of the offer's terms, in currency units (what the terms sub-score is based on). */
  cashFlowCost: number;
}

export interface ScoreOptions {
  /** Cost of capital per year for the terms explanation; the terms score itself does not depend on it. */
  annualRate?: number;
  /**
   * The lead time the buyer accepted (their answer "45 days is fine"): every offer within it scores 100 on lead time,
   * and slower ones are scored from it instead of from the fastest offer, so speed the buyer does not need earns
   * nothing — on terms neither: within it, money paid early is counted over the accepted lead time, not the offer's.
   */
  acceptedLeadTimeDays?: number | null;
  /** Weights to use instead of the mode's (the mode's adjusted by the buyer's answers: see mandateWeights). */
  weights?: ScoringWeights;
}

/**
 * The mode's weights after the buyer said speed matters more than price: lead time takes price's weight when it had
 * less, and price lead time's, so the weights still sum to 1 and nothing else moves.
 */
export function mandateWeights(weights: ScoringWeights, mandate: { leadTimeOverPrice: boolean }): ScoringWeights {
  if (!mandate.leadTimeOverPrice || weights.leadTime >= weights.price) return weights;
  return { ...weights, price: weights.leadTime, leadTime: weights.price };
}

const weightSchema = z.number().nonnegative().optional();
const customWeightsSchema = z
  .object({
    price: weightSchema,
    quality: weightSchema,
    leadTime: weightSchema,
    terms: weightSchema,
    reliability: weightSchema,
  } satisfies Record<ScoringFactor, typeof weightSchema>)
  .strict();

export type CustomWeights = Partial<Record<ScoringFactor, number>>;

export type WeightsResult = { ok: true; weights: ScoringWeights } | { ok: false; message: string };

/**
 * Custom weights as a buyer enters them (any scale, e.g. percentages; a missing factor counts 0), normalised to sum to
 * 1. Negative, non-numeric or unknown factors, or all zero, are refused with a message the buyer can act on.
 */
export function validateCustomWeights(input: unknown): WeightsResult {
  const parsed = customWeightsSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, message: `Weights must be non-negative numbers for ${SCORING_FACTORS.join(', ')}.` };
  }
  const raw = mapFactors((f) => parsed.data[f] ?? 0);
  const sum = SCORING_FACTORS.reduce((s, f) => s + raw[f], 0);
  if (!(sum > 0)) return { ok: false, message: 'At least one weight must be above zero.' };
  if (!Number.isFinite(sum)) return { ok: false, message: 'Weights must be finite numbers.' };
  return { ok: true, weights: mapFactors((f) => raw[f] / sum) };
}

/** The weights of a mode; `custom` requires valid custom weights (which other modes ignore). Throws otherwise. */
export function weightsFor(mode: NegotiationMode, customWeights?: CustomWeights): ScoringWeights {
  if (mode !== 'custom') return SCORING_WEIGHTS[mode];
  if (customWeights === undefined) throw new Error('custom mode needs custom weights');
  const result = validateCustomWeights(customWeights);
  if (!result.ok) throw new RangeError(result.message);
  return result.weights;
}

/** "Price 40%, Quality 15%, Lead time 15%, Terms 20%, Reliability 10%". */
export function describeWeights(weights: ScoringWeights): string {
  return SCORING_FACTORS.map((f) => `${FACTOR_LABELS[f]} ${formatPercent(weights[f], 0)}`).join(', ');
}

/** Scores every offer in a mode, best first. Deterministic: the same offers give the same scores and order. */
export function scoreOffers(
  inputs: readonly ScoredInput[],
  mode: NegotiationMode,
  customWeights?: CustomWeights,
  options: ScoreOptions = {},
): SupplierScore[] {
  const weights = options.weights ?? weightsFor(mode, customWeights);
  if (inputs.length === 0) return [];
  const codes = inputs.map((i) => i.offer.supplierCode);
  const duplicate = codes.find((code, index) => codes.indexOf(code) !== index);
  if (duplicate !== undefined) throw new Error(`two offers from ${duplicate}: score one offer per supplier`);

  const annualRate = options.annualRate ?? COST_OF_CAPITAL_ANNUAL;
  const fastest = Math.min(...inputs.map((i) => i.offer.leadTimeDays));
  const accepted = options.acceptedLeadTimeDays ?? null;
  const context: Context = { count: inputs.length, fastest, annualRate, accepted };

  const scored = inputs.map(({ offer, profile }) => {
    const parts: Record<ScoringFactor, Part> = {
      price: priceScore(offer, inputs, context),
      quality: qualityScore(profile),
      leadTime: leadTimeScore(offer, inputs, context),
      terms: termsScore(offer, context),
      reliability: reliabilityScore(profile),
    };
    const factors = mapFactors((f) => parts[f].score);
    const weighted = mapFactors((f) => round(weights[f] * factors[f], 2));
    const total = round(
      SCORING_FACTORS.reduce((sum, f) => sum + weights[f] * factors[f], 0),
      1,
    );
    const explanations = mapFactors((f) => parts[f].explanation);
    const cashFlowCost = round(offer.total * cashFlowCostRate(offer.paymentTerms, offer.leadTimeDays, annualRate), 2);
    return { supplierCode: offer.supplierCode, total, factors, weighted, weights, explanations, cashFlowCost };
  });

  // Totals are rounded to 0.1, so comparing them in tenths is exact.
  scored.sort((a, b) => Math.round(b.total * 10) - Math.round(a.total * 10) || compareCodes(a, b));
  return scored.map((s, index) => ({ ...s, rank: index + 1 }));
}

interface Context {
  count: number;
  fastest: number;
  annualRate: number;
  accepted: number | null;
}

interface Part {
  score: number;
  explanation: string;
}

function priceScore(offer: Offer, inputs: readonly ScoredInput[], context: Context): Part {
  const money = (amount: number) => formatMoney(amount, offer.currency);
  const { lowest, comparable, atLowest, offeredLines, partial } = priceBasis(offer, inputs);
  const amount = partial ? `${money(offer.total)} for the ${lineCount(offeredLines)} it offers` : money(offer.total);
  // Against the offers for the same lines: "for those lines" when it leaves some out, "for the whole order" when others do.
  const those = partial ? ' for those lines' : comparable < context.count ? ' for the whole order' : '';
  if (context.count === 1) return { score: MAX_SCORE, explanation: `Price: ${amount} is the only offer → 100` };
  if (comparable === 1) return { score: MAX_SCORE, explanation: `Price: ${amount} is the only offer${those} → 100` };
  const above = offer.total / lowest - 1;
  // Offer totals are recomputed from lines and rounded to the cent: under half a cent apart they are the same price.
  if (Math.abs(offer.total - lowest) < HALF_CENT) {
    const verb = atLowest > 1 ? 'ties for' : 'is';
    return {
      score: MAX_SCORE,
      explanation: `Price: ${amount} ${verb} the lowest of ${comparable} offers${those} → 100`,
    };
  }
  const score = clampScore(MAX_SCORE * (1 - above / PRICE_ZERO_ABOVE_LOWEST));
  const pointsPerPercent = MAX_SCORE / (PRICE_ZERO_ABOVE_LOWEST * 100);
  return {
    score,
    explanation:
      `Price: ${amount} is ${formatPercent(above)} above the lowest${those} (${money(lowest)}) ` +
      `→ ${show(score)} (−${show(pointsPerPercent)} points per 1% above; ` +
      `0 at +${formatPercent(PRICE_ZERO_ABOVE_LOWEST, 0)})`,
  };
}

interface PriceBasis {
  /** The lowest price any offer asks for this offer's lines (its own included). */
  lowest: number;
  /** The offers that quote all of this offer's lines, itself included. */
  comparable: number;
  /** Of those, the ones within half a cent of the lowest. */
  atLowest: number;
  offeredLines: number;
  /** It offers fewer lines than the offers together cover. */
  partial: boolean;
}

/**
 * What an offer's price is measured against: the other offers' prices for the same lines. Offers for the same lines
 * compare on their totals; an offer that leaves lines out compares on the lines it offers, and cannot set the price
 * of lines it does not offer.
 */
function priceBasis(offer: Offer, inputs: readonly ScoredInput[]): PriceBasis {
  const skus = new Set(offer.lines.map((line) => line.sku));
  const everySku = new Set(inputs.flatMap((input) => input.offer.lines.map((line) => line.sku)));
  const prices = inputs.flatMap(({ offer: other }) => {
    const price = priceFor(other, skus);
    return price === null ? [] : [price];
  });
  const lowest = Math.min(...prices);
  return {
    lowest,
    comparable: prices.length,
    atLowest: prices.filter((price) => Math.abs(price - lowest) < HALF_CENT).length,
    offeredLines: skus.size,
    partial: skus.size < everySku.size,
  };
}

/** What an offer asks for these SKUs: its total when they are its lines, null when it does not offer them all. */
function priceFor(offer: Offer, skus: ReadonlySet<string>): number | null {
  const mine = firstBySku(offer.lines);
  if ([...skus].some((sku) => !mine.has(sku))) return null;
  if (mine.size === skus.size) return offer.total;
  let cents = 0;
  for (const sku of skus) {
    const line = mine.get(sku);
    if (line) cents += Math.round(line.quantity * line.unitPrice * 100);
  }
  return fromCents(cents);
}

/** "1 line", "12 lines". */
function lineCount(count: number): string {
  return count === 1 ? '1 line' : `${count} lines`;
}

function qualityScore(profile: SupplierRecord): Part {
  const score = clampScore((MAX_SCORE * profile.qualityRating) / QUALITY_RATING_MAX);
  return { score, explanation: `Quality: rated ${profile.qualityRating} of ${QUALITY_RATING_MAX} → ${show(score)}` };
}

/** Where the lead-time line reaches 0: LEAD_TIME_ZERO_DAYS, or twice the fastest offer when that is longer. */
export function leadTimeZeroDays(fastestDays: number): number {
  return Math.max(LEAD_TIME_ZERO_DAYS, 2 * fastestDays);
}

function leadTimeScore(offer: Offer, inputs: readonly ScoredInput[], context: Context): Part {
  const days = offer.leadTimeDays;
  const { accepted } = context;
  if (accepted !== null) {
    if (days <= accepted) {
      return {
        score: MAX_SCORE,
        explanation: `Lead time: ${days} days, within the ${accepted} days the buyer accepted → 100`,
      };
    }
    // Slower than the buyer accepted: the scale starts at what they accepted (or the fastest offer, if slower still).
    const from = Math.max(accepted, context.fastest);
    const zeroAt = leadTimeZeroDays(from);
    const score = clampScore((MAX_SCORE * (zeroAt - days)) / (zeroAt - from));
    return {
      score,
      explanation: `Lead time: ${days} days; ${from} days (the buyer accepted ${accepted}) → 100, ${zeroAt} days → 0 → ${show(score)}`,
    };
  }
  if (days === context.fastest) {
    const tied = inputs.filter((i) => i.offer.leadTimeDays === days).length > 1;
    const standing = context.count === 1 ? 'is the only offer' : `${tied ? 'ties for' : 'is'} the fastest`;
    const of = context.count === 1 ? '' : ` of ${context.count} offers`;
    return { score: MAX_SCORE, explanation: `Lead time: ${days} days ${standing}${of} → 100` };
  }
  const zeroAt = leadTimeZeroDays(context.fastest);
  const score = clampScore((MAX_SCORE * (zeroAt - days)) / (zeroAt - context.fastest));
  return {
    score,
    explanation:
      `Lead time: ${days} days; the fastest offer's ${context.fastest} days → 100, ` +
      `${zeroAt} days → 0 → ${show(score)}`,
  };
}

function termsScore(offer: Offer, context: Context): Part {
  // How long money waits for the goods is the lead time. Within the lead time the buyer accepted it is no penalty on
  // terms either, or "45 days is fine" would still cost the 45-day supplier points for waiting: offers within it are
  // scored on their terms over the accepted lead time, so equal terms score equally. (The cash-flow cost in money,
  // counted in the landed cost, stays the offer's own.)
  const { accepted } = context;
  const within = accepted !== null && offer.leadTimeDays <= accepted;
  const days = within ? accepted : offer.leadTimeDays;
  const rate = cashFlowCostRate(offer.paymentTerms, days, context.annualRate);
  const zeroRate = (context.annualRate * LEAD_TIME_ZERO_DAYS) / DAYS_PER_YEAR;
  // With a zero cost of capital every term costs nothing: all score 100, which is what the buyer said money costs.
  const score = zeroRate > 0 ? clampScore(MAX_SCORE * (1 - rate / zeroRate)) : MAX_SCORE;
  const cost = formatMoney(offer.total * rate, offer.currency);
  const terms = describePaymentTerms(offer.paymentTerms, { leadTimeDays: days });
  return {
    score,
    explanation:
      `Terms: ${terms}${within ? ` (over the ${days} days the buyer accepted)` : ''} ties up capital costing ${cost} at ` +
      `${formatPercent(context.annualRate)}/yr (${formatPercent(rate, 2)} of the order) → ${show(score)} ` +
      `(0% → 100; ${formatPercent(zeroRate, 2)}, all paid ${LEAD_TIME_ZERO_DAYS} days ahead → 0)`,
  };
}

function reliabilityScore(profile: SupplierRecord): Part {
  const score = clampScore(MAX_SCORE * profile.onTimeDeliveryRate * (1 - profile.defectRate));
  return {
    score,
    explanation:
      `Reliability: ${formatPercent(profile.onTimeDeliveryRate)} on time × ` +
      `${formatPercent(1 - profile.defectRate)} defect-free → ${show(score)}`,
  };
}

/** A value for each scoring factor, in the factors' order. */
export function mapFactors<T>(value: (factor: ScoringFactor) => T): Record<ScoringFactor, T> {
  return {
    price: value('price'),
    quality: value('quality'),
    leadTime: value('leadTime'),
    terms: value('terms'),
    reliability: value('reliability'),
  };
}

function clampScore(score: number): number {
  return round(Math.min(MAX_SCORE, Math.max(0, score)), 1);
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** "53.3", or "100" for a whole number. */
function show(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function compareCodes(a: { supplierCode: string }, b: { supplierCode: string }): number {
  return a.supplierCode < b.supplierCode ? -1 : a.supplierCode > b.supplierCode ? 1 : 0;
}
