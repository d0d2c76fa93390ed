// The offline suppliers' concession curves: what each personality offers next. Everything is derived from the
// supplier's own stored offers and the brand's asks — no hidden memory — so a resumed negotiation continues exactly
// where it stopped, and every price stays inside the supplier's PRICE_RANGES band whatever the brand asks.
import type { Rng } from '../../../commerce/rng.js';
import { PRICE_RANGES, type SupplierProfile } from '../../../config/business-rules.js';
import type { Baseline, Offer, PriceTier } from '../../types.js';
import { formatPercent } from '../../../commerce/money.js';
import { describePaymentTerms, formatPaymentSplit, parsePaymentTerms } from '../../../commerce/payment-terms.js';
import type { BrandAsk, OfferDraft } from '../interfaces.js';

/**
 * margin: the quoting factory (cheapest) — price first, in shrinking steps. premium: Alpine-like (expensive) — extras,
 * terms and lead time before a 3–5% price move. restructure: RapidGear-like (mid) — reshapes terms, tiers and speed.
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

/** Where a supplier stands: its price as a multiple of the quoted baseline, and everything else it offers. */
export interface Position {
  factor: number;
  leadTimeDays: number;
  paymentTerms: string;
  extras: readonly Extra[];
  /** Discount of the added volume tier (at VOLUME_TIER.quantityMultiple of each line), when one is offered. */
  volumeTier: number | null;
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

/** Opening price per style, as a multiple of the baseline: [lowest, highest], picked in 0.5% steps by the rng. */
const OPENING: Readonly<Record<SupplierStyle, readonly [number, number]>> = {
  margin: [1, 1],
  premium: [1.3, 1.35],
  restructure: [1.08, 1.12],
};

/** What "50/50 instead of 100% upfront" costs with the restructurer: a small price increase, not a free gift. */
const TERMS_PREMIUM = 0.015;

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

/** Σ quantity × unit price of the baseline: the denominator of every factor. */
export function baselineValue(baseline: Baseline): number {
  return baseline.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
}

/** Reads a stored offer back as a position; prices are weighed by the baseline quantities so a partial offer compares. */
export function positionOf(offer: Offer, baseline: Baseline): Position {
  const value = baselineValue(baseline);
  const priced = baseline.lines.reduce((sum, line) => {
    const offered = offer.lines.find((candidate) => candidate.sku === line.sku);
    return sum + line.quantity * (offered?.unitPrice ?? line.unitPrice);
  }, 0);
  let volumeTier: number | null = null;
  for (const line of offer.lines) {
    const quoted = baseline.lines.find((candidate) => candidate.sku === line.sku)?.tiers ?? [];
    const added = line.tiers.find(
      (tier) => tier.minQty > line.quantity && !quoted.some((known) => known.minQty === tier.minQty),
    );
    if (added !== undefined) volumeTier = Math.round((1 - added.unitPrice / line.unitPrice) * 1000) / 1000;
  }
  return {
    factor: priced / value,
    leadTimeDays: offer.leadTimeDays,
    paymentTerms: offer.paymentTerms,
    extras: EXTRA_KEYS.filter((extra) => offer.concessions.some((text) => EXTRAS[extra].pattern.test(text))),
    volumeTier,
    capacityShare: offer.capacityShare,
  };
}

export interface PlanInput {
  profile: SupplierProfile;
  baseline: Baseline;
  /** The supplier's own offers, oldest first. */
  offers: readonly Offer[];
  round: number;
  maxRounds: number;
  /** The brand cited a competitor below this supplier's last offer, this round. */
  leverage: boolean;
  ask: BrandAsk | null;
  capacityShare: number;
  rng: Rng;
}

export interface Plan {
  style: SupplierStyle;
  open: number;
  /** The lowest factor this supplier will ever accept: its band's minimum, or its largest discount off the opening. */
  floor: number;
  ceiling: number;
  previous: Position | null;
  next: Position;
  /** What changed this turn, in the order the supplier tells it. */
  given: Concession[];
  final: boolean;
  /** 0 for the opening offer, then 1, 2, … */
  counter: number;
}

const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));

export function planNext(input: PlanInput): Plan {
  const { profile, rng } = input;
  const style = styleOf(profile);
  const band = PRICE_RANGES[profile.priceLevel];
  const first = input.offers[0];
  const open =
    first === undefined
      ? clamp(openingFactor(style, rng), band.min, band.max)
      : clamp(positionOf(first, input.baseline).factor, band.min, band.max);
  const floor = Math.max(band.min, open * (1 - profile.personality.maxDiscount));
  const ceiling = band.max;
  const last = input.offers.at(-1);
  const final = input.round >= input.maxRounds;
  const base = { style, open, floor, ceiling, final, counter: input.offers.length };

  if (last === undefined) {
    const next: Position = {
      factor: open,
      leadTimeDays: profile.leadTimeDays,
      paymentTerms: profile.paymentTerms,
      extras: [],
      volumeTier: null,
      capacityShare: input.capacityShare,
    };
    return { ...base, previous: null, next, given: [] };
  }

  const stored = positionOf(last, input.baseline);
  const previous = { ...stored, factor: clamp(stored.factor, floor, ceiling) };
  const step = { input, previous, open, floor, ceiling, final, counter: input.offers.length };
  const { next, given } =
    style === 'margin' ? marginStep(step) : style === 'premium' ? premiumStep(step) : restructureStep(step);
  return { ...base, previous, next: { ...next, capacityShare: input.capacityShare }, given };
}

function openingFactor(style: SupplierStyle, rng: Rng): number {
  const [low, high] = OPENING[style];
  return low + 0.005 * rng.int(0, Math.round((high - low) / 0.005));
}

interface StepInput {
  input: PlanInput;
  previous: Position;
  open: number;
  floor: number;
  ceiling: number;
  final: boolean;
  counter: number;
}

/** Price in steps that shrink with the room left (30% of it), larger under leverage and in the last round. */
function marginStep({ input, previous, floor, final, counter }: StepInput): { next: Position; given: Concession[] } {
  const { ask, rng, profile } = input;
  const room = previous.factor - floor;
  const rate = 0.3 * (input.leverage ? 1.6 : 1) * (final ? 1.3 : 1);
  const cut = room <= 1e-6 ? 0 : Math.min(room, Math.max(0.004, room * rate));
  const next: Position = { ...previous, factor: previous.factor - cut };
  const given: Concession[] = [];
  if (cut > 0) given.push({ kind: 'price', from: previous.factor, to: next.factor });

  const askedTerms = ask?.paymentTerms ?? null;
  const askedLead = ask?.leadTimeDays ?? null;
  const wantsTerms = askedTerms !== null && askedTerms !== previous.paymentTerms;
  if (wantsTerms && previous.paymentTerms === profile.paymentTerms && (counter >= 2 || rng.next() < 0.4)) {
    next.paymentTerms = softenTerms(previous.paymentTerms);
    given.push({ kind: 'terms', from: previous.paymentTerms, to: next.paymentTerms, premium: 0 });
  }
  if (counter >= 2 && !previous.extras.includes('labelling') && rng.next() < 0.5) {
    next.extras = [...previous.extras, 'labelling'];
    given.push({ kind: 'extra', extra: 'labelling' });
  }
  // Slow to move on lead time: only at the end, and only when asked.
  if (final && askedLead !== null && askedLead < previous.leadTimeDays) {
    next.leadTimeDays = Math.max(askedLead, previous.leadTimeDays - 5);
    given.push({ kind: 'leadTime', from: previous.leadTimeDays, to: next.leadTimeDays });
  }
  return { next, given };
}

/** Extras, terms and lead time first (one a turn, more under pressure); price only a little, never past maxDiscount. */
function premiumStep({ input, previous, open, floor, final, counter }: StepInput): {
  next: Position;
  given: Concession[];
} {
  const { ask, profile, rng } = input;
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

  const count = 1 + (input.leverage ? 1 : 0) + (final ? 1 : 0);
  const moves = queue.slice(0, count);
  const next: Position = { ...previous, extras: [...previous.extras] };
  for (const move of moves) {
    if (move.kind === 'extra') next.extras = [...next.extras, move.extra];
    if (move.kind === 'terms') next.paymentTerms = move.to;
    if (move.kind === 'leadTime') next.leadTimeDays = move.to;
  }

  const maxDiscount = profile.personality.maxDiscount;
  const schedule = [0, 0.015, 0.03];
  let target = schedule[Math.min(counter - 1, schedule.length - 1)] ?? 0;
  if (queue.length <= moves.length) target += 0.01;
  if (input.leverage) target += 0.015;
  if (final) target = Math.max(target, 0.03 + 0.005 * rng.int(0, 4));
  const previousDiscount = 1 - previous.factor / open;
  const discount = Math.min(maxDiscount, Math.max(previousDiscount, target));
  next.factor = Math.max(floor, Math.min(previous.factor, open * (1 - discount)));

  const given: Concession[] = [...moves];
  if (next.factor < previous.factor - 1e-9) given.push({ kind: 'price', from: previous.factor, to: next.factor });
  return { next, given };
}

type Restructure = 'split' | 'tier' | 'speed';

/** New shapes before price: 50/50 for a small premium or a volume tier, then speed; price moves a little later. */
function restructureStep(step: StepInput): { next: Position; given: Concession[] } {
  const { input, previous, floor, ceiling, final, counter } = step;
  const { ask, profile, rng } = input;
  const available: Restructure[] = [];
  if (previous.paymentTerms === profile.paymentTerms) available.push('split');
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
  let premium = 0;
  for (const option of chosen) {
    if (option === 'split') {
      premium = input.leverage || final ? 0 : TERMS_PREMIUM;
      next.paymentTerms = softenTerms(previous.paymentTerms);
      given.push({ kind: 'terms', from: previous.paymentTerms, to: next.paymentTerms, premium });
    } else if (option === 'tier') {
      next.volumeTier = VOLUME_TIER.discount;
      given.push({ kind: 'tier', discount: VOLUME_TIER.discount });
    } else {
      next.leadTimeDays = Math.max(1, Math.round(previous.leadTimeDays * 0.8));
      given.push({ kind: 'leadTime', from: previous.leadTimeDays, to: next.leadTimeDays });
    }
  }

  const schedule = [0, 0.015, 0.01];
  let cut = schedule[Math.min(counter - 1, schedule.length - 1)] ?? 0;
  if (input.leverage) cut += counter === 1 ? 0.01 : 0.015;
  if (final) cut += 0.01;
  next.factor = clamp(previous.factor * (1 + premium - cut), floor, ceiling);
  if (Math.abs(next.factor - previous.factor) > 1e-9)
    given.push({ kind: 'price', from: previous.factor, to: next.factor });
  return { next, given };
}

/** Up to the cent: a supplier rounds in its own favour, and a price at the floor must not fall below it. */
function centsUp(amount: number): number {
  return Math.max(0.01, Math.ceil(amount * 100 - 1e-6) / 100);
}

/**
 * The offer draft for a position: baseline quantities, prices scaled, cumulative concessions spelled out. Against a
 * standing offer, an unchanged price keeps its exact unit prices and a lower one never raises a line: rounding to the
 * cent must not make a price creep between rounds.
 */
export function draftOf(
  position: Position,
  context: { baseline: Baseline; profile: SupplierProfile; open: number; final: boolean; standing?: Offer },
): OfferDraft {
  const { baseline, profile, standing } = context;
  const standingFactor = standing === undefined ? null : positionOf(standing, baseline).factor;
  const unchanged = standingFactor !== null && Math.abs(position.factor - standingFactor) < 1e-9;
  const lower = standingFactor !== null && position.factor < standingFactor;
  const lines = baseline.lines.map((line) => {
    const before = standing?.lines.find((candidate) => candidate.sku === line.sku)?.unitPrice;
    const scaled = centsUp(line.unitPrice * position.factor);
    const unitPrice = before === undefined ? scaled : unchanged ? before : lower ? Math.min(before, scaled) : scaled;
    const tiers: PriceTier[] = line.tiers.map((tier) => ({
      minQty: tier.minQty,
      unitPrice: centsUp(tier.unitPrice * position.factor),
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
  if (position.factor < context.open - 1e-9) {
    concessions.push(`${formatPercent(1 - position.factor / context.open, 1, 0)} off the opening price`);
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
