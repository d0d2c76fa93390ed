// SKU-level allocation of an order to suppliers (seed 002 §6.7; DESIGN.md "Split orders").
//
// Money. A line given to supplier s costs quantity × s's unit price at that quantity, in integer cents (its FOB). A
// supplier's cash-flow cost is its FOB × the cash-flow rate of its own terms and lead time (commerce/cash-flow.ts),
// so its effective landed cost is FOB × (1 + rate). An order with more than one supplier carries SPLIT_ORDER_OVERHEAD
// on its whole FOB value; the plan's effective landed cost is Σ FOB + Σ cash-flow cost + that overhead.
//
// Objective per mode (SCORED_AWARD in business-rules.ts says why).
// - `cost`: the lowest effective landed cost.
// - every other mode: the best score in that mode, with the award scored the way scoring.ts scores an offer. Its
//   price sub-score is 100 − 2 points per 1% its FOB plus any split overhead lies above the price reference (the
//   lowest offer total); its quality, lead-time, terms and reliability sub-scores are its suppliers', averaged over
//   its lines by each line's lowest offered value. A one-supplier award therefore scores what its supplier scores.
//   Maximising that score is minimising, in money, FOB + overhead + P × the points the award loses below 100 on the
//   factors other than price (the weighted shortfall), where P, what a point is worth, is
//   priceZeroAboveLowest / (100 × price weight) of the price reference: 3.3% in quality mode. That is how the searches
//   below see it, since it makes each line's cost independent of the others'. (Custom weights that give price less
//   than SCORED_AWARD.minPriceWeight are traded at that weight, so there the objective, not the score, decides.)
// - the premium limit: a scored award may cost at most SCORED_AWARD.maxPremium[mode] more (effective landed cost) than
//   the cheapest feasible award (the `cost` mode one). When the best-scoring award costs more, the award is the
//   best-scoring one among those that fit (the cheapest always does). The plan reports the cheapest award, the
//   premium and the best-scoring award over the limit, so a finance person can check both sides.
//
// Constraints. A line goes wholly to one supplier that quotes its SKU and whose MOQ (minimum units per SKU line) it
// meets. A supplier's capacityShare caps its FOB at that share of the order's FOB as allocated (after the curveball,
// SUP-002 ≤ 60%). A split is recommended only when it beats the best single supplier on the objective, with the
// overhead counted (as money in `cost` mode, as a lower price sub-score otherwise); when no single supplier can take
// the whole order, the split is forced and the reason says why.
//
// Algorithm. Singles are evaluated exactly. The best split is the cheapest assignment using at least two suppliers;
// finding it is NP-hard in general (two suppliers capped at 50% with equal prices is PARTITION), so:
// - up to EXACT_LINE_LIMIT lines, a depth-first branch and bound over all assignments finds it exactly (its bound —
//   cost so far + each remaining line at its cheapest + the overhead on the least FOB still possible — never exceeds
//   the true cost, so it prunes nothing better);
// - above that, Lagrangian relaxation of the capacity constraints: for multipliers λ ≥ 0 each line independently
//   takes its cheapest supplier under prices shifted by λ, and the sum is a lower bound on every feasible split. With
//   one capped supplier (the curveball) the relaxed assignment's excess over the cap only falls as λ rises, so
//   bisection finds the best λ; with several, a subgradient ascent. Each relaxed assignment is repaired into a feasible
//   one (moving the lines that free the most capacity per cent of extra cost) and improved by single-line moves and
//   pairwise swaps. The best bound is the LP relaxation's, and a basic LP optimum splits at most one line per capped
//   supplier, so on orders of many lines the integer optimum sits just above it. The plan reports the certified lower
//   bound and the gap, so "near-optimal" is a number: on 3,000-line test orders $15 on $18M with the 60% cap binding,
//   $4 with two caps binding, in about half a second.
// - the premium limit is one more constraint: the exact search prunes any branch whose least possible landed cost is
//   over it; the bounded search relaxes it too (each line costs objective + μ × landed cost, μ found by doubling and
//   bisection until the best assignment fits, then single-line moves spend what is left of the budget), and its
//   bound is the best of those relaxations'. On a 3,000-line order with a 1% limit binding: within 0.01% of optimal.
import {
  COST_OF_CAPITAL_ANNUAL,
  type NegotiationMode,
  SCORED_AWARD,
  SCORING_FACTORS,
  type ScoringFactor,
  type ScoringWeights,
  SPLIT_ORDER_OVERHEAD,
} from '../config/business-rules.js';
import type { Offer, OfferLine } from '../negotiation/types.js';
import { tierPriceAt } from '../quotation/size-matrix.js';
import { cashFlowCostRate } from '../commerce/cash-flow.js';
import { CENT_EPSILON, formatMoney, formatPercent, fromCents } from '../commerce/money.js';
import { FACTOR_LABELS, mapFactors, PRICE_ZERO_ABOVE_LOWEST } from './scoring.js';

/** Up to this many lines the best split is found by exhaustive branch and bound. */
export const EXACT_LINE_LIMIT = 12;
/** On large orders, how far the premium limit's multiplier is doubled, then halved, to find an award that fits. */
const BUDGET_DOUBLINGS = 20;
const BUDGET_BISECTIONS = 8;

const MAX_SCORE = 100;
const DUAL_ITERATIONS = 300;
/** Bisection on one multiplier: first bracket (doubled until it clears the cap), then this many halvings at most. */
const DUAL_BRACKET_START = 1e-3;
const DUAL_BISECTIONS = 64;
/** Subgradient step scale: halved when the bound stops improving for DUAL_PATIENCE iterations. */
const DUAL_STEP_START = 2;
const DUAL_PATIENCE = 15;
/** Once the step has been halved this far, the bound has stopped moving: stop. */
const DUAL_STEP_END = DUAL_STEP_START / 2 ** 8;
/** Before any feasible split is known, the step aims this far above the current bound. */
const DUAL_TARGET_MARGIN = 0.05;
const LOCAL_SEARCH_PASSES = 50;
const SKUS_NAMED_IN_REASONS = 3;
/** Factor differences smaller than this (in weighted points) are not named in a reason. */
const NAMED_POINTS = 0.05;

/** One line of the order: what the buyer wants, as in the baseline quotation. */
export interface OrderLine {
  sku: string;
  quantity: number;
}

export type FactorScores = Readonly<Record<ScoringFactor, number>>;

/** A supplier that can be given lines: its offer's prices and terms, its capacity and, in scored modes, its scores. */
export interface SupplierOption {
  supplierCode: string;
  /** Its quoted lines; an SKU it does not quote cannot go to it. The first line of an SKU counts. */
  lines: readonly OfferLine[];
  paymentTerms: string | readonly number[];
  leadTimeDays: number;
  /** Largest share of the order's FOB value it can take, 0–1. */
  capacityShare: number;
  /** Minimum units per SKU line; a smaller line cannot go to it. */
  moq?: number | null;
  /**
   * Landed costs beyond cash flow, as shares of its FOB (decision/landed-cost.ts): the charges its quote adds (paid to
   * it, so they count against the walk-away), and the freight and duty its Incoterm leaves to the buyer.
   */
  extras?: { charges: number; freight: number; duty: number };
  /**
   * Its sub-scores (0–100) from scoring.ts; required in every mode except `cost`. The price sub-score is not used: the
   * award's own price is scored instead.
   */
  factors?: FactorScores;
}

export interface AllocateOrderOptions {
  lines: readonly OrderLine[];
  suppliers: readonly SupplierOption[];
  /** Default `cost`: minimise effective landed cost. */
  mode?: NegotiationMode;
  /** The mode's scoring weights (scoring.ts weightsFor); required in every mode except `cost`. */
  weights?: ScoringWeights;
  /**
   * The price the award's price sub-score is measured from, in currency units: the lowest offer total, as in
   * scoring.ts. Default: the order at each line's lowest offered price.
   */
  priceReference?: number;
  /** The premium limit over the cheapest award (a fraction); default SCORED_AWARD.maxPremium[mode]. */
  maxPremium?: number;
  annualRate?: number;
  splitOverhead?: number;
  /** For explanations. */
  currency?: string;
  /** Lines up to which the search is exhaustive; tests lower it to check the bounded search against brute force. */
  exactLineLimit?: number;
  /** One supplier for the whole order (the buyer's single-source choice after the curveball): no split is searched. */
  singleSource?: boolean;
  /** The buyer wants the order split: only allocations to two suppliers or more are awarded. */
  requireSplit?: boolean;
  /** Per SKU, the most the buyer pays a unit (the mandate's line walk-aways): a line priced above cannot go there. */
  unitPriceLimits?: Readonly<Record<string, number>>;
  limits?: AllocationLimits;
}

/** Totals no award may exceed, in currency units (each compared to the cent, as the plan shows them). */
export interface AllocationLimits {
  /** The walk-away: the most the award may cost in what is paid to the suppliers (FOB + their charges). */
  maxPrice?: number;
  /**
   * The quote's effective landed cost plus any premium the buyer consented to: an award above it is not made, and the
   * mode's best award, when it is above, is reported as `premiumOption` for the buyer to accept or not.
   */
  maxLandedCost?: number;
}

export interface AllocatedLine {
  sku: string;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
}

export interface SupplierAllocation {
  supplierCode: string;
  lines: AllocatedLine[];
  fob: number;
  cashFlowCost: number;
  /** Its quote's charges on these lines (its share of them, by value). */
  charges: number;
  /** The freight and duty its Incoterm leaves to the buyer (assumptions: INCOTERM_COSTS). */
  freight: number;
  duty: number;
  /** fob + cashFlowCost + charges + freight + duty: this supplier's part, before any split overhead. */
  effectiveLandedCost: number;
  /** Its share of the order's FOB value, 0–1. */
  share: number;
}

export type Optimality =
  | { method: 'exact' }
  /** Lower bound on the objective of any feasible allocation, and how far above it this one is. */
  | { method: 'bounded'; lowerBound: number; gap: number };

/** An award's score in a scored mode, factor by factor, so the total can be redone by hand. */
export interface AwardScore {
  /** 0–100 (the price sub-score can leave that range: it keeps falling above +50% and rises below the reference). */
  score: number;
  /** Sub-scores, rounded to 0.1: price from the award's FOB + overhead; the others averaged over its lines. */
  factors: Record<ScoringFactor, number>;
  /** weight × sub-score: they add up to `score`. */
  points: Record<ScoringFactor, number>;
}

export interface AwardSummary extends AwardScore {
  supplierCodes: string[];
  effectiveLandedCost: number;
}

/** How a scored mode chose: the award's score, what a point was worth, and the premium over the cheapest award. */
export interface ScoredAward {
  weights: ScoringWeights;
  award: AwardScore;
  /** The lowest offer total the price sub-score is measured from. */
  priceReference: number;
  /**
   * What a score point is worth, as a share of the price reference: priceZeroAboveLowest / (100 × price weight), with
   * the weight at least SCORED_AWARD.minPriceWeight.
   */
  pointValueShare: number;
  /** pointValueShare × priceReference, in currency units. */
  pointValue: number;
  /** The most the award may cost above the cheapest award, as a share of the cheapest's effective landed cost. */
  maxPremiumShare: number;
  /** The cheapest feasible award: what cost mode would award. */
  cheapest: AwardSummary;
  /** Effective landed cost above the cheapest award's (0 when the award is the cheapest). */
  premium: number;
  premiumShare: number;
  /** The best-scoring award regardless of cost, when it costs more than the limit allows; null otherwise. */
  overLimit: (AwardSummary & { premiumShare: number }) | null;
}

/** An award's suppliers and its money, as the plan and each alternative to it state them. */
export interface AwardCosts {
  /** Suppliers that get lines, by supplier code. */
  allocations: SupplierAllocation[];
  fob: number;
  cashFlowCost: number;
  charges: number;
  freight: number;
  duty: number;
  /** SPLIT_ORDER_OVERHEAD × fob for a split order, else 0. */
  splitOverhead: number;
  /** fob + cashFlowCost + charges + freight + duty + splitOverhead. */
  effectiveLandedCost: number;
  isSplit: boolean;
}

/** An award other than the plan's: the money, its score in scored modes, and its suppliers. */
export interface AwardAlternative extends AwardCosts {
  supplierCodes: string[];
  /** In scored modes. */
  score: AwardScore | null;
}

export interface AllocationPlan extends AwardCosts {
  mode: NegotiationMode;
  /** No single supplier could take the whole order. */
  forcedSplit: boolean;
  reason: string;
  /** The best single supplier and the best split under the objective; `score` in scored modes only. */
  bestSingle: { supplierCode: string; effectiveLandedCost: number; score?: number } | null;
  bestSplit: { supplierCodes: string[]; effectiveLandedCost: number; score?: number } | null;
  /** Why each supplier that cannot take the whole order alone cannot. */
  excluded: { supplierCode: string; reason: string }[];
  /**
   * What was minimised, in currency units: effective landed cost in `cost` mode; otherwise FOB + split overhead +
   * the point value × the award's weighted shortfall below 100 on the factors other than price.
   */
  objective: number;
  optimality: Optimality;
  /** How a scored mode chose; null in `cost` mode. */
  scored: ScoredAward | null;
  /**
   * The mode's best award when it costs more than `limits.maxLandedCost` (the quote's landed cost and any consented
   * premium): not made without the buyer's consent. Null when the plan is the mode's best.
   */
  premiumOption: AwardAlternative | null;
}

export type AllocationError =
  | { code: 'UNCOVERED_LINES'; skus: string[] }
  | { code: 'INSUFFICIENT_CAPACITY'; totalCapacityShare: number }
  | { code: 'NO_FEASIBLE_ALLOCATION'; proven: boolean }
  /**
   * Awards exist but none within a limit: the walk-away (`closest` is the cheapest award, above it), or the quote's
   * landed cost (`premiumOption` is the mode's best award, which the buyer may accept; `closest` the cheapest).
   */
  | {
      code: 'OVER_LIMIT';
      limit: 'walk_away' | 'quote';
      closest: AwardAlternative;
      premiumOption: AwardAlternative | null;
    };

export type AllocationOutcome =
  { ok: true; plan: AllocationPlan } | { ok: false; error: AllocationError; message: string };

/** A sentence for the buyer, one per error. */
export function describeAllocationError(error: AllocationError): string {
  switch (error.code) {
    case 'UNCOVERED_LINES':
      return (
        `No supplier can take ${namedSkus(error.skus)}: ` +
        `none quotes ${error.skus.length === 1 ? 'it' : 'them'} at that quantity.`
      );
    case 'INSUFFICIENT_CAPACITY':
      return (
        `The suppliers can fill only ${formatPercent(error.totalCapacityShare, 0)} of the order between them, ` +
        'so it cannot be placed in full.'
      );
    case 'NO_FEASIBLE_ALLOCATION':
      return error.proven
        ? 'No way of giving each line to one supplier respects every supplier’s capacity limit.'
        : 'Parley found no way of giving each line to one supplier that respects every supplier’s capacity limit.';
    case 'OVER_LIMIT':
      return error.limit === 'walk_away'
        ? 'Every possible award costs more than the walk-away.'
        : 'Every possible award costs more than the quote’s landed cost, which needs the buyer’s consent.';
  }
}

/** The allocation input for a supplier's offer. */
export function supplierOptionFromOffer(
  offer: Offer,
  extra: { moq?: number | null; factors?: FactorScores; extras?: SupplierOption['extras'] } = {},
): SupplierOption {
  return {
    supplierCode: offer.supplierCode,
    lines: offer.lines,
    paymentTerms: offer.paymentTerms,
    leadTimeDays: offer.leadTimeDays,
    capacityShare: offer.capacityShare,
    ...extra,
  };
}

/**
 * The unit price of a quoted line at a quantity. At the quoted quantity it is the line's (negotiated) unit price. At
 * another quantity the price break that applies there is used, keeping the negotiated discount off the breaks: the
 * break price × unit price ÷ the break price at the quoted quantity.
 */
export function unitPriceFor(line: OfferLine, quantity: number): number {
  if (quantity === line.quantity) return line.unitPrice;
  const quoted = tierPriceAt(line.tiers, line.quantity);
  const wanted = tierPriceAt(line.tiers, quantity);
  if (quoted === null || wanted === null) return line.unitPrice;
  // Rounded to a hundredth of a cent, so that quantity × the unit price shown gives the line total to the cent.
  return Math.round(((line.unitPrice * wanted.unitPrice) / quoted.unitPrice) * 10_000) / 10_000;
}

/** What a score point is worth in `weights`' mode, as a share of the price reference (see SCORED_AWARD). */
export function modePointValueShare(weights: ScoringWeights): number {
  return PRICE_ZERO_ABOVE_LOWEST / (MAX_SCORE * Math.max(weights.price, SCORED_AWARD.minPriceWeight));
}

// --- The model the searches work on ------------------------------------------------------------------------------

interface Model {
  lineCount: number;
  supplierCount: number;
  /** [line][supplier] FOB in cents, NaN where the supplier cannot take the line. */
  value: number[][];
  unitPrice: number[][];
  /** [line][supplier] what the line costs in the objective without the split overhead. */
  cost: number[][];
  /** [line][supplier] what it costs in a split: cost + overhead × value. */
  splitCost: number[][];
  /** [line] the suppliers that can take it, cheapest (in split cost) first. */
  allowed: number[][];
  cap: number[];
  cashRate: number[];
  /** Per supplier, shares of its FOB: charges (paid to it), freight and duty (paid to others). */
  chargeRate: number[];
  freightRate: number[];
  dutyRate: number[];
  overhead: number;
}

interface Evaluation {
  fob: number[];
  total: number;
  used: number;
  feasible: boolean;
  /** Objective in cents: Σ cost, plus the overhead on the total when more than one supplier is used. */
  objective: number;
}

/** The order's values and constraints, costed at effective landed cost (the `cost` mode objective). */
function buildModel(options: AllocateOrderOptions, suppliers: readonly SupplierOption[]): Model {
  const annualRate = options.annualRate ?? COST_OF_CAPITAL_ANNUAL;
  const overhead = options.splitOverhead ?? SPLIT_ORDER_OVERHEAD;
  const cashRate = suppliers.map((s) => cashFlowCostRate(s.paymentTerms, s.leadTimeDays, annualRate));
  const quoted = suppliers.map((s) => firstLineBySku(s.lines));
  const unitLimit = options.unitPriceLimits ?? {};

  const unitPrice: number[][] = [];
  const value: number[][] = [];
  for (const line of options.lines) {
    const prices = suppliers.map((s, i) => {
      const offered = quoted[i]?.get(line.sku);
      if (offered === undefined || line.quantity < (s.moq ?? 0) || s.capacityShare <= 0) return NaN;
      const price = unitPriceFor(offered, line.quantity);
      const limit = unitLimit[line.sku];
      return limit !== undefined && price > limit + CENT_EPSILON ? NaN : price;
    });
    unitPrice.push(prices);
    value.push(prices.map((p) => (Number.isNaN(p) ? NaN : Math.round(line.quantity * p * 100))));
  }
  const base = {
    lineCount: options.lines.length,
    supplierCount: suppliers.length,
    value,
    unitPrice,
    cap: suppliers.map((s) => Math.min(1, Math.max(0, s.capacityShare))),
    cashRate,
    chargeRate: suppliers.map((s) => s.extras?.charges ?? 0),
    freightRate: suppliers.map((s) => s.extras?.freight ?? 0),
    dutyRate: suppliers.map((s) => s.extras?.duty ?? 0),
    overhead,
  };
  return costed(base, (_line, s, v) => v * (1 + landedRate(base, s)));
}

/** Everything a supplier's FOB carries into its effective landed cost, as one share of it. */
function landedRate(model: Pick<Model, 'cashRate' | 'chargeRate' | 'freightRate' | 'dutyRate'>, s: number): number {
  return at(model.cashRate, s) + at(model.chargeRate, s) + at(model.freightRate, s) + at(model.dutyRate, s);
}

/** The model with each (line, supplier) costed by `cost` (given the line's FOB in cents), and `allowed` re-sorted. */
function costed(
  base: Omit<Model, 'cost' | 'splitCost' | 'allowed'>,
  cost: (line: number, supplier: number, value: number) => number,
): Model {
  const costs = base.value.map((values, l) => values.map((v, s) => (Number.isNaN(v) ? NaN : cost(l, s, v))));
  const splitCost = costs.map((c, l) => c.map((x, s) => x + base.overhead * at(row(base.value, l), s)));
  const allowed = splitCost.map((c) =>
    c
      .map((_, s) => s)
      .filter((s) => !Number.isNaN(at(c, s)))
      .sort((a, b) => at(c, a) - at(c, b) || a - b),
  );
  return { ...base, cost: costs, splitCost, allowed };
}

function firstLineBySku(lines: readonly OfferLine[]): Map<string, OfferLine> {
  const bySku = new Map<string, OfferLine>();
  for (const line of lines) if (!bySku.has(line.sku)) bySku.set(line.sku, line);
  return bySku;
}

/** Array access for indices the model guarantees; a hole would be a bug, so it fails loudly instead of reading 0. */
function at(values: readonly number[], index: number): number {
  const value = values[index];
  if (value === undefined) throw new Error(`allocation model has no entry ${index}`);
  return value;
}

function row(matrix: readonly number[][], index: number): number[] {
  const values = matrix[index];
  if (values === undefined) throw new Error(`allocation model has no row ${index}`);
  return values;
}

function evaluate(model: Model, assign: readonly number[]): Evaluation {
  const fob = new Array<number>(model.supplierCount).fill(0);
  const users = new Set<number>();
  let cost = 0;
  assign.forEach((s, l) => {
    fob[s] = at(fob, s) + at(row(model.value, l), s);
    cost += at(row(model.cost, l), s);
    users.add(s);
  });
  const total = fob.reduce((a, b) => a + b, 0);
  const used = users.size;
  return {
    fob,
    total,
    used,
    feasible: withinCapacity(model, fob, total),
    objective: cost + (used > 1 ? model.overhead * total : 0),
  };
}

function withinCapacity(model: Model, fob: readonly number[], total: number): boolean {
  return fob.every((v, s) => v <= at(model.cap, s) * total + CENT_EPSILON);
}

// --- Exact search for small orders -------------------------------------------------------------------------------

interface SplitSearch {
  assign: number[] | null;
  /** Lower bound (cents) on the objective of every feasible split, when the search is not exhaustive. */
  lowerBound: number | null;
}

/**
 * A cap on a linear total (cents): `perLine[line][supplier]` is what a line adds to it there, and a split adds
 * `overhead` × its FOB on top (the split overhead, for a cap on landed cost; 0 for a cap on price).
 */
interface Budget {
  perLine: number[][];
  overhead: number;
  limit: number;
}

function budgetSpent(model: Model, budget: Budget, assign: readonly number[]): number {
  const { total, used } = evaluate(model, assign);
  return (
    assign.reduce((sum, s, l) => sum + at(row(budget.perLine, l), s), 0) + (used > 1 ? budget.overhead * total : 0)
  );
}

/** Depth-first branch and bound over every assignment that uses at least two suppliers (and fits the budgets). */
function exactSplit(model: Model, budgets: readonly Budget[] = []): SplitSearch {
  const n = model.lineCount;
  const order = Array.from({ length: n }, (_, l) => l).sort((a, b) => maxValue(model, b) - maxValue(model, a) || a - b);
  const suffix = (pick: (l: number) => number): number[] => {
    const sums = new Array<number>(n + 1).fill(0);
    for (let i = n - 1; i >= 0; i--) sums[i] = at(sums, i + 1) + pick(at(order, i));
    return sums;
  };
  const restCost = suffix((l) => Math.min(...row(model.allowed, l).map((s) => at(row(model.cost, l), s))));
  const restMinValue = suffix((l) => Math.min(...row(model.allowed, l).map((s) => at(row(model.value, l), s))));
  const restMaxValue = suffix((l) => maxValue(model, l));
  const restSpent = budgets.map((budget) =>
    suffix((l) => Math.min(...row(model.allowed, l).map((s) => at(row(budget.perLine, l), s)))),
  );
  const spent = new Array<number>(budgets.length).fill(0);

  const assign = new Array<number>(n).fill(-1);
  const fob = new Array<number>(model.supplierCount).fill(0);
  const linesAt = new Array<number>(model.supplierCount).fill(0);
  let best: number[] | null = null;
  let bestObjective = Infinity;

  const visit = (depth: number, cost: number, total: number): void => {
    const used = linesAt.filter((c) => c > 0).length;
    if (depth === n) {
      if (used < 2 || !withinCapacity(model, fob, total)) return;
      if (budgets.some((b, k) => at(spent, k) + b.overhead * total > b.limit + CENT_EPSILON)) return;
      const objective = cost + model.overhead * total;
      if (objective < bestObjective - CENT_EPSILON) {
        bestObjective = objective;
        best = [...assign];
      }
      return;
    }
    const bound = cost + at(restCost, depth) + model.overhead * (total + at(restMinValue, depth));
    if (bound >= bestObjective - CENT_EPSILON) return;
    // A supplier already over its share of the largest order still possible can only get further over.
    const largest = total + at(restMaxValue, depth);
    if (fob.some((v, s) => v > at(model.cap, s) * largest + CENT_EPSILON)) return;
    const overBudget = budgets.some((b, k) => {
      const least = at(spent, k) + at(row(restSpent, k), depth) + b.overhead * (total + at(restMinValue, depth));
      return least > b.limit + CENT_EPSILON;
    });
    if (overBudget) return;

    const line = at(order, depth);
    for (const s of row(model.allowed, line)) {
      const value = at(row(model.value, line), s);
      assign[line] = s;
      fob[s] = at(fob, s) + value;
      linesAt[s] = at(linesAt, s) + 1;
      budgets.forEach((b, k) => (spent[k] = at(spent, k) + at(row(b.perLine, line), s)));
      visit(depth + 1, cost + at(row(model.cost, line), s), total + value);
      budgets.forEach((b, k) => (spent[k] = at(spent, k) - at(row(b.perLine, line), s)));
      fob[s] = at(fob, s) - value;
      linesAt[s] = at(linesAt, s) - 1;
    }
    assign[line] = -1;
  };
  visit(0, 0, 0);
  return { assign: best, lowerBound: null };
}

function maxValue(model: Model, line: number): number {
  return Math.max(...row(model.allowed, line).map((s) => at(row(model.value, line), s)));
}

// --- Bounded search for large orders -----------------------------------------------------------------------------

/**
 * Lagrangian relaxation of the capacity constraints fob_s − cap_s × total ≤ 0, in split costs (overhead included).
 * Returns the best feasible assignment found (which may use one supplier: the caller then treats it as a single)
 * and the best lower bound.
 */
function boundedSplit(model: Model): SplitSearch {
  const capped = model.cap.map((c, s) => (c < 1 ? s : -1)).filter((s) => s >= 0);
  const state: DualState = { best: null, lowerBound: -Infinity };
  if (capped.length <= 1) bisectDual(model, capped[0], state);
  else ascendDual(model, capped, state);
  return {
    assign: state.best === null ? null : improveWithSwaps(model, state.best.assign),
    lowerBound: state.lowerBound,
  };
}

interface DualState {
  best: { assign: number[]; objective: number } | null;
  lowerBound: number;
}

interface Probe {
  assign: number[];
  /** fob_s − cap_s × total of the relaxed assignment, per supplier: > 0 is over capacity. */
  excess: number[];
  feasible: boolean;
}

/**
 * Each line to its cheapest supplier under split costs shifted by the multipliers; the sum is a lower bound on every
 * feasible assignment (λ ≥ 0 times a constraint ≤ 0 can only lower its cost). Records the bound, and offers the
 * assignment — repaired if it breaks a cap — as a candidate.
 */
function probe(model: Model, lambda: readonly number[], state: DualState): Probe {
  const shift = lambda.reduce((sum, l, s) => sum + l * at(model.cap, s), 0);
  const assign: number[] = [];
  let bound = 0;
  for (let line = 0; line < model.lineCount; line++) {
    let chosen = -1;
    let chosenCost = Infinity;
    for (const s of row(model.allowed, line)) {
      const shifted = at(row(model.splitCost, line), s) + at(row(model.value, line), s) * (at(lambda, s) - shift);
      if (shifted < chosenCost - CENT_EPSILON) {
        chosen = s;
        chosenCost = shifted;
      }
    }
    assign.push(chosen);
    bound += chosenCost;
  }
  state.lowerBound = Math.max(state.lowerBound, bound);
  const { fob, total, feasible } = evaluate(model, assign);
  const excess = fob.map((v, s) => v - at(model.cap, s) * total);
  const candidate = feasible ? assign : repair(model, assign);
  if (candidate !== null) {
    const improved = improveLocally(model, candidate);
    const objective = splitObjective(model, improved);
    if (state.best === null || objective < state.best.objective - CENT_EPSILON) {
      state.best = { assign: improved, objective };
    }
  }
  return { assign, excess, feasible };
}

/**
 * One capped supplier (the curveball case): the relaxed assignment's excess only falls as its multiplier rises, so
 * bisection finds the multiplier where it crosses zero, which is where the bound is highest.
 */
function bisectDual(model: Model, capped: number | undefined, state: DualState): void {
  const first = probe(model, zeros(model), state);
  if (capped === undefined || first.feasible) return;
  const lambdaOf = (value: number) => zeros(model).map((_, s) => (s === capped ? value : 0));
  const over = (p: Probe) => at(p.excess, capped) > CENT_EPSILON;
  let low = 0;
  let high = DUAL_BRACKET_START;
  for (let i = 0; i < DUAL_BISECTIONS && over(probe(model, lambdaOf(high), state)); i++) {
    low = high;
    high *= 2;
  }
  for (let i = 0; i < DUAL_BISECTIONS && high - low > Number.EPSILON * high; i++) {
    const middle = (low + high) / 2;
    if (over(probe(model, lambdaOf(middle), state))) low = middle;
    else high = middle;
  }
}

/** Several capped suppliers: projected subgradient ascent with Polyak steps, halved when the bound stalls. */
function ascendDual(model: Model, capped: readonly number[], state: DualState): void {
  const lambda = zeros(model);
  let step = DUAL_STEP_START;
  let stalled = 0;
  for (let iteration = 0; iteration < DUAL_ITERATIONS; iteration++) {
    const before = state.lowerBound;
    const { excess } = probe(model, lambda, state);
    if (state.best !== null && state.best.objective - state.lowerBound <= CENT_EPSILON) return;
    if (state.lowerBound > before + CENT_EPSILON) stalled = 0;
    else if (++stalled >= DUAL_PATIENCE) {
      step /= 2;
      stalled = 0;
      if (step < DUAL_STEP_END) return;
    }
    const norm = capped.reduce((sum, s) => sum + at(excess, s) ** 2, 0);
    if (norm === 0) return;
    const bound = state.lowerBound;
    const target = state.best?.objective ?? bound + DUAL_TARGET_MARGIN * Math.abs(bound);
    const size = (step * (target - bound)) / norm;
    for (const s of capped) lambda[s] = Math.max(0, at(lambda, s) + size * at(excess, s));
  }
}

function zeros(model: Model): number[] {
  return new Array<number>(model.supplierCount).fill(0);
}

function splitObjective(model: Model, assign: readonly number[]): number {
  return assign.reduce((sum, s, l) => sum + at(row(model.splitCost, l), s), 0);
}

interface Tally {
  fob: number[];
  total: number;
}

function tally(model: Model, assign: readonly number[]): Tally {
  const fob = new Array<number>(model.supplierCount).fill(0);
  assign.forEach((s, l) => {
    fob[s] = at(fob, s) + at(row(model.value, l), s);
  });
  return { fob, total: fob.reduce((a, b) => a + b, 0) };
}

/**
 * Moves lines (line, from, to) if every supplier stays within capacity — or, for repair, if no supplier other than
 * the one being relieved goes further over than it was. Updates `t` when it moves them.
 */
function tryMoves(model: Model, t: Tally, moves: readonly [number, number, number][], relieving?: number): boolean {
  const fob = [...t.fob];
  let total = t.total;
  for (const [line, from, to] of moves) {
    const out = at(row(model.value, line), from);
    const into = at(row(model.value, line), to);
    fob[from] = at(fob, from) - out;
    fob[to] = at(fob, to) + into;
    total += into - out;
  }
  const allowed = (s: number) =>
    s === relieving ? Infinity : Math.max(CENT_EPSILON, at(t.fob, s) - at(model.cap, s) * t.total);
  if (fob.some((v, s) => v - at(model.cap, s) * total > allowed(s))) return false;
  t.fob = fob;
  t.total = total;
  return true;
}

/**
 * Moves lines off over-capacity suppliers until none is over, cheapest first per unit of capacity freed. Moving line
 * l from s to t lowers s's excess (fob_s − cap_s × total) by v_ls × (1 − cap_s) + cap_s × v_lt whatever else is
 * where, so the order is fixed up front. Returns null when it cannot.
 */
function repair(model: Model, start: readonly number[]): number[] | null {
  const assign = [...start];
  const t = tally(model, assign);
  for (let round = 0; round < model.supplierCount * 2; round++) {
    const excess = t.fob.map((v, s) => v - at(model.cap, s) * t.total);
    const worst = excess.reduce((w, e, s) => (e > at(excess, w) ? s : w), 0);
    if (at(excess, worst) <= CENT_EPSILON) return assign;
    const cap = at(model.cap, worst);
    const moves: { line: number; to: number; ratio: number }[] = [];
    assign.forEach((s, line) => {
      if (s !== worst) return;
      for (const to of row(model.allowed, line)) {
        if (to === worst) continue;
        const freed = at(row(model.value, line), s) * (1 - cap) + cap * at(row(model.value, line), to);
        if (!(freed > 0)) continue;
        const extra = at(row(model.splitCost, line), to) - at(row(model.splitCost, line), s);
        moves.push({ line, to, ratio: extra / freed });
      }
    });
    moves.sort((a, b) => a.ratio - b.ratio || a.line - b.line || a.to - b.to);
    for (const move of moves) {
      if (at(t.fob, worst) - cap * t.total <= CENT_EPSILON) break;
      if (assign[move.line] !== worst) continue;
      if (tryMoves(model, t, [[move.line, worst, move.to]], worst)) assign[move.line] = move.to;
    }
  }
  return withinCapacity(model, t.fob, t.total) ? assign : null;
}

/** Single-line moves that lower the split cost and keep capacity, until none is left. */
function improveLocally(model: Model, start: readonly number[]): number[] {
  const assign = [...start];
  const t = tally(model, assign);
  for (let pass = 0; pass < LOCAL_SEARCH_PASSES; pass++) {
    let moved = false;
    for (let line = 0; line < model.lineCount; line++) {
      const from = at(assign, line);
      for (const to of row(model.allowed, line)) {
        // `allowed` is cheapest first: once at `from`, or as dear as it, nothing later is cheaper.
        if (to === from || at(row(model.splitCost, line), to) >= at(row(model.splitCost, line), from) - CENT_EPSILON) {
          break;
        }
        if (tryMoves(model, t, [[line, from, to]])) {
          assign[line] = to;
          moved = true;
          break;
        }
      }
    }
    if (!moved) break;
  }
  return assign;
}

/** Pairwise swaps (l1: s→t, l2: t→s) that lower the split cost and keep capacity, then single moves again. */
function improveWithSwaps(model: Model, start: readonly number[]): number[] {
  let assign = improveLocally(model, start);
  const t = tally(model, assign);
  for (let pass = 0; pass < LOCAL_SEARCH_PASSES; pass++) {
    let swapped = false;
    for (let s = 0; s < model.supplierCount; s++) {
      for (let u = 0; u < model.supplierCount; u++) {
        if (s === u) continue;
        const gains = (from: number, to: number) =>
          assign
            .map((on, line) => ({ line, on }))
            .filter(({ line, on }) => on === from && row(model.allowed, line).includes(to))
            .map(({ line }) => ({
              line,
              delta: at(row(model.splitCost, line), to) - at(row(model.splitCost, line), from),
            }))
            .sort((a, b) => a.delta - b.delta || a.line - b.line);
        const outs = gains(s, u);
        const backs = gains(u, s);
        for (const out of outs) {
          if (out.delta >= 0) break;
          for (const back of backs) {
            if (out.delta + back.delta >= -CENT_EPSILON) break;
            if (assign[out.line] !== s || assign[back.line] !== u) continue;
            const moves: [number, number, number][] = [
              [out.line, s, u],
              [back.line, u, s],
            ];
            if (tryMoves(model, t, moves)) {
              assign[out.line] = u;
              assign[back.line] = s;
              swapped = true;
              break;
            }
          }
        }
      }
    }
    if (!swapped) break;
    assign = improveLocally(model, assign);
    const fresh = tally(model, assign);
    t.fob = fresh.fob;
    t.total = fresh.total;
  }
  return assign;
}

// --- Putting it together -----------------------------------------------------------------------------------------

type ScoredMode = Exclude<NegotiationMode, 'cost'>;

/** The best single supplier, the best split, and which of the two wins, under one model's objective. */
interface Solution {
  assign: number[];
  evaluation: Evaluation;
  isSplit: boolean;
  single: { supplier: number; evaluation: Evaluation } | null;
  split: { assign: number[]; evaluation: Evaluation } | null;
  /** Lower bound (cents) on the objective of every feasible assignment, when the split search was not exhaustive. */
  lowerBound: number | null;
}

/** The best of the single suppliers `alone` (whole order each) and of `split`, under `model`'s objective. */
function choose(
  model: Model,
  alone: readonly number[],
  split: number[] | null,
  lowerBound: number | null,
  requireSplit = false,
): Solution | null {
  // Equal objectives go to the lower effective landed cost (they can tie in a scored mode), then the lower code.
  const singles = alone
    .map((s) => ({ supplier: s, evaluation: evaluate(model, fillWith(model, s)) }))
    .sort(
      (a, b) =>
        a.evaluation.objective - b.evaluation.objective ||
        a.evaluation.total * (1 + at(model.cashRate, a.supplier)) -
          b.evaluation.total * (1 + at(model.cashRate, b.supplier)) ||
        a.supplier - b.supplier,
    );
  const single = singles[0] ?? null;
  const splitEvaluation = split === null ? null : evaluate(model, split);
  const best =
    split !== null && splitEvaluation !== null && splitEvaluation.used > 1
      ? { assign: split, evaluation: splitEvaluation }
      : null;
  if (
    best !== null &&
    (single === null || requireSplit || best.evaluation.objective < single.evaluation.objective - CENT_EPSILON)
  ) {
    return { assign: best.assign, evaluation: best.evaluation, isSplit: true, single, split: best, lowerBound };
  }
  if (single === null || requireSplit) return null;
  const assign = fillWith(model, single.supplier);
  return { assign, evaluation: single.evaluation, isSplit: false, single, split: best, lowerBound };
}

/** How the split is searched: exhaustively, bounded (many lines), or not at all (single source only). */
type SplitMethod = 'exhaustive' | 'bounded' | 'none';

function solve(model: Model, alone: readonly number[], search: SplitMethod, requireSplit = false): Solution | null {
  if (search === 'none') return choose(model, alone, null, null, requireSplit);
  const found = search === 'exhaustive' ? exactSplit(model) : boundedSplit(model);
  const split = requireSplit
    ? atLeastTwo(model, found.assign, (assign) => evaluate(model, assign).feasible)
    : found.assign;
  return choose(model, alone, split, found.lowerBound, requireSplit);
}

/**
 * The split to weigh when the buyer asked for one: `found` when it uses two suppliers or more; when the bounded
 * search's best uses one (a split's overhead makes any split dearer), the cheapest assignments that use two, as a
 * split costs them (Σ split cost): each line on its cheapest supplier if that already uses two, else `found` (or
 * that) with one line moved, the cheapest move first — exact when no capacity limit binds. The first that `fits`.
 */
function atLeastTwo(
  model: Model,
  found: number[] | null,
  fits: (assign: readonly number[]) => boolean,
): number[] | null {
  if (found !== null && evaluate(model, found).used > 1) return found;
  const greedy = Array.from({ length: model.lineCount }, (_, l) => at(row(model.allowed, l), 0));
  const candidates: number[][] = new Set(greedy).size > 1 ? [greedy] : [];
  const base = found ?? greedy;
  const moves: { line: number; to: number; delta: number }[] = [];
  base.forEach((from, line) => {
    for (const to of row(model.allowed, line)) {
      if (to === from) continue;
      moves.push({ line, to, delta: at(row(model.splitCost, line), to) - at(row(model.splitCost, line), from) });
    }
  });
  moves.sort((a, b) => a.delta - b.delta || a.line - b.line || a.to - b.to);
  for (const move of moves) candidates.push(base.map((s, l) => (l === move.line ? move.to : s)));
  return (
    candidates.find((assign) => evaluate(model, assign).used > 1 && evaluate(model, assign).feasible && fits(assign)) ??
    null
  );
}

/**
 * The best assignment under `model`'s objective among those within every budget and accepted by `accept` (the
 * checks to the cent, as the plan shows the money). Exhaustive: branch and bound with the budgets. Bounded: the
 * budgets are relaxed together with a multiplier μ — each line costs objective + μ × what it adds to them — and μ is
 * raised (doubling, then bisection) until the best assignment found fits; since every budget holds, so does their sum,
 * and the bound at that μ, less μ × the summed limits, is a lower bound on every assignment that fits.
 */
function solveWithin(
  model: Model,
  budgets: readonly Budget[],
  alone: readonly number[],
  search: SplitMethod,
  accept: (assign: readonly number[]) => boolean = () => true,
  requireSplit = false,
): Solution | null {
  const fits = (assign: readonly number[]) =>
    budgets.every((b) => budgetSpent(model, b, assign) <= b.limit + CENT_EPSILON) && accept(assign);
  const within = alone.filter((s) => fits(fillWith(model, s)));
  const decided = (split: number[] | null, bound: number | null) =>
    choose(
      model,
      within,
      requireSplit ? atLeastTwo(model, split, fits) : split !== null && fits(split) ? split : null,
      bound,
      requireSplit,
    );
  if (search === 'none') return decided(null, null);
  if (search === 'exhaustive') return decided(exactSplit(model, budgets).assign, null);

  // Every multiplier gives a valid bound, and every assignment that fits is a candidate: keep the best of each.
  const limit = budgets.reduce((sum, b) => sum + b.limit, 0);
  let bound = -Infinity;
  const kept: { best: { assign: number[]; objective: number } | null } = { best: null };
  const relaxed = (mu: number): boolean => {
    const overhead = model.overhead + mu * budgets.reduce((sum, b) => sum + b.overhead, 0);
    const priced = costed({ ...model, overhead }, (l, s) => {
      return at(row(model.cost, l), s) + mu * budgets.reduce((sum, b) => sum + at(row(b.perLine, l), s), 0);
    });
    const search = boundedSplit(priced);
    const singles = alone.map((s) => evaluate(priced, fillWith(model, s)).objective);
    bound = Math.max(bound, Math.min(...singles, search.lowerBound ?? -Infinity) - mu * limit);
    if (search.assign === null || !fits(search.assign)) return false;
    const objective = evaluate(model, search.assign).objective;
    if (kept.best === null || objective < kept.best.objective - CENT_EPSILON) {
      kept.best = { assign: search.assign, objective };
    }
    return true;
  };
  let high = 1;
  for (let i = 0; i < BUDGET_DOUBLINGS && !relaxed(high); i++) high *= 2;
  // The last doubling that did not fit, if any, is where the bisection starts.
  let low = high > 1 ? high / 2 : 0;
  for (let i = 0; i < BUDGET_BISECTIONS; i++) {
    const middle = (low + high) / 2;
    if (relaxed(middle)) high = middle;
    else low = middle;
  }
  const found = kept.best === null ? null : spendSlack(model, budgets, kept.best.assign, fits);
  return decided(found, Number.isFinite(bound) ? bound : null);
}

/**
 * Single-line moves that lower the objective and keep capacity and the budgets, best gain per cent of budget first,
 * until none is left: the multiplier's bisection stops a little short of the budgets, and this spends what is left.
 */
function spendSlack(
  model: Model,
  budgets: readonly Budget[],
  start: readonly number[],
  fits: (assign: readonly number[]) => boolean,
): number[] {
  const assign = [...start];
  const t = tally(model, assign);
  // What a line adds to each budget in a split (the split overhead included).
  const splitSpend = (k: number, l: number, s: number) => {
    const budget = budgets[k];
    return budget === undefined ? 0 : at(row(budget.perLine, l), s) + budget.overhead * at(row(model.value, l), s);
  };
  const spent = budgets.map((_, k) => assign.reduce((sum, s, l) => sum + splitSpend(k, l, s), 0));
  for (let pass = 0; pass < LOCAL_SEARCH_PASSES; pass++) {
    const moves: { line: number; from: number; to: number; gain: number; extra: number[] }[] = [];
    assign.forEach((from, line) => {
      for (const to of row(model.allowed, line)) {
        const gain = at(row(model.splitCost, line), from) - at(row(model.splitCost, line), to);
        if (to === from || gain <= CENT_EPSILON) continue;
        const extra = budgets.map((_, k) => splitSpend(k, line, to) - splitSpend(k, line, from));
        moves.push({ line, from, to, gain, extra });
      }
    });
    // Moves that also save money first (biggest gain first), then the most gain per cent spent.
    const rank = (m: { gain: number; extra: number[] }) => {
      const cost = m.extra.reduce((a, b) => a + b, 0);
      return cost <= 0 ? Infinity : m.gain / cost;
    };
    moves.sort((a, b) => rank(b) - rank(a) || b.gain - a.gain || a.line - b.line || a.to - b.to);
    let moved = false;
    for (const { line, from, to, extra } of moves) {
      if (assign[line] !== from) continue;
      if (budgets.some((b, k) => at(spent, k) + at(extra, k) > b.limit + CENT_EPSILON)) continue;
      if (!tryMoves(model, t, [[line, from, to]])) continue;
      assign[line] = to;
      extra.forEach((e, k) => (spent[k] = at(spent, k) + e));
      moved = true;
    }
    if (!moved) break;
  }
  // The moves were costed as a split's; if they made a single supplier's award, or a rounding put it over, keep the start.
  return fits(assign) ? assign : [...start];
}

/** The same solution, with every objective re-read in another model (same order, other costs). */
function reEvaluate(model: Model, solution: Solution): Solution {
  return {
    ...solution,
    evaluation: evaluate(model, solution.assign),
    single:
      solution.single === null
        ? null
        : { ...solution.single, evaluation: evaluate(model, fillWith(model, solution.single.supplier)) },
    split: solution.split === null ? null : { ...solution.split, evaluation: evaluate(model, solution.split.assign) },
    lowerBound: null,
  };
}

/** What a scored mode needs beyond the order: its weights, each supplier's shortfall, each line's weight. */
interface Scoring {
  mode: ScoredMode;
  weights: ScoringWeights;
  factors: FactorScores[];
  /** Per supplier: Σ over the factors other than price of weight × (100 − sub-score). */
  shortfall: number[];
  /** Per line: its lowest offered value over the order's at those prices (they sum to 1). */
  lineShare: number[];
  /** Cents. */
  reference: number;
  /** What a point is worth, as a share of the reference. */
  pointShare: number;
  maxPremium: number;
}

function scoringOf(
  options: AllocateOrderOptions,
  model: Model,
  suppliers: readonly SupplierOption[],
  mode: ScoredMode,
): Scoring {
  const weights = options.weights;
  if (weights === undefined) throw new Error(`${mode} mode needs the scoring weights`);
  const factors = suppliers.map((s) => {
    if (s.factors === undefined) throw new Error(`${mode} mode needs the scores of ${s.supplierCode}`);
    return s.factors;
  });
  const shortfall = factors.map((f) =>
    SCORING_FACTORS.filter((k) => k !== 'price').reduce((sum, k) => sum + weights[k] * (MAX_SCORE - f[k]), 0),
  );
  // Every line is covered by now (uncovered orders fail first), so each has a lowest offered value.
  const lowest = model.value.map((values) => Math.min(...values.filter((v) => !Number.isNaN(v))));
  const sum = lowest.reduce((a, b) => a + b, 0);
  const lineShare = lowest.map((v) => (sum > 0 ? v / sum : 1 / model.lineCount));
  const reference = options.priceReference === undefined ? sum : Math.round(options.priceReference * 100);
  return {
    mode,
    weights,
    factors,
    shortfall,
    lineShare,
    // A zero reference (a free order) would divide by zero; a cent scores it the same way in practice.
    reference: Math.max(1, reference),
    pointShare: modePointValueShare(weights),
    maxPremium: options.maxPremium ?? SCORED_AWARD.maxPremium[mode],
  };
}

/** The order costed for a scored mode: FOB + the point value × shortfall (the overhead adds to FOB in a split). */
function scoredModel(model: Model, scoring: Scoring): Model {
  const perPoint = scoring.pointShare * scoring.reference;
  return costed(model, (l, s, v) => v + perPoint * at(scoring.lineShare, l) * at(scoring.shortfall, s));
}

/** The award's score, factor by factor, rounded the way scoring.ts rounds an offer's (sub-scores to 0.1). */
function awardScore(model: Model, scoring: Scoring, assign: readonly number[]): AwardScore {
  const { total, used } = evaluate(model, assign);
  const priced = total + (used > 1 ? model.overhead * total : 0);
  const pointsPerShare = MAX_SCORE / PRICE_ZERO_ABOVE_LOWEST;
  const factor = (f: ScoringFactor): number =>
    f === 'price'
      ? MAX_SCORE - pointsPerShare * (priced / scoring.reference - 1)
      : assign.reduce((sum, s, l) => sum + at(scoring.lineShare, l) * (scoring.factors[s]?.[f] ?? 0), 0);
  const factors = mapFactors((f) => round(factor(f), 1));
  const points = mapFactors((f) => round(scoring.weights[f] * factors[f], 2));
  const score = round(
    SCORING_FACTORS.reduce((sum, f) => sum + scoring.weights[f] * factors[f], 0),
    1,
  );
  return { score, factors, points };
}

/** Allocates every line of the order to one supplier, as described at the top of this file. */
export function allocateOrder(options: AllocateOrderOptions): AllocationOutcome {
  const mode = options.mode ?? 'cost';
  const currency = options.currency ?? 'USD';
  validate(options, mode);
  const suppliers = [...options.suppliers].sort((a, b) => compareText(a.supplierCode, b.supplierCode));
  const model = buildModel(options, suppliers);
  const fail = (error: AllocationError): AllocationOutcome => ({
    ok: false,
    error,
    message: describeAllocationError(error),
  });

  const uncovered = options.lines.filter((_, l) => row(model.allowed, l).length === 0).map((line) => line.sku);
  if (uncovered.length > 0) return fail({ code: 'UNCOVERED_LINES', skus: uncovered });
  const usable = suppliers.filter((_, s) => model.allowed.some((allowed) => allowed.includes(s)));
  const totalCapacityShare = usable.reduce((sum, s) => sum + Math.min(1, Math.max(0, s.capacityShare)), 0);
  if (totalCapacityShare < 1 - CENT_EPSILON) return fail({ code: 'INSUFFICIENT_CAPACITY', totalCapacityShare });

  const excluded = suppliers.flatMap((supplier, s) => {
    const reason = whyNotAlone(model, options.lines, supplier, s);
    return reason === null ? [] : [{ supplierCode: supplier.supplierCode, reason }];
  });
  const alone = suppliers
    .map((_, s) => s)
    .filter((s) => !excluded.some((e) => e.supplierCode === suppliers[s]?.supplierCode));
  const exhaustive = model.lineCount <= (options.exactLineLimit ?? EXACT_LINE_LIMIT);
  const search: SplitMethod = options.singleSource ? 'none' : exhaustive ? 'exhaustive' : 'bounded';
  const requireSplit = options.requireSplit === true;
  const money = (cents: number) => formatMoney(fromCents(cents), currency);
  const build = (assign: readonly number[]) => describePlan(model, options.lines, suppliers, assign);
  const context: ReasonContext = { mode, money, overhead: model.overhead, exhaustive, requireSplit };

  // The limits, twice: as budgets the searches can prune with (fractional cents), and as the checks that decide, on
  // the money as the plan shows it (whole cents), so that a plan never shows a total above a limit.
  const limits = options.limits ?? {};
  const toLimit = (amount: number | undefined) => (amount === undefined ? null : Math.round(amount * 100));
  const maxPrice = toLimit(limits.maxPrice);
  const maxLanded = toLimit(limits.maxLandedCost);
  const priceBudget: Budget[] =
    maxPrice === null
      ? []
      : [
          {
            perLine: model.value.map((values) => values.map((v, s) => v * (1 + at(model.chargeRate, s)))),
            overhead: 0,
            limit: maxPrice,
          },
        ];
  const quoteBudget: Budget[] =
    maxLanded === null ? [] : [{ perLine: model.cost, overhead: model.overhead, limit: maxLanded }];
  const withinPrice = (plan: PlanMoney) => maxPrice === null || plan.fob + plan.charges <= maxPrice;
  const withinQuote = (plan: PlanMoney) => maxLanded === null || plan.elc <= maxLanded;
  const acceptPrice = (assign: readonly number[]) => withinPrice(build(assign));
  const acceptAll = (assign: readonly number[]) => {
    const plan = build(assign);
    return withinPrice(plan) && withinQuote(plan);
  };

  const cheapestOverall = solve(model, alone, search, requireSplit);
  if (cheapestOverall === null) return fail({ code: 'NO_FEASIBLE_ALLOCATION', proven: exhaustive });
  const scoring = mode === 'cost' ? null : scoringOf(options, model, suppliers, mode);
  const scoreOf = (assign: readonly number[]) => (scoring === null ? null : awardScore(model, scoring, assign));
  const alternative = (solution: Solution) => alternativeOf(build(solution.assign), scoreOf(solution.assign));
  // The cheapest award within the walk-away: what cost mode awards, and what the scored modes' premium is measured from.
  const cheapest = acceptPrice(cheapestOverall.assign)
    ? cheapestOverall
    : solveWithin(model, priceBudget, alone, search, acceptPrice, requireSplit);
  if (cheapest === null) {
    return fail({ code: 'OVER_LIMIT', limit: 'walk_away', closest: alternative(cheapestOverall), premiumOption: null });
  }

  if (scoring === null) {
    // The cheapest award is the lowest landed cost within the walk-away: if it is above the quote, every award is.
    if (!withinQuote(build(cheapest.assign))) {
      const over = alternative(cheapest);
      return fail({ code: 'OVER_LIMIT', limit: 'quote', closest: over, premiumOption: over });
    }
    const candidates = candidatesOf(cheapest, build, () => undefined);
    const reason = explain(context, { ...candidates, excluded });
    const extra = { excluded, reason, exhaustive, scored: null, premiumOption: null };
    return { ok: true, plan: finishPlan(mode, cheapest, candidates, extra) };
  }

  const cheapestPlan = build(cheapest.assign);
  // The mode's premium limit is on the landed cost as the objective counts it (before rounding each part to the cent).
  const limit = cheapest.evaluation.objective * (1 + scoring.maxPremium);
  const modeCap: Budget = { perLine: model.cost, overhead: model.overhead, limit };
  const scoredOrder = scoredModel(model, scoring);
  const withinCap = (assign: readonly number[]) =>
    evaluate(model, assign).objective <= limit + CENT_EPSILON && acceptPrice(assign);
  const best = solve(scoredOrder, alone, search, requireSplit);
  const overLimit = best !== null && !withinCap(best.assign) ? best : null;
  // The cheapest award always fits, so there is always an award; it stands if the search finds nothing better.
  const modeBest =
    best !== null && overLimit === null
      ? best
      : (solveWithin(scoredOrder, [...priceBudget, modeCap], alone, search, acceptPrice, requireSplit) ??
        reEvaluate(scoredOrder, cheapest));

  // Above the quote's landed cost the mode's best award needs the buyer's consent: the award is the best one within
  // the quote, and the mode's best is offered as a premium the buyer may accept.
  let chosen = modeBest;
  let premiumOption: AwardAlternative | null = null;
  if (!withinQuote(build(modeBest.assign))) {
    premiumOption = alternative(modeBest);
    const budgets = [...priceBudget, modeCap, ...quoteBudget];
    const within =
      solveWithin(scoredOrder, budgets, alone, search, acceptAll, requireSplit) ??
      (acceptAll(cheapest.assign) ? reEvaluate(scoredOrder, cheapest) : null);
    if (within === null) {
      return fail({ code: 'OVER_LIMIT', limit: 'quote', closest: alternative(cheapest), premiumOption });
    }
    chosen = within;
  }

  const premiumOf = (plan: PlanMoney) => plan.elc - cheapestPlan.elc;
  const summary = (assign: readonly number[]): AwardSummary => {
    const plan = build(assign);
    return {
      supplierCodes: plan.allocations.map((a) => a.supplierCode),
      effectiveLandedCost: fromCents(plan.elc),
      ...awardScore(model, scoring, assign),
    };
  };
  const candidates = candidatesOf(chosen, build, (assign) => awardScore(model, scoring, assign).score);
  const premium = premiumOf(candidates.chosen.plan);
  const scored: ScoredAward = {
    weights: scoring.weights,
    award: awardScore(model, scoring, chosen.assign),
    priceReference: fromCents(scoring.reference),
    pointValueShare: scoring.pointShare,
    pointValue: fromCents(scoring.pointShare * scoring.reference),
    maxPremiumShare: scoring.maxPremium,
    cheapest: summary(cheapest.assign),
    premium: fromCents(premium),
    premiumShare: ratio(premium, cheapestPlan.elc),
    overLimit:
      overLimit === null
        ? null
        : {
            ...summary(overLimit.assign),
            premiumShare: ratio(premiumOf(build(overLimit.assign)), cheapestPlan.elc),
          },
  };
  const reason =
    explainScored(context, { ...candidates, excluded, scored, sameAsCheapest: premium === 0 }) +
    (premiumOption === null || maxLanded === null ? '' : explainPremium(context, premiumOption, maxLanded));
  return {
    ok: true,
    plan: finishPlan(mode, chosen, candidates, { excluded, reason, exhaustive, scored, premiumOption }),
  };
}

/** Why the mode's best award is not the award: it costs more than the quote's landed cost allows without consent. */
function explainPremium(context: ReasonContext, option: AwardAlternative, maxLanded: number): string {
  const { money, mode } = context;
  const elc = Math.round(option.effectiveLandedCost * 100);
  const score = option.score === null ? '' : `, score ${showScore(option.score.score)}`;
  return (
    ` The best award in ${mode} mode (${option.supplierCodes.join(' + ')}: ${money(elc)} effective landed cost${score}) ` +
    `costs ${money(elc - maxLanded)} more than the ${money(maxLanded)} the buyer allows without consent (the quote's ` +
    'landed cost), so the award is the best one within it; the buyer can accept that premium.'
  );
}

interface Candidates {
  chosen: Candidate;
  single: Candidate | null;
  split: Candidate | null;
}

function candidatesOf(
  solution: Solution,
  build: (assign: readonly number[]) => PlanMoney,
  scoreOf: (assign: readonly number[]) => number | undefined,
): Candidates {
  const candidate = (assign: readonly number[], evaluation: Evaluation): Candidate => ({
    plan: build(assign),
    objective: evaluation.objective,
    score: scoreOf(assign),
  });
  const { single, split } = solution;
  return {
    chosen: candidate(solution.assign, solution.evaluation),
    single:
      single === null
        ? null
        : candidate(new Array<number>(solution.assign.length).fill(single.supplier), single.evaluation),
    split: split === null ? null : candidate(split.assign, split.evaluation),
  };
}

function finishPlan(
  mode: NegotiationMode,
  solution: Solution,
  candidates: Candidates,
  extra: {
    excluded: { supplierCode: string; reason: string }[];
    reason: string;
    exhaustive: boolean;
    scored: ScoredAward | null;
    premiumOption: AwardAlternative | null;
  },
): AllocationPlan {
  const { single, split } = candidates;
  const objective = solution.evaluation.objective;
  const lowerBound = Math.min(solution.single?.evaluation.objective ?? Infinity, solution.lowerBound ?? Infinity);
  const optimality: Optimality = extra.exhaustive
    ? { method: 'exact' }
    : { method: 'bounded', lowerBound: fromCents(lowerBound), gap: fromCents(Math.max(0, objective - lowerBound)) };
  const withScore = <T extends object>(value: T, score: number | undefined) =>
    score === undefined ? value : { ...value, score };
  return {
    mode,
    ...moneyOf(candidates.chosen.plan),
    isSplit: solution.isSplit,
    forcedSplit: solution.isSplit && solution.single === null,
    reason: extra.reason,
    bestSingle:
      single === null
        ? null
        : withScore(
            {
              supplierCode: at0(single.plan.allocations).supplierCode,
              effectiveLandedCost: fromCents(single.plan.elc),
            },
            single.score,
          ),
    bestSplit:
      split === null
        ? null
        : withScore(
            {
              supplierCodes: split.plan.allocations.map((a) => a.supplierCode),
              effectiveLandedCost: fromCents(split.plan.elc),
            },
            split.score,
          ),
    excluded: extra.excluded,
    objective: fromCents(objective),
    optimality,
    scored: extra.scored,
    premiumOption: extra.premiumOption,
  };
}

function validate(options: AllocateOrderOptions, mode: NegotiationMode): void {
  if (options.lines.length === 0) throw new RangeError('an order needs at least one line');
  for (const line of options.lines) {
    if (!Number.isInteger(line.quantity) || line.quantity <= 0) {
      throw new RangeError(`line ${line.sku}: quantity must be a positive whole number, not ${line.quantity}`);
    }
  }
  const codes = options.suppliers.map((s) => s.supplierCode);
  const duplicate = codes.find((code, index) => codes.indexOf(code) !== index);
  if (duplicate !== undefined) throw new Error(`supplier ${duplicate} appears twice`);
  for (const s of options.suppliers) {
    if (!(s.capacityShare >= 0 && s.capacityShare <= 1)) {
      throw new RangeError(`${s.supplierCode}: capacity share must be within 0–1, not ${s.capacityShare}`);
    }
    const outside = SCORING_FACTORS.find(
      (f) => s.factors !== undefined && !(s.factors[f] >= 0 && s.factors[f] <= MAX_SCORE),
    );
    if (outside !== undefined) {
      throw new RangeError(`${s.supplierCode}: the ${outside} score must be within 0–100, not ${s.factors?.[outside]}`);
    }
  }
  if (mode !== 'cost' && options.maxPremium !== undefined && !(options.maxPremium >= 0)) {
    throw new RangeError(`the premium limit must be 0 or more, not ${options.maxPremium}`);
  }
}

function fillWith(model: Model, supplier: number): number[] {
  return new Array<number>(model.lineCount).fill(supplier);
}

function whyNotAlone(model: Model, lines: readonly OrderLine[], supplier: SupplierOption, s: number): string | null {
  const code = supplier.supplierCode;
  if (supplier.capacityShare <= 0) return `${code} has no capacity left`;
  const quoted = firstLineBySku(supplier.lines);
  const missing = lines.filter((line) => !quoted.has(line.sku)).map((line) => line.sku);
  const belowMoq = lines
    .filter((line, l) => quoted.has(line.sku) && Number.isNaN(at(row(model.value, l), s)))
    .map((line) => line.sku);
  const reasons: string[] = [];
  if (supplier.capacityShare < 1) {
    reasons.push(`${code} can fill only ${formatPercent(supplier.capacityShare, 0)} of the order value`);
  }
  if (missing.length > 0) reasons.push(`${code} does not quote ${namedSkus(missing)}`);
  if (belowMoq.length > 0) reasons.push(`${code}'s MOQ of ${supplier.moq ?? 0} units excludes ${namedSkus(belowMoq)}`);
  return reasons.length === 0 ? null : reasons.join('; ');
}

function namedSkus(skus: readonly string[]): string {
  const named = skus.slice(0, SKUS_NAMED_IN_REASONS).join(', ');
  const more = skus.length > SKUS_NAMED_IN_REASONS ? ` and ${skus.length - SKUS_NAMED_IN_REASONS} more` : '';
  return `${skus.length === 1 ? '1 line' : `${skus.length} lines`} (${named}${more})`;
}

interface PlanMoney {
  allocations: SupplierAllocation[];
  /** Cents. */
  fob: number;
  cash: number;
  charges: number;
  freight: number;
  duty: number;
  overhead: number;
  elc: number;
}

function describePlan(
  model: Model,
  lines: readonly OrderLine[],
  suppliers: readonly SupplierOption[],
  assign: readonly number[],
): PlanMoney {
  const { fob, total, used } = evaluate(model, assign);
  const allocations: SupplierAllocation[] = [];
  const sums = { cash: 0, charges: 0, freight: 0, duty: 0 };
  suppliers.forEach((supplier, s) => {
    const mine = lines.flatMap((line, l) => (assign[l] === s ? [{ line, l }] : []));
    if (mine.length === 0) return;
    const supplierFob = at(fob, s);
    const supplierCash = Math.round(supplierFob * at(model.cashRate, s));
    const charges = Math.round(supplierFob * at(model.chargeRate, s));
    const freight = Math.round(supplierFob * at(model.freightRate, s));
    const duty = Math.round(supplierFob * at(model.dutyRate, s));
    sums.cash += supplierCash;
    sums.charges += charges;
    sums.freight += freight;
    sums.duty += duty;
    allocations.push({
      supplierCode: supplier.supplierCode,
      lines: mine.map(({ line, l }) => ({
        sku: line.sku,
        quantity: line.quantity,
        unitPrice: at(row(model.unitPrice, l), s),
        lineTotal: fromCents(at(row(model.value, l), s)),
      })),
      fob: fromCents(supplierFob),
      cashFlowCost: fromCents(supplierCash),
      charges: fromCents(charges),
      freight: fromCents(freight),
      duty: fromCents(duty),
      effectiveLandedCost: fromCents(supplierFob + supplierCash + charges + freight + duty),
      share: Math.round((supplierFob / total) * 10_000) / 10_000,
    });
  });
  const overhead = used > 1 ? Math.round(total * model.overhead) : 0;
  const elc = total + sums.cash + sums.charges + sums.freight + sums.duty + overhead;
  return { allocations, fob: total, ...sums, overhead, elc };
}

function moneyOf(plan: PlanMoney) {
  return {
    allocations: plan.allocations,
    fob: fromCents(plan.fob),
    cashFlowCost: fromCents(plan.cash),
    charges: fromCents(plan.charges),
    freight: fromCents(plan.freight),
    duty: fromCents(plan.duty),
    splitOverhead: fromCents(plan.overhead),
    effectiveLandedCost: fromCents(plan.elc),
  };
}

function alternativeOf(plan: PlanMoney, score: AwardScore | null): AwardAlternative {
  return {
    supplierCodes: plan.allocations.map((a) => a.supplierCode),
    ...moneyOf(plan),
    isSplit: plan.allocations.length > 1,
    score,
  };
}

function at0<T>(items: readonly T[]): T {
  const first = items[0];
  if (first === undefined) throw new Error('a plan always has an allocation');
  return first;
}

interface ReasonContext {
  mode: NegotiationMode;
  money: (cents: number) => string;
  overhead: number;
  exhaustive: boolean;
  /** The buyer asked for a split. */
  requireSplit: boolean;
}

interface Candidate {
  plan: PlanMoney;
  objective: number;
  /** The award's score, in scored modes. */
  score: number | undefined;
}

const names = (c: Candidate) => c.plan.allocations.map((a) => a.supplierCode).join(' + ');

function overheadOf(context: ReasonContext, c: Candidate): string {
  return (
    `incl. ${context.money(c.plan.overhead)} split overhead ` +
    `(${formatPercent(context.overhead, 0)} of ${context.money(c.plan.fob)} FOB)`
  );
}

/** When the split search returns no split: exhaustively, none exists; otherwise none it found beats one supplier. */
function noSplit(context: ReasonContext): string {
  return context.exhaustive ? ' No split respects the capacity limits.' : ' No split found beats it.';
}

function explain(context: ReasonContext, options: Candidates & { excluded: { reason: string }[] }): string {
  const { money } = context;
  const cost = (c: Candidate) => `${money(c.plan.elc)} effective landed cost`;
  const { chosen, single, split } = options;

  if (chosen.plan.allocations.length === 1) {
    const against =
      split === null
        ? noSplit(context)
        : ` The best split (${names(split)}: ${cost(split)}, ${overheadOf(context, split)}) does not beat it, so one ` +
          'supplier.';
    return `${names(chosen)} alone: ${cost(chosen)}.${against}`;
  }
  const body = `Split ${names(chosen)}: ${cost(chosen)}, ${overheadOf(context, chosen)}`;
  if (context.requireSplit) return `${body}: the cheapest split, as the buyer asked for the order to be split.`;
  if (single === null) {
    const why = options.excluded.map((e) => e.reason).join('; ');
    return `No single supplier can take the whole order (${why}), so the order must be split. ${body}.`;
  }
  const saving = single.objective - chosen.objective;
  return (
    `${body}: ${money(saving)} less than the best single supplier ` +
    `(${names(single)}: ${cost(single)}), even after the overhead.`
  );
}

/**
 * A scored mode's reason: the award and its score, what it costs over the cheapest award and what that buys, factor
 * by factor, and the rule (what a point is worth, the premium limit) so a finance person can redo it.
 */
function explainScored(
  context: ReasonContext,
  options: Candidates & { excluded: { reason: string }[]; scored: ScoredAward; sameAsCheapest: boolean },
): string {
  const { money, mode } = context;
  const { chosen, single, split, scored } = options;
  const cents = (amount: number) => money(Math.round(amount * 100));
  const scoreText = (c: Candidate) => `score ${showScore(c.score ?? 0)}`;
  const cost = (c: Candidate) => `${money(c.plan.elc)} effective landed cost`;

  let head: string;
  if (chosen.plan.allocations.length === 1) {
    const against =
      split === null
        ? noSplit(context)
        : ` The best split (${names(split)}: ${scoreText(split)}, ${overheadOf(context, split)}) does not beat it.`;
    head = `${names(chosen)} alone: ${scoreText(chosen)} in ${mode} mode, ${cost(chosen)}.${against}`;
  } else if (context.requireSplit) {
    head =
      `Split ${names(chosen)}, as the buyer asked for the order to be split: ${scoreText(chosen)} in ${mode} mode, ` +
      `${cost(chosen)}, ${overheadOf(context, chosen)}.`;
  } else if (single === null) {
    const why = options.excluded.map((e) => e.reason).join('; ');
    head =
      `No single supplier can take the whole order (${why}), so the order must be split. Split ${names(chosen)}: ` +
      `${scoreText(chosen)} in ${mode} mode, ${cost(chosen)}, ${overheadOf(context, chosen)}.`;
  } else {
    head =
      `Split ${names(chosen)}: ${scoreText(chosen)} in ${mode} mode, ${cost(chosen)}, ${overheadOf(context, chosen)}; ` +
      `it beats the best single supplier (${names(single)}: ${scoreText(single)}) even after the overhead.`;
  }

  const cheap = scored.cheapest;
  const award = scored.award;
  let premium: string;
  if (options.sameAsCheapest) {
    premium = ' It is also the cheapest feasible award.';
  } else {
    const gains = SCORING_FACTORS.map((f) => ({ f, d: round(award.points[f] - cheap.points[f], 1) }))
      .filter(({ d }) => Math.abs(d) >= NAMED_POINTS)
      .sort((a, b) => b.d - a.d)
      .map(({ f, d }) => `${FACTOR_LABELS[f].toLowerCase()} ${d > 0 ? '+' : '−'}${Math.abs(d).toFixed(1)}`);
    const more = scored.premium >= 0 ? 'more' : 'less';
    premium =
      ` It costs ${cents(Math.abs(scored.premium))} (${formatPercent(Math.abs(scored.premiumShare))}) ${more} than the ` +
      `cheapest feasible award (${cheap.supplierCodes.join(' + ')}: ${cents(cheap.effectiveLandedCost)}, score ` +
      `${showScore(cheap.score)}) for a score of ${showScore(award.score)} against ${showScore(cheap.score)}` +
      (gains.length > 0 ? ` (points: ${gains.join(', ')})` : '') +
      '.';
  }

  const weight = scored.weights.price;
  const pointsPerPercent = MAX_SCORE / (PRICE_ZERO_ABOVE_LOWEST * 100);
  const rule =
    ` In ${mode} mode a score point is worth ${formatPercent(scored.pointValueShare)} of the lowest offer ` +
    `(${cents(scored.pointValue)}): the mode weighs price at ${formatPercent(weight, 0)}` +
    (weight < SCORED_AWARD.minPriceWeight ? ` (counted as ${formatPercent(SCORED_AWARD.minPriceWeight, 0)})` : '') +
    ` and the price score loses ${pointsPerPercent} points per 1% above the lowest offer.`;
  const over = scored.overLimit;
  const limit = formatPercent(scored.maxPremiumShare, 0);
  const capped =
    over === null
      ? scored.premium > 0
        ? ` The premium is within the mode's ${limit} limit.`
        : ''
      : ` The best-scoring award (${over.supplierCodes.join(' + ')}: score ${showScore(over.score)}) would cost ` +
        `${formatPercent(over.premiumShare)} more than the cheapest, above the mode's ${limit} limit, so the award is ` +
        'the best-scoring one within it.';
  return head + premium + rule + capped;
}

function ratio(amount: number, of: number): number {
  return of === 0 ? 0 : Math.round((amount / of) * 10_000) / 10_000;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** "85.4", or "85" for a whole number, as scoring.ts shows scores. */
function showScore(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
