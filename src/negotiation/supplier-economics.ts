// What a simulated supplier (and the quoting supplier's offline twin) knows and the buyer does not: its cost floor per
// line, where it opens, what terms and speed cost it, how fast it concedes and how many pushes below its floor it sits
// through. Everything is drawn from the supplier's profile (its price level and personality) and the negotiation's
// seed, keyed by the supplier's code, so it is the same every time it is derived: a resumed negotiation, the offline
// supplier and the outcomes benchmark all see the same numbers without storing them.
//
// Private by construction: the engine hands it to the supplier's agent only (SupplierTurnContext.economics); the brand
// agent's context carries neither it nor the seed it comes from (a test keeps it that way).
import { cashFlowCostRate } from '../commerce/cash-flow.js';
import { createRng, fnv1a, type Rng } from '../commerce/rng.js';
import { LINE_PRICE_SPREAD, PRICE_RANGES, SUPPLIER_ECONOMICS, type SupplierProfile } from '../config/business-rules.js';
import type { Baseline } from './types.js';

export interface LineEconomics {
  sku: string;
  quantity: number;
  /** Unit prices in the quotation's currency. */
  opening: number;
  /** The lowest unit price it sells this line at, on its standard terms and lead time. */
  floor: number;
}

export interface SupplierEconomics {
  supplierCode: string;
  lines: LineEconomics[];
  /** Σ quantity × opening: its first offer. */
  openingTotal: number;
  /** Σ quantity × floor: the least it accepts for the quoted quantities on its standard terms. */
  floorTotal: number;
  /** Its cost of capital per year: what money paid before delivery is worth to it. */
  costOfCapital: number;
  /** What delivering one day faster than its standard lead time costs it, as a share of the order. */
  leadDayCost: number;
  /** What a slower delivery the buyer accepts is worth to it per day (a calmer production plan), as a share. */
  leadDayCredit: number;
  /** Share of the gap to a reasonable ask it gives in one turn. */
  pace: number;
  /** Asks below its floor it sits through; the next one ends the talks. */
  patience: number;
  /** An ask this far below its floor (share of the order) is haggling, not a push. */
  pushTolerance: number;
  /** Below this total (share of the baseline), a cited competitor is not believed: no one makes the order for that. */
  credibleMarketFloor: number;
  /** Gap to an ask (share of the order) it closes by accepting rather than countering. */
  acceptGap: number;
  /** What committing to a volume tier (25% more units) is worth to it, as a share of the order. */
  volumeCredit: number;
}

/** The most of the order's value a supplier's specialty may cover: the rest must carry its premium. */
const MAX_SPECIALTY_SHARE = 0.9;
/** Random orders of the products tried when choosing a specialty (the nearest to the drawn share is kept). */
const SPECIALTY_DRAWS = 6;

/** The seed of one supplier's private draw: the negotiation's seed and the supplier's code, mixed. */
export function economicsSeed(seed: number, supplierCode: string): number {
  return (Math.imul(seed ^ 0x2545f491, 0x9e3779b1) ^ fnv1a(supplierCode)) >>> 0;
}

const uniform = (rng: Rng, [low, high]: readonly [number, number]): number => low + (high - low) * rng.next();
const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));
/** Up to the cent: a supplier rounds in its own favour, and a price at the floor must not fall below it. */
export const centsUp = (amount: number): number => Math.max(0.01, Math.ceil(amount * 100 - 1e-6) / 100);

/**
 * The supplier's private economics for one negotiation. Deterministic: the same profile, baseline and seed give the
 * same numbers. Its opening and floor totals stay inside its PRICE_RANGES band (as multiples of the quoted baseline);
 * single lines may sit up to LINE_PRICE_SPREAD outside it, which is how a supplier can be the best at some lines.
 */
export function supplierEconomics(profile: SupplierProfile, baseline: Baseline, seed: number): SupplierEconomics {
  const rng = createRng(economicsSeed(seed, profile.code));
  const ranges = SUPPLIER_ECONOMICS[profile.priceLevel];
  const band = PRICE_RANGES[profile.priceLevel];
  const guard = { min: band.min * (1 - LINE_PRICE_SPREAD.below), max: band.max * (1 + LINE_PRICE_SPREAD.above) };
  const value = baseline.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
  const weights = baseline.lines.map((line) => (value > 0 ? (line.quantity * line.unitPrice) / value : 0));

  // Opening multiples: the quoting supplier's own quote is its opening; a simulated supplier opens at a level in its
  // band, cheaper on its specialty lines and dearer on the rest, with some noise per line.
  const quoting = !profile.isSimulated;
  const level = quoting ? 1 : uniform(rng, ranges.openingLevel);
  const multiples = baseline.lines.map(() => 1);
  if (!quoting) {
    const specialty = ranges.specialty;
    // A supplier is tooled for products, not for colours or sizes: the lines of one product share its fate.
    const products = groupByProduct(baseline);
    if (specialty !== null && products.length > 1) {
      const target = uniform(rng, specialty.valueShare);
      const discount = uniform(rng, specialty.multiple);
      // The rest of the order carries what the specialty gives up, so its lines sit at (1 − discount × share) /
      // (1 − share) of the level; past the line guard they would be clipped, and the level, held by the rescale below,
      // would come back out of the specialty lines — a "specialty" no cheaper than the rest. So the specialty covers at
      // most the share the rest can carry inside the guard (with room for the line noise).
      const carry = (guard.max / level) * (1 - ranges.lineNoise);
      const maxShare = Math.min(MAX_SPECIALTY_SHARE, carry > 1 ? (carry - 1) / (carry - discount) : 0);
      // Which products: a few draws of the products in random order, each filled up to the target (a product that
      // would take the specialty past what the rest can carry stays out), keeping the draw nearest the target — so an
      // order of a few large products still gets a specialty near the drawn share, not whatever one order left.
      let chosen = new Set<number>();
      let share = 0;
      for (let draw = 0; draw < SPECIALTY_DRAWS; draw++) {
        const picked = new Set<number>();
        let covered = 0;
        for (const product of rng.sample(products, products.length)) {
          if (covered >= target) break;
          const weight = product.reduce((sum, index) => sum + (weights[index] ?? 0), 0);
          if (covered + weight > maxShare) continue;
          for (const index of product) picked.add(index);
          covered += weight;
        }
        if (Math.abs(covered - target) < Math.abs(share - target)) {
          chosen = picked;
          share = covered;
        }
      }
      if (share > 0 && share < 1) {
        // The rest carries what the specialty lines give up, so the weighted mean stays 1 (the level holds).
        const rest = (1 - discount * share) / (1 - share);
        for (let index = 0; index < multiples.length; index++) multiples[index] = chosen.has(index) ? discount : rest;
      }
    }
    for (let index = 0; index < multiples.length; index++) {
      multiples[index] = (multiples[index] ?? 1) * uniform(rng, [1 - ranges.lineNoise, 1 + ranges.lineNoise]);
    }
  }
  let openingFactors = multiples.map((multiple) => clamp(level * multiple, guard.min, guard.max));
  openingFactors = rescaleInto(openingFactors, weights, level, guard);

  // Floors: the room off the opening varies by line (fat and thin margins) around the supplier's overall room, which
  // never exceeds the largest discount its personality gives.
  const room = Math.min(profile.personality.maxDiscount, uniform(rng, ranges.room));
  let floorFactors = openingFactors.map((factor) => factor * (1 - clamp(room * uniform(rng, [0.5, 1.5]), 0.01, 0.3)));
  const floorLevel = Math.max(
    band.min + 0.002,
    weighted(floorFactors, weights),
    weighted(openingFactors, weights) * (1 - profile.personality.maxDiscount),
  );
  floorFactors = rescaleInto(floorFactors, weights, floorLevel, guard).map((floor, index) =>
    Math.min(floor, openingFactors[index] ?? floor),
  );

  // Guard clamps can leave the floor's level short of what it must be: each line then gives up the same share of its
  // room, which keeps every floor between the line's guard and its opening.
  const openings = baseline.lines.map((line, index) =>
    quoting ? line.unitPrice : centsUp(line.unitPrice * (openingFactors[index] ?? 1)),
  );
  const floorsRaw = baseline.lines.map((line, index) => line.unitPrice * (floorFactors[index] ?? 1));
  const sumOf = (prices: readonly number[]) =>
    prices.reduce((sum, price, index) => sum + price * (baseline.lines[index]?.quantity ?? 0), 0);
  const required = Math.max(band.min * value, sumOf(openings) * (1 - profile.personality.maxDiscount));
  const shortfall = required - sumOf(floorsRaw);
  const roomTotal = sumOf(openings) - sumOf(floorsRaw);
  const lift = shortfall > 0 && roomTotal > 0 ? Math.min(1, shortfall / roomTotal) : 0;
  const lines = baseline.lines.map((line, index) => {
    const opening = openings[index] ?? line.unitPrice;
    const floor = floorsRaw[index] ?? opening;
    return {
      sku: line.sku,
      quantity: line.quantity,
      opening,
      floor: Math.min(opening, centsUp(floor + lift * (opening - floor))),
    };
  });
  const total = (pick: (line: LineEconomics) => number) =>
    Math.round(lines.reduce((sum, line) => sum + line.quantity * pick(line), 0) * 100) / 100;

  return {
    supplierCode: profile.code,
    lines,
    openingTotal: total((line) => line.opening),
    floorTotal: total((line) => line.floor),
    costOfCapital: uniform(rng, ranges.costOfCapital),
    leadDayCost: uniform(rng, ranges.leadDayCost),
    leadDayCredit: uniform(rng, ranges.leadDayCost) / 4,
    pace: uniform(rng, ranges.pace),
    patience: rng.int(ranges.patience[0], ranges.patience[1]),
    pushTolerance: uniform(rng, ranges.pushTolerance),
    credibleMarketFloor: PRICE_RANGES.cheapest.min * uniform(rng, [0.9, 0.96]),
    acceptGap: uniform(rng, [0.004, 0.01]),
    volumeCredit: uniform(rng, ranges.volumeCredit),
  };
}

/**
 * The supplier's floor total for a negotiation: the least it accepts for the quoted quantities on its standard terms.
 * For the outcomes benchmark's buyer surplus share, (opening − final) / (opening − floor); never for the brand agent.
 */
export function supplierFloor(profile: SupplierProfile, baseline: Baseline, seed: number): number {
  return supplierEconomics(profile, baseline, seed).floorTotal;
}

/** SKU → the supplier's floor unit price, for per-line checks. */
export function supplierFloorPrices(
  profile: SupplierProfile,
  baseline: Baseline,
  seed: number,
): ReadonlyMap<string, number> {
  return new Map(supplierEconomics(profile, baseline, seed).lines.map((line) => [line.sku, line.floor]));
}

/** What a deal shape costs the supplier beyond its standard one, as a share of the order (negative: it gains). */
export interface PackageTerms {
  paymentTerms: string;
  leadTimeDays: number;
  /** Extras it gives (samples, warranty, labelling): each costs it EXTRA_COST_SHARE. */
  extras: number;
  /** The buyer committed to the volume tier. */
  volumeCommitted: boolean;
}

/** A free extra (samples, a longer warranty, labelling) costs the supplier this share of the order. */
export const EXTRA_COST_SHARE = 0.002;
/** A buyer's concessions (harder terms, a slower delivery, more volume) buy at most this share off its floor. */
export const MAX_PACKAGE_CREDIT = 0.03;

/**
 * The package's cost to the supplier against its standard terms and lead time: less paid before delivery is capital
 * it must find (its own cost of capital), a faster delivery is overtime, extras cost what they cost. A buyer who pays
 * more upfront, waits longer or commits to more volume lowers it — at most by MAX_PACKAGE_CREDIT.
 */
export function packageCostShare(
  economics: SupplierEconomics,
  standard: { paymentTerms: string; leadTimeDays: number },
  terms: PackageTerms,
): number {
  const prepaid = (paymentTerms: string, leadTimeDays: number): number => {
    try {
      return cashFlowCostRate(paymentTerms, leadTimeDays, economics.costOfCapital);
    } catch {
      return 0;
    }
  };
  // What its standard terms' prepayment is worth to it, less what the package's is worth (at its own lead time).
  const financing =
    prepaid(standard.paymentTerms, standard.leadTimeDays) - prepaid(terms.paymentTerms, terms.leadTimeDays);
  const faster = Math.max(0, standard.leadTimeDays - terms.leadTimeDays);
  const slower = Math.max(0, terms.leadTimeDays - standard.leadTimeDays);
  const cost =
    financing +
    faster * economics.leadDayCost -
    Math.min(slower, 30) * economics.leadDayCredit +
    terms.extras * EXTRA_COST_SHARE -
    (terms.volumeCommitted ? economics.volumeCredit : 0);
  return Math.max(-MAX_PACKAGE_CREDIT, cost);
}

/** Line indexes grouped by product: the catalog description, else the SKU's style code (before the first dash). */
function groupByProduct(baseline: Baseline): number[][] {
  const groups = new Map<string, number[]>();
  baseline.lines.forEach((line, index) => {
    const key = line.description.trim().toLowerCase() || (line.sku.split('-')[0] ?? line.sku).toUpperCase();
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  return [...groups.values()];
}

function weighted(factors: readonly number[], weights: readonly number[]): number {
  return factors.reduce((sum, factor, index) => sum + factor * (weights[index] ?? 0), 0);
}

/**
 * Scales per-line multiples so their weighted mean is `level`, each kept inside the guard. A line at a guard bound
 * cannot move, so the others take up the difference (a few passes settle it).
 */
function rescaleInto(
  factors: readonly number[],
  weights: readonly number[],
  level: number,
  guard: { min: number; max: number },
): number[] {
  let current = factors.map((factor) => clamp(factor, guard.min, guard.max));
  for (let pass = 0; pass < 8; pass++) {
    const mean = weighted(current, weights);
    if (mean <= 0 || Math.abs(mean - level) < 1e-9) break;
    current = current.map((factor) => clamp(factor * (level / mean), guard.min, guard.max));
  }
  return current;
}
