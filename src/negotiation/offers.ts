// Offers as code records them. An agent, the LLM extractor or a supplier's form produces a loose draft; normalizeOffer
// turns it into an Offer, and who speaks for the supplier decides how (SupplierProfile.counterpart):
// - a simulated supplier's numbers are decided by code (seed 002 §6.6, DESIGN.md "numbers are decided by code"): the
//   total is recomputed from the lines, prices are scaled and clipped into the supplier's allowed range, and whatever
//   the draft leaves unstated is read as unchanged (the supplier's previous offer, else the quotation);
// - a connected supplier (a real organisation) is a commercial record: its offer is stored exactly as stated — a line
//   it leaves out is not offered, a figure it leaves out is not stated (and labelled as Parley's assumption), and
//   anything code would have to change is refused with the reasons, for the supplier to correct.
// An acceptance records what was accepted (acceptedOffer): the brand's ask, or the supplier's offer the brand took.
// The OfferTracker keeps one supplier's offers for impasse detection and early termination (seed 000), and
// evaluateOffer scores an offer against the buyer's mandate (seed 001 PASS / NEUTRAL / FAIL).
import { z } from 'zod';
import {
  IMPASSE,
  LINE_PRICE_SPREAD,
  PRICE_RANGES,
  QUOTED_SUPPLIER_DEFAULTS,
  type PriceLevel,
  type SupplierProfile,
} from '../config/business-rules.js';
import { parseNumber } from '../quotation/numbers.js';
import { formatMoney, isSafeAmount, toCents } from '../commerce/money.js';
import { normalisePaymentTerms } from '../commerce/payment-terms.js';
import type { BrandAsk } from './agents/interfaces.js';
import type { SupplierFact } from './facts.js';
import {
  type Baseline,
  type BaselineLine,
  type MandateTotals as Mandate,
  type Offer,
  type OfferLine,
  offerSchema,
  type PriceTier,
  type RoundEvaluation,
} from './types.js';

// ---------------------------------------------------------------------------------------------------------------
// Drafts

/** LLMs write numbers as numbers or as text ("$12.50", "1,200 pcs"); both are read, nothing else is. */
const looseNumber = z.union([z.number(), z.string()]);

export const offerDraftLineSchema = z.object({
  sku: z.string(),
  quantity: looseNumber.nullish(),
  unitPrice: looseNumber.nullish(),
  tiers: z.array(z.object({ minQty: looseNumber.nullish(), unitPrice: looseNumber.nullish() })).nullish(),
});
export type OfferDraftLine = z.infer<typeof offerDraftLineSchema>;

/** What an agent turn or the extractor says a supplier offered: every field optional, no number trusted yet. */
export const offerDraftSchema = z.object({
  lines: z.array(offerDraftLineSchema).nullish(),
  /** Only compared with the lines' sum and reported when it disagrees; never used. */
  total: looseNumber.nullish(),
  leadTimeDays: looseNumber.nullish(),
  paymentTerms: z.string().nullish(),
  incoterm: z.string().nullish(),
  currency: z.string().nullish(),
  concessions: z.array(z.string()).nullish(),
  conditions: z.array(z.string()).nullish(),
  capacityShare: looseNumber.nullish(),
});
export type OfferDraft = z.infer<typeof offerDraftSchema>;

/** The offer in an action's payload, read loosely (every field optional); null when there is none to read. */
export function readLooseOfferDraft(payload: Readonly<Record<string, unknown>>): OfferDraft | null {
  const parsed = offerDraftSchema.safeParse(payload['offer']);
  return parsed.success && parsed.data !== null ? parsed.data : null;
}

export interface NormalizeOfferContext {
  baseline: Baseline;
  /**
   * Who speaks for the supplier decides how its draft is read. A simulated supplier's price level sets its range; a
   * profile's lead time and terms stand in for a draft that omits them.
   */
  supplier: Pick<SupplierProfile, 'code' | 'priceLevel' | 'counterpart'> &
    Partial<Pick<SupplierProfile, 'leadTimeDays' | 'paymentTerms' | 'isSimulated'>>;
  round: number;
  /** The supplier's previous offer, so that a detail the draft leaves out is not read as a change. */
  previous?: Offer | null;
}

export interface NormalizedOffer {
  ok: true;
  offer: Offer;
  /** Every change code made to the draft, and every line not offered, in words a buyer can read in the thread. */
  adjustments: string[];
  /** The offer's terms the draft stated itself: from now on the supplier's word, no longer Parley's assumption. */
  stated: SupplierFact[];
  /**
   * The offer's terms the draft left out (or stated unreadably) that Parley filled from its own records — the profile,
   * the quotation, a default — rather than from the supplier's previous offer: assumptions, to be labelled as such.
   */
  assumed: SupplierFact[];
}

/** A connected supplier's draft that cannot be recorded as stated: what to correct, one sentence per problem. */
export interface UnreadableOffer {
  ok: false;
  problems: string[];
}

export type NormalizeOfferResult = NormalizedOffer | UnreadableOffer;

/** A connected supplier's offer reached the engine unreadable: nothing was recorded, and its sender must be asked again. */
export class OfferNotRecordedError extends Error {
  override name = 'OfferNotRecordedError';
  constructor(
    readonly supplierCode: string,
    readonly problems: readonly string[],
  ) {
    super(`The offer of ${supplierCode} cannot be recorded as stated: ${problems.join('; ')}`);
  }
}

/** A lead time over a year is a misread (a date, a quantity), not an offer. */
const MAX_LEAD_TIME_DAYS = 365;

const tierPhrase: Record<PriceLevel, string> = {
  cheapest: 'a cheapest-tier supplier',
  mid: 'a mid-tier supplier',
  expensive: 'an expensive-tier supplier',
};

/**
 * Turns a draft into an Offer, lines in the quotation's order: a connected supplier's as stated (recordAsStated), a
 * simulated supplier's held to its range (normalizeSimulated). A simulated supplier's draft always gives an offer.
 */
export function normalizeOffer(draft: OfferDraft, context: NormalizeOfferContext): NormalizeOfferResult {
  return context.supplier.counterpart === 'connected'
    ? recordAsStated(draft, context)
    : normalizeSimulated(draft, context);
}

/**
 * A simulated supplier's offer: one line per baseline SKU.
 *
 * - Lines for SKUs the quotation does not have are dropped (there is no baseline to check their price against); a SKU
 *   listed twice keeps its first line.
 * - Baseline SKUs the draft leaves out are backfilled with the quoted quantity, at the supplier's previous price for
 *   that SKU, else at the midpoint of its range × the quoted unit price — a neutral guess, neither its floor nor its
 *   ceiling. A line without a readable price is priced the same way.
 * - Prices: when the prices the draft states, taken together, fall outside the supplier's range, they are scaled
 *   together into it (keeping their proportions, seed 002 §6.6); then each line is clipped into its own range (the
 *   supplier's, widened by LINE_PRICE_SPREAD in business-rules.ts), and so are its volume-tier prices.
 * - Quantities default to the quoted ones; a stated quantity is kept (a volume proposal), rounded to whole units.
 * - The total is Σ quantity × unit price in cents. A stated total is only compared.
 * - Lead time, payment terms, incoterm, concessions, conditions and capacity share: stated and valid, else the
 *   previous offer's, else the supplier profile's, else the quotation's.
 */
function normalizeSimulated(draft: OfferDraft, context: NormalizeOfferContext): NormalizedOffer {
  const { baseline, supplier, round, previous } = context;
  const adjustments: string[] = [];
  const note = (text: string) => adjustments.push(text);

  const { bySku: drafted, skipped } = draftLinesBySku(draft.lines ?? [], baseline);
  for (const { sku, why } of skipped) {
    note(
      why === 'unknown'
        ? `${sku} is not in the quotation: line dropped`
        : `${sku} listed twice: the first line is used`,
    );
  }
  const previousBySku = new Map((previous?.lines ?? []).map((line) => [skuKey(line.sku), line]));

  const working = baseline.lines.map((base): WorkingLine => {
    const bounds = priceBounds(base, supplier.priceLevel);
    const stated = drafted.get(skuKey(base.sku));
    const earlier = previousBySku.get(skuKey(base.sku));
    const fallbackCents = earlier
      ? clampCents(toCents(earlier.unitPrice), bounds)
      : midpointCents(base, supplier.priceLevel);
    const fallbackSource = earlier ? 'the previous offer' : 'the middle of the allowed range';

    if (!stated) {
      note(
        `${base.sku} missing from the offer: backfilled with the quoted quantity ${base.quantity} at ` +
          `${centsText(fallbackCents)} (${fallbackSource})`,
      );
      return {
        base,
        bounds,
        quantity: base.quantity,
        cents: fallbackCents,
        stated: false,
        tiers: earlier?.tiers ?? [],
      };
    }

    const quantity = readQuantity(stated, base, note);
    const price = readAmount(stated.unitPrice);
    const cents = price === null ? 0 : toCents(price);
    if (cents <= 0) {
      const what =
        stated.unitPrice === null || stated.unitPrice === undefined ? 'has no price' : 'has an unreadable price';
      note(`${base.sku} ${what}: ${centsText(fallbackCents)} used (${fallbackSource})`);
    }
    // A draft that says nothing about tiers leaves them as they were; an empty list withdraws them.
    const tiers =
      stated.tiers === null || stated.tiers === undefined ? (earlier?.tiers ?? []) : readTiers(stated.tiers);
    return cents > 0
      ? { base, bounds, quantity, cents, stated: true, tiers }
      : { base, bounds, quantity, cents: fallbackCents, stated: false, tiers };
  });

  scaleStatedPrices(working, supplier.priceLevel, note);

  const lines: OfferLine[] = working.map((line) => {
    const cents = clampCents(line.cents, line.bounds);
    if (cents !== line.cents) note(clipText(line.base.sku, 'price', line.cents, cents, supplier.priceLevel));
    const tiers = line.tiers.map((tier) => {
      const tierCents = clampCents(toCents(tier.unitPrice), line.bounds);
      const label = `tier ≥${tier.minQty} price`;
      if (tierCents !== toCents(tier.unitPrice)) {
        note(clipText(line.base.sku, label, toCents(tier.unitPrice), tierCents, supplier.priceLevel));
      }
      return { minQty: tier.minQty, unitPrice: tierCents / 100 };
    });
    return { sku: line.base.sku, quantity: line.quantity, unitPrice: cents / 100, tiers };
  });

  const totalCents = lines.reduce((sum, line) => sum + line.quantity * toCents(line.unitPrice), 0);
  const statedTotal = readAmount(draft.total);
  if (statedTotal !== null && Math.abs(toCents(statedTotal) - totalCents) > 1) {
    note(
      `Stated total ${formatMoney(statedTotal, baseline.currency)} differs from the lines' ` +
        `${formatMoney(totalCents / 100, baseline.currency)}: the lines' sum is used`,
    );
  }

  const draftCurrency = draft.currency?.trim().toUpperCase();
  if (draftCurrency && draftCurrency !== baseline.currency.toUpperCase()) {
    note(
      `Currency ${draftCurrency} differs from the quotation's ${baseline.currency}: prices read as ${baseline.currency}`,
    );
  }

  const facts = new Facts();
  const offer = offerSchema.parse({
    supplierCode: supplier.code,
    round,
    lines,
    total: totalCents / 100,
    leadTimeDays: facts.take('leadTimeDays', leadTimeOf(draft.leadTimeDays, context, note)),
    paymentTerms: facts.take('paymentTerms', paymentTermsOf(draft.paymentTerms, context, note)),
    incoterm: cleanText(draft.incoterm)?.toUpperCase() ?? previous?.incoterm ?? fallbackIncoterm(context),
    currency: baseline.currency,
    concessions: cleanList(draft.concessions) ?? previous?.concessions ?? [],
    conditions: cleanList(draft.conditions) ?? previous?.conditions ?? [],
    capacityShare: readCapacityShare(draft.capacityShare, previous, note),
  });
  return { ok: true, offer, adjustments, stated: facts.stated, assumed: facts.assumed };
}

/**
 * A connected supplier's offer, exactly as stated: its lines for the quotation's SKUs, at its prices to the cent, its
 * quantities, its tiers — nothing scaled, clipped or backfilled. A quotation line it leaves out is not offered (absent
 * from the offer: nothing can be awarded to it there, and it adds nothing to the total). A lead time or terms it leaves
 * out are kept from its previous offer, else taken from Parley's records and reported as assumed. Whatever would
 * need changing — a price that is not whole cents, a total that is not its lines' sum, another currency, a line for
 * something the quotation does not have, a figure that does not read — is a problem, and there is no offer.
 */
function recordAsStated(draft: OfferDraft, context: NormalizeOfferContext): NormalizeOfferResult {
  const { baseline, supplier, round, previous } = context;
  const adjustments: string[] = [];
  const problems: string[] = [];
  const problem = (text: string) => problems.push(text);

  const { bySku: drafted, skipped } = draftLinesBySku(draft.lines ?? [], baseline);
  for (const { sku, why } of skipped) {
    problem(why === 'unknown' ? `${sku} is not in the quotation` : `${sku} is listed more than once`);
  }
  const previousBySku = new Map((previous?.lines ?? []).map((line) => [skuKey(line.sku), line]));
  const lines: OfferLine[] = [];
  for (const base of baseline.lines) {
    const stated = drafted.get(skuKey(base.sku));
    if (!stated) {
      adjustments.push(`${base.sku} not offered`);
      continue;
    }
    const cents = statedCents(stated.unitPrice, `${base.sku} price`, problem);
    const quantity = statedQuantity(stated.quantity, base, problem);
    // A draft that says nothing about tiers leaves them as they were; an empty list withdraws them.
    const tiers =
      stated.tiers === null || stated.tiers === undefined
        ? (previousBySku.get(skuKey(base.sku))?.tiers ?? [])
        : statedTiers(stated.tiers, base.sku, problem);
    if (cents !== null && quantity !== null) lines.push({ sku: base.sku, quantity, unitPrice: cents / 100, tiers });
  }
  if (drafted.size === 0) problem('The offer prices none of the quotation’s lines');

  const totalCents = lines.reduce((sum, line) => sum + line.quantity * toCents(line.unitPrice), 0);
  const statedTotal = readAmount(draft.total);
  if (draft.total !== null && draft.total !== undefined && statedTotal === null) {
    problem(`The total ${String(draft.total)} is not an amount`);
  } else if (statedTotal !== null && toCents(statedTotal) !== totalCents && problems.length === 0) {
    problem(
      `The total ${formatMoney(statedTotal, baseline.currency)} is not the lines' sum, ` +
        formatMoney(totalCents / 100, baseline.currency),
    );
  }
  const draftCurrency = draft.currency?.trim().toUpperCase();
  if (draftCurrency && draftCurrency !== baseline.currency.toUpperCase()) {
    problem(`Prices are in ${draftCurrency}; the quotation is in ${baseline.currency}`);
  }

  const facts = new Facts();
  const lead = statedLeadTime(draft.leadTimeDays, context, problem, adjustments);
  const terms = statedPaymentTerms(draft.paymentTerms, context, problem, adjustments);
  const capacityShare = readShare(draft.capacityShare);
  if (capacityShare === 'unreadable') problem(`Capacity share ${String(draft.capacityShare)} is not a share of 0–100%`);
  if (problems.length > 0 || lead === null || terms === null || capacityShare === 'unreadable') {
    return { ok: false, problems };
  }

  const offer = offerSchema.parse({
    supplierCode: supplier.code,
    round,
    lines,
    total: totalCents / 100,
    leadTimeDays: facts.take('leadTimeDays', lead),
    paymentTerms: facts.take('paymentTerms', terms),
    incoterm: cleanText(draft.incoterm)?.toUpperCase() ?? previous?.incoterm ?? fallbackIncoterm(context),
    currency: baseline.currency,
    concessions: cleanList(draft.concessions) ?? previous?.concessions ?? [],
    conditions: cleanList(draft.conditions) ?? previous?.conditions ?? [],
    capacityShare: capacityShare ?? previous?.capacityShare ?? 1,
  });
  return { ok: true, offer, adjustments, stated: facts.stated, assumed: facts.assumed };
}

/** Where a term of an offer came from: the draft, the supplier's previous offer, or Parley's own records. */
type FactSource = 'stated' | 'previous' | 'assumed';

interface ReadFact<T> {
  value: T;
  source: FactSource;
}

/** Collects which of an offer's terms the draft stated and which Parley assumed, as it reads them. */
class Facts {
  readonly stated: SupplierFact[] = [];
  readonly assumed: SupplierFact[] = [];

  take<T>(fact: SupplierFact, read: ReadFact<T>): T {
    if (read.source === 'stated') this.stated.push(fact);
    if (read.source === 'assumed') this.assumed.push(fact);
    return read.value;
  }
}

/** A stated price in whole cents, or null (with the problem) when it is missing, unreadable or not whole cents. */
function statedCents(
  value: number | string | null | undefined,
  what: string,
  problem: (text: string) => void,
): number | null {
  if (value === null || value === undefined) {
    problem(`${what} is missing`);
    return null;
  }
  const amount = readAmount(value);
  if (amount === null || amount <= 0) {
    problem(`${what} ${String(value)} is not an amount above zero`);
    return null;
  }
  const cents = toCents(amount);
  // The record holds cents: a price in fractions of one would be stored as another price than the one stated.
  if (Math.abs(cents - amount * 100) > 1e-6) {
    problem(`${what} ${String(value)} is not in whole cents`);
    return null;
  }
  return cents;
}

function statedQuantity(
  value: number | string | null | undefined,
  base: BaselineLine,
  problem: (text: string) => void,
): number | null {
  if (value === null || value === undefined) return base.quantity;
  const quantity = readNumber(value);
  if (quantity === null || quantity <= 0 || !Number.isInteger(quantity)) {
    problem(`${base.sku} quantity ${String(value)} is not a whole number of units`);
    return null;
  }
  return quantity;
}

function statedTiers(
  tiers: NonNullable<OfferDraftLine['tiers']>,
  sku: string,
  problem: (text: string) => void,
): PriceTier[] {
  const byMinQty = new Map<number, number>();
  for (const tier of tiers) {
    const minQty = readNumber(tier.minQty);
    const cents = statedCents(tier.unitPrice, `${sku} tier price`, problem);
    if (minQty === null || !Number.isInteger(minQty) || minQty <= 0) {
      problem(`${sku} tier quantity ${String(tier.minQty)} is not a whole number of units`);
    } else if (byMinQty.has(minQty)) problem(`${sku} has two tiers from ${minQty} units`);
    else if (cents !== null) byMinQty.set(minQty, cents / 100);
  }
  return [...byMinQty].sort(([a], [b]) => a - b).map(([minQty, unitPrice]) => ({ minQty, unitPrice }));
}

/** A stated capacity share as a fraction — "60" from an LLM or a form means 60%, the curveball's own wording. */
function readShare(value: number | string | null | undefined): number | null | 'unreadable' {
  if (value === null || value === undefined) return null;
  const share = readNumber(value);
  if (share === null || share < 0 || share > 100) return 'unreadable';
  return share > 1 ? share / 100 : share;
}

interface PriceBounds {
  floor: number;
  ceiling: number;
}

interface WorkingLine {
  base: BaselineLine;
  bounds: PriceBounds;
  quantity: number;
  cents: number;
  /** The price came from the draft (not backfilled): only these are scaled together. */
  stated: boolean;
  tiers: PriceTier[];
}

const skuKey = (sku: string) => sku.trim().toUpperCase();

const centsText = (cents: number) => (cents / 100).toFixed(2);

/**
 * The allowed unit price of one line in cents, rounded inwards so that a rounded price never leaves the range: the
 * supplier's range widened by LINE_PRICE_SPREAD, since a supplier may be cheap on what it is tooled for and dear on the
 * rest (its total is held to the range itself by scaleStatedPrices).
 */
function priceBounds(base: BaselineLine, level: PriceLevel): PriceBounds {
  return centBounds(
    base,
    PRICE_RANGES[level].min * (1 - LINE_PRICE_SPREAD.below),
    PRICE_RANGES[level].max * (1 + LINE_PRICE_SPREAD.above),
  );
}

/** The supplier's own range for one line, in cents: where a price never stated is guessed (its middle). */
function rangeBounds(base: BaselineLine, level: PriceLevel): PriceBounds {
  return centBounds(base, PRICE_RANGES[level].min, PRICE_RANGES[level].max);
}

function centBounds(base: BaselineLine, min: number, max: number): PriceBounds {
  const quoted = base.unitPrice * 100;
  // The 1e-6 absorbs float noise (12 × 0.85 × 100 = 1019.9999…), which would otherwise move a bound by a cent.
  const floor = Math.max(1, Math.ceil(quoted * min - 1e-6));
  const ceiling = Math.max(floor, Math.floor(quoted * max + 1e-6));
  return { floor, ceiling };
}

const clampCents = (cents: number, bounds: PriceBounds) => Math.min(bounds.ceiling, Math.max(bounds.floor, cents));

/** The middle of the supplier's own range (not the widened line bounds): a neutral guess for a price never stated. */
const midpointCents = (base: BaselineLine, level: PriceLevel) => {
  const range = rangeBounds(base, level);
  return Math.round((range.floor + range.ceiling) / 2);
};

function clipText(sku: string, what: string, from: number, to: number, level: PriceLevel): string {
  const direction = to > from ? 'raised' : 'lowered';
  const bound = to > from ? 'floor' : 'ceiling';
  return `${sku} ${what} ${centsText(from)} ${direction} to ${centsText(to)} (the ${bound} for ${tierPhrase[level]})`;
}

function readNumber(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const number = typeof value === 'number' ? value : parseNumber(value);
  return number !== null && Number.isFinite(number) ? number : null;
}

/** A stated price or total, or null when it is unreadable or beyond exact cents (a model can write 1e20). */
function readAmount(value: number | string | null | undefined): number | null {
  const amount = readNumber(value);
  return amount !== null && isSafeAmount(amount) ? amount : null;
}

interface DraftedLines {
  /** The first line of each quotation SKU the draft lists, by skuKey. */
  bySku: Map<string, OfferDraftLine>;
  /** Lines left out, in the draft's order: for a SKU the quotation does not have, or one listed before. */
  skipped: { sku: string; why: 'unknown' | 'repeated' }[];
}

function draftLinesBySku(lines: readonly OfferDraftLine[], baseline: Baseline): DraftedLines {
  const known = new Set(baseline.lines.map((line) => skuKey(line.sku)));
  const drafted: DraftedLines = { bySku: new Map(), skipped: [] };
  for (const line of lines) {
    const key = skuKey(line.sku);
    if (!known.has(key)) drafted.skipped.push({ sku: line.sku.trim(), why: 'unknown' });
    else if (drafted.bySku.has(key)) drafted.skipped.push({ sku: line.sku.trim(), why: 'repeated' });
    else drafted.bySku.set(key, line);
  }
  return drafted;
}

function readQuantity(line: OfferDraftLine, base: BaselineLine, note: (text: string) => void): number {
  if (line.quantity === null || line.quantity === undefined) return base.quantity;
  const stated = readNumber(line.quantity);
  const whole = stated === null ? 0 : Math.round(stated);
  if (whole <= 0) {
    note(`${base.sku} quantity ${String(line.quantity)} is not a positive number: the quoted ${base.quantity} used`);
    return base.quantity;
  }
  if (whole !== stated) note(`${base.sku} quantity ${String(stated)} rounded to ${whole}`);
  return whole;
}

function readTiers(tiers: NonNullable<OfferDraftLine['tiers']>): PriceTier[] {
  const byMinQty = new Map<number, number>();
  for (const tier of tiers) {
    const minQty = readNumber(tier.minQty);
    const price = readAmount(tier.unitPrice);
    if (minQty === null || price === null || !Number.isInteger(minQty) || minQty <= 0 || toCents(price) <= 0) continue;
    if (!byMinQty.has(minQty)) byMinQty.set(minQty, toCents(price) / 100);
  }
  return [...byMinQty].sort(([a], [b]) => a - b).map(([minQty, unitPrice]) => ({ minQty, unitPrice }));
}

/**
 * When the stated prices as a whole sit outside the range, an LLM (or a supplier) has priced the offer on another
 * basis; scaling every stated price by one factor keeps the relative prices it chose. Rounding goes inwards (up when
 * raising, down when lowering) so that a line exactly in proportion does not then get clipped by a cent.
 */
function scaleStatedPrices(lines: WorkingLine[], level: PriceLevel, note: (text: string) => void): void {
  const stated = lines.filter((line) => line.stated);
  const offered = stated.reduce((sum, line) => sum + line.quantity * line.cents, 0);
  const quoted = stated.reduce((sum, line) => sum + line.quantity * line.base.unitPrice * 100, 0);
  if (stated.length === 0 || quoted <= 0) return;
  const { min, max } = PRICE_RANGES[level];
  const ratio = offered / quoted;
  if (ratio >= min && ratio <= max) return;
  const factor = (ratio < min ? min : max) / ratio;
  const roundInwards = ratio < min ? Math.ceil : Math.floor;
  for (const line of stated) line.cents = roundInwards(line.cents * factor - (ratio < min ? 1e-6 : -1e-6));
  note(
    `The stated prices average ${ratio.toFixed(2)}× the quotation, outside the ${min.toFixed(2)}–${max.toFixed(2)}× ` +
      `range of ${tierPhrase[level]}: all scaled ${ratio < min ? 'up' : 'down'} by ` +
      `${(Math.abs(factor - 1) * 100).toFixed(1)}%`,
  );
}

/**
 * The quotation's incoterm for the quoting supplier. Another supplier ships on the same rule, so landed costs compare,
 * but not from the quoting supplier's port, which a simulated supplier's profile does not name: "FOB Ningbo" → "FOB".
 */
function fallbackIncoterm({ supplier, baseline }: NormalizeOfferContext): string | null {
  if (!supplier.isSimulated || baseline.incoterm === null) return baseline.incoterm;
  return /^[A-Z]{3}\b/i.exec(baseline.incoterm.trim())?.[0].toUpperCase() ?? null;
}

/** What stands in for a lead time the draft does not give: the supplier's previous offer, else Parley's records. */
function fallbackLeadTime(context: NormalizeOfferContext): { days: number; source: string; from: FactSource } {
  const { previous, supplier, baseline } = context;
  if (previous) return { days: previous.leadTimeDays, source: 'the previous offer', from: 'previous' };
  if (supplier.leadTimeDays !== undefined) {
    return { days: supplier.leadTimeDays, source: "the supplier's profile", from: 'assumed' };
  }
  if (baseline.leadTimeDays !== null) return { days: baseline.leadTimeDays, source: 'the quotation', from: 'assumed' };
  return { days: QUOTED_SUPPLIER_DEFAULTS.leadTimeDays, source: 'the default', from: 'assumed' };
}

/** What stands in for payment terms the draft does not give: the supplier's previous offer, else Parley's records. */
function fallbackPaymentTerms(context: NormalizeOfferContext): { terms: string; source: string; from: FactSource } {
  const { previous, supplier, baseline } = context;
  if (previous) return { terms: previous.paymentTerms, source: 'the previous offer', from: 'previous' };
  if (supplier.paymentTerms !== undefined) {
    return { terms: supplier.paymentTerms, source: "the supplier's profile", from: 'assumed' };
  }
  const quoted = normalisePaymentTerms(baseline.paymentTerms) ?? QUOTED_SUPPLIER_DEFAULTS.paymentTerms;
  return { terms: quoted, source: 'the quotation', from: 'assumed' };
}

/**
 * Days from "45", "45 days", "6 weeks" or a range "30-35 days" — its upper end, since that is when the goods may
 * arrive.
 */
function readDays(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const match = /^\s*(\d+(?:\.\d+)?)(?:\s*(?:-|–|~|to)\s*(\d+(?:\.\d+)?))?\s*(days?|d|weeks?|wks?)?\.?\s*$/i.exec(
    value,
  );
  if (!match) return null;
  const days = Number(match[2] ?? match[1]);
  return /^w/i.test(match[3] ?? '') ? days * 7 : days;
}

/** Stated days, or null when they are not 1–MAX_LEAD_TIME_DAYS. */
function readLeadDays(value: number | string): number | null {
  const days = readDays(value);
  return days === null || days <= 0 || days > MAX_LEAD_TIME_DAYS ? null : days;
}

/** A simulated supplier's lead time: as stated (whole days, rounded up), else what stands in for it, noted. */
function leadTimeOf(
  value: number | string | null | undefined,
  context: NormalizeOfferContext,
  note: (text: string) => void,
): ReadFact<number> {
  const fallback = fallbackLeadTime(context);
  if (value === null || value === undefined) {
    note(`Lead time not stated: ${fallback.days} days kept from ${fallback.source}`);
    return { value: fallback.days, source: fallback.from };
  }
  const days = readLeadDays(value);
  if (days === null) {
    note(
      `Lead time ${String(value)} is not 1–${MAX_LEAD_TIME_DAYS} days: ${fallback.days} days from ${fallback.source}`,
    );
    return { value: fallback.days, source: fallback.from };
  }
  // A supplier quoting 20.5 days will not deliver on day 20.
  const whole = Math.ceil(days);
  if (whole !== days) note(`Lead time ${days} days rounded up to ${whole}`);
  return { value: whole, source: 'stated' };
}

/** A connected supplier's lead time: as stated in whole days, else what stands in for it; null when unreadable. */
function statedLeadTime(
  value: number | string | null | undefined,
  context: NormalizeOfferContext,
  problem: (text: string) => void,
  adjustments: string[],
): ReadFact<number> | null {
  if (value === null || value === undefined) {
    const fallback = fallbackLeadTime(context);
    adjustments.push(notStatedText('Lead time', `${fallback.days} days`, fallback));
    return { value: fallback.days, source: fallback.from };
  }
  const days = readLeadDays(value);
  if (days === null || !Number.isInteger(days)) {
    problem(`Lead time ${String(value)} is not a whole number of days from 1 to ${MAX_LEAD_TIME_DAYS}`);
    return null;
  }
  return { value: days, source: 'stated' };
}

/** A simulated supplier's terms: as stated when they are instalments, else what stands in for them, noted. */
function paymentTermsOf(
  value: string | null | undefined,
  context: NormalizeOfferContext,
  note: (text: string) => void,
): ReadFact<string> {
  // The decision reads the same terms the same way (commerce/payment-terms.ts): what is stored is what is priced.
  const parsed = normalisePaymentTerms(value);
  if (parsed !== null) return { value: parsed, source: 'stated' };
  const fallback = fallbackPaymentTerms(context);
  note(
    value === null || value === undefined
      ? `Payment terms not stated: ${fallback.terms} kept from ${fallback.source}`
      : `Payment terms "${value}" are not instalments adding up to 100%: ${fallback.terms} from ${fallback.source}`,
  );
  return { value: fallback.terms, source: fallback.from };
}

/** A connected supplier's terms: as stated, else what stands in for them; null when they are not instalments. */
function statedPaymentTerms(
  value: string | null | undefined,
  context: NormalizeOfferContext,
  problem: (text: string) => void,
  adjustments: string[],
): ReadFact<string> | null {
  if (value === null || value === undefined || value.trim() === '') {
    const fallback = fallbackPaymentTerms(context);
    adjustments.push(notStatedText('Payment terms', fallback.terms, fallback));
    return { value: fallback.terms, source: fallback.from };
  }
  const parsed = normalisePaymentTerms(value);
  if (parsed === null) problem(`Payment terms "${value}" are not instalments adding up to 100%`);
  return parsed === null ? null : { value: parsed, source: 'stated' };
}

/** "Lead time not stated: 45 days kept from the previous offer", or "…: 50 days assumed (the supplier's profile)". */
function notStatedText(what: string, value: string, fallback: { source: string; from: FactSource }): string {
  return fallback.from === 'previous'
    ? `${what} not stated: ${value} kept from ${fallback.source}`
    : `${what} not stated: ${value} assumed (${fallback.source})`;
}

function readCapacityShare(
  value: number | string | null | undefined,
  previous: Offer | null | undefined,
  note: (text: string) => void,
): number {
  const fallback = previous?.capacityShare ?? 1;
  const share = readShare(value);
  if (share === null) return fallback;
  if (share === 'unreadable') {
    note(`Capacity share ${String(value)} unreadable: ${fallback} used`);
    return fallback;
  }
  const stated = readNumber(value);
  if (stated !== null && stated > 1) note(`Capacity share ${stated} read as ${stated}%`);
  return share;
}

function cleanText(text: string | null | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
}

function cleanList(items: readonly string[] | null | undefined): string[] | null {
  if (items === null || items === undefined) return null;
  return items.flatMap((item) => cleanText(item) ?? []);
}

// ---------------------------------------------------------------------------------------------------------------
// Acceptances

export interface AcceptedOfferOptions {
  /**
   * The brand's ask the supplier accepts; null when it accepts with no ask on the table (the brand took its offer,
   * or asked nothing this round): then its standing offer is what was agreed.
   */
  ask: BrandAsk | null;
  /** The supplier's offer standing when it accepted: what the ask asked a change of. */
  standing: Offer;
  round: number;
  /**
   * The accepting turn's own draft, if any: of an ask's acceptance, only its words (concessions, conditions) are
   * taken, never a number; an acceptance of the standing offer records that offer exactly.
   */
  draft?: OfferDraft | null;
}

/**
 * What a supplier agreed to when it accepted: the ask's figures, for every supplier — an acceptance stored at another
 * price than the one accepted is a false record, whoever made it. The ask names a total, and a lead time and terms
 * when it asks for them; it names no line prices, so its lines are the standing offer's with every price (and tier
 * price) cut by the same share, which is how the brand's message puts the ask to the supplier for the line it cites.
 * What the ask does not name stays as the standing offer has it; an ask at or above the standing total changes no
 * price (nobody pays more than the supplier asked for). What rounding to whole cents leaves over is made up in cents,
 * on the lines with the most units first, so the lines add up to the ask exactly wherever the quantities allow it
 * (a line may move a few cents off the common cut); when they cannot, the adjustment says by how much they differ.
 */
export function acceptedOffer(options: AcceptedOfferOptions): NormalizedOffer {
  const { ask, standing, round } = options;
  const draft = ask === null ? null : options.draft;
  const adjustments: string[] = [];
  const standingCents = toCents(standing.total);
  const askedCents = ask?.targetTotal === null || ask?.targetTotal === undefined ? null : toCents(ask.targetTotal);
  const lines =
    askedCents === null || askedCents >= standingCents ? standing.lines : linesForTotal(standing.lines, askedCents);
  const totalCents = lines.reduce((sum, line) => sum + line.quantity * toCents(line.unitPrice), 0);
  if (askedCents !== null && askedCents < standingCents && totalCents !== askedCents) {
    adjustments.push(
      `The ask's ${formatMoney(askedCents / 100, standing.currency)} cannot be priced in whole cents at these ` +
        `quantities: the lines come to ${formatMoney(totalCents / 100, standing.currency)}`,
    );
  }
  const stated: SupplierFact[] = [];
  if (ask?.leadTimeDays !== null && ask?.leadTimeDays !== undefined) stated.push('leadTimeDays');
  if (ask?.paymentTerms !== null && ask?.paymentTerms !== undefined) stated.push('paymentTerms');
  const offer: Offer = {
    ...standing,
    round,
    lines,
    total: totalCents / 100,
    leadTimeDays: ask?.leadTimeDays ?? standing.leadTimeDays,
    paymentTerms: ask?.paymentTerms ?? standing.paymentTerms,
    concessions: cleanList(draft?.concessions) ?? standing.concessions,
    conditions: cleanList(draft?.conditions) ?? standing.conditions,
  };
  return { ok: true, offer: offerSchema.parse(offer), adjustments, stated, assumed: [] };
}

/** The lines repriced by one factor to come to `targetCents` (see acceptedOffer), each price at least a cent. */
function linesForTotal(lines: readonly OfferLine[], targetCents: number): OfferLine[] {
  const currentCents = lines.reduce((sum, line) => sum + line.quantity * toCents(line.unitPrice), 0);
  const factor = currentCents > 0 ? targetCents / currentCents : 1;
  const scaled = (price: number) => Math.max(1, Math.round(toCents(price) * factor));
  const cents = lines.map((line) => scaled(line.unitPrice));
  const quantities = lines.map((line) => line.quantity);
  let rest = targetCents - quantities.reduce((sum, quantity, index) => sum + quantity * (cents[index] ?? 0), 0);
  // Whole cents on the lines with the most units first, which leaves less than the fewest units' worth of cents …
  const byUnits = quantities.map((quantity, index) => ({ quantity, index }));
  byUnits.sort((a, b) => b.quantity - a.quantity || a.index - b.index);
  for (const { quantity, index } of byUnits) {
    const current = cents[index] ?? 1;
    const step = Math.max(1 - current, Math.trunc(rest / quantity));
    cents[index] = current + step;
    rest -= step * quantity;
  }
  // … and that rest is made up of single cents on lines whose quantities combine to it (300 and 200 units make 100).
  for (const move of centMoves(rest, quantities, cents)) cents[move.index] = (cents[move.index] ?? 1) + move.cents;
  return lines.map((line, index) => ({
    ...line,
    unitPrice: (cents[index] ?? toCents(line.unitPrice)) / 100,
    tiers: line.tiers.map((tier) => ({ minQty: tier.minQty, unitPrice: scaled(tier.unitPrice) / 100 })),
  }));
}

/** Distinct quantities tried by centMoves: enough to combine to any small rest, few enough to search quickly. */
const CENT_MOVE_QUANTITIES = 24;
/** A line gives or takes single cents only at a dollar or more, so that no price can fall to zero. */
const CENT_MOVE_MIN_CENTS = 100;

/**
 * The fewest one-cent changes (+1 or −1 on a line's unit price) that change the lines' total by `rest` cents — or,
 * when the quantities cannot make it up, that come nearest: a breadth-first search over what is still missing,
 * within ± the largest quantity tried, one line per distinct quantity, the smallest quantities first.
 */
function centMoves(
  rest: number,
  quantities: readonly number[],
  cents: readonly number[],
): { index: number; cents: 1 | -1 }[] {
  if (rest === 0) return [];
  const lineOf = new Map<number, number>();
  quantities.forEach((quantity, index) => {
    if ((cents[index] ?? 0) >= CENT_MOVE_MIN_CENTS && !lineOf.has(quantity)) lineOf.set(quantity, index);
  });
  const tried = [...lineOf].sort(([a], [b]) => a - b).slice(0, CENT_MOVE_QUANTITIES);
  const bound = Math.max(Math.abs(rest), ...tried.map(([quantity]) => quantity));
  const reached = new Map<number, { from: number; index: number; cents: 1 | -1 } | null>([[rest, null]]);
  const queue = [rest];
  let nearest = rest;
  for (let head = 0; head < queue.length && nearest !== 0; head++) {
    const missing = queue[head] ?? 0;
    for (const [quantity, index] of tried) {
      for (const step of [1, -1] as const) {
        const next = missing - step * quantity;
        if (Math.abs(next) > bound || reached.has(next)) continue;
        reached.set(next, { from: missing, index, cents: step });
        queue.push(next);
        if (Math.abs(next) < Math.abs(nearest)) nearest = next;
      }
    }
  }
  const moves: { index: number; cents: 1 | -1 }[] = [];
  for (let at = reached.get(nearest); at; at = reached.get(at.from)) moves.push({ index: at.index, cents: at.cents });
  return moves;
}

// ---------------------------------------------------------------------------------------------------------------
// Tracker

export const OFFER_SOURCES = ['supplier', 'brand', 'quotation'] as const;
/** Who put the offer on the table: the supplier, the brand's counter-offer, or the uploaded quotation itself. */
export type OfferSource = (typeof OFFER_SOURCES)[number];

export const trackedOfferSchema = z.object({
  round: z.number().int().nonnegative(),
  source: z.enum(OFFER_SOURCES),
  offer: offerSchema,
});
export type TrackedOffer = z.infer<typeof trackedOfferSchema>;

export const offerTrackerStateSchema = z.object({
  supplierCode: z.string(),
  history: z.array(trackedOfferSchema),
});
export type OfferTrackerState = z.infer<typeof offerTrackerStateSchema>;

/** A drop smaller than this share of the total is rounding, not a concession. */
export const PRICE_IMPROVEMENT_EPSILON = 0.001;

export interface PriceGap {
  latestTotal: number;
  referenceTotal: number;
  /** How far the supplier is above the reference, in money; 0 when it is at or below. */
  absolute: number;
  /** `absolute` ÷ the reference. */
  relative: number;
  currency: string;
}

/** One supplier's offers in the order they were made, from every source (seed 000's tracker, on totals). */
export class OfferTracker {
  readonly supplierCode: string;
  private readonly entries: TrackedOffer[];

  constructor(supplierCode: string, history: readonly TrackedOffer[] = []) {
    this.supplierCode = supplierCode;
    this.entries = [];
    for (const entry of history) this.addOffer(entry);
  }

  static fromJSON(json: unknown): OfferTracker {
    const state = offerTrackerStateSchema.parse(json);
    return new OfferTracker(state.supplierCode, state.history);
  }

  toJSON(): OfferTrackerState {
    return { supplierCode: this.supplierCode, history: this.history };
  }

  /**
   * A tracker over a state the engine holds (already checked when its checkpoint was read), sharing its entries: the
   * tracker never edits an entry, it only appends. `fromJSON` parses and copies every entry, which for a history of
   * 3,000-line offers was over a second of the event loop at each round's end.
   */
  static fromState(state: OfferTrackerState): OfferTracker {
    const tracker = new OfferTracker(state.supplierCode);
    tracker.entries.push(...state.history);
    return tracker;
  }

  /** The state to keep in the engine's checkpoint, sharing the entries (see `fromState`). */
  toState(): OfferTrackerState {
    return { supplierCode: this.supplierCode, history: [...this.entries] };
  }

  addOffer(entry: TrackedOffer): void {
    // A supplier's offer filed under another supplier would silently corrupt impasse and early-termination checks.
    if (entry.source !== 'brand' && entry.offer.supplierCode !== this.supplierCode) {
      throw new Error(`offer from ${entry.offer.supplierCode} added to the tracker of ${this.supplierCode}`);
    }
    this.entries.push(structuredClone(entry));
  }

  get history(): TrackedOffer[] {
    return structuredClone(this.entries);
  }

  /** The supplier's own offers: what it proposed, and the quotation it opened with. */
  // Reads copy only the entries they return, not the whole history: callers may change what they get, and copying a
  // long history of 3,000-line offers on every read was a tenth of a large negotiation's time.
  supplierOffers(): TrackedOffer[] {
    return this.entries.filter((entry) => entry.source !== 'brand').map((entry) => structuredClone(entry));
  }

  latest(): TrackedOffer | null {
    return copyOf(this.entries.at(-1));
  }

  latestBySource(source: OfferSource): TrackedOffer | null {
    return copyOf(this.entries.findLast((entry) => entry.source === source));
  }

  /** The offer the supplier currently stands by: its latest proposal, or the quotation when it has made none. */
  latestFromSupplier(): TrackedOffer | null {
    return copyOf(this.entries.findLast((entry) => entry.source !== 'brand'));
  }

  /**
   * Whether the supplier's total fell by more than PRICE_IMPROVEMENT_EPSILON between the first and the last of its
   * latest `windowSize` offers. With fewer offers than the window there is not yet evidence of a stall, so it counts as
   * improving — otherwise every negotiation would stall in its first round.
   */
  hasPriceImproved(windowSize: number = IMPASSE.progressWindowSize): boolean {
    if (!Number.isInteger(windowSize) || windowSize < 2) throw new RangeError('the window needs at least two offers');
    // Totals only: the entries are read in place, not copied.
    const window = this.entries.filter((entry) => entry.source !== 'brand').slice(-windowSize);
    const first = window[0];
    const last = window.at(-1);
    if (window.length < windowSize || !first || !last) return true;
    return first.offer.total - last.offer.total > first.offer.total * PRICE_IMPROVEMENT_EPSILON;
  }

  /**
   * How far the supplier's latest offer is above the reference: the brand's latest counter-offer, or `target` when
   * the brand has made none (seed 000). Only the supplier being dearer counts — an offer below our reference is no
   * deadlock.
   */
  priceGapDetails(target?: number | null): PriceGap | null {
    const latest = this.entries.findLast((entry) => entry.source !== 'brand');
    const reference = this.entries.findLast((entry) => entry.source === 'brand')?.offer.total ?? target ?? null;
    if (!latest || reference === null || reference <= 0) return null;
    const absolute = Math.max(0, latest.offer.total - reference);
    return {
      latestTotal: latest.offer.total,
      referenceTotal: reference,
      absolute,
      relative: absolute / reference,
      currency: latest.offer.currency,
    };
  }

  /** The relative gap of priceGapDetails, or null without an offer or a reference. */
  priceGap(target?: number | null): number | null {
    return this.priceGapDetails(target)?.relative ?? null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Evaluation

/**
 * Without a walk-away total, an offer this much worse than the target is still NEUTRAL: a buyer who named only a
 * target would still talk at +10%, not at any price.
 */
export const UNMANDATED_NEUTRAL_BAND = 0.1;

export type NegotiationSide = 'buyer' | 'seller';

export interface EvaluateOfferOptions {
  /** The quotation's total: the target when the mandate names none. */
  baselineTotal: number;
  /** Whose outcome is judged; the buyer wants a lower total, the seller a higher one. Defaults to the buyer. */
  side?: NegotiationSide;
  /**
   * The quotation's lines: an offer that leaves some out (a real supplier's "not offered") is judged against the
   * target and walk-away prorated to the quoted value of the lines it offers, not the whole order's.
   */
  baselineLines?: readonly { sku: string; quantity: number; unitPrice: number }[];
}

/** The quoted value of the lines `offer` covers, as a share of the whole quotation's (1 when it covers them all). */
export function coveredShare(
  offer: { lines: readonly { sku: string }[] },
  baselineLines: readonly { sku: string; quantity: number; unitPrice: number }[],
): number {
  const offered = new Set(offer.lines.map((line) => line.sku));
  const value = (lines: readonly { quantity: number; unitPrice: number }[]) =>
    lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
  const whole = value(baselineLines);
  if (whole <= 0 || baselineLines.every((line) => offered.has(line.sku))) return 1;
  return value(baselineLines.filter((line) => offered.has(line.sku))) / whole;
}

/**
 * The target and walk-away totals that apply when the buyer's mandate leaves one or both out:
 * - no target: the quotation's total (or the walk-away, if that is better);
 * - no walk-away: the target worsened by UNMANDATED_NEUTRAL_BAND;
 * - a walk-away better than the target is read as equal to it (an empty NEUTRAL band).
 */
export function effectiveMandate(
  mandate: Mandate,
  baselineTotal: number,
  side: NegotiationSide = 'buyer',
): { targetTotal: number; walkAwayTotal: number } {
  const best = side === 'buyer' ? Math.min : Math.max;
  const worst = side === 'buyer' ? Math.max : Math.min;
  const worsen = (total: number) =>
    toCents(total * (side === 'buyer' ? 1 + UNMANDATED_NEUTRAL_BAND : 1 - UNMANDATED_NEUTRAL_BAND)) / 100;
  const targetTotal =
    mandate.targetTotal ??
    (mandate.walkAwayTotal === null ? baselineTotal : best(baselineTotal, mandate.walkAwayTotal));
  const walkAwayTotal = worst(mandate.walkAwayTotal ?? worsen(targetTotal), targetTotal);
  return { targetTotal, walkAwayTotal };
}

/**
 * What each outcome measures, in the words shown to people (the codes PASS / NEUTRAL / FAIL stay in the data):
 * the offer meets the target, is above the target but within the walk-away, or is above the walk-away.
 */
export const EVALUATION_LABELS: Readonly<Record<RoundEvaluation, string>> = {
  PASS: 'meets target',
  NEUTRAL: 'within walk-away',
  FAIL: 'above walk-away',
};

/** The label of an offer's outcome; an offer that is not there is "no offer", not "above walk-away". */
export function evaluationLabel(evaluation: RoundEvaluation, total: number | null): string {
  return total === null ? 'no offer' : EVALUATION_LABELS[evaluation];
}

/**
 * Seed 001's outcome of one supplier's offer: PASS when it meets the target, NEUTRAL between target and walk-away,
 * FAIL when worse than the walk-away or when there is no offer. Compared in cents, inclusive at both limits.
 */
export function evaluateOffer(
  offer: { total: number; lines?: readonly { sku: string }[] } | null | undefined,
  mandate: Mandate,
  options: EvaluateOfferOptions,
): RoundEvaluation {
  if (!offer) return 'FAIL';
  const side = options.side ?? 'buyer';
  const limits = effectiveMandate(mandate, options.baselineTotal, side);
  const share = offer.lines && options.baselineLines ? coveredShare({ lines: offer.lines }, options.baselineLines) : 1;
  const targetTotal = limits.targetTotal * share;
  const walkAwayTotal = limits.walkAwayTotal * share;
  const atLeastAsGood = (total: number, limit: number) =>
    side === 'buyer' ? toCents(total) <= toCents(limit) : toCents(total) >= toCents(limit);
  if (atLeastAsGood(offer.total, targetTotal)) return 'PASS';
  if (atLeastAsGood(offer.total, walkAwayTotal)) return 'NEUTRAL';
  return 'FAIL';
}

function copyOf(entry: TrackedOffer | undefined): TrackedOffer | null {
  return entry === undefined ? null : structuredClone(entry);
}
