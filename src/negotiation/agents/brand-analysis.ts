// The numbers behind the offline brand agent: where this supplier stands against the others' latest offers, what to
// ask for, the cash cost of its terms, the curveball's effect. No rng here: the pillars and the synthesizer must work
// from the same analysis, whatever order the engine calls them in.
import { cashFlowCost } from '../../commerce/cash-flow.js';
import { fromCents, toCents } from '../../commerce/money.js';
import { parsePaymentTerms } from '../../commerce/payment-terms.js';
import type { NegotiationMode, SupplierProfile } from '../../config/business-rules.js';
import type { SupplierFact } from '../facts.js';
import type { BaselineLine, Offer } from '../types.js';
import { softenTerms } from './offline/concessions.js';
import type { BrandTurnContext, Clarification } from './interfaces.js';
import { DIFFERENT_APPROACH_ASK, triesDifferentApproach } from '../impasse.js';

export interface SupplierSnapshot {
  code: string;
  name: string;
  total: number;
  leadTimeDays: number;
  paymentTerms: string;
  capacityShare: number;
  profile: SupplierProfile;
  offer: Offer | null;
  /** False when the supplier has not offered yet and its quote (or profile) stands in. */
  fromOffer: boolean;
  /** Figures above that are Parley's assumptions (the supplier never stated them): never cited as its word. */
  assumed: ReadonlySet<SupplierFact>;
}

export interface BrandAnalysis {
  current: SupplierSnapshot;
  /** Other suppliers with an offer, cheapest first. */
  rivals: SupplierSnapshot[];
  /** The cheapest rival below this supplier: the leverage. */
  cheaperRival: SupplierSnapshot | null;
  /** The fastest rival quicker than this supplier, among rivals that stated their lead time. */
  fasterRival: SupplierSnapshot | null;
  /** The brand may name competitors, their prices and their problems to this supplier (the workspace's setting). */
  discloseCompetitors: boolean;
  /** rank: 0 for the largest line by value. */
  focus: { line: BaselineLine; rank: number; unitPrice: number; value: number; share: number };
  ask: { total: number; unitPrice: number; discount: number; leadTimeDays: number | null; paymentTerms: string | null };
  /** Null when the terms do not add up to 100%: the agent does not argue with a cost the decision would refuse. */
  cashCost: number | null;
  /** The longest lead time the buyer said they can live with. */
  requiredLeadDays: number | null;
  curveball: {
    cappedName: string;
    capacityShare: number;
    thisSupplier: boolean;
    cappedValue: number;
    openValue: number;
  } | null;
  units: number;
  final: boolean;
  roundsLeft: number;
  meetsTarget: boolean;
  supplierAccepted: boolean;
}

/** How hard the brand pushes in each mode: its first ask, as a discount off the supplier's standing offer. */
const OPENING_ASK: Readonly<Record<NegotiationMode, number>> = {
  cost: 0.09,
  balanced: 0.08,
  custom: 0.08,
  quality: 0.06,
  speed: 0.07,
  cashflow: 0.07,
};
/** Asks narrow by up to this share of the opening ask as the rounds run out: a buyer converges too. */
const ASK_DECAY = 0.3;
/** Extra discount asked when a cheaper competitor can be cited. */
const LEVERAGE_EXTRA = 0.03;
/** Never ask for more than this off the standing offer in one round: beyond it the counterpart stops listening. */
const MAX_ASK = 0.12;
/**
 * Nor more than this multiple of the supplier's known largest discount (its profile says how far it moves): asking a
 * 5% supplier for 12% only provokes a refusal — which a cost-first buyer whose target is out of reach risks anyway.
 */
const ASK_OVER_KNOWN_DISCOUNT = 1.6;

/**
 * The decision's cash-flow cost of an offer (commerce/cash-flow.ts), or null for terms it would refuse ("30/60"):
 * read in proportion they would price a schedule the supplier never offered.
 */
export function cashCost(total: number, paymentTerms: string, leadTimeDays: number): number | null {
  const percentages = parsePaymentTerms(paymentTerms);
  return percentages === null ? null : cashFlowCost({ amount: total, paymentTerms: percentages, leadTimeDays });
}

function snapshot(
  profile: SupplierProfile,
  offer: Offer | null,
  fallbackTotal: number,
  assumed: readonly SupplierFact[],
): SupplierSnapshot {
  return {
    code: profile.code,
    name: profile.name,
    total: offer?.total ?? fallbackTotal,
    leadTimeDays: offer?.leadTimeDays ?? profile.leadTimeDays,
    paymentTerms: offer?.paymentTerms ?? profile.paymentTerms,
    capacityShare: offer?.capacityShare ?? 1,
    profile,
    offer,
    fromOffer: offer !== null,
    assumed: new Set(assumed),
  };
}

/** The first amount in cents at or below `cents` that is not one of `taken`. */
function clearOf(taken: ReadonlySet<number>, cents: number): number {
  let clear = cents;
  while (taken.has(clear) && clear > 1) clear -= 1;
  return clear;
}

/** Rounds an ask down to a number a person would say: whole tens above 10,000, whole units above 1,000. */
function sayable(total: number): number {
  if (total >= 10_000) return Math.floor(total / 10) * 10;
  if (total >= 1_000) return Math.floor(total);
  return Math.floor(total * 100) / 100;
}

export function isLeadTimeTopic(clarification: Clarification): boolean {
  return clarification.topic === 'lead_time' || /lead.?time|deliver/i.test(clarification.question);
}

export function isSplitTopic(clarification: Clarification): boolean {
  return clarification.topic === 'split_order' || /split|single supplier/i.test(clarification.question);
}

const LEAD_IN_NOTES = /(?:within|in|under|by|max(?:imum)?|lead.?time(?: of)?)\s*(\d{1,3})\s*days/i;

/** The buyer's lead-time limit: the mandate's, else from their answers (latest first) or notes; null when never said. */
function requiredLead(context: BrandTurnContext): number | null {
  const deadline = context.mandate.maxLeadTimeDays;
  if (typeof deadline === 'number') return deadline;
  for (const clarification of [...context.clarifications].reverse()) {
    if (!isLeadTimeTopic(clarification)) continue;
    const days = /(\d{1,3})\s*days?/i.exec(clarification.answer);
    if (days?.[1] !== undefined) return Number(days[1]);
  }
  const noted = LEAD_IN_NOTES.exec(context.buyerNotes ?? '');
  return noted?.[1] === undefined ? null : Number(noted[1]);
}

/** The buyer said speed matters more than price. */
export function prefersSpeed(context: BrandTurnContext): boolean {
  return (
    context.mode === 'speed' ||
    context.clarifications.some((c) => isLeadTimeTopic(c) && /speed|asap|urgent|faster/i.test(c.answer))
  );
}

export function analyse(context: BrandTurnContext): BrandAnalysis {
  const { baseline, supplier, round, maxRounds, mandate } = context;
  const assumedOf = (code: string): readonly SupplierFact[] => context.assumedFacts?.[code] ?? [];
  const ownOffers = [...context.history.offers].sort((a, b) => a.round - b.round);
  const current = snapshot(supplier, ownOffers.at(-1) ?? null, baseline.total, assumedOf(supplier.code));
  const rivals = context.others
    .filter((other) => other.latestOffer !== null && other.profile.code !== supplier.code)
    .map((other) => snapshot(other.profile, other.latestOffer, baseline.total, assumedOf(other.profile.code)))
    .sort((a, b) => a.total - b.total);
  const cheaperRival = rivals.find((rival) => rival.total < current.total) ?? null;
  // A rival's assumed lead time is no argument: the brand would be quoting a number nobody stated.
  const fasterRival =
    rivals
      .filter((r) => !r.assumed.has('leadTimeDays'))
      .sort((a, b) => a.leadTimeDays - b.leadTimeDays)
      .find((r) => r.leadTimeDays < current.leadTimeDays) ?? null;

  const orderValue = baseline.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
  // A supplier that offers only some lines (a real one may: a line left out is "not offered") is argued with about
  // the lines it offers, and a line's share is of the whole order at the quote, not of its partial total.
  const offered = new Set(ownOffers.at(-1)?.lines.map((line) => line.sku) ?? []);
  const partial = offered.size > 0 && baseline.lines.some((line) => !offered.has(line.sku));
  const arguable = partial ? baseline.lines.filter((line) => offered.has(line.sku)) : baseline.lines;
  const top = [...arguable].sort((a, b) => b.quantity * b.unitPrice - a.quantity * a.unitPrice).slice(0, 3);
  // The cited line rotates with the rounds so the thread does not argue about one SKU forever.
  const rank = (Math.max(1, round) - 1) % Math.max(1, top.length);
  const focusLine = top[rank] ?? baseline.lines[0];
  if (focusLine === undefined) throw new Error('baseline has no lines');
  const ownLine = ownOffers.at(-1)?.lines.find((line) => line.sku === focusLine.sku);
  const focusUnit = ownLine?.unitPrice ?? focusLine.unitPrice;
  const focusValue = focusUnit * focusLine.quantity;

  const progress = maxRounds <= 1 ? 1 : Math.min(1, Math.max(0, (round - 1) / (maxRounds - 1)));
  const polite = Math.min(MAX_ASK, supplier.personality.maxDiscount * ASK_OVER_KNOWN_DISCOUNT);
  const outOfReach = mandate.targetTotal !== null && mandate.targetTotal < current.total * (1 - polite);
  const maxAsk = context.mode === 'cost' && outOfReach ? MAX_ASK : polite;
  const discount = Math.min(maxAsk, OPENING_ASK[context.mode] * (1 - ASK_DECAY * progress));
  let askTotal = current.total * (1 - discount);
  if (cheaperRival !== null) {
    const pushed = current.total * (1 - Math.min(maxAsk, discount + LEVERAGE_EXTRA));
    askTotal = Math.min(askTotal, Math.max(cheaperRival.total, pushed));
  }
  if (mandate.targetTotal !== null && mandate.targetTotal < askTotal) {
    askTotal = Math.max(mandate.targetTotal, current.total * (1 - maxAsk));
  }
  // The buyer chose to work through an impasse with this supplier: a modest step now, not another push (impasse.ts).
  if (triesDifferentApproach(context.clarifications, supplier.code)) {
    askTotal = Math.max(askTotal, current.total * (1 - DIFFERENT_APPROACH_ASK));
  }
  askTotal = sayable(askTotal);
  // Unnamed, a competitor's exact figure must not come back as the brand's own ask ("meet us at" its very price).
  const rivalCents = new Set(
    context.discloseCompetitors === true
      ? []
      : rivals
          .flatMap((r) => (r.offer === null ? [] : [r.offer.total, ...r.offer.lines.map((l) => l.unitPrice)]))
          .map(toCents),
  );
  while (rivalCents.has(toCents(askTotal))) askTotal = fromCents(toCents(askTotal) - (askTotal >= 10_000 ? 1_000 : 1));
  const askFactor = askTotal / current.total;

  const required = requiredLead(context);
  const leadAssumed = current.assumed.has('leadTimeDays');
  let askLead: number | null = null;
  if (required !== null && (leadAssumed || required < current.leadTimeDays)) askLead = required;
  // With no lead time stated, a target derived from an assumed one would be a made-up requirement.
  else if (prefersSpeed(context) && !leadAssumed) {
    const faster = Math.max(fasterRival?.leadTimeDays ?? 1, Math.round(current.leadTimeDays * 0.8));
    askLead = faster < current.leadTimeDays ? faster : null;
  }
  const upfront = parsePaymentTerms(current.paymentTerms)?.[0] ?? 0;
  const wantsTerms = context.mode === 'cashflow' || (upfront >= 100 && round >= 3);
  const softer = softenTerms(current.paymentTerms);
  // Softer than terms the supplier never stated is softer than an assumption: the brand asks for its terms instead.
  const askTerms =
    wantsTerms && !current.assumed.has('paymentTerms') && softer !== current.paymentTerms ? softer : null;

  const curveball = context.curveball;
  const lastSupplierMessage = [...context.history.messages].reverse().find((message) => message.from === 'supplier');

  return {
    current,
    rivals,
    cheaperRival,
    fasterRival,
    discloseCompetitors: context.discloseCompetitors === true,
    focus: {
      line: focusLine,
      rank,
      unitPrice: focusUnit,
      value: focusValue,
      share: partial
        ? (focusLine.quantity * focusLine.unitPrice) / (orderValue || 1)
        : focusValue / (current.total || orderValue),
    },
    ask: {
      total: askTotal,
      unitPrice: clearOf(rivalCents, Math.floor(focusUnit * askFactor * 100)) / 100,
      discount: 1 - askFactor,
      leadTimeDays: askLead,
      paymentTerms: askTerms,
    },
    cashCost: cashCost(current.total, current.paymentTerms, current.leadTimeDays),
    requiredLeadDays: required,
    curveball:
      curveball === null
        ? null
        : {
            cappedName: curveball.supplierName,
            capacityShare: curveball.capacityShare,
            thisSupplier: curveball.supplierCode === supplier.code,
            cappedValue: current.total * curveball.capacityShare,
            openValue: current.total * (1 - curveball.capacityShare),
          },
    units: baseline.lines.reduce((sum, line) => sum + line.quantity, 0),
    final: round >= maxRounds,
    roundsLeft: Math.max(0, maxRounds - round),
    meetsTarget: current.fromOffer && mandate.targetTotal !== null && current.total <= mandate.targetTotal,
    supplierAccepted: lastSupplierMessage?.action?.type === 'ACCEPT',
  };
}
