// The offline suppliers' bargaining: what each one offers next, given its private economics (supplier-economics.ts),
// its own offers so far and what the brand asked. Everything is derived from the context — no hidden memory — so a
// resumed negotiation continues exactly where it stopped.
//
// Price answers the ask. Each supplier knows its floor for the deal shape on the table (its floor on standard terms,
// plus what softer terms, a faster delivery or extras cost it, less what the buyer's own concessions are worth to it):
// - an ask at or above that floor is reasonable: it closes part of the gap (its pace), the whole gap when close or in
//   the last round — so the nearer a reasonable ask is to its floor, the bigger the move;
// - an ask a little under the floor is haggling: it moves toward its floor, less the further under;
// - an ask well under the floor is a push: a token move that shrinks the further under it is; after as many pushes as
//   its patience allows, it walks away (in the last round it names its final price instead);
// - a cited competitor speeds it up only when the price is credible — one under what anyone can make the order for is
//   discounted.
// Personalities shape the rest: the factory (margin) moves on price first, the premium house gives extras, terms and
// speed before price, the restructurer reshapes the deal (terms, a volume tier, speed) before cutting.
import type { Rng } from '../../../commerce/rng.js';
import type { SupplierProfile } from '../../../config/business-rules.js';
import { type Baseline, firstBySku, type Offer, type PriceTier } from '../../types.js';
import { formatPercent } from '../../../commerce/money.js';
import { describePaymentTerms, formatPaymentSplit, parsePaymentTerms } from '../../../commerce/payment-terms.js';
import type { BrandAsk, CompetitorMention, OfferDraft } from '../interfaces.js';
import { centsUp, packageCostShare, type SupplierEconomics } from '../../supplier-economics.js';

/**
 * margin: the quoting factory (cheapest) — price first, in shrinking steps. premium: Alpine-like (expensive) — extras,
 * terms and lead time before price. restructure: RapidGear-like (mid) — reshapes terms, tiers and speed.
 */
export type SupplierStyle = 'margin' | 'premium' | 'restructure';

export function styleOf(profile: SupplierProfile): SupplierStyle {
  switch (profile.priceLevel) {
    case 'cheapest':
      return 'margin';
    case 'expensive':
      return 'premium';
    case 'mid':
      return 'restructure';
  }
}

export const EXTRAS = {
  samples: { label: 'Free pre-production samples for every SKU', pattern: /sample/i },
  warranty: { label: 'An extended 24-month warranty', pattern: /warrant/i },
  labelling: { label: 'Free polybagging and carton labelling', pattern: /label|polybag/i },
} as const;
export type Extra = keyof typeof EXTRAS;
const EXTRA_KEYS: readonly Extra[] = ['samples', 'warranty', 'labelling'];

/** Where a supplier stands: its order total at the quoted quantities, and everything else it offers. */
export interface Position {
  total: number;
  leadTimeDays: number;
  paymentTerms: string;
  extras: readonly Extra[];
  /** Discount of the added volume tier (at VOLUME_TIER.quantityMultiple of each line), when one is offered. */
  volumeTier: number | null;
  /** Priced on the buyer's commitment to the volume tier (a quarter more units per SKU). */
  volumeCommitted: boolean;
  capacityShare: number;
}

export type Concession =
  | { kind: 'price'; from: number; to: number }
  | { kind: 'terms'; from: string; to: string; premium: number }
  | { kind: 'leadTime'; from: number; to: number }
  | { kind: 'extra'; extra: Extra }
  | { kind: 'tier'; discount: number };

/** The volume break the restructurer proposes: a quarter more units per SKU for 4% off. */
export const VOLUME_TIER = { quantityMultiple: 1.25, discount: 0.04 } as const;
/** The condition an offer priced on the buyer's volume commitment carries (and is read back by). */
export const VOLUME_COMMITMENT_CONDITION = 'Priced on your commitment to 125% of the quoted quantity per SKU';

/** How much of its pace each personality spends on price (the premium house and the restructurer give shape first). */
const PRICE_WEIGHT: Readonly<Record<SupplierStyle, { first: number; later: number }>> = {
  margin: { first: 1, later: 1 },
  premium: { first: 0.7, later: 0.85 },
  restructure: { first: 0.4, later: 0.9 },
};
/** The last round: a supplier that wants the order moves further (still less than its previous step, unasked). */
const FINAL_PACE = 1.3;
/** A step with no price asked: a share of the pace, spent on the room left. */
const UNASKED_PACE = 0.6;
/** A credible competitor at 15% below the standing offer (or more) adds half the pace again. */
const PRESSURE = { fullAt: 0.15, extra: 0.5 } as const;
/** A push gets at most this share of the room, shrinking by e per PUSH_DECAY of the order further under the floor. */
const PUSH_SHARE = 0.25;
const PUSH_DECAY = 0.03;

const SOFTER_TERMS: Readonly<Record<string, string>> = {
  '100': '50/50',
  '50/50': '30/70',
  '40/60': '30/70',
  '33/33/33': '30/30/40',
  '30/70': '20/80',
};

/** Less paid before delivery: the buyer's cash-flow ask. */
export function softenTerms(terms: string): string {
  const known = SOFTER_TERMS[terms];
  if (known !== undefined) return known;
  const parts = parsePaymentTerms(terms) ?? [];
  const first = parts[0];
  if (parts.length < 2 || first === undefined || first < 20) return terms;
  const last = parts.length - 1;
  return formatPaymentSplit(
    parts.map((share, index) => (index === 0 ? share - 10 : index === last ? share + 10 : share)),
  );
}

export function tierQuantity(quantity: number): number {
  return Math.ceil((quantity * VOLUME_TIER.quantityMultiple) / 10) * 10;
}

/** Σ quantity × unit price of the baseline. */
export function baselineValue(baseline: Baseline): number {
  return baseline.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
}

/** Reads a stored offer back as a position; prices are weighed by the baseline quantities so a partial offer compares. */
export function positionOf(offer: Offer, baseline: Baseline): Position {
  // Looked up by SKU through maps: a scan per line made this quadratic, the largest cost of a 3,000-line negotiation.
  const offered = firstBySku(offer.lines);
  const quotedBySku = firstBySku(baseline.lines);
  const total = baseline.lines.reduce(
    (sum, line) => sum + line.quantity * (offered.get(line.sku)?.unitPrice ?? line.unitPrice),
    0,
  );
  let volumeTier: number | null = null;
  for (const line of offer.lines) {
    const quoted = quotedBySku.get(line.sku)?.tiers ?? [];
    const added = line.tiers.find(
      (tier) => tier.minQty > line.quantity && !quoted.some((known) => known.minQty === tier.minQty),
    );
    if (added !== undefined) volumeTier = Math.round((1 - added.unitPrice / line.unitPrice) * 1000) / 1000;
  }
  return {
    total,
    leadTimeDays: offer.leadTimeDays,
    paymentTerms: offer.paymentTerms,
    extras: EXTRA_KEYS.filter((extra) => offer.concessions.some((text) => EXTRAS[extra].pattern.test(text))),
    volumeTier,
    volumeCommitted: offer.conditions.includes(VOLUME_COMMITMENT_CONDITION),
    capacityShare: offer.capacityShare,
  };
}

/** The first line of each SKU, as `Array.find` would return it. */
export interface PlanInput {
  profile: SupplierProfile;
  baseline: Baseline;
  economics: SupplierEconomics;
  /** The supplier's own offers, oldest first. */
  offers: readonly Offer[];
  round: number;
  maxRounds: number;
  /** The brand's ask this turn, when it made one. */
  ask: BrandAsk | null;
  /** Pushes below the floor since the talks (re)opened, before this ask. */
  pushesBefore: number;
  /** The talks were reopened after this supplier walked away: one more push ends them. */
  reopened: boolean;
  /** The lowest competitor cited this round below the standing offer, if any. */
  rival: CompetitorMention | null;
  capacityShare: number;
  rng: Rng;
}

/** What the supplier does with the ask. */
export type PriceDecision =
  | { kind: 'open' }
  | { kind: 'counter'; push: boolean; warn: boolean; nearFloor: boolean }
  /** It takes the asked total (or its standing offer, when the ask is above it). */
  | { kind: 'accept' }
  | { kind: 'walk_away'; pushes: number };

export interface Plan {
  style: SupplierStyle;
  /** Its opening total (its first offer). */
  open: number;
  /** Its floor on standard terms (private). */
  floor: number;
  /** Its floor for the deal shape of `next`: the floor, plus what the shape costs it, less what the buyer gave. */
  reservation: number;
  previous: Position | null;
  next: Position;
  /** What changed this turn, in the order the supplier tells it. */
  given: Concession[];
  final: boolean;
  /** 0 for the opening offer, then 1, 2, … */
  counter: number;
  decision: PriceDecision;
  /** The cited competitor was below what the market allows: not believed. */
  rivalDoubted: boolean;
  /** What the buyer gave this turn (more upfront, a later delivery, the volume commitment), passed on in price. */
  buyerGave: BuyerGive[];
  /** How hard a credible competitor pressed, 0–1. */
  pressure: number;
}

const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));

export function planNext(input: PlanInput): Plan {
  const { profile, economics, baseline } = input;
  const style = styleOf(profile);
  const value = baselineValue(baseline);
  const first = input.offers[0];
  const open = first === undefined ? economics.openingTotal : positionOf(first, baseline).total;
  const last = input.offers.at(-1);
  const final = input.round >= input.maxRounds;
  const standard = { paymentTerms: profile.paymentTerms, leadTimeDays: profile.leadTimeDays };
  const reservationOf = (position: Position): number =>
    economics.floorTotal *
    (1 +
      packageCostShare(economics, standard, {
        paymentTerms: position.paymentTerms,
        leadTimeDays: position.leadTimeDays,
        extras: position.extras.length,
        volumeCommitted: position.volumeCommitted,
      }));
  const base = { style, open, floor: economics.floorTotal, final, counter: input.offers.length };

  if (last === undefined) {
    const next: Position = {
      total: economics.openingTotal,
      leadTimeDays: profile.leadTimeDays,
      paymentTerms: profile.paymentTerms,
      extras: [],
      volumeTier: null,
      volumeCommitted: false,
      capacityShare: input.capacityShare,
    };
    return {
      ...base,
      reservation: reservationOf(next),
      previous: null,
      next,
      given: [],
      decision: { kind: 'open' },
      rivalDoubted: false,
      buyerGave: [],
      pressure: 0,
    };
  }

  const previous = positionOf(last, baseline);
  const standing = previous.total;
  // A cited competitor counts only if its price is one someone could make the order for.
  const rival = input.rival;
  const rivalCredible = rival === null || rival.total >= economics.credibleMarketFloor * value;
  const pressure =
    rival === null || !rivalCredible ? 0 : clamp((standing - rival.total) / (PRESSURE.fullAt * standing), 0, 1);
  const step: StepInput = { input, previous, final, counter: input.offers.length, pressed: pressure > 0 };
  let shaped =
    style === 'margin' ? marginShape(step) : style === 'premium' ? premiumShape(step) : restructureShape(step);
  // A shape that would cost more than the standing price leaves room for nothing: only the restructurer, which prices
  // its structures, offers it; the others keep the deal as it was.
  if (reservationOf(shaped.next) > standing && style !== 'restructure') shaped = { next: { ...previous }, given: [] };
  const shapeCost = Math.max(0, reservationOf(shaped.next) - reservationOf(previous));
  // What the buyer gives, the supplier takes, and passes its worth on in price: its floor for that shape is lower.
  const gave = buyerGives(shaped.next, input.ask);
  const withGives: Position = { ...shaped.next, ...gave.changes };
  const reservation = reservationOf(withGives);
  const bonus = Math.max(0, reservationOf(shaped.next) - reservation);

  const weight = input.offers.length <= 1 ? PRICE_WEIGHT[style].first : PRICE_WEIGHT[style].later;
  const pace = clamp(economics.pace * weight * (final ? FINAL_PACE : 1) * (1 + PRESSURE.extra * pressure), 0, 1);
  const decided = decidePrice({
    economics,
    value,
    standing,
    reservation,
    ask: input.ask?.targetTotal ?? null,
    pace,
    pressure,
    final,
    pushesBefore: input.pushesBefore,
    patience: input.reopened ? 1 : economics.patience,
    // The premium house counts what its extras and terms cost it as part of its move.
    credit: style === 'premium' ? shapeCost : 0,
    bonus,
  });

  const next: Position = { ...withGives, total: decided.total, capacityShare: input.capacityShare };
  const given = [...shaped.given];
  if (decided.total < standing - 0.005) given.push({ kind: 'price', from: standing, to: decided.total });
  else if (decided.total > standing + 0.005) given.push({ kind: 'price', from: standing, to: decided.total });
  return {
    ...base,
    reservation,
    previous,
    next,
    given,
    decision: decided.decision,
    rivalDoubted: rival !== null && !rivalCredible,
    buyerGave: gave.given,
    pressure,
  };
}

export type BuyerGive = 'upfront' | 'later' | 'volume';

/** The buyer's own concessions in an ask, against the shape on the table: more paid upfront, later delivery, volume. */
function buyerGives(position: Position, ask: BrandAsk | null): { changes: Partial<Position>; given: BuyerGive[] } {
  const changes: Partial<Position> = {};
  const given: BuyerGive[] = [];
  if (ask === null) return { changes, given };
  if (ask.paymentTerms !== null && upfrontShare(ask.paymentTerms) > upfrontShare(position.paymentTerms)) {
    changes.paymentTerms = ask.paymentTerms;
    given.push('upfront');
  }
  if (ask.leadTimeDays !== null && ask.leadTimeDays > position.leadTimeDays) {
    changes.leadTimeDays = ask.leadTimeDays;
    given.push('later');
  }
  if (ask.volumeCommitment === true && !position.volumeCommitted) {
    changes.volumeCommitted = true;
    given.push('volume');
  }
  return { changes, given };
}

/**
 * Whether a position gives everything an ask names besides its price: the delivery asked for, and terms paying no
 * more upfront. Only then may a supplier accept — an acceptance records the ask whole (negotiation/offers.ts).
 */
export function meetsAsk(position: Position, ask: BrandAsk | null): boolean {
  if (ask === null) return true;
  if (ask.leadTimeDays !== null && position.leadTimeDays > ask.leadTimeDays) return false;
  return ask.paymentTerms === null || upfrontShare(position.paymentTerms) <= upfrontShare(ask.paymentTerms);
}

interface PriceInput {
  economics: SupplierEconomics;
  value: number;
  standing: number;
  reservation: number;
  ask: number | null;
  pace: number;
  pressure: number;
  final: boolean;
  pushesBefore: number;
  patience: number;
  /** Value already given this turn in kind, taken off the price move. */
  credit: number;
  /** What the buyer's own concessions are worth to it: passed on in price, on top of the move. */
  bonus: number;
}

/**
 * The price answer to one ask (see the file's header). Returns the new total, never under the reservation (except
 * when accepting an ask above the standing offer, which is the standing offer).
 */
export function decidePrice(input: PriceInput): { total: number; decision: PriceDecision } {
  const { economics, value, standing, reservation, ask, pace, final } = input;
  const room = Math.max(0, standing - reservation);
  const floored = (total: number): number => Math.max(reservation, Math.min(standing, total));
  const counter = (move: number, flags: { push: boolean; warn: boolean }) => {
    const total = floored(standing - Math.max(0, move - input.credit) - input.bonus);
    return {
      total,
      decision: { kind: 'counter', ...flags, nearFloor: total - reservation <= 0.002 * value } as const,
    };
  };

  // Unasked, it just steps: what it gave in kind is not traded against a number nobody asked for.
  if (ask === null) return counter(room * pace * UNASKED_PACE + input.credit, { push: false, warn: false });
  if (ask >= standing - 0.005) return { total: standing, decision: { kind: 'accept' } };
  if (ask >= reservation) {
    const gap = standing - ask;
    if (final || gap <= economics.acceptGap * value) return { total: ask, decision: { kind: 'accept' } };
    return counter(gap * pace, { push: false, warn: false });
  }
  // Under the floor for this shape: how far under decides whether it is haggling or a push. Pushes are counted against
  // the floor on standard terms, so a shape the buyer asked for does not turn haggling into a push.
  const depth = (reservation - ask) / value;
  const underFloor = (economics.floorTotal - ask) / value;
  if (depth <= economics.pushTolerance || underFloor <= economics.pushTolerance) {
    if (final) return counter(room, { push: false, warn: false });
    const near = clamp(depth / economics.pushTolerance, 0, 1);
    return counter(room * pace * (1 - 0.5 * near), { push: false, warn: false });
  }
  const pushes = input.pushesBefore + 1;
  if (!final && pushes >= input.patience) return { total: standing, decision: { kind: 'walk_away', pushes } };
  const beyond = depth - economics.pushTolerance;
  const token = room * PUSH_SHARE * Math.exp(-beyond / PUSH_DECAY) * (1 + PRESSURE.extra * input.pressure);
  // A token is a token: what the shape cost is not taken off it (a push earns no extras-for-price trade).
  return counter(token + input.credit, { push: true, warn: !final && pushes === input.patience - 1 });
}

/** Whether an ask is a push below this supplier's floor (standard terms): what its patience counts. */
export function isPush(ask: BrandAsk, economics: SupplierEconomics, value: number): boolean {
  return ask.targetTotal !== null && (economics.floorTotal - ask.targetTotal) / value > economics.pushTolerance;
}

interface StepInput {
  input: PlanInput;
  previous: Position;
  final: boolean;
  counter: number;
  /** A credible competitor was cited this round. */
  pressed: boolean;
}

type Shape = { next: Position; given: Concession[] };

/** Slow to give anything but price: softer terms when asked, labelling later, a little speed only at the end. */
function marginShape({ input, previous, final, counter }: StepInput): Shape {
  const { ask, rng, profile } = input;
  const next: Position = { ...previous };
  const given: Concession[] = [];
  const askedTerms = ask?.paymentTerms ?? null;
  const askedLead = ask?.leadTimeDays ?? null;
  const wantsSofter = askedTerms !== null && upfrontShare(askedTerms) < upfrontShare(previous.paymentTerms);
  if (wantsSofter && previous.paymentTerms === profile.paymentTerms && (counter >= 2 || rng.next() < 0.4)) {
    next.paymentTerms = softenTerms(previous.paymentTerms);
    given.push({ kind: 'terms', from: previous.paymentTerms, to: next.paymentTerms, premium: 0 });
  }
  if (counter >= 2 && !previous.extras.includes('labelling') && rng.next() < 0.5) {
    next.extras = [...previous.extras, 'labelling'];
    given.push({ kind: 'extra', extra: 'labelling' });
  }
  if (final && askedLead !== null && askedLead < previous.leadTimeDays) {
    next.leadTimeDays = Math.max(askedLead, previous.leadTimeDays - 5);
    given.push({ kind: 'leadTime', from: previous.leadTimeDays, to: next.leadTimeDays });
  }
  return { next, given };
}

/** Extras, terms and lead time first, what the brand asked for before the rest; one a turn, more under pressure. */
function premiumShape({ input, previous, final, pressed }: StepInput): Shape {
  const { ask, profile } = input;
  type Move = Concession & { kind: 'extra' | 'terms' | 'leadTime' };
  const queue: Move[] = [];
  for (const kind of profile.personality.concessionOrder) {
    if (kind === 'extras') {
      for (const extra of ['samples', 'warranty'] as const) {
        if (!previous.extras.includes(extra)) queue.push({ kind: 'extra', extra });
      }
    } else if (kind === 'terms' && previous.paymentTerms === profile.paymentTerms) {
      queue.push({ kind: 'terms', from: previous.paymentTerms, to: softenTerms(previous.paymentTerms), premium: 0 });
    } else if (kind === 'leadTime' && previous.leadTimeDays === profile.leadTimeDays) {
      queue.push({ kind: 'leadTime', from: previous.leadTimeDays, to: Math.round(previous.leadTimeDays * 0.85) });
    }
  }
  // What the brand asked for comes first: a consultative seller answers the question that was asked.
  const askedLead = ask?.leadTimeDays ?? null;
  const askedTerms = ask?.paymentTerms ?? null;
  const asked = (move: Move): boolean =>
    (move.kind === 'leadTime' && askedLead !== null && askedLead < previous.leadTimeDays) ||
    (move.kind === 'terms' && askedTerms !== null && askedTerms !== previous.paymentTerms);
  queue.sort((a, b) => Number(asked(b)) - Number(asked(a)));

  const count = 1 + (pressed ? 1 : 0) + (final ? 1 : 0);
  const moves = queue.slice(0, count);
  const next: Position = { ...previous, extras: [...previous.extras] };
  for (const move of moves) {
    if (move.kind === 'extra') next.extras = [...next.extras, move.extra];
    if (move.kind === 'terms') next.paymentTerms = move.to;
    if (move.kind === 'leadTime') next.leadTimeDays = move.to;
  }
  return { next, given: [...moves] };
}

type Restructure = 'split' | 'tier' | 'speed';

/** New shapes before price: softer terms or a volume tier first, then speed; the price pays for what it costs. */
function restructureShape({ input, previous, final, counter }: StepInput): Shape {
  const { ask, profile, rng, economics } = input;
  const available: Restructure[] = [];
  if (previous.paymentTerms === profile.paymentTerms && softenTerms(previous.paymentTerms) !== previous.paymentTerms)
    available.push('split');
  if (previous.volumeTier === null) available.push('tier');
  if (previous.leadTimeDays === profile.leadTimeDays) available.push('speed');

  const chosen: Restructure[] = [];
  const take = (option: Restructure): void => {
    if (available.includes(option) && !chosen.includes(option)) chosen.push(option);
  };
  if (counter === 1) {
    const reshape = available.filter((option) => option !== 'speed');
    const askedLead = ask?.leadTimeDays ?? null;
    if ((ask?.paymentTerms ?? null) !== null) take('split');
    else if (reshape.length > 0) take(rng.pick(reshape));
    if (askedLead !== null && askedLead < previous.leadTimeDays) take('speed');
  } else {
    take('speed');
    for (const option of available) if (counter >= 3 || chosen.length < 2) take(option);
  }
  if (final) for (const option of available) take(option);

  const next: Position = { ...previous };
  const given: Concession[] = [];
  const standard = { paymentTerms: profile.paymentTerms, leadTimeDays: profile.leadTimeDays };
  for (const option of chosen) {
    if (option === 'split') {
      next.paymentTerms = softenTerms(previous.paymentTerms);
      // What the softer terms cost it in capital, said as the small price adjustment it is.
      const premium = Math.max(
        0,
        packageCostShare(economics, standard, { ...termsOf(next), extras: 0, volumeCommitted: false }) -
          packageCostShare(economics, standard, { ...termsOf(previous), extras: 0, volumeCommitted: false }),
      );
      given.push({ kind: 'terms', from: previous.paymentTerms, to: next.paymentTerms, premium });
    } else if (option === 'tier') {
      next.volumeTier = VOLUME_TIER.discount;
      given.push({ kind: 'tier', discount: VOLUME_TIER.discount });
    } else {
      next.leadTimeDays = Math.max(1, Math.round(previous.leadTimeDays * 0.8));
      given.push({ kind: 'leadTime', from: previous.leadTimeDays, to: next.leadTimeDays });
    }
  }
  return { next, given };
}

const termsOf = (position: Position) => ({
  paymentTerms: position.paymentTerms,
  leadTimeDays: position.leadTimeDays,
});

/** The share paid at order: what a buyer asking for "softer" terms wants less of. */
function upfrontShare(terms: string): number {
  return parsePaymentTerms(terms)?.[0] ?? 100;
}

/**
 * Unit prices for an order total: every line between its floor and its opening price at the same share of its room,
 * so fat lines give more than thin ones; under the floor (a buyer's concession bought it) every line in proportion.
 */
export function linePricesFor(total: number, economics: SupplierEconomics): Map<string, number> {
  const { floorTotal, openingTotal } = economics;
  const room = openingTotal - floorTotal;
  const share = room > 0 ? (total - floorTotal) / room : 1;
  return new Map(
    economics.lines.map((line) => [
      line.sku,
      total >= floorTotal
        ? line.floor + share * (line.opening - line.floor)
        : line.floor * (floorTotal > 0 ? total / floorTotal : 1),
    ]),
  );
}

/**
 * Unit prices to the cent whose total is the position's total or just above it: each line rounded up (a supplier
 * rounds in its favour), then the excess taken back a cent at a time from the lines with the most units, never below
 * a line's floor — so an accepted ask is the asked total, not a few dollars of rounding more.
 */
function centsTowards(
  total: number,
  baseline: Baseline,
  prices: ReadonlyMap<string, number>,
  economics: SupplierEconomics,
): Map<string, number> {
  const cents = new Map(
    baseline.lines.map((line) => [line.sku, Math.round(centsUp(prices.get(line.sku) ?? line.unitPrice) * 100)]),
  );
  let excess =
    baseline.lines.reduce((sum, line) => sum + line.quantity * (cents.get(line.sku) ?? 0), 0) - Math.round(total * 100);
  const floors = new Map(economics.lines.map((line) => [line.sku, Math.round(line.floor * 100)]));
  for (const line of [...baseline.lines].sort((a, b) => b.quantity - a.quantity)) {
    if (excess <= 0) break;
    const current = cents.get(line.sku) ?? 0;
    const room = Math.max(0, current - (floors.get(line.sku) ?? current));
    const take = Math.min(room, Math.floor(excess / line.quantity));
    cents.set(line.sku, current - take);
    excess -= take * line.quantity;
  }
  return new Map([...cents].map(([sku, value]) => [sku, value / 100]));
}

/**
 * The offer draft for a position: baseline quantities, each line priced for the position's total, cumulative
 * concessions spelled out. Against a standing offer, an unchanged total keeps its exact unit prices and a lower one
 * never raises a line: rounding to the cent must not make a price creep between rounds.
 */
export function draftOf(
  position: Position,
  context: {
    baseline: Baseline;
    profile: SupplierProfile;
    economics: SupplierEconomics;
    open: number;
    final: boolean;
    standing?: Offer;
  },
): OfferDraft {
  const { baseline, profile, standing, economics } = context;
  const standingTotal = standing === undefined ? null : positionOf(standing, baseline).total;
  const unchanged = standingTotal !== null && Math.abs(position.total - standingTotal) < 0.005;
  const lower = standingTotal !== null && position.total < standingTotal;
  const prices = centsTowards(position.total, baseline, linePricesFor(position.total, economics), economics);
  const standingBySku = firstBySku(standing?.lines ?? []);
  const lines = baseline.lines.map((line) => {
    const before = standingBySku.get(line.sku)?.unitPrice;
    const scaled = prices.get(line.sku) ?? line.unitPrice;
    const unitPrice = before === undefined ? scaled : unchanged ? before : lower ? Math.min(before, scaled) : scaled;
    const ratio = unitPrice / line.unitPrice;
    const tiers: PriceTier[] = line.tiers.map((tier) => ({
      minQty: tier.minQty,
      unitPrice: centsUp(tier.unitPrice * ratio),
    }));
    if (position.volumeTier !== null) {
      const minQty = tierQuantity(line.quantity);
      if (!tiers.some((tier) => tier.minQty === minQty)) {
        tiers.push({ minQty, unitPrice: centsUp(unitPrice * (1 - position.volumeTier)) });
      }
    }
    tiers.sort((a, b) => a.minQty - b.minQty);
    return { sku: line.sku, quantity: line.quantity, unitPrice, tiers };
  });

  const concessions: string[] = [];
  if (position.total < context.open - 0.005) {
    concessions.push(`${formatPercent(1 - position.total / context.open, 1, 0)} off the opening price`);
  }
  if (position.paymentTerms !== profile.paymentTerms) {
    concessions.push(
      `Payment terms ${describePaymentTerms(position.paymentTerms)} instead of ${describePaymentTerms(profile.paymentTerms)}`,
    );
  }
  if (position.leadTimeDays < profile.leadTimeDays) {
    concessions.push(`Lead time ${position.leadTimeDays} days instead of ${profile.leadTimeDays}`);
  }
  for (const extra of position.extras) concessions.push(EXTRAS[extra].label);
  if (position.volumeTier !== null) {
    concessions.push(
      `Volume tier: ${formatPercent(position.volumeTier, 1, 0)} off at 125% of the quoted quantity per SKU`,
    );
  }

  const conditions: string[] = [];
  if (position.capacityShare < 1) {
    conditions.push(`Can fill at most ${formatPercent(position.capacityShare, 0)} of the order value`);
  }
  if (position.volumeTier !== null)
    conditions.push('Tier price applies to a SKU ordered at or above the tier quantity');
  if (position.volumeCommitted) conditions.push(VOLUME_COMMITMENT_CONDITION);
  if (context.final) conditions.push('Final offer, valid for 7 days');

  return {
    lines,
    leadTimeDays: position.leadTimeDays,
    paymentTerms: position.paymentTerms,
    concessions,
    conditions,
    ...(position.capacityShare < 1 ? { capacityShare: position.capacityShare } : {}),
  };
}
