// The offline brand agent "Alex": an RFQ for round 1, three pillar briefs (negotiator, risk analyst, product/cost)
// and a synthesized 80–100-word message, from the numbers in brand-analysis.ts and the banks in phrases.ts. It may ask
// the buyer (ASK_INFO) about a longer lead time or a split order — each at most once, and only when the answer is
// not already known from the mandate (the start modal's settings and the answers read into it), the notes or earlier
// answers: asking what the mandate settles would invite an answer that contradicts it.
import { COST_OF_CAPITAL_ANNUAL, SPLIT_ORDER_OVERHEAD } from '../../../config/business-rules.js';
import { analyse, isLeadTimeTopic, isSplitTopic, prefersSpeed, type BrandAnalysis } from '../brand-analysis.js';
import { tierQuantity } from './concessions.js';
import { formatMoney, formatPercent } from '../../../commerce/money.js';
import { describePaymentTerms } from '../../../commerce/payment-terms.js';
import { formatShare, MAX_MESSAGE_CHARS, skuRef, wordCount } from '../format.js';
import { rfqItemList } from '../../format.js';
import { citedCompetitor, competingGap, competingSpeed } from '../discretion.js';
import { OFFER_FACTS, showFact, type SupplierFact } from '../../facts.js';
import { settledByMandate } from '../../mandate.js';
import {
  type BrandAgent,
  type BrandTurn,
  type BrandTurnContext,
  type CompetitorMention,
  type PillarBriefs,
} from '../interfaces.js';
import {
  BRAND_PHRASES,
  BRAND_STRATEGY_LINES,
  RFQ_PHRASES,
  RFQ_STRATEGY_LINES,
  type BrandFill,
  type RfqFill,
} from './phrases.js';
import {
  creditStrategies,
  missingStrategy,
  pickPhrase,
  preferredTactics,
  Wording,
  type MessagePart,
  type Phrase,
  type Tactic,
} from './tactics.js';

/** The synthesizer's word budget (seed 002 §6.4). */
export const MESSAGE_WORDS = { min: 80, max: 100 } as const;

/** Chance of asking about an unknown lead-time tolerance when this supplier is the slow one. */
const LEAD_QUESTION_CHANCE = 0.5;
/** Chance of asking about a split once the curveball caps this supplier, when the buyer has already answered once. */
const SPLIT_QUESTION_CHANCE = 0.5;
/** A lead time this long is worth asking the buyer about. */
const SLOW_LEAD_DAYS = 40;
/** Above this many SKUs, "samples for all N SKUs" is not a request anyone would make. */
const MAX_LINES_SAMPLED = 50;

export function createOfflineBrandAgent(): BrandAgent {
  return {
    rfq: (context) => Promise.resolve(offlineRfq(context)),
    pillars: (context) => Promise.resolve(offlinePillars(context)),
    synthesize: (context, briefs) => Promise.resolve(offlineSynthesize(context, briefs)),
  };
}

export function offlineRfq(context: BrandTurnContext): BrandTurn {
  const { baseline, rng } = context;
  const preferred = preferredTactics(context.suggestedStrategies);
  const largest = [...baseline.lines].sort((a, b) => b.quantity * b.unitPrice - a.quantity * a.unitPrice)[0];
  const fill: RfqFill = {
    name: context.supplier.name,
    brand: context.brandName,
    lineCount: String(baseline.lines.length),
    units: baseline.lines.reduce((sum, line) => sum + line.quantity, 0).toLocaleString('en-US'),
    sku: largest === undefined ? '' : skuRef(largest),
    unit: formatMoney(largest?.unitPrice ?? 0, baseline.currency),
  };
  const never = (): boolean => false;
  const intro = pickPhrase(RFQ_PHRASES.intro, fill, rng, { preferred, said: never });
  const outro = pickPhrase(RFQ_PHRASES.outro, fill, rng, { preferred, said: never });
  const tactics = new Set([...intro.tactics, ...outro.tactics]);
  const missing = missingStrategy(context.suggestedStrategies, tactics, RFQ_STRATEGY_LINES, fill, never);
  const extra = missing === null ? null : pickPhrase(missing, fill, rng, { preferred, said: never });
  for (const tactic of extra?.tactics ?? []) tactics.add(tactic);
  const closing = extra === null ? outro.text : `${extra.text} ${outro.text}`;
  const text = `${intro.text}\n${rfqItemList(baseline.lines)}\n${closing}`;
  return {
    action: {
      type: 'REQUEST_CRITERIA',
      payload: { items: baseline.lines.map((line) => ({ sku: line.sku, quantity: line.quantity })) },
    },
    message_text: text,
    used_strategies: creditStrategies(context.suggestedStrategies, tactics),
  };
}

export function offlinePillars(context: BrandTurnContext): PillarBriefs {
  const analysis = analyse(context);
  const { rng } = context;
  const money = (amount: number): string => formatMoney(amount, context.baseline.currency);
  const { current, cheaperRival, rivals, ask, focus, curveball } = analysis;

  let negotiator: string;
  if (cheaperRival !== null) {
    const gap = 1 - cheaperRival.total / current.total;
    negotiator = rng.pick([
      `${cheaperRival.name} is at ${money(cheaperRival.total)}, ${formatPercent(gap, 1, 0)} below ${current.name}'s ${money(current.total)}. Anchor on it and ask for ${money(ask.total)} (${formatPercent(ask.discount, 1, 0)} off).`,
      `Leverage: ${cheaperRival.name} quotes ${money(cheaperRival.total)} against ${money(current.total)} here, a ${money(current.total - cheaperRival.total)} gap. Cite it and push to ${money(ask.total)}.`,
    ]);
  } else if (rivals.length > 0) {
    const nextBest = rivals[0];
    const gap = nextBest === undefined ? 0 : nextBest.total - current.total;
    negotiator = `${current.name} is the lowest bid at ${money(current.total)}, ${money(gap)} under ${nextBest?.name ?? 'the rest'}. Keep the pressure on with volume and ask for ${money(ask.total)} (${formatPercent(ask.discount, 1, 0)} off).`;
  } else {
    negotiator = `No competing offers yet; anchor on the quoted ${money(context.baseline.total)} and ask ${current.name} for ${money(ask.total)} (${formatPercent(ask.discount, 1, 0)} off).`;
  }
  if (analysis.final) negotiator += ' Final round: make it the decisive number.';
  else negotiator += ` ${analysis.roundsLeft} round${analysis.roundsLeft === 1 ? '' : 's'} left after this one.`;

  let riskAnalyst: string;
  // The briefs are for the buyer: an assumed figure is shown, labelled, since scoring uses it.
  const assumed = (fact: SupplierFact, text: string): string => showFact(fact, text, current.assumed.has(fact));
  const reliability =
    `${current.assumed.has('leadTimeDays') ? `lead time ${assumed('leadTimeDays', `${current.leadTimeDays} days`)}` : `${current.leadTimeDays}-day lead time`}, ` +
    `${assumed('onTimeDeliveryRate', `${formatPercent(current.profile.onTimeDeliveryRate, 1, 0)} on-time`)}, ` +
    `${assumed('defectRate', `${formatPercent(current.profile.defectRate, 1, 0)} defects`)}`;
  if (curveball?.thisSupplier === true) {
    riskAnalyst = `${current.name} can fill only ${formatPercent(curveball.capacityShare, 0)} (${money(curveball.cappedValue)}) after the capacity shock; the other ${formatPercent(1 - curveball.capacityShare, 0)} needs ${rivals.map((r) => `${r.name} (${r.leadTimeDays} days)`).join(' or ') || 'a second supplier'}. Lock dates for the share it can fill.`;
  } else if (curveball !== null) {
    riskAnalyst = `${curveball.cappedName} is capped at ${formatPercent(curveball.capacityShare, 0)}, so ${current.name} is a candidate for the other ${formatPercent(1 - curveball.capacityShare, 0)} (about ${money(curveball.openValue)} at its prices); ${reliability}.`;
  } else {
    const faster = analysis.fasterRival;
    riskAnalyst = rng.pick([
      `${current.name}: ${reliability}. ${faster === null ? 'It is the fastest option on the table' : `${faster.name} ships in ${faster.leadTimeDays} days`}; single-sourcing ${money(current.total)} concentrates the risk, so keep a second supplier warm.`,
      `Supply risk on ${current.name} is ${reliability}. ${analysis.requiredLeadDays === null ? 'The buyer has not set a delivery deadline yet' : `The buyer needs delivery within ${analysis.requiredLeadDays} days`}.`,
    ]);
  }

  const tier = focus.line.tiers[0];
  const tierNote =
    tier === undefined
      ? ` No volume tier is quoted; ask for one at ${tierQuantity(focus.line.quantity)} units.`
      : ` The quote has a break at ${tier.minQty}+ for ${money(tier.unitPrice)}.`;
  const terms = `${assumed('paymentTerms', describePaymentTerms(current.paymentTerms))} over ${assumed('leadTimeDays', `${current.leadTimeDays} days`)}`;
  const capital =
    analysis.cashCost === null
      ? `${terms} does not add up to 100%, so its capital cost is unknown.`
      : `${terms} costs about ${money(analysis.cashCost)} in capital at ${formatPercent(COST_OF_CAPITAL_ANNUAL, 0)}/yr.`;
  const productCost = `${skuRef(focus.line)} is ${formatShare(focus.share)} of the order (${focus.line.quantity} × ${money(focus.unitPrice)} = ${money(focus.value)}). ${capital}${tierNote}`;

  return { negotiator, riskAnalyst, productCost };
}

/**
 * The briefs are the visible critique; the offline synthesizer writes from the same analysis they came from (numbers are
 * code's job), so it does not parse them — a Claude synthesizer reads them instead.
 */
export function offlineSynthesize(context: BrandTurnContext, _briefs: PillarBriefs): BrandTurn {
  const analysis = analyse(context);
  const question = questionFor(context, analysis);
  if (question !== null) return question;
  return new BrandVoice(context, analysis).message();
}

function askedBefore(context: BrandTurnContext, topic: string): boolean {
  return context.history.messages.some(
    (message) =>
      message.from === 'brand' && message.action?.type === 'ASK_INFO' && message.action.payload['topic'] === topic,
  );
}

/** ASK_INFO when something essential is unknown: at most one topic per supplier, each asked once per negotiation. */
function questionFor(context: BrandTurnContext, analysis: BrandAnalysis): BrandTurn | null {
  const { current, fasterRival, cheaperRival, curveball } = analysis;
  const notes = context.buyerNotes ?? '';
  const money = (amount: number): string => formatMoney(amount, context.baseline.currency);

  const leadKnown =
    settledByMandate(context.mandate, 'lead_time') !== null ||
    prefersSpeed(context) ||
    context.clarifications.some(isLeadTimeTopic) ||
    /lead.?time|deliver|deadline|urgent|asap|ship by|\d+\s*(days|weeks)/i.test(notes);
  // A lead time the supplier never stated is asked of the supplier, not put to the buyer as its quote.
  const slow = current.leadTimeDays >= SLOW_LEAD_DAYS && !current.assumed.has('leadTimeDays');
  if (!leadKnown && slow && fasterRival !== null && !analysis.final && !askedBefore(context, 'lead_time')) {
    if (context.rng.next() < LEAD_QUESTION_CHANCE) {
      const days = current.leadTimeDays;
      const standing = cheaperRival === null ? 'is the cheapest so far but quotes' : 'quotes';
      return askInfo(context, {
        topic: 'lead_time',
        question: `${current.name} ${standing} ${days} days, while ${fasterRival.name} can ship in ${fasterRival.leadTimeDays}. Is a ${days}-day lead time acceptable for this order?`,
        suggestedAnswers: [
          `Yes, ${days} days is fine`,
          'Need delivery within 30 days',
          'Need delivery within 21 days',
          'Speed matters more than price',
        ],
        tactics: ['leadTime'],
      });
    }
  }

  const splitKnown =
    settledByMandate(context.mandate, 'split_order') !== null ||
    context.clarifications.some(isSplitTopic) ||
    /split|single supplier|one supplier|sole/i.test(notes);
  if (curveball?.thisSupplier === true && !splitKnown && !askedBefore(context, 'split_order')) {
    // With no answer from the buyer yet, this is the question to ask: the curveball makes it essential.
    if (context.clarifications.length === 0 || context.rng.next() < SPLIT_QUESTION_CHANCE) {
      return askInfo(context, {
        topic: 'split_order',
        question: `${current.name} can now fill only ${formatPercent(curveball.capacityShare, 0)} of the order (about ${money(curveball.cappedValue)}). Are you open to splitting the order between two suppliers?`,
        suggestedAnswers: [
          'Yes, split the order',
          'Prefer a single supplier',
          `Split only if it saves more than ${formatPercent(SPLIT_ORDER_OVERHEAD, 0)}`,
        ],
        tactics: ['supplyRisk', 'batna'],
      });
    }
  }
  return null;
}

function askInfo(
  context: BrandTurnContext,
  ask: { topic: string; question: string; suggestedAnswers: string[]; tactics: readonly Tactic[] },
): BrandTurn {
  return {
    action: {
      type: 'ASK_INFO',
      payload: { question: ask.question, suggestedAnswers: ask.suggestedAnswers, topic: ask.topic },
    },
    message_text: `Before I reply to ${context.supplier.name}, a quick question: ${ask.question}`,
    used_strategies: creditStrategies(context.suggestedStrategies, new Set(ask.tactics)),
  };
}

interface Part extends MessagePart {
  /** Marks the sentence that cites a competitor, so the payload names it only when the text does. */
  competitor?: boolean;
}

/** Writes one counter (or acceptance) as Alex, in 80–100 words, citing real SKUs and numbers. */
class BrandVoice {
  private readonly fill: BrandFill;
  private readonly wording: Wording;
  private readonly money: (amount: number) => string;
  /** The supplier's lead time or terms that the quotation left out and it has not stated yet. */
  private readonly missingFacts: readonly SupplierFact[];
  /** No message to this supplier yet: the track-record question is asked once, here. */
  private readonly firstMessage: boolean;

  constructor(
    private readonly context: BrandTurnContext,
    private readonly analysis: BrandAnalysis,
  ) {
    this.money = (amount) => formatMoney(amount, context.baseline.currency);
    this.wording = new Wording(context, 'brand');
    this.missingFacts = OFFER_FACTS.filter((fact) => analysis.current.assumed.has(fact));
    this.firstMessage = this.wording.previousTexts.length === 0;
    this.fill = this.buildFill();
  }

  message(): BrandTurn {
    const { analysis } = this;
    return analysis.supplierAccepted || analysis.meetsTarget ? this.acceptance() : this.counter();
  }

  private counter(): BrandTurn {
    const { analysis, context } = this;
    const { rng } = context;
    // The quotation itself (round 0) is acknowledged as a quote: the supplier has not "come back" to anything yet.
    const replied = analysis.current.fromOffer && (analysis.current.offer?.round ?? 0) > 0;
    const parts: Part[] = [this.part(replied ? BRAND_PHRASES.ack : BRAND_PHRASES.ackQuote, false, 10)];
    // What the quotation left out is asked for, every message until the supplier states it.
    if (this.missingFacts.length > 0) parts.push(this.part(BRAND_PHRASES.askFacts, false, 9));
    if (this.firstMessage && analysis.current.assumed.has('onTimeDeliveryRate')) {
      parts.push(this.part(BRAND_PHRASES.askTrackRecord, true, 5));
    }
    if (analysis.cheaperRival !== null)
      parts.push({ ...this.part(BRAND_PHRASES.leverage, false, 10), competitor: true });
    else if (analysis.fasterRival !== null) {
      parts.push({ ...this.part(BRAND_PHRASES.leverageSpeed, true, 6), competitor: true });
    }
    parts.push(this.part(BRAND_PHRASES.focus, true, 4));
    parts.push(this.part(BRAND_PHRASES.ask, false, 10));

    const { ask } = analysis;
    if (ask.leadTimeDays !== null) parts.push(this.part(BRAND_PHRASES.speed, true, 7));
    if (ask.paymentTerms !== null) parts.push(this.part(BRAND_PHRASES.cashflow, true, 7));
    if (context.mode === 'quality') parts.push(this.part(BRAND_PHRASES.quality, true, 6));
    else if (context.mode === 'cost') parts.push(this.part(BRAND_PHRASES.volume, true, 6));
    else if (ask.leadTimeDays === null && ask.paymentTerms === null) {
      parts.push(this.part(rng.next() < 0.5 ? BRAND_PHRASES.quality : BRAND_PHRASES.volume, true, 3));
    }

    const curveball = analysis.curveball;
    // Another supplier's capacity problem is its business: told to others only when the workspace allows it.
    const risk =
      curveball === null
        ? BRAND_PHRASES.riskNone
        : curveball.thisSupplier
          ? this.prefersSingleSupplier()
            ? BRAND_PHRASES.riskCappedSingle
            : BRAND_PHRASES.riskCapped
          : analysis.discloseCompetitors
            ? BRAND_PHRASES.riskOpen
            : BRAND_PHRASES.riskNone;
    // The capped supplier must hear about its cap every time; elsewhere the risk line is colour.
    parts.push(this.part(risk, curveball === null || !curveball.thisSupplier, curveball?.thisSupplier ? 9 : 5));
    const closer = this.part(
      analysis.final ? BRAND_PHRASES.finalCloser : BRAND_PHRASES.closer,
      true,
      analysis.final ? 8 : 2,
    );

    const kept = this.withStrategy(this.fit(parts, closer, BRAND_PHRASES.filler), closer);
    const cited = kept.some((part) => part.competitor === true);
    const rival = analysis.cheaperRival ?? analysis.fasterRival;
    // Unnamed, a rival that is only faster was cited by its lead time alone: there is no price to remember.
    const recorded = rival !== null && (analysis.discloseCompetitors || analysis.cheaperRival !== null);
    const competitor: CompetitorMention | undefined =
      cited && rival !== null && recorded
        ? citedCompetitor(context.round, rival, analysis.current.total, analysis.discloseCompetitors)
        : undefined;
    return this.turn(
      'COUNTER_OFFER',
      {
        ask: {
          round: context.round,
          targetTotal: ask.total,
          leadTimeDays: ask.leadTimeDays,
          paymentTerms: ask.paymentTerms,
        },
        ...(competitor === undefined ? {} : { competitor }),
        ...(this.missingFacts.length > 0 ? { askFacts: [...this.missingFacts] } : {}),
      },
      kept,
    );
  }

  private acceptance(): BrandTurn {
    const parts: Part[] = [
      this.part(BRAND_PHRASES.accept, false, 10),
      this.part(BRAND_PHRASES.acceptDetail, false, 9),
      this.part(BRAND_PHRASES.acceptNext, false, 9),
    ];
    if (this.analysis.curveball?.thisSupplier === true) parts.push(this.part(BRAND_PHRASES.riskCapped, false, 9));
    const kept = this.fit(parts, null, BRAND_PHRASES.acceptExtra);
    return this.turn('ACCEPT', { acceptedTotal: this.analysis.current.total }, kept);
  }

  private prefersSingleSupplier(): boolean {
    if (this.context.mandate.sourcing === 'single') return true;
    return this.context.clarifications.some((c) => isSplitTopic(c) && /single|one supplier|no\b/i.test(c.answer));
  }

  /** Drops optional parts while over 100 words (or 700 characters), then adds filler sentences while under 80. */
  private fit(parts: Part[], closer: Part | null, extras: readonly Phrase<BrandFill>[]): Part[] {
    const kept = closer === null ? [...parts] : [...parts, closer];
    const words = (): number => wordCount(kept.map((part) => part.text).join(' '));
    const chars = (): number => kept.map((part) => part.text).join(' ').length;
    const droppable = kept.filter((part) => part.optional).sort((a, b) => a.weight - b.weight);
    for (const part of droppable) {
      if (words() <= MESSAGE_WORDS.max && chars() <= MAX_MESSAGE_CHARS) break;
      kept.splice(kept.indexOf(part), 1);
    }
    const fitting = extras.filter(
      (extra) => (extra.applies?.(this.fill) ?? true) && !this.wording.said(extra.render(this.fill)),
    );
    for (const filler of this.context.rng.sample(fitting, fitting.length)) {
      if (words() >= MESSAGE_WORDS.min) break;
      const text = filler.render(this.fill);
      if (kept.some((part) => part.text === text)) continue;
      const at = closer !== null && kept.includes(closer) ? kept.indexOf(closer) : kept.length;
      const candidate: Part = { text, tactics: filler.tactics, optional: true, weight: 0 };
      kept.splice(at, 0, candidate);
      if (words() > MESSAGE_WORDS.max || chars() > MAX_MESSAGE_CHARS) kept.splice(at, 1);
    }
    return kept;
  }

  /**
   * When no sentence used an offered strategy, one that does goes in before the closer, and the message is refitted
   * around it (it is never the part dropped).
   */
  private withStrategy(kept: Part[], closer: Part | null): Part[] {
    const used = new Set(kept.flatMap((part) => part.tactics));
    const missing = missingStrategy(
      this.context.suggestedStrategies,
      used,
      BRAND_STRATEGY_LINES,
      this.fill,
      this.wording.said,
    );
    if (missing === null) return kept;
    const line = this.part(missing, false, 8);
    const at = closer !== null && kept.includes(closer) ? kept.indexOf(closer) : kept.length;
    const parts = [...kept];
    parts.splice(at, 0, line);
    const keptCloser = closer !== null && kept.includes(closer) ? closer : null;
    return this.fit(
      parts.filter((part) => part !== closer),
      keptCloser,
      BRAND_PHRASES.filler,
    );
  }

  private part(bank: readonly Phrase<BrandFill>[], optional: boolean, weight: number): Part {
    return this.wording.part(bank, this.fill, this.context.rng, optional, weight);
  }

  private turn(type: BrandTurn['action']['type'], payload: BrandTurn['action']['payload'], parts: Part[]): BrandTurn {
    let text = parts.map((part) => part.text).join(' ');
    if (this.wording.previousTexts.includes(text)) text += ` Round ${this.context.round} of ${this.context.maxRounds}.`;
    return {
      action: { type, payload },
      message_text: text,
      used_strategies: creditStrategies(
        this.context.suggestedStrategies,
        new Set(parts.flatMap((part) => part.tactics)),
      ),
    };
  }

  private buildFill(): BrandFill {
    const { context, analysis, money } = this;
    const { current, focus, ask, curveball } = analysis;
    const rival = analysis.cheaperRival ?? analysis.fasterRival;
    const gap = rival === null ? 0 : Math.abs(current.total - rival.total);
    const capacityShare = curveball?.capacityShare ?? 1;
    const leadStated = !current.assumed.has('leadTimeDays');
    const termsStated = !current.assumed.has('paymentTerms');
    const missingLead = this.missingFacts.includes('leadTimeDays');
    const missingTerms = this.missingFacts.includes('paymentTerms');
    return {
      name: current.name,
      brand: context.brandName,
      total: money(current.total),
      lead: String(current.leadTimeDays),
      terms: describePaymentTerms(current.paymentTerms),
      units: analysis.units.toLocaleString('en-US'),
      lineCount: String(context.baseline.lines.length),
      sku: skuRef(focus.line),
      unit: money(focus.unitPrice),
      qty: focus.line.quantity.toLocaleString('en-US'),
      value: money(focus.value),
      share: formatShare(focus.share),
      rank: ['the biggest line', 'the second-biggest line', 'the third-biggest line'][focus.rank] ?? 'a major line',
      askTotal: money(ask.total),
      askUnit: money(ask.unitPrice),
      askPct: formatPercent(ask.discount, 1, 0),
      rival: rival?.name ?? 'another supplier',
      rivalTotal: money(rival?.total ?? current.total),
      rivalLead: String(rival?.leadTimeDays ?? current.leadTimeDays),
      rivalIsCheaper: analysis.cheaperRival !== null,
      hasRivals: analysis.rivals.length > 0,
      named: analysis.discloseCompetitors,
      gapPctRounded: competingGap(current.total, analysis.cheaperRival?.total ?? current.total).words,
      rivalSooner: competingSpeed(current.leadTimeDays, rival?.leadTimeDays ?? current.leadTimeDays),
      leadStated,
      termsStated,
      onTimeStated: !current.assumed.has('onTimeDeliveryRate'),
      qualityStated: !current.assumed.has('qualityRating'),
      missing:
        missingLead && missingTerms ? 'a lead time or payment terms' : missingLead ? 'a lead time' : 'payment terms',
      confirmMissing:
        missingLead && missingTerms ? 'both' : missingLead ? 'your lead time in days' : 'your payment terms',
      packageKnown: (ask.leadTimeDays !== null || leadStated) && (ask.paymentTerms !== null || termsStated),
      fewLines: context.baseline.lines.length <= MAX_LINES_SAMPLED,
      rivalUnit: money(
        rival?.offer?.lines.find((line) => line.sku === focus.line.sku)?.unitPrice ?? focus.line.unitPrice,
      ),
      quality: current.profile.qualityRating.toFixed(1),
      defect: formatPercent(current.profile.defectRate, 1, 0),
      gap: money(gap),
      gapPct: formatPercent(rival === null ? 0 : gap / current.total, 1, 0),
      targetLead: String(ask.leadTimeDays ?? current.leadTimeDays),
      targetTerms: describePaymentTerms(ask.paymentTerms ?? current.paymentTerms),
      onTime: formatPercent(current.profile.onTimeDeliveryRate, 1, 0),
      capped: curveball?.cappedName ?? '',
      capPct: formatPercent(capacityShare, 0),
      capValue: money(curveball?.cappedValue ?? current.total),
      restPct: formatPercent(1 - capacityShare, 0),
      restValue: money(curveball?.openValue ?? 0),
      round: String(context.round),
      maxRounds: String(context.maxRounds),
      roundsLeft: analysis.roundsLeft <= 1 ? 'one more round' : `${analysis.roundsLeft} more rounds`,
    };
  }
}
