// SKU-level allocation of an order to suppliers (seed 002 §6.7; DESIGN.md "Split orders").
//
// Money. A line given to supplier s costs quantity × s's unit price at that quantity, in integer cents (its FOB). A
// supplier's cash-flow cost is its FOB × the cash-flow rate of its own terms and lead time (cash-flow.ts), so its
// effective landed cost is FOB × (1 + rate). An order with more than one supplier carries SPLIT_ORDER_OVERHEAD on its
// whole FOB value; the plan's effective landed cost is Σ FOB + Σ cash-flow cost + that overhead.
//
// Objective per mode. In `cost` mode the allocation minimises effective landed cost: the money. In every other mode a
// buyer has said money is not all that counts, so each supplier's landed cost is weighed up by its score in that mode
// (scoring.ts): adjusted = landed × (1 + SCORE_PENALTY_PER_POINT × (100 − score)), i.e. +0.2% per point below 100. A
// supplier scoring 60 must be 8% cheaper than one scoring 100 to win a line. The split overhead is added unweighted.
// The plan always reports real money; `objective` is what was minimised.
//
// Constraints. A line goes wholly to one supplier that quotes its SKU and whose MOQ (minimum units per SKU line) it
// meets. A supplier's capacityShare caps its FOB at that share of the order's FOB as allocated (after the curveball,
// SUP-002 ≤ 60%). A split is recommended only when it beats the best single supplier after the overhead; when no single
// supplier can take the whole order, the split is forced and the reason says why.
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
import {
  COST_OF_CAPITAL_ANNUAL,
  type NegotiationMode,
  SCORING_SCALES,
  SPLIT_ORDER_OVERHEAD,
} from '../config/business-rules.js';
import type { Offer, OfferLine } from '../negotiation/types.js';
import { tierPriceAt } from '../quotation/size-matrix.js';
import { cashFlowCostRate } from './cash-flow.js';
import { CENT_EPSILON, formatMoney, formatPercent, fromCents } from './money.js';

/** Up to this many lines the best split is found by exhaustive branch and bound. */
export const EXACT_LINE_LIMIT = 12;
export const SCORE_PENALTY_PER_POINT = SCORING_SCALES.scorePenaltyPerPoint;

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

/** One line of the order: what the buyer wants, as in the baseline quotation. */
export interface OrderLine {
  sku: string;
  quantity: number;
}

/** A supplier that can be given lines: its offer's prices and terms, its capacity and, in scored modes, its score. */
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
  /** Its total score (0–100) in the allocation's mode; required in every mode except `cost`. */
  score?: number;
}

export interface AllocateOrderOptions {
  lines: readonly OrderLine[];
  suppliers: readonly SupplierOption[];
  /** Default `cost`: minimise effective landed cost. */
  mode?: NegotiationMode;
  annualRate?: number;
  splitOverhead?: number;
  /** For explanations. */
  currency?: string;
  /** Lines up to which the search is exhaustive; tests lower it to check the bounded search against brute force. */
  exactLineLimit?: number;
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
  /** fob + cashFlowCost: this supplier's part, before any split overhead. */
  effectiveLandedCost: number;
  /** Its share of the order's FOB value, 0–1. */
  share: number;
}

export type Optimality =
  | { method: 'exact' }
  /** Lower bound on the objective of any feasible allocation, and how far above it this one is. */
  | { method: 'bounded'; lowerBound: number; gap: number };

export interface AllocationPlan {
  mode: NegotiationMode;
  /** Suppliers that get lines, by supplier code. */
  allocations: SupplierAllocation[];
  fob: number;
  cashFlowCost: number;
  /** SPLIT_ORDER_OVERHEAD × fob for a split order, else 0. */
  splitOverhead: number;
  /** fob + cashFlowCost + splitOverhead. */
  effectiveLandedCost: number;
  isSplit: boolean;
  /** No single supplier could take the whole order. */
  forcedSplit: boolean;
  reason: string;
  bestSingle: { supplierCode: string; effectiveLandedCost: number } | null;
  bestSplit: { supplierCodes: string[]; effectiveLandedCost: number } | null;
  /** Why each supplier that cannot take the whole order alone cannot. */
  excluded: { supplierCode: string; reason: string }[];
  /** What was minimised, in currency units: effective landed cost in `cost` mode, score-adjusted otherwise. */
  objective: number;
  optimality: Optimality;
}

export type AllocationError =
  | { code: 'UNCOVERED_LINES'; skus: string[] }
  | { code: 'INSUFFICIENT_CAPACITY'; totalCapacityShare: number }
  | { code: 'NO_FEASIBLE_ALLOCATION'; proven: boolean };

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
  }
}

/** The allocation input for a supplier's offer. */
export function supplierOptionFromOffer(
  offer: Offer,
  extra: { moq?: number | null; score?: number } = {},
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

function buildModel(options: AllocateOrderOptions, suppliers: readonly SupplierOption[], mode: NegotiationMode): Model {
  const annualRate = options.annualRate ?? COST_OF_CAPITAL_ANNUAL;
  const overhead = options.splitOverhead ?? SPLIT_ORDER_OVERHEAD;
  const cashRate = suppliers.map((s) => cashFlowCostRate(s.paymentTerms, s.leadTimeDays, annualRate));
  const multiplier = suppliers.map((s, i) => (1 + (cashRate[i] ?? 0)) * scoreWeight(s, mode));
  const quoted = suppliers.map((s) => firstLineBySku(s.lines));

  const unitPrice: number[][] = [];
  const value: number[][] = [];
  const cost: number[][] = [];
  const splitCost: number[][] = [];
  const allowed: number[][] = [];
  for (const line of options.lines) {
    const prices = suppliers.map((s, i) => {
      const offered = quoted[i]?.get(line.sku);
      if (offered === undefined || line.quantity < (s.moq ?? 0) || s.capacityShare <= 0) return NaN;
      return unitPriceFor(offered, line.quantity);
    });
    const values = prices.map((p) => (Number.isNaN(p) ? NaN : Math.round(line.quantity * p * 100)));
    const costs = values.map((v, i) => v * (multiplier[i] ?? 1));
    const splitCosts = costs.map((c, i) => c + overhead * (values[i] ?? NaN));
    unitPrice.push(prices);
    value.push(values);
    cost.push(costs);
    splitCost.push(splitCosts);
    allowed.push(
      suppliers
        .map((_, i) => i)
        .filter((i) => !Number.isNaN(values[i] ?? NaN))
        .sort((a, b) => at(splitCosts, a) - at(splitCosts, b) || a - b),
    );
  }
  return {
    lineCount: options.lines.length,
    supplierCount: suppliers.length,
    value,
    unitPrice,
    cost,
    splitCost,
    allowed,
    cap: suppliers.map((s) => Math.min(1, Math.max(0, s.capacityShare))),
    cashRate,
    overhead,
  };
}

function scoreWeight(supplier: SupplierOption, mode: NegotiationMode): number {
  if (mode === 'cost') return 1;
  if (supplier.score === undefined) throw new Error(`${mode} mode needs the score of ${supplier.supplierCode}`);
  return 1 + SCORE_PENALTY_PER_POINT * (MAX_SCORE - supplier.score);
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

/** Depth-first branch and bound over every assignment that uses at least two suppliers. */
function exactSplit(model: Model): SplitSearch {
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

  const assign = new Array<number>(n).fill(-1);
  const fob = new Array<number>(model.supplierCount).fill(0);
  const linesAt = new Array<number>(model.supplierCount).fill(0);
  let best: number[] | null = null;
  let bestObjective = Infinity;

  const visit = (depth: number, cost: number, total: number): void => {
    const used = linesAt.filter((c) => c > 0).length;
    if (depth === n) {
      if (used < 2 || !withinCapacity(model, fob, total)) return;
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

    const line = at(order, depth);
    for (const s of row(model.allowed, line)) {
      const value = at(row(model.value, line), s);
      assign[line] = s;
      fob[s] = at(fob, s) + value;
      linesAt[s] = at(linesAt, s) + 1;
      visit(depth + 1, cost + at(row(model.cost, line), s), total + value);
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

/** Allocates every line of the order to one supplier, as described at the top of this file. */
export function allocateOrder(options: AllocateOrderOptions): AllocationOutcome {
  const mode = options.mode ?? 'cost';
  const currency = options.currency ?? 'USD';
  validate(options);
  const suppliers = [...options.suppliers].sort((a, b) => compareText(a.supplierCode, b.supplierCode));
  const model = buildModel(options, suppliers, mode);
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
  const singles = suppliers
    .map((_, s) => s)
    .filter((s) => !excluded.some((e) => e.supplierCode === suppliers[s]?.supplierCode))
    .map((s) => ({ supplier: s, evaluation: evaluate(model, new Array<number>(model.lineCount).fill(s)) }))
    .sort((a, b) => a.evaluation.objective - b.evaluation.objective || a.supplier - b.supplier);
  const single = singles[0] ?? null;

  const limit = options.exactLineLimit ?? EXACT_LINE_LIMIT;
  const exhaustive = model.lineCount <= limit;
  const search = exhaustive ? exactSplit(model) : boundedSplit(model);
  const splitEvaluation = search.assign === null ? null : evaluate(model, search.assign);
  const split =
    search.assign !== null && splitEvaluation !== null && splitEvaluation.used > 1
      ? { assign: search.assign, evaluation: splitEvaluation }
      : null;

  const chooseSplit =
    split !== null && (single === null || split.evaluation.objective < single.evaluation.objective - CENT_EPSILON);
  const chosen = chooseSplit ? split : single === null ? null : { ...single, assign: fillWith(model, single.supplier) };
  if (chosen === null) return fail({ code: 'NO_FEASIBLE_ALLOCATION', proven: exhaustive });

  const build = (assign: readonly number[]) => describePlan(model, options.lines, suppliers, assign);
  const plan = build(chosen.assign);
  const singlePlan = single === null ? null : build(fillWith(model, single.supplier));
  const splitPlan = split === null ? null : build(split.assign);

  const lowerBound = Math.min(single?.evaluation.objective ?? Infinity, search.lowerBound ?? Infinity);
  const optimality: Optimality = exhaustive
    ? { method: 'exact' }
    : {
        method: 'bounded',
        lowerBound: fromCents(lowerBound),
        gap: fromCents(Math.max(0, chosen.evaluation.objective - lowerBound)),
      };

  const money = (cents: number) => formatMoney(fromCents(cents), currency);
  const context: ReasonContext = { mode, money, overhead: model.overhead, exhaustive };
  const reason = explain(context, {
    chosen: { plan, objective: chosen.evaluation.objective },
    single:
      singlePlan === null || single === null ? null : { plan: singlePlan, objective: single.evaluation.objective },
    split: splitPlan === null || split === null ? null : { plan: splitPlan, objective: split.evaluation.objective },
    excluded,
  });

  return {
    ok: true,
    plan: {
      mode,
      ...moneyOf(plan),
      isSplit: chooseSplit,
      forcedSplit: chooseSplit && single === null,
      reason,
      bestSingle:
        singlePlan === null
          ? null
          : { supplierCode: at0(singlePlan.allocations).supplierCode, effectiveLandedCost: fromCents(singlePlan.elc) },
      bestSplit:
        splitPlan === null
          ? null
          : {
              supplierCodes: splitPlan.allocations.map((a) => a.supplierCode),
              effectiveLandedCost: fromCents(splitPlan.elc),
            },
      excluded,
      objective: fromCents(chosen.evaluation.objective),
      optimality,
    },
  };
}

function validate(options: AllocateOrderOptions): void {
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
    if (s.score !== undefined && !(s.score >= 0 && s.score <= MAX_SCORE)) {
      throw new RangeError(`${s.supplierCode}: score must be within 0–100, not ${s.score}`);
    }
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
  let cash = 0;
  suppliers.forEach((supplier, s) => {
    const mine = lines.flatMap((line, l) => (assign[l] === s ? [{ line, l }] : []));
    if (mine.length === 0) return;
    const supplierFob = at(fob, s);
    const supplierCash = Math.round(supplierFob * at(model.cashRate, s));
    cash += supplierCash;
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
      effectiveLandedCost: fromCents(supplierFob + supplierCash),
      share: Math.round((supplierFob / total) * 10_000) / 10_000,
    });
  });
  const overhead = used > 1 ? Math.round(total * model.overhead) : 0;
  return { allocations, fob: total, cash, overhead, elc: total + cash + overhead };
}

function moneyOf(plan: PlanMoney) {
  return {
    allocations: plan.allocations,
    fob: fromCents(plan.fob),
    cashFlowCost: fromCents(plan.cash),
    splitOverhead: fromCents(plan.overhead),
    effectiveLandedCost: fromCents(plan.elc),
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
}

interface Candidate {
  plan: PlanMoney;
  objective: number;
}

function explain(
  context: ReasonContext,
  options: { chosen: Candidate; single: Candidate | null; split: Candidate | null; excluded: { reason: string }[] },
): string {
  const { money, mode } = context;
  const scored = mode !== 'cost';
  const names = (c: Candidate) => c.plan.allocations.map((a) => a.supplierCode).join(' + ');
  const cost = (c: Candidate) =>
    `${money(c.plan.elc)} effective landed cost` + (scored ? ` (${money(c.objective)} score-adjusted)` : '');
  const overhead = (c: Candidate) =>
    `incl. ${money(c.plan.overhead)} split overhead ` +
    `(${formatPercent(context.overhead, 0)} of ${money(c.plan.fob)} FOB)`;
  const note = scored
    ? ` In ${mode} mode each supplier's landed cost is weighed up by ${formatPercent(SCORE_PENALTY_PER_POINT)} per ` +
      'score point below 100.'
    : '';
  const { chosen, single, split } = options;

  if (chosen.plan.allocations.length === 1) {
    const against =
      split === null
        ? ` No split ${context.exhaustive ? 'respects' : 'was found that respects'} the capacity limits.`
        : ` The best split (${names(split)}: ${cost(split)}, ${overhead(split)}) does not beat it, so one supplier.`;
    return `${names(chosen)} alone: ${cost(chosen)}.${against}${note}`;
  }
  const body = `Split ${names(chosen)}: ${cost(chosen)}, ${overhead(chosen)}`;
  if (single === null) {
    const why = options.excluded.map((e) => e.reason).join('; ');
    return `No single supplier can take the whole order (${why}), so the order must be split. ${body}.${note}`;
  }
  const saving = single.objective - chosen.objective;
  return (
    `${body}: ${money(saving)} less${scored ? ' score-adjusted' : ''} than the best single supplier ` +
    `(${names(single)}: ${cost(single)}), even after the overhead.${note}`
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
