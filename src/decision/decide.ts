// The decision as numbers (seed 002 §6.7, §10): score the final offers, allocate the order under the
// capacity limits, and say what the award saves. Pure and deterministic: the same offers give the same numbers, and
// every figure here is one a finance person can redo by hand. The words come later (write-decision.ts) and may only
// repeat these figures.
//
// Savings are reported against the baseline quotation, the way procurement tools report them:
// - identified savings = quoted total − the lowest final offer total: what the negotiation put on the table, whether
//   or not the award takes it (the lowest offer may be capacity-capped or lose on landed cost). Only offers for every
//   line count: an offer that leaves lines out is cheaper by lines it does not sell;
// - awarded savings = the quote's effective landed cost − the award's, when the quote's landed cost is known (else
//   quoted total − the award's FOB): what the chosen award actually saves. Stated landed, because an award that is
//   cheaper on price can cost more at the door (a split's overhead, freight on an ex-works quote, worse terms); the
//   saving on price alone is kept beside it (`priceAmount`, `priceShare`);
// - landed savings = the quotation's effective landed cost (FOB + the cash-flow cost of its own terms) − the award's
//   effective landed cost (FOB + cash-flow cost + any split overhead): the same comparison with money's timing and
//   the split overhead counted; null when the quotation's terms or lead time are unknown;
// - cost avoidance = the awarded lines priced at each awarded supplier's opening offer − the award's FOB: what the
//   negotiation avoided paying those suppliers (it is not a saving against the quotation: a competitor opening above
//   the quotation and conceding down to it avoided cost but saved nothing); null without opening offers.
// All are currency amounts, negative when the award costs more; shares are fractions of the quoted total (or of the
// opening price, for cost avoidance).
import {
  COST_OF_CAPITAL_ANNUAL,
  SPLIT_ORDER_OVERHEAD,
  WORKSPACE_CURRENCY_DEFAULT,
  type NegotiationMode,
  type ScoringFactor,
  type ScoringWeights,
  type SupplierProfile,
} from '../config/business-rules.js';
import type { NegotiationState } from '../negotiation/engine.js';
import { assumedFactsByCode, type SupplierFact } from '../negotiation/facts.js';
import { consentedPremium, EMPTY_MANDATE, type Mandate, type PremiumReason } from '../negotiation/mandate.js';
import { type Baseline, firstBySku, type Offer, type PriceTier } from '../negotiation/types.js';
import {
  allocateOrder,
  supplierOptionFromOffer,
  unitPriceFor,
  type AllocationOutcome,
  type AllocationPlan,
  type AwardAlternative,
  type SupplierAllocation,
  type SupplierOption,
} from './allocation.js';
import { cashFlowCostRate } from '../commerce/cash-flow.js';
import { fxRate, type FxRate, type FxTable } from '../commerce/fx.js';
import { formatMoney, formatPercent, fromCents, toCents } from '../commerce/money.js';
import { describePaymentTerms, parsePaymentTerms } from '../commerce/payment-terms.js';
import { fnv1a } from '../commerce/rng.js';
import {
  chargesTotal,
  type IncotermCosts,
  landedRates,
  priceBasisLabel,
  readIncoterm,
  type Charge,
} from './landed-cost.js';
import {
  FACTOR_LABELS,
  mandateWeights,
  scoreOffers,
  weightsFor,
  type CustomWeights,
  type SupplierScore,
} from './scoring.js';

/** Below this many score points, a factor difference is not worth naming in a reason. */
export const NOTABLE_FACTOR_GAP = 10;
/** Offer totals closer than half a cent are the same price. */
const HALF_CENT = 0.005;

export type DecisionProfile = Pick<
  SupplierProfile,
  'code' | 'name' | 'qualityRating' | 'onTimeDeliveryRate' | 'defectRate'
>;

export interface DecisionInput {
  mode: NegotiationMode;
  /** Required in `custom` mode, ignored otherwise. */
  customWeights?: CustomWeights;
  baseline: Baseline;
  profiles: readonly DecisionProfile[];
  /** One final offer per supplier that is still in the running. */
  finalOffers: readonly Offer[];
  /** Each supplier's first offer, for cost avoidance. */
  openingOffers?: readonly Offer[];
  /** Largest share of the order (by value) a supplier can fill, e.g. the curveball's { 'SUP-002': 0.6 }. */
  capacityCaps?: Readonly<Record<string, number>>;
  /** Minimum units per SKU line, by supplier. */
  moqs?: Readonly<Record<string, number | null>>;
  /** Suppliers left out before scoring, and why (for the record and the text). */
  excluded?: readonly { supplierCode: string; reason: string }[];
  /** The buyer chose to single-source after the curveball: one supplier for the whole order, if any can take it. */
  singleSource?: boolean;
  /** Supplier code → figures of its offer or profile that are Parley's assumptions (negotiation/facts.ts). */
  assumedFacts?: Readonly<Record<string, readonly SupplierFact[]>>;
  annualRate?: number;
  splitOverhead?: number;
  /** The buyer's mandate: walk-away, deadline, invited suppliers, sourcing, accepted lead time, consents. */
  mandate?: Mandate;
  /**
   * The quotation as an offer (the quoting supplier's opening offer): its landed cost is the most an award may cost
   * without the buyer's consent, and its supplier carries the quote's charges. Without it, no such limit applies.
   */
  quotation?: Offer;
  /** The currency the workspace compares in, and the rates to convert to it (business rules by default). */
  workspaceCurrency?: string;
  fxTable?: FxTable;
  /** Freight and duty per Incoterm (INCOTERM_COSTS by default). */
  incotermCosts?: IncotermCosts;
}

export interface OfferFigures {
  supplierCode: string;
  name: string;
  total: number;
  leadTimeDays: number;
  paymentTerms: string;
  incoterm: string | null;
  /** After any cap: the largest share of the order it can fill. */
  capacityShare: number;
  qualityRating: number;
  onTimeDeliveryRate: number;
  defectRate: number;
  /** Of the whole offer, at its own terms and lead time. */
  cashFlowCost: number;
  /** The quote's charges (the quoting supplier's only), and the freight and duty its Incoterm leaves to the buyer. */
  charges: number;
  freight: number;
  duty: number;
  /**
   * total + cashFlowCost + charges + freight + duty: the whole order from this supplier alone, before asking whether
   * it can fill it.
   */
  effectiveLandedCost: number;
  /** Capacity 100% (and, as an offer for the whole order, every line quoted at or above any MOQ). */
  canFillAlone: boolean;
  score: number;
  rank: number;
}

export interface AwardedLine {
  sku: string;
  description: string;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
  /** The supplier's price breaks for this SKU, as offered. */
  tiers: PriceTier[];
}

/** A supplier's part of the award as the allocation computed it, with its name, terms and lines in full. */
export interface AwardedSupplier extends Omit<SupplierAllocation, 'lines'> {
  name: string;
  paymentTerms: string;
  leadTimeDays: number;
  incoterm: string | null;
  lines: AwardedLine[];
}

export interface Recommendation {
  supplierCodes: string[];
  shares: { supplierCode: string; name: string; share: number }[];
  isSplit: boolean;
  /** No single supplier could take the whole order. */
  forcedSplit: boolean;
  /** The allocation's own one-paragraph reason. */
  reason: string;
  /** The slowest awarded supplier's lead time: when the whole order is in. */
  leadTimeDays: number;
}

export interface Savings {
  baselineTotal: number;
  identified: { amount: number; share: number; bestOfferCode: string; bestOfferTotal: number };
  /**
   * On the same landed basis as the quote: the quote's effective landed cost − the award's (negative when the award
   * costs more). `priceAmount` is the same on price alone (quoted total − awarded FOB) and `priceShare` its share of
   * the quoted total, for the record.
   */
  awarded: { amount: number; share: number; awardedFob: number; priceAmount: number; priceShare: number };
  landed: { baselineLandedCost: number; awardedLandedCost: number; amount: number; share: number } | null;
  costAvoidance: { openingFob: number; amount: number; share: number } | null;
}

export interface CheapestNotChosen {
  cheapestCode: string;
  cheapestName: string;
  cheapestTotal: number;
  chosenCodes: string[];
  /** Award FOB − the cheapest offer total (≥ 0 unless the cheapest offer could not be placed whole). */
  fobPremium: number;
  fobPremiumShare: number;
  /** Award effective landed cost − the cheapest supplier's alone; null when it cannot fill the order alone. */
  landedDifference: number | null;
  /** Sentences of fact, each checkable against the figures above. */
  reasonFacts: string[];
}

export interface DecisionNumbers {
  mode: NegotiationMode;
  weights: ScoringWeights;
  currency: string;
  annualRate: number;
  splitOverheadRate: number;
  baseline: {
    supplierName: string;
    total: number;
    paymentTerms: string | null;
    leadTimeDays: number | null;
    lineCount: number;
    cashFlowCost: number | null;
    effectiveLandedCost: number | null;
  };
  /** Best score first. */
  offers: OfferFigures[];
  scores: SupplierScore[];
  allocation: AllocationPlan;
  recommendation: Recommendation;
  /** What each awarded supplier gets: the purchase order's allocations and lines. */
  award: AwardedSupplier[];
  savings: Savings;
  cheapestNotChosen: CheapestNotChosen | null;
  excluded: { supplierCode: string; name: string; reason: string }[];
  /** What the award was held to: the mandate's limits and the quote's landed cost. */
  limits: DecisionLimits;
  /** The mode's best award when it costs more than the quote allows without consent: the buyer may accept it. */
  premiumOption: PremiumOption | null;
  /**
   * The basis of the award's price, "FOB", "EXW", "DDP", … ("price" when its suppliers name no Incoterm Parley knows,
   * or different ones): a delivered award is never labelled with the quote's ex-works basis.
   */
  priceBasis: string;
  /** How landed cost was counted: the Incoterm assumed and the charges included. */
  landedBasis: LandedBasis;
  /** The award's landed cost in the workspace's currency; null when the rate table cannot convert. */
  inWorkspaceCurrency: {
    currency: string;
    effectiveLandedCost: number;
    quoteLandedCost: number | null;
    fx: FxRate;
  } | null;
  /** Supplier code → the scored figures that are Parley's assumptions, not the supplier's word: labelled in words. */
  assumedFacts: Record<string, SupplierFact[]>;
}

export interface DecisionLimits {
  walkAwayTotal: number | null;
  maxLeadTimeDays: number | null;
  acceptedLeadTimeDays: number | null;
  sourcing: Mandate['sourcing'];
  /** The quote's effective landed cost, on the award's basis; null without a quotation. */
  quoteLandedCost: number | null;
  /** The premium above it the buyer accepted (0 without a consent). */
  consentedPremium: number;
  /** Who accepted it, when the award is above the quote. */
  consentUsed: { by: string; at: string; reasons: PremiumReason[] } | null;
}

export interface LandedBasis {
  incoterm: string;
  /** The quote named no Incoterm Parley knows: this one was assumed. */
  assumed: boolean;
  freightRate: number;
  dutyRate: number;
  /** The quote's charges (carried by the quoting supplier). */
  charges: Charge[];
  chargesTotal: number;
}

/** An award above the quote's landed cost that the buyer may accept, and why it is worth asking. */
export interface PremiumOption {
  /** Stable for the same award: the consent button carries it. */
  id: string;
  supplierCodes: string[];
  names: string[];
  effectiveLandedCost: number;
  fob: number;
  leadTimeDays: number;
  /** Above the quote's landed cost (what the consent records). */
  overQuote: number;
  /** Above the award made without it; null when there is none. */
  overAward: number | null;
  /** Days sooner than the award made without it (or than the quote); null when not sooner. */
  daysSooner: number | null;
  reasons: PremiumReason[];
  /** The button's words: "Pay $1,547.01 more for 33 days sooner?". */
  question: string;
}

/** An award that breaks the mandate, and by how much. */
export interface Violation {
  kind: 'walk_away' | 'deadline' | 'over_quote' | 'capacity' | 'line_walk_away' | 'sourcing';
  /** In currency, days or a share, as the text says. */
  by: number;
  text: string;
}

export interface ClosestOption {
  supplierCodes: string[];
  names: string[];
  fob: number;
  effectiveLandedCost: number;
  leadTimeDays: number;
  violations: Violation[];
}

export interface NoFeasibleAward {
  /** Why nothing can be awarded, in one sentence. */
  why: string;
  /** Up to MAX_CLOSEST options, the fewest and smallest violations first. */
  closest: ClosestOption[];
  premiumOption: PremiumOption | null;
  /** The quote's effective landed cost, what the premium is measured from; null without a quotation. */
  quoteLandedCost: number | null;
}

export type DecideError = 'no_offers' | 'no_allocation' | 'no_feasible_award';
export type DecideOutcome =
  | { ok: true; numbers: DecisionNumbers }
  | { ok: false; error: DecideError; message: string; infeasible: NoFeasibleAward | null };

/** The premium a decision offers the buyer: above the award it makes, or the one that would make an award at all. */
export function offeredPremium(outcome: DecideOutcome): PremiumOption | null {
  return outcome.ok ? outcome.numbers.premiumOption : (outcome.infeasible?.premiumOption ?? null);
}

/** Closest options listed when nothing can be awarded. */
export const MAX_CLOSEST = 3;

/** The decision's inputs from an engine state: each supplier's last offer, the curveball's cap, opening offers. */
export function decisionInputFromState(
  state: NegotiationState,
  options: { customWeights?: CustomWeights; moqs?: Record<string, number | null> } = {},
): DecisionInput {
  const finalOffers: Offer[] = [];
  const openingOffers: Offer[] = [];
  const excluded: { supplierCode: string; reason: string }[] = [];
  // Beside a real supplier, a simulated one is a market reference: its prices were never offered by anyone, so it
  // stands on no award and no PO.
  const withRealSuppliers = state.profiles.some((profile) => profile.counterpart === 'connected');
  for (const profile of state.profiles) {
    if (withRealSuppliers && profile.counterpart !== 'connected') {
      excluded.push({ supplierCode: profile.code, reason: `${profile.name} is a market reference (simulated)` });
      continue;
    }
    const supplier = state.suppliers[profile.code];
    const last = supplier?.offers.at(-1);
    const first = supplier?.offers[0];
    if (!supplier || !last || !first) {
      excluded.push({ supplierCode: profile.code, reason: `${profile.name} made no offer` });
      continue;
    }
    // A supplier that ended the talks has no offer left to accept; any other impasse (a gap to the target, a stall,
    // a slow lead time) leaves its last offer standing, and the numbers decide whether it is worth taking.
    if (supplier.status === 'impasse' && supplier.impasse?.reason === 'rejected') {
      excluded.push({ supplierCode: profile.code, reason: `${profile.name} ended the talks` });
      continue;
    }
    finalOffers.push(last);
    openingOffers.push(first);
  }
  const quoting = state.profiles[0];
  const quotation = quoting === undefined ? undefined : state.suppliers[quoting.code]?.offers[0];
  return {
    mode: state.mode,
    customWeights: options.customWeights,
    baseline: state.baseline,
    profiles: state.profiles,
    mandate: state.mandate,
    ...(quotation === undefined ? {} : { quotation }),
    finalOffers,
    openingOffers,
    capacityCaps: state.curveball ? { [state.curveball.supplierCode]: state.curveball.capacityShare } : {},
    singleSource: state.curveball?.chosen === 'single_source',
    // The quoting supplier's sheet MOQ is met by construction (it quoted these very quantities); the simulated
    // suppliers have none. Callers that know better pass them.
    moqs: options.moqs,
    excluded,
    assumedFacts: assumedFactsByCode(state.assumptions),
  };
}

export function decide(input: DecisionInput): DecideOutcome {
  const annualRate = input.annualRate ?? COST_OF_CAPITAL_ANNUAL;
  const splitOverheadRate = input.splitOverhead ?? SPLIT_ORDER_OVERHEAD;
  const currency = input.baseline.currency;
  const money = (amount: number) => formatMoney(amount, currency);
  const profileOf = (code: string): DecisionProfile => {
    const profile = input.profiles.find((p) => p.code === code);
    if (!profile) throw new Error(`no supplier profile for ${code}`);
    return profile;
  };
  const nameOf = (code: string) => profileOf(code).name;
  const excluded = (input.excluded ?? []).map((e) => ({ ...e, name: nameOf(e.supplierCode) }));

  const mandate = input.mandate ?? EMPTY_MANDATE;
  const quoting = input.quotation?.supplierCode ?? input.profiles[0]?.code ?? null;
  const rulesOut = (supplierCode: string, reason: string) => {
    if (!excluded.some((e) => e.supplierCode === supplierCode)) {
      excluded.push({ supplierCode, reason, name: nameOf(supplierCode) });
    }
  };
  // Offers in another currency are compared in the quote's, at the rate table's rate; one it cannot convert is left out.
  const inQuoteCurrency = input.finalOffers.flatMap((offer) => {
    const converted = convertOffer(offer, currency, input.fxTable);
    if (converted === null)
      rulesOut(
        offer.supplierCode,
        `${nameOf(offer.supplierCode)} quotes in ${offer.currency}, which the rate table cannot convert`,
      );
    return converted === null ? [] : [converted];
  });
  const invited = inQuoteCurrency.filter((offer) => {
    const ok =
      quoting === null ||
      offer.supplierCode === quoting ||
      mandate.invitedSuppliers === null ||
      mandate.invitedSuppliers.includes(offer.supplierCode);
    if (!ok) rulesOut(offer.supplierCode, `${nameOf(offer.supplierCode)} was not invited`);
    return ok;
  });
  const capped = invited.map((offer) => {
    const cap = input.capacityCaps?.[offer.supplierCode];
    return cap === undefined ? offer : { ...offer, capacityShare: Math.min(offer.capacityShare, cap) };
  });
  if (capped.length === 0) {
    return {
      ok: false,
      error: 'no_offers',
      message: 'No supplier has an offer standing, so there is nothing to award.',
      infeasible: null,
    };
  }
  // The deadline is a hard limit: a supplier slower than it cannot be awarded, whatever it costs.
  const maxDays = mandate.maxLeadTimeDays;
  const offers = capped.filter((offer) => maxDays === null || offer.leadTimeDays <= maxDays);
  for (const late of capped.filter((offer) => !offers.includes(offer))) {
    rulesOut(
      late.supplierCode,
      `${nameOf(late.supplierCode)} ships in ${late.leadTimeDays} days, ${late.leadTimeDays - (maxDays ?? 0)} past the ` +
        `${maxDays ?? 0}-day deadline`,
    );
  }

  const lines = input.baseline.lines.map(({ sku, quantity }) => ({ sku, quantity }));
  const charges = input.baseline.charges ?? [];
  const rates = (offer: Offer) =>
    landedRates(
      offer.incoterm,
      offer.total,
      offer.supplierCode === quoting ? chargesTotal(charges) : 0,
      input.incotermCosts,
    );
  const quoteLanded =
    input.quotation === undefined ? null : wholeOrderLanded(input.quotation, rates(input.quotation), annualRate, lines);
  const consented = consentedPremium(mandate);
  const context: LimitContext = {
    input,
    mandate,
    money,
    nameOf,
    quoteLanded,
    consented,
    lines,
    rates,
    annualRate,
  };
  if (offers.length === 0) return noFeasibleAward(context, capped, null, 'no supplier meets the deadline');
  // A split needs two suppliers: say which one is left, rather than that no allocation fits.
  if (mandate.sourcing === 'split' && offers.length < 2) {
    const left = offers.map((offer) => nameOf(offer.supplierCode)).join(' and ');
    const why = maxDays === null ? 'has an offer standing' : `meets the ${maxDays}-day deadline`;
    return noFeasibleAward(context, capped, null, `the buyer asked for a split, but only ${left} ${why}`);
  }

  // "Speed matters more than price": lead time weighs at least as much as price, and cost mode weighs it too.
  const objectiveMode: NegotiationMode = input.mode === 'cost' && mandate.leadTimeOverPrice ? 'speed' : input.mode;
  const weights = mandateWeights(weightsFor(input.mode, input.customWeights), mandate);
  const scores = scoreOffers(
    offers.map((offer) => ({ offer, profile: profileOf(offer.supplierCode) })),
    input.mode,
    input.customWeights,
    { annualRate, weights, acceptedLeadTimeDays: mandate.acceptedLeadTimeDays },
  );
  const scoreOf = (code: string): SupplierScore => {
    const score = scores.find((s) => s.supplierCode === code);
    if (!score) throw new Error(`no score for ${code}`);
    return score;
  };

  // The totals that price the whole order: an offer that leaves lines out (a real supplier's may) is no lowest price
  // for lines it does not offer. Should none cover every line, the award itself shows the price.
  const covering = offers.filter((offer) => quotesEveryLine(offer, lines));
  const wholeOrderOffers = covering.length > 0 ? covering : offers;
  const options: SupplierOption[] = offers.map((offer) => {
    const { charges: chargeRate, freight, duty } = rates(offer);
    return supplierOptionFromOffer(offer, {
      moq: input.moqs?.[offer.supplierCode] ?? null,
      factors: scoreOf(offer.supplierCode).factors,
      extras: { charges: chargeRate, freight, duty },
    });
  });
  const allocate = (sourcing: { singleSource: boolean; requireSplit: boolean }) =>
    allocateOrder({
      lines,
      suppliers: options,
      mode: objectiveMode,
      weights,
      // The price sub-score's own reference, so that a one-supplier award scores exactly what its supplier scores.
      priceReference: Math.min(...wholeOrderOffers.map((o) => o.total)),
      annualRate,
      splitOverhead: splitOverheadRate,
      currency,
      ...sourcing,
      unitPriceLimits: mandate.walkAwayUnitPrices,
      limits: {
        ...(mandate.walkAwayTotal === null ? {} : { maxPrice: mandate.walkAwayTotal }),
        ...(quoteLanded === null ? {} : { maxLandedCost: fromCents(toCents(quoteLanded) + toCents(consented)) }),
      },
    });
  // The mandate's sourcing is a hard limit; the curveball's single-source choice stands when one supplier can take
  // the whole order, and when none can, the order is split after all, and the reason says so.
  const hardSingle = mandate.sourcing === 'single';
  const requireSplit = mandate.sourcing === 'split';
  const singleSourced =
    !hardSingle && !requireSplit && input.singleSource ? allocate({ singleSource: true, requireSplit: false }) : null;
  let outcome: AllocationOutcome = singleSourced?.ok
    ? singleSourced
    : allocate({ singleSource: hardSingle, requireSplit });
  // "Split only if it saves more than 5%": a split — awarded, or offered as a premium — that saves less against the
  // cheapest single-supplier award gives way to the single-supplier outcome.
  const minSaving = mandate.minSplitSaving;
  if (minSaving !== null && !requireSplit && !hardSingle) {
    const single = allocate({ singleSource: true, requireSplit: false });
    const cheapestSingle = single.ok
      ? (single.plan.scored?.cheapest.effectiveLandedCost ?? single.plan.effectiveLandedCost)
      : single.error.code === 'OVER_LIMIT'
        ? single.error.closest.effectiveLandedCost
        : null;
    const splitsThatSaveTooLittle = (award: { isSplit: boolean; effectiveLandedCost: number } | null) =>
      award !== null &&
      award.isSplit &&
      cheapestSingle !== null &&
      award.effectiveLandedCost > (1 - minSaving) * cheapestSingle;
    const candidates = outcome.ok
      ? [outcome.plan, outcome.plan.premiumOption]
      : outcome.error.code === 'OVER_LIMIT'
        ? [outcome.error.premiumOption]
        : [];
    if (candidates.some(splitsThatSaveTooLittle)) outcome = single;
  }
  if (!outcome.ok) {
    if (outcome.error.code === 'OVER_LIMIT') {
      const { closest, premiumOption } = outcome.error;
      return noFeasibleAward(context, capped, { closest, premiumOption }, outcome.message);
    }
    // Lines nobody quotes are the quote's problem, not the mandate's — unless the buyer's line walk-aways ruled them out.
    const lineLimits = Object.keys(mandate.walkAwayUnitPrices).length > 0;
    if (outcome.error.code === 'NO_FEASIBLE_ALLOCATION' || (outcome.error.code === 'UNCOVERED_LINES' && lineLimits)) {
      return noFeasibleAward(context, capped, null, outcome.message);
    }
    return { ok: false, error: 'no_allocation', message: outcome.message, infeasible: null };
  }
  const plan = outcome.plan;
  const choiceNote =
    (singleSourced === null
      ? ''
      : singleSourced.ok
        ? 'Single source, as chosen after the curveball. '
        : 'Single source was chosen after the curveball, but no one supplier can take the whole order. ') +
    (hardSingle ? 'One supplier for the whole order, as the buyer asked. ' : '');

  const figures: OfferFigures[] = scores.map((score) => {
    const offer = offers.find((o) => o.supplierCode === score.supplierCode);
    if (!offer) throw new Error(`no offer for ${score.supplierCode}`);
    const profile = profileOf(offer.supplierCode);
    return {
      supplierCode: offer.supplierCode,
      name: profile.name,
      total: offer.total,
      leadTimeDays: offer.leadTimeDays,
      paymentTerms: offer.paymentTerms,
      incoterm: offer.incoterm,
      capacityShare: offer.capacityShare,
      qualityRating: profile.qualityRating,
      onTimeDeliveryRate: profile.onTimeDeliveryRate,
      defectRate: profile.defectRate,
      cashFlowCost: score.cashFlowCost,
      ...landedParts(offer, rates(offer), lines),
      effectiveLandedCost: wholeOrderLanded(offer, rates(offer), annualRate, lines),
      canFillAlone: !plan.excluded.some((e) => e.supplierCode === offer.supplierCode),
      score: score.total,
      rank: score.rank,
    };
  });

  const descriptions = new Map(input.baseline.lines.map((line) => [line.sku, line.description]));
  const award: AwardedSupplier[] = plan.allocations.map((allocation) => {
    const offer = offers.find((o) => o.supplierCode === allocation.supplierCode);
    if (!offer) throw new Error(`no offer for ${allocation.supplierCode}`);
    const quoted = firstBySku(offer.lines);
    return {
      supplierCode: allocation.supplierCode,
      name: nameOf(allocation.supplierCode),
      share: allocation.share,
      paymentTerms: offer.paymentTerms,
      leadTimeDays: offer.leadTimeDays,
      incoterm: offer.incoterm,
      fob: allocation.fob,
      cashFlowCost: allocation.cashFlowCost,
      charges: allocation.charges,
      freight: allocation.freight,
      duty: allocation.duty,
      effectiveLandedCost: allocation.effectiveLandedCost,
      lines: allocation.lines.map((line) => ({
        ...line,
        description: descriptions.get(line.sku) ?? line.sku,
        tiers: quoted.get(line.sku)?.tiers ?? [],
      })),
    };
  });

  const recommendation: Recommendation = {
    supplierCodes: award.map((a) => a.supplierCode),
    shares: award.map(({ supplierCode, name, share }) => ({ supplierCode, name, share })),
    isSplit: plan.isSplit,
    forcedSplit: plan.forcedSplit,
    reason: choiceNote + plan.reason,
    leadTimeDays: Math.max(...award.map((a) => a.leadTimeDays)),
  };

  const baselineCash = baselineCashFlowCost(input.baseline, annualRate);
  // The quote's landed cost on the award's basis (charges, freight, duty, cash flow): savings are stated against it.
  // Without the quotation as an offer, the baseline's own terms price it the same way, when it states them.
  const baselineRates = landedRates(
    input.baseline.incoterm,
    input.baseline.total,
    chargesTotal(charges),
    input.incotermCosts,
  );
  const baselineLanded =
    quoteLanded ??
    (baselineCash === null
      ? null
      : fromCents(
          toCents(input.baseline.total) +
            toCents(baselineCash) +
            [baselineRates.charges, baselineRates.freight, baselineRates.duty]
              .map((rate) => Math.round(toCents(input.baseline.total) * rate))
              .reduce((a, b) => a + b, 0),
        ));
  const wholeOrderCodes = new Set(wholeOrderOffers.map((offer) => offer.supplierCode));
  const wholeOrderFigures = figures.filter((figure) => wholeOrderCodes.has(figure.supplierCode));
  const savings = computeSavings({ input, figures: wholeOrderFigures, plan, award, baselineLanded });
  const premiumOption = plan.premiumOption === null ? null : premiumOptionOf(context, plan.premiumOption, plan);
  const overQuote = quoteLanded !== null && plan.effectiveLandedCost > quoteLanded;
  const consent = overQuote ? (mandate.premiumConsents.at(-1) ?? null) : null;
  const basis = readIncoterm(input.quotation?.incoterm ?? input.baseline.incoterm);
  const basisRates = landedRates(basis.term, 1, 0, input.incotermCosts);
  const workspaceCurrency = input.workspaceCurrency ?? WORKSPACE_CURRENCY_DEFAULT;
  const fx = fxRate(currency, workspaceCurrency, input.fxTable);
  const cheapest = cheapestNotChosen({
    figures: wholeOrderFigures,
    plan,
    recommendation,
    weights,
    mode: input.mode,
    money,
    scores,
    splitOverheadRate,
    requireSplit,
  });

  return {
    ok: true,
    numbers: {
      mode: input.mode,
      weights,
      currency,
      annualRate,
      splitOverheadRate,
      baseline: {
        supplierName: input.baseline.supplierName,
        total: input.baseline.total,
        paymentTerms: input.baseline.paymentTerms,
        leadTimeDays: input.baseline.leadTimeDays,
        lineCount: input.baseline.lines.length,
        cashFlowCost: baselineCash,
        effectiveLandedCost: baselineLanded,
      },
      offers: figures,
      scores,
      allocation: plan,
      recommendation,
      award,
      savings,
      cheapestNotChosen: cheapest,
      excluded,
      limits: {
        walkAwayTotal: mandate.walkAwayTotal,
        maxLeadTimeDays: mandate.maxLeadTimeDays,
        acceptedLeadTimeDays: mandate.acceptedLeadTimeDays,
        sourcing: mandate.sourcing,
        quoteLandedCost: quoteLanded,
        consentedPremium: consented,
        consentUsed: consent === null ? null : { by: consent.by, at: consent.at, reasons: consent.reasons },
      },
      premiumOption,
      priceBasis: awardBasis(award),
      landedBasis: {
        incoterm: basis.term,
        assumed: basis.assumed,
        freightRate: basisRates.freight,
        dutyRate: basisRates.duty,
        charges: charges.map(({ description, amount }) => ({ description, amount })),
        chargesTotal: chargesTotal(charges),
      },
      inWorkspaceCurrency:
        fx === null
          ? null
          : {
              currency: fx.to,
              effectiveLandedCost: Math.round(plan.effectiveLandedCost * fx.rate * 100) / 100,
              quoteLandedCost: quoteLanded === null ? null : Math.round(quoteLanded * fx.rate * 100) / 100,
              fx,
            },
      assumedFacts: Object.fromEntries(
        figures.map((o) => [o.supplierCode, [...(input.assumedFacts?.[o.supplierCode] ?? [])]] as const),
      ),
    },
  };
}

/** The one price basis of every awarded supplier, or "price" when they differ or name none. */
function awardBasis(award: readonly AwardedSupplier[]): string {
  const bases = new Set(award.map((a) => priceBasisLabel(a.incoterm)));
  const [only] = [...bases];
  return bases.size === 1 && only !== undefined ? only : 'price';
}

/** "paying 100% upfront, 50 days before delivery," or "paying 40/60 over 25 days": the comma closes the aside. */
function payingTerms(paymentTerms: string, leadTimeDays: number): string {
  const words = describePaymentTerms(paymentTerms, { leadTimeDays });
  return `paying ${words}${words.includes(', ') ? ',' : ''}`;
}

function baselineCashFlowCost(baseline: Baseline, annualRate: number): number | null {
  if (baseline.paymentTerms === null || baseline.leadTimeDays === null) return null;
  const percentages = parsePaymentTerms(baseline.paymentTerms);
  if (percentages === null) return null;
  return fromCents(toCents(baseline.total) * cashFlowCostRate(percentages, baseline.leadTimeDays, annualRate));
}

function share(amount: number, of: number): number {
  return of === 0 ? 0 : Math.round((amount / of) * 10_000) / 10_000;
}

function computeSavings(context: {
  input: DecisionInput;
  figures: readonly OfferFigures[];
  plan: AllocationPlan;
  award: readonly AwardedSupplier[];
  baselineLanded: number | null;
}): Savings {
  const { input, figures, plan, award, baselineLanded } = context;
  const baselineTotal = input.baseline.total;
  const best = lowestOffer(figures);
  const identified = fromCents(toCents(baselineTotal) - toCents(best.total));
  const priceAmount = fromCents(toCents(baselineTotal) - toCents(plan.fob));
  // Stated on the quote's landed basis when there is one, so that a split that saves on price but costs more landed
  // does not say it saves.
  const awarded =
    baselineLanded === null ? priceAmount : fromCents(toCents(baselineLanded) - toCents(plan.effectiveLandedCost));
  const awardedBase = baselineLanded ?? baselineTotal;

  const landed =
    baselineLanded === null
      ? null
      : {
          baselineLandedCost: baselineLanded,
          awardedLandedCost: plan.effectiveLandedCost,
          amount: fromCents(toCents(baselineLanded) - toCents(plan.effectiveLandedCost)),
          share: share(baselineLanded - plan.effectiveLandedCost, baselineLanded),
        };

  let costAvoidance: Savings['costAvoidance'] = null;
  if (input.openingOffers !== undefined) {
    let openingCents = 0;
    let complete = true;
    for (const supplier of award) {
      const opening = input.openingOffers.find((o) => o.supplierCode === supplier.supplierCode);
      const openingBySku = firstBySku(opening?.lines ?? []);
      for (const line of supplier.lines) {
        const quoted = openingBySku.get(line.sku);
        if (!quoted) complete = false;
        else openingCents += Math.round(line.quantity * unitPriceFor(quoted, line.quantity) * 100);
      }
    }
    if (complete) {
      const openingFob = fromCents(openingCents);
      const amount = fromCents(openingCents - toCents(plan.fob));
      costAvoidance = { openingFob, amount, share: share(amount, openingFob) };
    }
  }

  return {
    baselineTotal,
    identified: {
      amount: identified,
      share: share(identified, baselineTotal),
      bestOfferCode: best.supplierCode,
      bestOfferTotal: best.total,
    },
    awarded: {
      amount: awarded,
      share: share(awarded, awardedBase),
      awardedFob: plan.fob,
      priceAmount,
      priceShare: share(priceAmount, baselineTotal),
    },
    landed,
    costAvoidance,
  };
}

/** The lowest offer total; a tie goes to the lower supplier code, so the answer never depends on input order. */
function lowestOffer(figures: readonly OfferFigures[]): OfferFigures {
  const sorted = [...figures].sort(
    (a, b) => a.total - b.total || (a.supplierCode < b.supplierCode ? -1 : a.supplierCode > b.supplierCode ? 1 : 0),
  );
  const first = sorted[0];
  if (!first) throw new Error('no offers');
  return first;
}

function cheapestNotChosen(context: {
  figures: readonly OfferFigures[];
  plan: AllocationPlan;
  recommendation: Recommendation;
  weights: ScoringWeights;
  mode: NegotiationMode;
  money: (amount: number) => string;
  scores: readonly SupplierScore[];
  splitOverheadRate: number;
  /** The mandate asks for a split: it is why the award is split, not its cost or score. */
  requireSplit?: boolean;
}): CheapestNotChosen | null {
  const { figures, plan, recommendation, money, mode } = context;
  const cheapest = lowestOffer(figures);
  const tiedForCheapest = figures.filter((f) => Math.abs(f.total - cheapest.total) < HALF_CENT);
  const chosen = recommendation.supplierCodes;
  // The cheapest offer chosen alone (or one that ties with it) is the easy case: nobody asks why.
  if (chosen.length === 1 && tiedForCheapest.some((f) => f.supplierCode === chosen[0])) return null;

  const facts: string[] = [];
  const name = cheapest.name;
  const inAward = chosen.includes(cheapest.supplierCode);
  const exclusion = plan.excluded.find((e) => e.supplierCode === cheapest.supplierCode);
  if (cheapest.capacityShare < 1) {
    facts.push(`${name} can fill at most ${formatPercent(cheapest.capacityShare, 0)} of the order value`);
  } else if (exclusion) {
    facts.push(exclusion.reason);
  }
  if (inAward) {
    const part = recommendation.shares.find((s) => s.supplierCode === cheapest.supplierCode);
    facts.push(`${name} still gets ${formatPercent(part?.share ?? 0)} of the order`);
  }

  const fobPremium = fromCents(toCents(plan.fob) - toCents(cheapest.total));
  const fobPremiumShare = share(plan.fob - cheapest.total, cheapest.total);
  if (fobPremium > 0) {
    facts.push(
      `the award's FOB of ${money(plan.fob)} is ${money(fobPremium)} (${formatPercent(fobPremiumShare)}) above ` +
        `${name}'s ${money(cheapest.total)}`,
    );
  }

  const landedDifference = cheapest.canFillAlone
    ? fromCents(toCents(plan.effectiveLandedCost) - toCents(cheapest.effectiveLandedCost))
    : null;
  if (landedDifference !== null && landedDifference < 0) {
    facts.push(
      `counting cash-flow cost${plan.isSplit ? ' and the split overhead' : ''}, the award's effective landed cost of ` +
        `${money(plan.effectiveLandedCost)} is ${money(-landedDifference)} below ${name}'s ` +
        `${money(cheapest.effectiveLandedCost)} (${payingTerms(cheapest.paymentTerms, cheapest.leadTimeDays)} ` +
        `ties up capital costing ${money(cheapest.cashFlowCost)})`,
    );
  } else if (landedDifference !== null && landedDifference > 0) {
    const scored = plan.scored;
    facts.push(
      `the award's effective landed cost of ${money(plan.effectiveLandedCost)} is ${money(landedDifference)} above ` +
        `${name}'s ${money(cheapest.effectiveLandedCost)}` +
        (scored === null
          ? ''
          : `: ${mode} mode pays for a better score, valuing a point at ${money(scored.pointValue)} ` +
            `(${formatPercent(scored.pointValueShare)} of the lowest offer), and pays at most ` +
            `${formatPercent(scored.maxPremiumShare, 0)} more than the cheapest feasible award`),
    );
  }

  if (plan.isSplit && context.requireSplit) {
    facts.push('the buyer asked for the order to be split, so no single supplier is awarded');
  } else if (plan.isSplit && plan.bestSingle !== null && plan.bestSingle.score !== undefined && plan.scored !== null) {
    facts.push(
      `the split still wins after its ${formatPercent(context.splitOverheadRate, 0)} overhead ` +
        `(${money(plan.splitOverhead)}): it scores ${plan.scored.award.score} against ${plan.bestSingle.score} for the ` +
        'best single supplier',
    );
  } else if (plan.isSplit && plan.bestSingle !== null) {
    facts.push(
      `the split still wins after its ${formatPercent(context.splitOverheadRate, 0)} overhead ` +
        `(${money(plan.splitOverhead)}): ${money(plan.effectiveLandedCost)} against ` +
        `${money(plan.bestSingle.effectiveLandedCost)} for the best single supplier`,
    );
  } else if (plan.forcedSplit) {
    facts.push('no single supplier can take the whole order, so it must be split');
  }

  if (mode !== 'cost') {
    const leading = [...recommendation.shares].sort((a, b) => b.share - a.share)[0];
    const cheapestScore = context.scores.find((s) => s.supplierCode === cheapest.supplierCode);
    const leadScore = context.scores.find((s) => s.supplierCode === leading?.supplierCode);
    if (leading && cheapestScore && leadScore && leading.supplierCode !== cheapest.supplierCode) {
      const gaps = (Object.keys(FACTOR_LABELS) as ScoringFactor[])
        .filter((f) => context.weights[f] > 0 && leadScore.factors[f] - cheapestScore.factors[f] >= NOTABLE_FACTOR_GAP)
        .map((f) => `${FACTOR_LABELS[f].toLowerCase()} ${leadScore.factors[f]} vs ${cheapestScore.factors[f]}`);
      facts.push(
        `in ${mode} mode ${leading.name} scores ${leadScore.total} against ${name}'s ${cheapestScore.total}` +
          (gaps.length > 0 ? ` (${gaps.join(', ')})` : ''),
      );
    }
  }

  return {
    cheapestCode: cheapest.supplierCode,
    cheapestName: name,
    cheapestTotal: cheapest.total,
    chosenCodes: [...chosen],
    fobPremium,
    fobPremiumShare,
    landedDifference,
    reasonFacts: facts,
  };
}

// ───────────────────────────── The mandate's limits ─────────────────────────────

interface LimitContext {
  input: DecisionInput;
  mandate: Mandate;
  money: (amount: number) => string;
  nameOf: (code: string) => string;
  quoteLanded: number | null;
  consented: number;
  lines: readonly { sku: string; quantity: number }[];
  rates: (offer: Offer) => ReturnType<typeof landedRates>;
  annualRate: number;
}

/** An offer in `currency`, converted line by line at the rate table's rate; itself when already in it. */
function convertOffer(offer: Offer, currency: string, table?: FxTable): Offer | null {
  if (offer.currency.trim().toUpperCase() === currency.trim().toUpperCase()) return offer;
  const rate = fxRate(offer.currency, currency, table);
  if (rate === null) return null;
  const convert = (price: number) => Math.round(price * rate.rate * 10_000) / 10_000;
  const lines = offer.lines.map((line) => ({
    ...line,
    unitPrice: convert(line.unitPrice),
    tiers: line.tiers.map((tier) => ({ ...tier, unitPrice: convert(tier.unitPrice) })),
  }));
  const total = fromCents(lines.reduce((sum, line) => sum + Math.round(line.quantity * line.unitPrice * 100), 0));
  return { ...offer, lines, total, currency };
}

/** Whether the offer quotes every line of the order, so that its total is a price for the whole order. */
function quotesEveryLine(offer: Offer, lines: LimitContext['lines']): boolean {
  const offered = firstBySku(offer.lines);
  return lines.every((line) => offered.has(line.sku));
}

/** An offer's goods total for the order's lines, in cents, summed line by line as allocation sums an award. */
function orderFobCents(offer: Offer, lines: LimitContext['lines']): number {
  let cents = 0;
  const offered = firstBySku(offer.lines);
  for (const line of lines) {
    const quoted = offered.get(line.sku);
    if (quoted === undefined) return toCents(offer.total);
    cents += Math.round(line.quantity * unitPriceFor(quoted, line.quantity) * 100);
  }
  return cents;
}

/**
 * The whole order from one offer, landed: goods + cash-flow cost + charges + freight + duty, each rounded to the cent
 * as allocation rounds an award's parts, so a one-supplier award and this figure agree to the cent.
 */
function wholeOrderLanded(
  offer: Offer,
  rates: Pick<ReturnType<typeof landedRates>, 'charges' | 'freight' | 'duty'>,
  annualRate: number,
  lines?: LimitContext['lines'],
): number {
  const fob = lines === undefined ? toCents(offer.total) : orderFobCents(offer, lines);
  const cash = Math.round(fob * cashFlowCostRate(offer.paymentTerms, offer.leadTimeDays, annualRate));
  const parts = [rates.charges, rates.freight, rates.duty].map((rate) => Math.round(fob * rate));
  return fromCents(fob + cash + parts.reduce((a, b) => a + b, 0));
}

/** The charges, freight and duty of the whole order from one offer, each rounded to the cent as wholeOrderLanded's. */
function landedParts(
  offer: Offer,
  rates: Pick<ReturnType<typeof landedRates>, 'charges' | 'freight' | 'duty'>,
  lines: LimitContext['lines'],
): { charges: number; freight: number; duty: number } {
  const fob = orderFobCents(offer, lines);
  return {
    charges: fromCents(Math.round(fob * rates.charges)),
    freight: fromCents(Math.round(fob * rates.freight)),
    duty: fromCents(Math.round(fob * rates.duty)),
  };
}

function leadTimeOf(context: LimitContext, codes: readonly string[]): number {
  const days = codes.map(
    (code) => context.input.finalOffers.find((o) => o.supplierCode === code)?.leadTimeDays ?? Number.POSITIVE_INFINITY,
  );
  return Math.max(...days);
}

/** What an award breaks: walk-away, line walk-aways, deadline, the quote's landed cost, capacity, sourcing. */
function violationsOf(
  context: LimitContext,
  award: {
    codes: string[];
    price: number;
    landed: number;
    leadTimeDays: number;
    capacityShare: number;
    linesOver: number;
  },
): Violation[] {
  const { mandate, money } = context;
  const out: Violation[] = [];
  const walkAway = mandate.walkAwayTotal;
  if (walkAway !== null && award.price > walkAway + HALF_CENT) {
    const by = fromCents(toCents(award.price) - toCents(walkAway));
    out.push({ kind: 'walk_away', by, text: `${money(by)} above the ${money(walkAway)} walk-away` });
  }
  if (award.linesOver > 0) {
    out.push({
      kind: 'line_walk_away',
      by: award.linesOver,
      text: `${award.linesOver} ${award.linesOver === 1 ? 'line' : 'lines'} above the line walk-away`,
    });
  }
  const maxDays = mandate.maxLeadTimeDays;
  if (maxDays !== null && award.leadTimeDays > maxDays) {
    const by = award.leadTimeDays - maxDays;
    out.push({ kind: 'deadline', by, text: `${by} days past the ${maxDays}-day deadline` });
  }
  if (context.quoteLanded !== null) {
    const limit = fromCents(toCents(context.quoteLanded) + toCents(context.consented));
    if (award.landed > limit + HALF_CENT) {
      const by = fromCents(toCents(award.landed) - toCents(limit));
      out.push({ kind: 'over_quote', by, text: `${money(by)} above the quote's landed cost of ${money(limit)}` });
    }
  }
  if (award.capacityShare < 1) {
    out.push({
      kind: 'capacity',
      by: 1 - award.capacityShare,
      text: `can fill only ${formatPercent(award.capacityShare, 0)} of the order`,
    });
  }
  if (mandate.sourcing === 'split' && award.codes.length === 1) {
    out.push({ kind: 'sourcing', by: 1, text: 'one supplier, but the buyer asked for a split' });
  }
  if (mandate.sourcing === 'single' && award.codes.length > 1) {
    out.push({ kind: 'sourcing', by: award.codes.length, text: 'a split, but the buyer asked for one supplier' });
  }
  return out;
}

function closestOptions(
  context: LimitContext,
  offers: readonly Offer[],
  alternative: AwardAlternative | null,
): ClosestOption[] {
  const { mandate } = context;
  const singles = offers
    .map((offer) => ({ offer, offered: firstBySku(offer.lines) }))
    .filter(({ offered }) => context.lines.every((line) => offered.has(line.sku)))
    .map(({ offer, offered }) => {
      const rates = context.rates(offer);
      const fob = fromCents(orderFobCents(offer, context.lines));
      const landed = wholeOrderLanded(offer, rates, context.annualRate, context.lines);
      const linesOver = context.lines.filter((line) => {
        const limit = mandate.walkAwayUnitPrices[line.sku];
        const quoted = offered.get(line.sku);
        return limit !== undefined && quoted !== undefined && unitPriceFor(quoted, line.quantity) > limit + HALF_CENT;
      }).length;
      const codes = [offer.supplierCode];
      const option: ClosestOption = {
        supplierCodes: codes,
        names: [context.nameOf(offer.supplierCode)],
        fob,
        effectiveLandedCost: landed,
        leadTimeDays: offer.leadTimeDays,
        violations: violationsOf(context, {
          codes,
          price: fob + fob * rates.charges,
          landed,
          leadTimeDays: offer.leadTimeDays,
          capacityShare: offer.capacityShare,
          linesOver,
        }),
      };
      return option;
    });
  const options = [...singles];
  if (alternative !== null && alternative.isSplit) {
    const codes = alternative.supplierCodes;
    const leadTimeDays = leadTimeOf(context, codes);
    options.push({
      supplierCodes: codes,
      names: codes.map(context.nameOf),
      fob: alternative.fob,
      effectiveLandedCost: alternative.effectiveLandedCost,
      leadTimeDays,
      violations: violationsOf(context, {
        codes,
        price: alternative.fob + alternative.charges,
        landed: alternative.effectiveLandedCost,
        leadTimeDays,
        capacityShare: 1,
        linesOver: 0,
      }),
    });
  }
  return options
    .sort(
      (a, b) =>
        a.violations.length - b.violations.length ||
        a.effectiveLandedCost - b.effectiveLandedCost ||
        a.supplierCodes.join().localeCompare(b.supplierCodes.join()),
    )
    .slice(0, MAX_CLOSEST);
}

/** No award can be made within the mandate: say why, list the closest options, and any premium the buyer may accept. */
function noFeasibleAward(
  context: LimitContext,
  offers: readonly Offer[],
  allocation: { closest: AwardAlternative; premiumOption: AwardAlternative | null } | null,
  why: string,
): DecideOutcome {
  const premiumOption =
    allocation === null || allocation.premiumOption === null
      ? null
      : premiumOptionOf(context, allocation.premiumOption, null);
  const infeasible: NoFeasibleAward = {
    why,
    closest: closestOptions(context, offers, allocation?.closest ?? null),
    premiumOption,
    quoteLandedCost: context.quoteLanded,
  };
  return { ok: false, error: 'no_feasible_award', message: describeNoAward(infeasible, context.money), infeasible };
}

/** "Nothing can be awarded within the mandate: … Closest: …": the no-award message's words, from the figures. */
export function describeNoAward(infeasible: NoFeasibleAward, money: (amount: number) => string): string {
  const options = infeasible.closest.map(
    (option) =>
      `${option.names.join(' + ')} (${money(option.effectiveLandedCost)} landed, ${option.leadTimeDays} days): ` +
      (option.violations.length === 0 ? 'meets the mandate' : option.violations.map((v) => v.text).join('; ')),
  );
  const said = infeasible.why.replace(/\.$/, '');
  // Mid-sentence, a capital goes, except Parley's own name.
  const why = said.startsWith('Parley') ? said : `${said.charAt(0).toLowerCase()}${said.slice(1)}`;
  return (
    `Nothing can be awarded within the mandate: ${why}.` +
    (options.length === 0 ? '' : ` Closest: ${options.join(' · ')}.`) +
    (infeasible.premiumOption === null ? '' : ` ${infeasible.premiumOption.question}`)
  );
}

/** The premium award as the buyer is asked about it: what it costs above the award (or the quote) and what it buys. */
function premiumOptionOf(context: LimitContext, option: AwardAlternative, plan: AllocationPlan | null): PremiumOption {
  const { money, mandate } = context;
  const codes = option.supplierCodes;
  const leadTimeDays = leadTimeOf(context, codes);
  const quoteLanded = context.quoteLanded ?? option.effectiveLandedCost;
  const overQuote = fromCents(toCents(option.effectiveLandedCost) - toCents(quoteLanded));
  const overAward =
    plan === null ? null : fromCents(toCents(option.effectiveLandedCost) - toCents(plan.effectiveLandedCost));
  const reference =
    plan === null
      ? (context.input.quotation?.leadTimeDays ?? null)
      : leadTimeOf(
          context,
          plan.allocations.map((a) => a.supplierCode),
        );
  const daysSooner = reference !== null && reference > leadTimeDays ? reference - leadTimeDays : null;

  const reasons: PremiumReason[] = [];
  const quoteLate =
    mandate.maxLeadTimeDays !== null && (context.input.quotation?.leadTimeDays ?? 0) > mandate.maxLeadTimeDays;
  if (plan === null && quoteLate) reasons.push('deadline');
  if (daysSooner !== null) reasons.push('lead_time');
  const gains = plan?.scored && option.score ? option.score.points : null;
  if (gains !== null && plan?.scored) {
    const award = plan.scored.award.points;
    const factorReasons: [ScoringFactor, PremiumReason][] = [
      ['quality', 'quality'],
      ['terms', 'terms'],
      ['reliability', 'reliability'],
    ];
    for (const [factor, reason] of factorReasons) if (gains[factor] - award[factor] >= 0.5) reasons.push(reason);
  }
  if (reasons.length === 0) reasons.push(mandate.sourcing === 'split' ? 'sourcing' : 'quality');

  const amount = money(overAward ?? overQuote);
  const question =
    reasons[0] === 'deadline'
      ? `Pay ${amount} more than the quote to meet the ${mandate.maxLeadTimeDays ?? 0}-day deadline?`
      : reasons.includes('lead_time') && daysSooner !== null
        ? `Pay ${amount} more for ${daysSooner} days sooner?`
        : `Pay ${amount} more for ${PREMIUM_WORDS[reasons[0] ?? 'quality']}?`;
  return {
    id: `p${fnv1a(`${codes.join('+')}:${toCents(option.effectiveLandedCost)}`).toString(36)}`,
    supplierCodes: codes,
    names: codes.map(context.nameOf),
    effectiveLandedCost: option.effectiveLandedCost,
    fob: option.fob,
    leadTimeDays,
    overQuote,
    overAward,
    daysSooner,
    reasons,
    question,
  };
}

const PREMIUM_WORDS: Readonly<Record<PremiumReason, string>> = {
  lead_time: 'a shorter lead time',
  deadline: 'meeting the deadline',
  quality: 'better quality',
  terms: 'better payment terms',
  reliability: 'a more reliable supplier',
  sourcing: 'the split you asked for',
};
