// The offline supplier agent: private economics (supplier-economics.ts) and a bargaining rule that answers the ask
// (concessions.ts), voiced through the template banks (phrases.ts). Same context and same rng seed → the same turn, so
// a negotiation replays exactly.
import type { Rng } from '../../../commerce/rng.js';
import type { BaselineLine, Offer } from '../../types.js';
import {
  baselineValue,
  draftOf,
  EXTRAS,
  isPush,
  meetsAsk,
  planNext,
  tierQuantity,
  type BuyerGive,
  type Concession,
  type Plan,
  type Position,
} from './concessions.js';
import { formatMoney, formatPercent } from '../../../commerce/money.js';
import { acceptedOffer } from '../../offers.js';
import { describePaymentTerms } from '../../../commerce/payment-terms.js';
import { MAX_MESSAGE_CHARS, skuRef } from '../format.js';
import {
  BRAND_PERSONA,
  readBrandAsk,
  type BrandAsk,
  type CompetitorMention,
  type OfferDraft,
  type SupplierAgent,
  type SupplierTurn,
  type SupplierTurnContext,
} from '../interfaces.js';
import {
  CAPACITY_PHRASES,
  CONCESSION_PHRASES,
  SUPPLIER_BANKS,
  SUPPLIER_REACTIONS,
  SUPPLIER_STRATEGY_LINES,
  type SupplierBank,
  type SupplierFill,
} from './phrases.js';
import { creditStrategies, missingStrategy, Wording, type MessagePart, type Phrase } from './tactics.js';

export function createOfflineSupplierAgent(): SupplierAgent {
  return { respond: (context) => Promise.resolve(offlineSupplierTurn(context)) };
}

export function offlineSupplierTurn(context: SupplierTurnContext): SupplierTurn {
  const { baseline, rng, economics } = context;
  const value = baselineValue(baseline);
  const offers = [...context.history.offers].sort((a, b) => a.round - b.round);
  const last = offers.at(-1);
  const latestAsk = readBrandAsk(context.latestBrandMessage.action);
  const asks = dedupeAsks([...context.history.brandAsks, ...(latestAsk === null ? [] : [latestAsk])]);
  // Talks this supplier walked out of and the brand reopened: only the pushes since count, and its patience is short.
  const walkedAway = context.history.messages
    .filter((message) => message.from === 'supplier' && message.action?.type === 'WALK_AWAY')
    .at(-1);
  const since = walkedAway?.round ?? 0;
  const pushesBefore = asks.filter(
    (ask) => ask.round > since && ask.round < context.round && isPush(ask, economics, value),
  ).length;
  const rival = lowerRival(context.competitorMentions, context.round, last?.total ?? null);
  const capacityShare = Math.min(1, Math.max(0, context.curveball?.capacityShare ?? 1));

  const plan = planNext({
    profile: context.profile,
    baseline,
    economics,
    offers,
    round: context.round,
    maxRounds: context.maxRounds,
    ask: latestAsk,
    pushesBefore,
    reopened: walkedAway !== undefined,
    rival,
    capacityShare,
    rng,
  });

  const voice = new Voice(context, offers, plan, rival, latestAsk, walkedAway !== undefined);
  // The brand took the standing offer: confirm it as it stands, no further concession.
  if (context.latestBrandMessage.action.type === 'ACCEPT' && last !== undefined) return voice.confirm(last);
  switch (plan.decision.kind) {
    case 'open':
      return voice.opening();
    case 'accept': {
      // It takes the asked price; when its delivery or terms fall short of the rest of the ask, that is an offer at
      // the asked price, not an acceptance (which would record the ask whole).
      if (meetsAsk(plan.next, latestAsk)) return voice.accept(plan.next);
      const nearFloor = plan.next.total - plan.reservation <= 0.002 * value;
      return voice.counter({ push: false, warn: false, nearFloor });
    }
    case 'walk_away':
      return voice.walkAway(plan.decision.pushes);
    case 'counter':
      return voice.counter(plan.decision);
  }
}

const GIVE_WORDS: Readonly<Record<BuyerGive, string>> = {
  upfront: 'more paid upfront',
  later: 'a later delivery date',
  volume: 'the larger volume',
};

/** One ask per round; a later entry for the same round (the latest message) wins. */
function dedupeAsks(asks: readonly BrandAsk[]): BrandAsk[] {
  const byRound = new Map<number, BrandAsk>();
  for (const ask of asks) byRound.set(ask.round, ask);
  return [...byRound.values()];
}

/** The lowest competitor cited this round, when it undercuts this supplier's standing offer. */
function lowerRival(
  mentions: readonly CompetitorMention[],
  round: number,
  standingTotal: number | null,
): CompetitorMention | null {
  if (standingTotal === null) return null;
  const lower = mentions.filter((mention) => mention.round === round && mention.total < standingTotal);
  return lower.reduce<CompetitorMention | null>(
    (best, mention) => (best === null || mention.total < best.total ? mention : best),
    null,
  );
}

interface Part extends MessagePart {
  /** The sign-off: sentences added late go in before it. */
  closer?: boolean;
}

/** Writes one supplier turn: picks the wording, fills it with the plan's numbers, keeps it short and fresh. */
class Voice {
  private readonly bank: SupplierBank;
  private readonly wording: Wording;
  private readonly focus: BaselineLine;
  private readonly alt: BaselineLine;

  constructor(
    private readonly context: SupplierTurnContext,
    private readonly offers: readonly Offer[],
    private readonly plan: Plan,
    private readonly rival: CompetitorMention | null,
    private readonly ask: BrandAsk | null,
    private readonly reopened: boolean,
  ) {
    this.bank = SUPPLIER_BANKS[plan.style];
    this.wording = new Wording(context, 'supplier');
    const [focus, alt] = focusLines(context.baseline.lines, context.rng);
    this.focus = focus;
    this.alt = alt;
  }

  opening(): SupplierTurn {
    const draft = this.draft(this.plan.next);
    const fill = this.fill(draft, this.plan.next);
    const parts = [this.part(this.bank.opening, fill, false, 9)];
    if (this.plan.next.capacityShare < 1) parts.push(this.part(CAPACITY_PHRASES, fill, false, 9));
    if (this.context.rng.next() < 0.5) parts.push({ ...this.part(this.bank.close, fill, true, 1), closer: true });
    return this.turn('PROPOSE_OFFER', { offer: draft }, parts, fill);
  }

  counter(decision: { push: boolean; warn: boolean; nearFloor: boolean }): SupplierTurn {
    const { rng } = this.context;
    const { next, previous, given, final, style } = this.plan;
    const draft = this.draft(next);
    const fill = this.fill(draft, next);
    const parts: Part[] = [];
    // The brand came back after this supplier walked out: it says so before anything else.
    if (this.backAfterWalkingOut()) parts.push(this.part(SUPPLIER_REACTIONS.reopen, fill, false, 8));
    else if (rng.next() < 0.75) parts.push(this.part(this.bank.greeting, fill, true, 1));
    // One more push like this ends the talks: the warning is never dropped.
    if (decision.warn) parts.push(this.part(SUPPLIER_REACTIONS.warn, fill, false, 8));
    else if (decision.push) parts.push(this.part(this.bank.pushBack, fill, false, 7));
    if (this.plan.rivalDoubted) parts.push(this.part(SUPPLIER_REACTIONS.doubt, fill, false, 6));
    else if (this.rival !== null) parts.push(this.part(this.bank.leverage, fill, true, 5));
    if (this.plan.buyerGave.length > 0) parts.push(this.part(SUPPLIER_REACTIONS.trade, fill, false, 6));

    const priceFell = previous !== null && next.total < previous.total - 0.005;
    const price = this.part(priceFell ? this.bank.priceMove : this.bank.priceHold, fill, false, 9);
    const moves = given.filter((move) => move.kind !== 'price').map((move) => this.concession(move, fill));
    // Each personality tells its story in its own order: price first, extras first, or the new shape first.
    if (style === 'margin') parts.push(price, ...moves);
    else if (style === 'premium') parts.push(...moves, price);
    else if (priceFell) parts.push(...moves, price);
    else parts.push(price, ...moves);

    if (next.capacityShare < 1) parts.push(this.part(CAPACITY_PHRASES, fill, false, 9));
    if (final) parts.push({ ...this.part(this.bank.finalClose, fill, true, 4), closer: true });
    else if (rng.next() < 0.6) parts.push({ ...this.part(this.bank.close, fill, true, 2), closer: true });
    return this.turn('COUNTER_OFFER', { offer: draft }, parts, fill);
  }

  /**
   * It takes the ask — or, asked for more than its standing offer, the standing offer: the total it says is its own.
   * What it says is what the engine records for an acceptance (offers.ts acceptedOffer): the ask's prices, delivery and
   * terms, with its own concessions and conditions.
   */
  accept(position: Position): SupplierTurn {
    const standing = this.offers.at(-1);
    const agreed =
      standing === undefined ? null : acceptedOffer({ ask: this.ask, standing, round: this.context.round }).offer;
    const settled: Position =
      agreed === null
        ? position
        : { ...position, total: agreed.total, leadTimeDays: agreed.leadTimeDays, paymentTerms: agreed.paymentTerms };
    const priced = this.draft(settled);
    const draft: OfferDraft =
      agreed === null
        ? priced
        : {
            ...priced,
            lines: agreed.lines.map(({ sku, quantity, unitPrice, tiers }) => ({ sku, quantity, unitPrice, tiers })),
          };
    const fill = {
      ...this.fill(draft, settled),
      askTotal: formatMoney(draftTotal(draft), this.context.baseline.currency),
    };
    const parts = [this.part(this.bank.accept, fill, false, 9)];
    if (this.backAfterWalkingOut()) parts.unshift(this.part(SUPPLIER_REACTIONS.reopen, fill, false, 8));
    if (position.capacityShare < 1) parts.push(this.part(CAPACITY_PHRASES, fill, false, 9));
    return this.turn('ACCEPT', { offer: draft }, parts, fill);
  }

  /** Its last word was walking out, and the brand has written again: the talks were reopened. */
  private backAfterWalkingOut(): boolean {
    const lastSaid = this.context.history.messages.filter((m) => m.from === 'supplier').at(-1);
    return this.reopened && lastSaid?.action?.type === 'WALK_AWAY';
  }

  /** The brand accepted the standing offer: confirm it exactly as stored, no re-pricing. */
  confirm(standing: Offer): SupplierTurn {
    const draft: OfferDraft = {
      lines: standing.lines.map((line) => ({ ...line })),
      leadTimeDays: standing.leadTimeDays,
      paymentTerms: standing.paymentTerms,
      concessions: [...standing.concessions],
      conditions: [...standing.conditions],
      ...(standing.capacityShare < 1 ? { capacityShare: standing.capacityShare } : {}),
    };
    const position = this.plan.previous ?? this.plan.next;
    const fill = {
      ...this.fill(draft, position),
      askTotal: formatMoney(standing.total, this.context.baseline.currency),
    };
    const parts = [this.part(this.bank.accept, fill, false, 9)];
    if (standing.capacityShare < 1) parts.push(this.part(CAPACITY_PHRASES, fill, false, 9));
    return this.turn('ACCEPT', { offer: draft }, parts, fill);
  }

  /** Pushed below its floor once too often: it leaves, saying why; its last offer was its limit. */
  walkAway(pushes: number): SupplierTurn {
    const standing = this.plan.previous ?? this.plan.next;
    const draft = this.draft(standing);
    const fill = this.fill(draft, standing);
    const parts = [this.part(this.bank.walkAway, fill, false, 9)];
    const reason = `Asked ${fill.askTotal}: ${pushes} asks below what we can make the order for`;
    return this.turn('WALK_AWAY', { reason }, parts, fill);
  }

  private draft(position: Position): OfferDraft {
    const standing = this.offers.at(-1);
    return draftOf(position, {
      baseline: this.context.baseline,
      profile: this.context.profile,
      economics: this.context.economics,
      open: this.plan.open,
      final: this.plan.final,
      ...(standing === undefined ? {} : { standing }),
    });
  }

  private concession(move: Concession, fill: SupplierFill): Part {
    switch (move.kind) {
      case 'extra':
        return this.part(CONCESSION_PHRASES.extra, { ...fill, extra: lowerFirst(EXTRAS[move.extra].label) }, false, 8);
      case 'terms':
        return this.part(CONCESSION_PHRASES.terms, fill, false, 8);
      case 'leadTime':
        return this.part(CONCESSION_PHRASES.leadTime, fill, false, 8);
      case 'tier':
        return this.part(CONCESSION_PHRASES.tier, fill, false, 8);
      case 'price':
        return this.part(this.bank.priceMove, fill, false, 9);
    }
  }

  private part(bank: readonly Phrase<SupplierFill>[], fill: SupplierFill, optional: boolean, weight: number): Part {
    return this.wording.part(bank, fill, this.context.rng, optional, weight);
  }

  private fill(draft: OfferDraft, position: Position): SupplierFill {
    const { context, plan, focus } = this;
    const { baseline, profile } = context;
    const money = (amount: number): string => formatMoney(amount, baseline.currency);
    const total = draftTotal(draft);
    const last = this.offers.at(-1);
    const prevTotal = last?.total ?? total;
    const openTotal = this.offers[0]?.total ?? total;
    const focusDraft = draft.lines.find((line) => line.sku === focus.sku);
    const altUnit = draft.lines.find((line) => line.sku === this.alt.sku)?.unitPrice ?? this.alt.unitPrice;
    const focusUnit = focusDraft?.unitPrice ?? focus.unitPrice;
    const prevUnit = last?.lines.find((line) => line.sku === focus.sku)?.unitPrice ?? focusUnit;
    const tierQty = tierQuantity(focus.quantity);
    const tierUnit = focusDraft?.tiers?.find((tier) => tier.minQty === tierQty)?.unitPrice ?? focusUnit;
    const termsMove = plan.given.find((move) => move.kind === 'terms');
    const previous = plan.previous ?? position;
    const atFloor = total - plan.reservation <= 0.002 * baselineValue(baseline);
    return {
      buyer: BRAND_PERSONA,
      brand: context.brandName,
      name: profile.name,
      total: money(total),
      prevTotal: money(prevTotal),
      saving: money(Math.max(0, prevTotal - total)),
      stepPct: formatPercent(Math.max(0, 1 - total / prevTotal), 1, 0),
      cumPct: formatPercent(Math.max(0, 1 - total / openTotal), 1, 0),
      sku: skuRef(focus),
      unit: money(focusUnit),
      prevUnit: money(prevUnit),
      altSku: skuRef(this.alt),
      altUnit: money(altUnit),
      units: baseline.lines.reduce((sum, line) => sum + line.quantity, 0).toLocaleString('en-US'),
      lead: String(position.leadTimeDays),
      prevLead: String(previous.leadTimeDays),
      terms: describePaymentTerms(position.paymentTerms),
      prevTerms: describePaymentTerms(previous.paymentTerms),
      // Only when the price rose to pay for the softer terms: an adjustment the total does not show is not one.
      premiumNote:
        termsMove !== undefined && termsMove.kind === 'terms' && termsMove.premium >= 0.001 && total > prevTotal
          ? ` for a small ${formatPercent(termsMove.premium, 1, 0)} price adjustment`
          : '',
      extra: '',
      tierSku: skuRef(focus),
      tierQty: tierQty.toLocaleString('en-US'),
      tierUnit: money(tierUnit),
      tierPct: formatPercent(position.volumeTier ?? 0, 1, 0),
      rival: this.rival?.supplierName ?? 'the other bid',
      rivalTotal: money(this.rival?.total ?? total),
      rivalQuote: rivalQuote(this.rival, prevTotal, money),
      askTotal: money(this.ask?.targetTotal ?? total),
      capPct: formatPercent(position.capacityShare, 0),
      capValue: money(total * position.capacityShare),
      quality: profile.qualityRating.toFixed(1),
      onTime: formatPercent(profile.onTimeDeliveryRate, 1, 0),
      defect: formatPercent(profile.defectRate, 1, 0),
      round: String(context.round),
      maxRounds: String(context.maxRounds),
      atFloor,
      buyerGave: plan.buyerGave.map((give) => GIVE_WORDS[give]).join(' and '),
      priceRose: total > prevTotal + 0.005,
    };
  }

  private turn(
    type: SupplierTurn['action']['type'],
    payload: SupplierTurn['action']['payload'],
    parts: Part[],
    fill: SupplierFill,
  ): SupplierTurn {
    // Offers and counters always use an offered strategy; a closing turn (accept, walk away) says only that. What counts
    // is what survives the length limit, so the check runs on the fitted message.
    const fitted = fitParts(parts, MAX_MESSAGE_CHARS);
    const missing =
      type === 'PROPOSE_OFFER' || type === 'COUNTER_OFFER'
        ? missingStrategy(
            this.context.suggestedStrategies,
            new Set(fitted.flatMap((part) => part.tactics)),
            SUPPLIER_STRATEGY_LINES,
            fill,
            this.wording.said,
          )
        : null;
    if (missing !== null) {
      const at = parts.findIndex((part) => part.closer === true);
      parts.splice(at < 0 ? parts.length : at, 0, this.part(missing, fill, false, 6));
    }
    const kept = missing === null ? fitted : fitParts(parts, MAX_MESSAGE_CHARS);
    let text = kept.map((part) => part.text).join(' ');
    // Numbers change every round, so this only bites when nothing moved: say where we are rather than repeat.
    if (this.wording.previousTexts.includes(text))
      text += ` We're at round ${this.context.round} of ${this.context.maxRounds}.`;
    const used = new Set(kept.flatMap((part) => part.tactics));
    return {
      action: { type, payload },
      message_text: text,
      used_strategies: creditStrategies(this.context.suggestedStrategies, used),
    };
  }
}

/** Drops optional parts, lightest first, until the message fits. */
export function fitParts<P extends { text: string; optional: boolean; weight: number }>(
  parts: readonly P[],
  maxChars: number,
): P[] {
  const kept = [...parts];
  const length = (): number => kept.reduce((sum, part) => sum + part.text.length + 1, -1);
  const droppable = kept.filter((part) => part.optional).sort((a, b) => a.weight - b.weight);
  for (const part of droppable) {
    if (length() <= maxChars) break;
    kept.splice(kept.indexOf(part), 1);
  }
  return kept;
}

export function draftTotal(draft: OfferDraft): number {
  return Math.round(draft.lines.reduce((sum, line) => sum + (line.quantity ?? 0) * line.unitPrice, 0) * 100) / 100;
}

/**
 * Two of the three largest lines by value (the ones a buyer cares about), in random order so rounds do not keep citing
 * one SKU; the same line twice when the quote has only one.
 */
function focusLines(lines: readonly BaselineLine[], rng: Rng): [BaselineLine, BaselineLine] {
  const top = [...lines].sort((a, b) => b.quantity * b.unitPrice - a.quantity * a.unitPrice).slice(0, 3);
  const [first, second] = rng.sample(top, 2);
  if (first === undefined) throw new Error('baseline has no lines');
  return [first, second ?? first];
}

/** How the supplier refers to the competitor the brand cited: as named, or only as how much lower it is. */
function rivalQuote(rival: CompetitorMention | null, standingTotal: number, money: (amount: number) => string): string {
  if (rival === null) return 'the other bid';
  if (rival.anonymous === true) {
    const lower = standingTotal > 0 ? Math.max(0, 1 - rival.total / standingTotal) : 0;
    return `a competing offer ${formatPercent(Math.floor(lower * 100) / 100, 0)} below ours`;
  }
  return `${rival.supplierName} at ${money(rival.total)}`;
}

function lowerFirst(text: string): string {
  return text.length === 0 ? text : text.charAt(0).toLowerCase() + text.slice(1);
}
