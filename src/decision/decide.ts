// The decision as numbers (seed 002 §6.7, §10; issue 5 item 4): score the final offers, allocate the order under the
// capacity limits, and say what the award saves. Pure and deterministic: the same offers give the same numbers, and
// every figure here is one a finance person can redo by hand. The words come later (write-decision.ts) and may only
// repeat these figures.
//
// Savings are reported against the baseline quotation, the way procurement tools report them:
// - identified savings = quoted total − the lowest final offer total: what the negotiation put on the table, whether
//   or not the award takes it (the lowest offer may be capacity-capped or lose on landed cost);
// - awarded savings = quoted total − the award's FOB: what the chosen award actually saves on price;
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
  type NegotiationMode,
  type ScoringFactor,
  type ScoringWeights,
  type SupplierProfile,
} from '../config/business-rules.js';
import type { NegotiationState } from '../negotiation/engine.js';
import type { Baseline, Offer, PriceTier } from '../negotiation/types.js';
import {
  allocateOrder,
  supplierOptionFromOffer,
  unitPriceFor,
  type AllocationPlan,
  type SupplierOption,
} from './allocation.js';
import { cashFlowCostRate } from '../commerce/cash-flow.js';
import { formatMoney, formatPercent, fromCents, toCents } from '../commerce/money.js';
import { describePaymentTerms, parsePaymentTerms } from '../commerce/payment-terms.js';
import { FACTOR_LABELS, scoreOffers, weightsFor, type CustomWeights, type SupplierScore } from './scoring.js';

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
  annualRate?: number;
  splitOverhead?: number;
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
  /** total + cashFlowCost: the whole order from this supplier alone, before asking whether it can fill it. */
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

export interface AwardedSupplier {
  supplierCode: string;
  name: string;
  /** Share of the order's FOB value, 0–1. */
  share: number;
  paymentTerms: string;
  leadTimeDays: number;
  incoterm: string | null;
  fob: number;
  cashFlowCost: number;
  /** fob + cashFlowCost: this supplier's part, before the split overhead. */
  effectiveLandedCost: number;
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
  awarded: { amount: number; share: number; awardedFob: number };
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
}

export type DecideError = 'no_offers' | 'no_allocation';
export type DecideOutcome = { ok: true; numbers: DecisionNumbers } | { ok: false; error: DecideError; message: string };

/** The decision's inputs from an engine state: each supplier's last offer, the curveball's cap, opening offers. */
export function decisionInputFromState(
  state: NegotiationState,
  options: { customWeights?: CustomWeights; moqs?: Record<string, number | null> } = {},
): DecisionInput {
  const finalOffers: Offer[] = [];
  const openingOffers: Offer[] = [];
  const excluded: { supplierCode: string; reason: string }[] = [];
  for (const profile of state.profiles) {
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
  return {
    mode: state.mode,
    customWeights: options.customWeights,
    baseline: state.baseline,
    profiles: state.profiles,
    finalOffers,
    openingOffers,
    capacityCaps: state.curveball ? { [state.curveball.supplierCode]: state.curveball.capacityShare } : {},
    singleSource: state.curveball?.chosen === 'single_source',
    // The quoting supplier's sheet MOQ is met by construction (it quoted these very quantities); the simulated
    // suppliers have none. Callers that know better pass them.
    moqs: options.moqs,
    excluded,
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

  const offers = input.finalOffers.map((offer) => {
    const cap = input.capacityCaps?.[offer.supplierCode];
    return cap === undefined ? offer : { ...offer, capacityShare: Math.min(offer.capacityShare, cap) };
  });
  if (offers.length === 0) {
    return {
      ok: false,
      error: 'no_offers',
      message: 'No supplier has an offer standing, so there is nothing to award.',
    };
  }

  const weights = weightsFor(input.mode, input.customWeights);
  const scores = scoreOffers(
    offers.map((offer) => ({ offer, profile: profileOf(offer.supplierCode) })),
    input.mode,
    input.customWeights,
    { annualRate },
  );
  const scoreOf = (code: string): SupplierScore => {
    const score = scores.find((s) => s.supplierCode === code);
    if (!score) throw new Error(`no score for ${code}`);
    return score;
  };

  const options: SupplierOption[] = offers.map((offer) =>
    supplierOptionFromOffer(offer, {
      moq: input.moqs?.[offer.supplierCode] ?? null,
      factors: scoreOf(offer.supplierCode).factors,
    }),
  );
  const allocate = (singleSource: boolean) =>
    allocateOrder({
      lines: input.baseline.lines.map(({ sku, quantity }) => ({ sku, quantity })),
      suppliers: options,
      mode: input.mode,
      weights,
      // The price sub-score's own reference, so that a one-supplier award scores exactly what its supplier scores.
      priceReference: Math.min(...offers.map((o) => o.total)),
      annualRate,
      splitOverhead: splitOverheadRate,
      currency,
      singleSource,
    });
  // The buyer's single-source choice stands when one supplier can take the whole order; when none can, the order is
  // split after all, and the reason says so.
  const singleSourced = input.singleSource ? allocate(true) : null;
  const outcome = singleSourced?.ok ? singleSourced : allocate(false);
  if (!outcome.ok) return { ok: false, error: 'no_allocation', message: outcome.message };
  const plan = outcome.plan;
  const choiceNote =
    singleSourced === null
      ? ''
      : singleSourced.ok
        ? 'Single source, as chosen after the curveball. '
        : 'Single source was chosen after the curveball, but no one supplier can take the whole order. ';

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
      effectiveLandedCost: fromCents(toCents(offer.total) + toCents(score.cashFlowCost)),
      canFillAlone: !plan.excluded.some((e) => e.supplierCode === offer.supplierCode),
      score: score.total,
      rank: score.rank,
    };
  });

  const descriptions = new Map(input.baseline.lines.map((line) => [line.sku, line.description]));
  const award: AwardedSupplier[] = plan.allocations.map((allocation) => {
    const offer = offers.find((o) => o.supplierCode === allocation.supplierCode);
    if (!offer) throw new Error(`no offer for ${allocation.supplierCode}`);
    return {
      supplierCode: allocation.supplierCode,
      name: nameOf(allocation.supplierCode),
      share: allocation.share,
      paymentTerms: offer.paymentTerms,
      leadTimeDays: offer.leadTimeDays,
      incoterm: offer.incoterm,
      fob: allocation.fob,
      cashFlowCost: allocation.cashFlowCost,
      effectiveLandedCost: allocation.effectiveLandedCost,
      lines: allocation.lines.map((line) => ({
        ...line,
        description: descriptions.get(line.sku) ?? line.sku,
        tiers: offer.lines.find((l) => l.sku === line.sku)?.tiers ?? [],
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
  const baselineLanded =
    baselineCash === null ? null : fromCents(toCents(input.baseline.total) + toCents(baselineCash));
  const savings = computeSavings({ input, figures, plan, award, baselineLanded });
  const cheapest = cheapestNotChosen({
    figures,
    plan,
    recommendation,
    weights,
    mode: input.mode,
    money,
    scores,
    splitOverheadRate,
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
    },
  };
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
  const awarded = fromCents(toCents(baselineTotal) - toCents(plan.fob));

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
      for (const line of supplier.lines) {
        const quoted = opening?.lines.find((l) => l.sku === line.sku);
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
    awarded: { amount: awarded, share: share(awarded, baselineTotal), awardedFob: plan.fob },
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

  if (plan.isSplit && plan.bestSingle !== null && plan.bestSingle.score !== undefined && plan.scored !== null) {
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
