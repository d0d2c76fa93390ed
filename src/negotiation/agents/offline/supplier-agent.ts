// The offline supplier agent: a personality-driven concession curve (concessions.ts) voiced through the template
// banks (phrases.ts). Same context and same rng seed → the same turn, so a negotiation replays exactly.
import type { Rng } from '../../../commerce/rng.js';
import type { BaselineLine, Offer } from '../../types.js';
import {
  baselineValue,
  draftOf,
  EXTRAS,
  planNext,
  positionOf,
  tierQuantity,
  type Concession,
  type Plan,
  type Position,
} from './concessions.js';
import { formatMoney, formatPercent } from '../../../commerce/money.js';
import { describePaymentTerms } from '../../../commerce/payment-terms.js';
import { MAX_MESSAGE_CHARS, skeleton, skuRef } from '../format.js';
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
  SUPPLIER_STRATEGY_LINES,
  type SupplierBank,
  type SupplierFill,
} from './phrases.js';
import {
  creditStrategies,
  missingStrategy,
  pickPhrase,
  preferredTactics,
  type Phrase,
  type Tactic,
} from './tactics.js';

/** An ask this far under the floor is "pushing below it"; a near miss is just haggling. */
const PUSH_MARGIN = 0.95;
/** How close (as a share of the opening price) an ask must be to the planned price for a supplier to just take it. */
const ACCEPT_GAP = 0.012;
/** Chance of taking a close ask: rare mid-negotiation, likelier when the rounds run out. */
const ACCEPT_CHANCE = { midway: 0.06, final: 0.2 } as const;
/** After 2 pushes below the floor a supplier may reject; after 3 it may walk away. */
const REJECT_CHANCE = 0.3;
const WALK_AWAY_CHANCE = 0.4;

export function createOfflineSupplierAgent(): SupplierAgent {
  return { respond: (context) => Promise.resolve(offlineSupplierTurn(context)) };
}

export function offlineSupplierTurn(context: SupplierTurnContext): SupplierTurn {
  const { baseline, rng } = context;
  const value = baselineValue(baseline);
  const offers = [...context.history.offers].sort((a, b) => a.round - b.round);
  const last = offers.at(-1);
  const lastFactor = last === undefined ? null : positionOf(last, baseline).factor;
  const latestAsk = readBrandAsk(context.latestBrandMessage.action);
  const asks = dedupeAsks([...context.history.brandAsks, ...(latestAsk === null ? [] : [latestAsk])]);
  const rival = lowerRival(context.competitorMentions, context.round, lastFactor === null ? null : lastFactor * value);
  const capacityShare = Math.min(1, Math.max(0, context.curveball?.capacityShare ?? 1));

  const plan = planNext({
    profile: context.profile,
    baseline,
    offers,
    round: context.round,
    maxRounds: context.maxRounds,
    leverage: rival !== null,
    ask: latestAsk,
    capacityShare,
    rng,
  });

  const voice = new Voice(context, offers, plan, rival, latestAsk);
  if (plan.previous === null) return voice.opening();
  // The brand took the standing offer: confirm it as it stands, no further concession.
  if (context.latestBrandMessage.action.type === 'ACCEPT' && last !== undefined) return voice.confirm(last);

  const askTotal = latestAsk?.targetTotal ?? null;
  const askFactor = askTotal === null ? null : askTotal / value;
  if (askFactor !== null) {
    const atAsk = (factor: number): Position => ({ ...plan.next, factor });
    if (askFactor >= plan.next.factor - 1e-9) return voice.accept(atAsk(Math.min(askFactor, plan.previous.factor)));
    const close = plan.next.factor - askFactor <= ACCEPT_GAP * plan.open;
    const chance = plan.final ? ACCEPT_CHANCE.final : ACCEPT_CHANCE.midway;
    if (askFactor >= plan.floor && close && rng.next() < chance) return voice.accept(atAsk(askFactor));
    if (askFactor < plan.floor * PUSH_MARGIN) {
      const pushes = asks.filter(
        (ask) => ask.targetTotal !== null && ask.targetTotal / value < plan.floor * PUSH_MARGIN,
      );
      if (pushes.length >= 3 && rng.next() < WALK_AWAY_CHANCE) return voice.walkAway();
      if (pushes.length >= 2 && rng.next() < REJECT_CHANCE) return voice.reject();
      return voice.counter(true);
    }
  }
  return voice.counter(false);
}

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

interface Part {
  text: string;
  tactics: readonly Tactic[];
  /** Optional parts go first when a message is too long, in increasing order of weight. */
  optional: boolean;
  weight: number;
  /** The sign-off: sentences added late go in before it. */
  closer?: boolean;
}

/** Writes one supplier turn: picks the wording, fills it with the plan's numbers, keeps it short and fresh. */
class Voice {
  private readonly bank: SupplierBank;
  private readonly preferred: ReadonlySet<Tactic>;
  private readonly said: (sentence: string) => boolean;
  private readonly previousTexts: readonly string[];
  /** Skeletons of the sentences already in this message: a template is not used twice in one message either. */
  private readonly current: string[] = [];
  private readonly focus: BaselineLine;
  private readonly alt: BaselineLine;

  constructor(
    private readonly context: SupplierTurnContext,
    private readonly offers: readonly Offer[],
    private readonly plan: Plan,
    private readonly rival: CompetitorMention | null,
    private readonly ask: BrandAsk | null,
  ) {
    this.bank = SUPPLIER_BANKS[plan.style];
    this.preferred = preferredTactics(context.suggestedStrategies);
    this.previousTexts = context.history.messages.filter((m) => m.from === 'supplier').map((m) => m.text);
    const previousSkeletons = this.previousTexts.map(skeleton);
    this.said = (sentence) => {
      const shape = skeleton(sentence);
      return this.current.includes(shape) || previousSkeletons.some((text) => text.includes(shape));
    };
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

  counter(belowFloor: boolean): SupplierTurn {
    const { rng } = this.context;
    const { next, previous, given, final, style } = this.plan;
    const draft = this.draft(next);
    const fill = this.fill(draft, next);
    const parts: Part[] = [];
    if (rng.next() < 0.75) parts.push(this.part(this.bank.greeting, fill, true, 1));
    if (belowFloor) parts.push(this.part(this.bank.pushBack, fill, false, 7));
    if (this.rival !== null) parts.push(this.part(this.bank.leverage, fill, true, 5));

    const priceFell = previous !== null && next.factor < previous.factor - 1e-9;
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

  accept(position: Position): SupplierTurn {
    const draft = this.draft(position);
    const fill = this.fill(draft, position);
    const parts = [this.part(this.bank.accept, fill, false, 9)];
    if (position.capacityShare < 1) parts.push(this.part(CAPACITY_PHRASES, fill, false, 9));
    return this.turn('ACCEPT', { offer: draft }, parts, fill);
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

  reject(): SupplierTurn {
    const draft = this.draft(this.plan.next);
    const fill = this.fill(draft, this.plan.next);
    const parts = [this.part(this.bank.reject, fill, false, 9)];
    if (this.plan.next.capacityShare < 1) parts.push(this.part(CAPACITY_PHRASES, fill, true, 3));
    const reason = `Asked ${fill.askTotal}, below our floor more than once`;
    return this.turn('REJECT', { offer: draft, reason }, parts, fill);
  }

  walkAway(): SupplierTurn {
    const draft = this.draft(this.plan.next);
    const fill = this.fill(draft, this.plan.next);
    const parts = [this.part(this.bank.walkAway, fill, false, 9)];
    return this.turn('WALK_AWAY', { reason: `Asked ${fill.askTotal}, repeatedly below our floor` }, parts, fill);
  }

  private draft(position: Position): OfferDraft {
    const standing = this.offers.at(-1);
    return draftOf(position, {
      baseline: this.context.baseline,
      profile: this.context.profile,
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
    const picked = pickPhrase(bank, fill, this.context.rng, { preferred: this.preferred, said: this.said });
    this.current.push(skeleton(picked.text));
    return { ...picked, optional, weight };
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
      premiumNote:
        termsMove !== undefined && termsMove.kind === 'terms' && termsMove.premium > 0
          ? ` for a small ${formatPercent(termsMove.premium, 1, 0)} price adjustment`
          : '',
      extra: '',
      tierSku: skuRef(focus),
      tierQty: tierQty.toLocaleString('en-US'),
      tierUnit: money(tierUnit),
      tierPct: formatPercent(position.volumeTier ?? 0, 1, 0),
      rival: this.rival?.supplierName ?? 'the other bid',
      rivalTotal: money(this.rival?.total ?? total),
      askTotal: money(this.ask?.targetTotal ?? total),
      capPct: formatPercent(position.capacityShare, 0),
      capValue: money(total * position.capacityShare),
      quality: profile.qualityRating.toFixed(1),
      onTime: formatPercent(profile.onTimeDeliveryRate, 1, 0),
      defect: formatPercent(profile.defectRate, 1, 0),
      round: String(context.round),
      maxRounds: String(context.maxRounds),
    };
  }

  private turn(
    type: SupplierTurn['action']['type'],
    payload: SupplierTurn['action']['payload'],
    parts: Part[],
    fill: SupplierFill,
  ): SupplierTurn {
    // Offers and counters always use an offered strategy; a closing turn (accept, reject, walk away) says only that.
    const missing =
      type === 'PROPOSE_OFFER' || type === 'COUNTER_OFFER'
        ? missingStrategy(
            this.context.suggestedStrategies,
            new Set(parts.flatMap((part) => part.tactics)),
            SUPPLIER_STRATEGY_LINES,
            fill,
            this.said,
          )
        : null;
    if (missing !== null) {
      const at = parts.findIndex((part) => part.closer === true);
      parts.splice(at < 0 ? parts.length : at, 0, this.part(missing, fill, false, 6));
    }
    const kept = fitParts(parts, MAX_MESSAGE_CHARS);
    let text = kept.map((part) => part.text).join(' ');
    // Numbers change every round, so this only bites when nothing moved: say where we are rather than repeat.
    if (this.previousTexts.includes(text))
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

function lowerFirst(text: string): string {
  return text.length === 0 ? text : text.charAt(0).toLowerCase() + text.slice(1);
}
