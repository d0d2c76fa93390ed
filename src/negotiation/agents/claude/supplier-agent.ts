// A supplier agent on Claude (seed 002 §6.4 "Supplier Agent"): the reasoning tier plays the supplier from a
// personality-rich system prompt — profile, personality, concession order, its PRICE_RANGES band — and a turn prompt
// with its prices, floors and ceilings per line, what it has conceded so far, the competitor figures the brand cited,
// the capacity constraint when the curveball hits it, and the conversation.
//
// Claude states only what changes: the lines it reprices and one percentage for the rest. Code expands that into a
// full offer draft from the supplier's standing prices, so the reply costs ~150 output tokens instead of one line per
// SKU (Sonnet output is the dearest token in a negotiation) and no price is copied wrong. The engine still clips every
// price into the band and caps the capacity share.
//
// Cost: a supplier is called once a round with a prompt that mostly repeats — the tool, the persona, the quotation
// with its floors and ceilings, the conversation so far. Laid out stable-first (the `cached` layout) that prefix is
// marked for Anthropic's prompt cache and read back next round at a tenth of the price; but a model caches a prefix
// only from its minimum length on (llm/prompt-cache.ts: 2,048 tokens for Sonnet 4.6, 1,024 for Sonnet 4.5), and below
// it the verbatim conversation only costs more. So each turn asks the LLM layer whether the cached layout's prefix is
// long enough and otherwise sends the `compact` layout (prices in the table, older messages summarised).
import { z } from 'zod';
import { PRICE_RANGES, type SupplierProfile } from '../../../config/business-rules.js';
import type { Llm, ModelTier, PromptPart, StructuredRequest } from '../../../llm/llm.js';
import { formatMoney } from '../../../commerce/money.js';
import { paymentTermsSchema } from '../../../commerce/payment-terms.js';
import { priceTierSchema, type ActionType, type BaselineLine, type Offer, type PriceTier } from '../../types.js';
import { wordCount } from '../format.js';
import {
  BRAND_PERSONA,
  readBrandAsk,
  supplierTurnSchema,
  type HistoryMessage,
  type OfferDraft,
  type SupplierAgent,
  type SupplierTurn,
  type SupplierTurnContext,
} from '../interfaces.js';
import {
  askLine,
  cents,
  conversation,
  conversationLines,
  FENCES,
  offerLine,
  offerTerms,
  quotationNotes,
  quotationTable,
  strategiesLine,
  untrusted,
  untrustedRule,
} from './prompt-context.js';

export const SUPPLIER_PURPOSE = 'negotiation.supplier.respond';

/**
 * A simulated supplier with no offer yet opens at this point of its band (0 = floor, 1 = ceiling): high enough to
 * leave room to concede, low enough to stay credible. The quoting supplier opens at its own quotation.
 */
const OPENING_POSITION = 0.6;

const SUPPLIER_ACTIONS = [
  'PROPOSE_OFFER',
  'COUNTER_OFFER',
  'TRADE',
  'PROPOSE_PACKAGE',
  'CONCEDE',
  'ACCEPT',
  'REJECT',
  'WALK_AWAY',
] as const satisfies readonly ActionType[];
/** Actions that end with no new offer: the standing one (if any) remains. */
const NO_OFFER_ACTIONS: readonly string[] = ['REJECT', 'WALK_AWAY'];

/** The rules every supplier plays by; the persona in front of them comes from the profile. */
export const SUPPLIER_RULES = `How you negotiate:
- Stay in character. Reply in 60–110 words, plain text, citing SKU(Description) and figures from the data.
- Concede in your order of preference, one or two things per message, each smaller than the last, and ask for
  something in return. Never go below a line's floor: it is your limit. Mention competitors only as the buyer did.
- Actions: PROPOSE_OFFER (your first offer), COUNTER_OFFER (a new offer), TRADE / PROPOSE_PACKAGE / CONCEDE (an offer
  that gives something for something), ACCEPT (you agree to the buyer's ask; the offer states the agreed terms),
  REJECT (you cannot move further; give a reason; your standing offer remains), WALK_AWAY (you end the talks; give a
  reason; only after repeated demands below your floor).
- offer (every action but REJECT and WALK_AWAY): lines lists only the lines you reprice, each with its new unitPrice
  (and tiers if you offer volume breaks); otherLinesChangePct changes every other line from your current price (-2 =
  2% lower, 0 = unchanged); leadTimeDays; paymentTerms as instalment percents ("40/60", "100"); concessions and
  conditions as short phrases; capacityShare (0–1) only when you cannot supply the whole order.
- used_strategies: the ids of the offered strategies you use.
${untrustedRule([FENCES.quotationNotes, FENCES.conversation])}`;

const replyLineSchema = z.object({
  sku: z.string(),
  unitPrice: z.number().positive(),
  quantity: z.number().int().positive().nullish(),
  tiers: z.array(priceTierSchema).nullish(),
});

export const supplierReplySchema = z.object({
  action: z.enum(SUPPLIER_ACTIONS),
  message_text: z.string().min(1).max(1_500),
  offer: z
    .object({
      lines: z.array(replyLineSchema).nullish(),
      otherLinesChangePct: z.number().min(-50).max(50).nullish(),
      leadTimeDays: z.number().int().positive(),
      paymentTerms: paymentTermsSchema,
      concessions: z.array(z.string().max(160)).max(6),
      conditions: z.array(z.string().max(160)).max(6),
      capacityShare: z.number().min(0).max(1).nullish(),
    })
    .nullish(),
  reason: z.string().max(300).nullish(),
  used_strategies: z.array(z.string()),
});
export type SupplierReply = z.infer<typeof supplierReplySchema>;

const REPLY_WORD_BOUNDS = { min: 30, max: 170 } as const;
const MAX_TOKENS = 1_200;

export interface ClaudeSupplierOptions {
  /**
   * The seed and DESIGN.md play suppliers on the reasoning tier (Sonnet) for realistic counter-negotiation, about two
   * thirds of a negotiation's Claude cost. The fast tier is for experiments only; the benchmark never uses it.
   */
  tier?: ModelTier;
}

/**
 * How a turn's prompt is laid out: `cached` puts everything that repeats next round first and marks it for the prompt
 * cache, with the conversation verbatim and append-only; `compact` puts the round's prices in the quotation table and
 * shortens older messages to a summary line — the cheaper of the two when the prefix is too short to be cached.
 */
export type SupplierPromptLayout = 'cached' | 'compact';

export function createClaudeSupplierAgent(llm: Llm, options: ClaudeSupplierOptions = {}): SupplierAgent {
  const tier = options.tier ?? 'reasoning';
  return {
    async respond(context) {
      const cached = { ...supplierRequest(context, 'cached'), tier };
      const request = llm.cacheable(cached) ? cached : { ...supplierRequest(context, 'compact'), tier };
      return supplierTurn(context, await llm.structured(request));
    },
  };
}

// ───────────────────────────── Prices ─────────────────────────────

interface LinePrice {
  line: BaselineLine;
  /** What the supplier charges now: its latest offer, else its opening price. */
  current: number;
  /** The lowest it goes now: its personal floor, or its current price when that is already lower. */
  floor: number;
  /** The band's minimum or the personality's largest discount off the opening, whichever is higher. */
  personalFloor: number;
  ceiling: number;
  quantity: number;
  tiers: PriceTier[];
}

function offersOf(context: SupplierTurnContext): Offer[] {
  return [...context.history.offers].sort((a, b) => a.round - b.round);
}

/** The opening price of a line, as a multiple of the quoted price, before any offer exists. */
function openingFactor(profile: SupplierProfile): number {
  const band = PRICE_RANGES[profile.priceLevel];
  const quoted = Math.min(band.max, Math.max(band.min, 1));
  return profile.isSimulated ? band.min + OPENING_POSITION * (band.max - band.min) : quoted;
}

/**
 * Per line: the current price, and the floor — the band's minimum, or the personality's largest discount off the
 * opening price, whichever is higher — and the band's ceiling (seed 002 §6.3).
 */
export function linePrices(context: SupplierTurnContext): LinePrice[] {
  const { profile, baseline } = context;
  const band = PRICE_RANGES[profile.priceLevel];
  const offers = offersOf(context);
  const first = offers[0];
  const last = offers.at(-1);
  return baseline.lines.map((line) => {
    const opened = first?.lines.find((candidate) => candidate.sku === line.sku);
    const latest = last?.lines.find((candidate) => candidate.sku === line.sku);
    const open = opened?.unitPrice ?? cents(line.unitPrice * openingFactor(profile));
    const current = latest?.unitPrice ?? open;
    const floor = Math.max(band.min * line.unitPrice, open * (1 - profile.personality.maxDiscount));
    return {
      line,
      current,
      // A price already below the personal floor (the engine clipped it into the band) is the floor now.
      floor: cents(Math.min(floor, current)),
      personalFloor: cents(floor),
      ceiling: cents(band.max * line.unitPrice),
      quantity: latest?.quantity ?? line.quantity,
      tiers: latest?.tiers ?? [],
    };
  });
}

// ───────────────────────────── Prompts ─────────────────────────────

/** The persona (seed 002 §6.3, §6.4 buildSupplierSystemPrompt) followed by the shared rules. */
export function supplierSystemPrompt(profile: SupplierProfile, brandName: string): string {
  const { personality } = profile;
  const band = PRICE_RANGES[profile.priceLevel];
  const record =
    `quality ${profile.qualityRating}/5, on-time delivery ${Math.round(profile.onTimeDeliveryRate * 100)}%, defect ` +
    `rate ${(profile.defectRate * 100).toFixed(1)}%${profile.totalOrdersCount > 0 ? `, ${profile.totalOrdersCount} orders delivered` : ''}`;
  const origin = profile.isSimulated
    ? 'The buyer found you as an alternative to the supplier who quoted first.'
    : 'You sent the quotation the buyer is negotiating; its prices are your opening position.';
  return `You are the sales manager of ${untrusted(profile.name, 60)} (${profile.code}), an apparel manufacturer, negotiating one order with ${BRAND_PERSONA}, the buyer of ${untrusted(brandName, 60)}. ${origin}
Who you are: ${untrusted(personality.summary, 300)} Tone: ${untrusted(personality.tone, 80)}.
Your record: ${record}. Your standard lead time is ${profile.leadTimeDays} days and your standard payment terms ${profile.paymentTerms}.
Your pricing: a ${profile.priceLevel} supplier, between ${band.min}× and ${band.max}× the quoted prices; in all you never give more than ${Math.round(personality.maxDiscount * 100)}% off your opening prices. What you concede first: ${personality.concessionOrder.join(', then ')}.
${SUPPLIER_RULES}`;
}

export function supplierRequest(
  context: SupplierTurnContext,
  layout: SupplierPromptLayout = 'cached',
): StructuredRequest<SupplierReply> {
  const prices = linePrices(context);
  return {
    tier: 'reasoning',
    purpose: SUPPLIER_PURPOSE,
    system: supplierSystemPrompt(context.profile, context.brandName),
    prompt: layout === 'cached' ? cachedPrompt(context, prices) : compactPrompt(context, prices),
    toolName: 'reply_to_buyer',
    toolDescription: 'Record your reply to the buyer: the action, your message and your offer.',
    schema: supplierReplySchema.superRefine((reply, issues) => {
      for (const message of replyProblems(reply)) issues.addIssue({ code: 'custom', message });
    }),
    maxTokens: MAX_TOKENS,
  };
}

/**
 * Stable first: the quotation with floors and ceilings, then the conversation one message a block, each rendered the
 * same every round, then this round's figures. Breakpoints end the quotation and the conversation so far.
 */
function cachedPrompt(context: SupplierTurnContext, prices: readonly LinePrice[]): PromptPart[] {
  // The floors are fixed by a first offer: before it (a simulated supplier's round 1) the prefix would change next round.
  const stable = context.history.offers.length > 0;
  const final = context.round >= context.maxRounds;
  const messages = withLatest(context);
  // The end of what this supplier was shown last round: the brand message it answered then.
  const previousEnd = messages.findLastIndex((message) => message.from === 'brand' && message.round < context.round);
  const said = conversationLines(messages, conversationOptions(context));
  // Before the final round the whole history is cached for the next one. In the final round nothing will read a new
  // entry, so the breakpoint sits where last round's prefix ended: a read of what is cached, never a 1.25× write.
  const breakpoint = !stable ? -1 : final ? previousEnd : said.length - 1;
  return [
    { text: quotationSection(context, prices), cache: stable && !final },
    ...said.map((line, index) => ({
      text: `${index === 0 ? `<${FENCES.conversation}>\n` : ''}${line}\n`,
      cache: index === breakpoint,
    })),
    { text: turnSection(context, prices) },
  ];
}

/** One block, nothing cached: this round's prices in the table, the older messages summarised. */
function compactPrompt(context: SupplierTurnContext, prices: readonly LinePrice[]): string {
  const { baseline } = context;
  const table = quotationTable(baseline, [
    priceColumn(prices, 'your price', (price) => price.current),
    priceColumn(prices, 'floor', (price) => price.floor),
    priceColumn(prices, 'ceiling', (price) => price.ceiling),
  ]);
  return [
    [turnHeader(context), constraintLine(context)].filter((line) => line !== null).join('\n'),
    `Your prices (${baseline.currency}):\n${table}\n${totalsLine(context, prices)}`,
    quotationNotes(baseline, 500),
    memory(context, 'compact'),
    conversation(withLatest(context), conversationOptions(context)),
    strategiesLine(context.suggestedStrategies),
  ]
    .filter((section): section is string => section !== null)
    .join('\n\n');
}

function conversationOptions(context: SupplierTurnContext) {
  return { supplierName: context.profile.name, currency: context.baseline.currency, offers: context.history.offers };
}

function priceColumn(prices: readonly LinePrice[], header: string, value: (price: LinePrice) => number) {
  const byLine = new Map(prices.map((price) => [price.line, price]));
  return {
    header,
    value: (line: BaselineLine) => {
      const price = byLine.get(line);
      return price === undefined ? '-' : value(price).toFixed(2);
    },
  };
}

function totalsLine(context: SupplierTurnContext, prices: readonly LinePrice[]): string {
  const total = (value: (price: LinePrice) => number) =>
    formatMoney(
      prices.reduce((sum, price) => sum + price.quantity * value(price), 0),
      context.baseline.currency,
    );
  return `Your total now ${total((price) => price.current)}; at your floors ${total((price) => price.floor)}.`;
}

/** What does not change from round to round: the quoted lines with this supplier's floor and ceiling, and the notes. */
function quotationSection(context: SupplierTurnContext, prices: readonly LinePrice[]): string {
  const { baseline } = context;
  const table = quotationTable(baseline, [
    priceColumn(prices, 'floor', (price) => price.personalFloor),
    priceColumn(prices, 'ceiling', (price) => price.ceiling),
  ]);
  const notes = quotationNotes(baseline, 500);
  return `The order's lines (${baseline.currency}), with your floor and ceiling per line:\n${table}\n\n${notes === null ? '' : `${notes}\n\n`}`;
}

/** This round, after the cached prefix: where the supplier stands now, what it remembers, what it must do. */
function turnSection(context: SupplierTurnContext, prices: readonly LinePrice[]): string {
  const now = prices.map((price) => `${price.line.sku} ${price.current.toFixed(2)}`).join('; ');
  const below = prices.some((price) => price.floor < price.personalFloor)
    ? ' Where a price now is below its floor, that price is your floor.'
    : '';
  return [
    `</${FENCES.conversation}>`,
    [turnHeader(context), constraintLine(context)].filter((line) => line !== null).join('\n'),
    `Your prices now (${context.baseline.currency}): ${now}.${below}\n${totalsLine(context, prices)}`,
    memory(context, 'cached'),
    strategiesLine(context.suggestedStrategies),
  ].join('\n\n');
}

function turnHeader(context: SupplierTurnContext): string {
  const final = context.round >= context.maxRounds ? ' — the final round: settle or hold your position' : '';
  return `Round ${context.round} of ${context.maxRounds}${final}. Reply to ${BRAND_PERSONA}'s latest message (last in the conversation).`;
}

/** The curveball (seed 002 phase 3), stated as a hard limit the message must own up to. */
function constraintLine(context: SupplierTurnContext): string | null {
  const shock = context.curveball;
  if (shock === null) return null;
  const share = Math.round(shock.capacityShare * 100);
  return (
    `Constraint: you can now fill at most ${share}% of this order by value (${untrusted(shock.reason, 160)}). Set ` +
    `offer.capacityShare to ${shock.capacityShare} or less and tell the buyer plainly.`
  );
}

/**
 * What this supplier remembers (seed 002 §6.4): its offers and concessions, the asks, the competitors cited. In the
 * cached layout the verbatim conversation's tags already carry every offer and ask, so only the quotation, the
 * concessions given and asked for and how far it has moved are listed.
 */
function memory(context: SupplierTurnContext, layout: SupplierPromptLayout): string {
  const { currency } = context.baseline;
  const offers = offersOf(context);
  const first = offers[0];
  const last = offers.at(-1);
  const moved =
    first !== undefined && last !== undefined && first !== last
      ? `You are ${(((first.total - last.total) / first.total) * 100).toFixed(1)}% below your opening total.`
      : '';
  const cited = context.competitorMentions.map(
    (mention) =>
      `r${mention.round} ${untrusted(mention.supplierName, 40)} ${formatMoney(mention.total, currency)}` +
      `${mention.leadTimeDays === null ? '' : ` · ${mention.leadTimeDays} d`}${mention.paymentTerms === null ? '' : ` · ${mention.paymentTerms}`}`,
  );
  const citedLine = `Competitor offers the buyer cited: ${cited.join('; ') || 'none'}.`;
  if (layout === 'compact') {
    const trail = offers.map((offer) => {
      // The quotation's own conditions are its notes, already in the prompt.
      const terms = offer.round === 0 ? '' : offerTerms(offer, 160);
      return `r${offer.round} ${offerLine(offer)}${terms ? ` · ${terms}` : ''}`;
    });
    const latestAsk = readBrandAsk(context.latestBrandMessage.action);
    const asks = new Map(context.history.brandAsks.map((ask) => [ask.round, ask]));
    if (latestAsk !== null) asks.set(latestAsk.round, latestAsk);
    return [
      `Your offers so far: ${trail.join('; ') || 'none — this is your first'}.${moved ? ` ${moved}` : ''}`,
      `The buyer's asks: ${[...asks.values()].map((ask) => askLine(ask, currency)).join('; ') || 'none yet'}.`,
      citedLine,
    ].join('\n');
  }
  const quoted = first?.round === 0 ? `Your quotation (r0): ${offerLine(first)}.` : '';
  const given = distinct(offers.flatMap((offer) => offer.concessions));
  const asked = distinct(offers.filter((offer) => offer.round > 0).flatMap((offer) => offer.conditions));
  return [
    offers.length === 0 ? 'You have made no offer yet: this is your first.' : [quoted, moved].join(' ').trim(),
    given.length === 0 ? '' : `Conceded so far: ${given.join('; ')}.`,
    asked.length === 0 ? '' : `Asked in return so far: ${asked.join('; ')}.`,
    citedLine,
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** Supplier-written phrases, cleaned, once each, in the order first said. */
function distinct(phrases: readonly string[]): string[] {
  return [...new Set(phrases.map((text) => untrusted(text, 80)).filter((text) => text !== ''))];
}

/** The history with the latest brand message at its end, once: the engine may or may not have included it. */
function withLatest(context: SupplierTurnContext): HistoryMessage[] {
  const latest = context.latestBrandMessage;
  const included = context.history.messages.some(
    (message) => message.from === 'brand' && message.round === context.round && message.text === latest.text,
  );
  if (included) return [...context.history.messages];
  return [
    ...context.history.messages,
    { round: context.round, from: 'brand', text: latest.text, action: latest.action },
  ];
}

// ───────────────────────────── Reply → turn ─────────────────────────────

export function replyProblems(reply: SupplierReply): string[] {
  const problems: string[] = [];
  const needsOffer = !NO_OFFER_ACTIONS.includes(reply.action);
  if (needsOffer && !reply.offer) problems.push(`${reply.action} needs an offer.`);
  if (!needsOffer && !reply.reason?.trim()) problems.push(`${reply.action} needs a one-line reason.`);
  const words = wordCount(reply.message_text);
  if (words < REPLY_WORD_BOUNDS.min || words > REPLY_WORD_BOUNDS.max) {
    problems.push(`message_text has ${words} words; write 60–110.`);
  }
  return problems;
}

/** The reply's offer as a full draft: every quoted line, stated prices kept, the others moved from the current price. */
export function expandOffer(context: SupplierTurnContext, offer: NonNullable<SupplierReply['offer']>): OfferDraft {
  const stated = new Map((offer.lines ?? []).map((line) => [line.sku.trim(), line]));
  const factor = 1 + (offer.otherLinesChangePct ?? 0) / 100;
  const cap = context.curveball?.capacityShare ?? 1;
  const share = Math.min(offer.capacityShare ?? 1, cap);
  return {
    lines: linePrices(context).map((price) => {
      const line = stated.get(price.line.sku);
      return {
        sku: price.line.sku,
        unitPrice: line === undefined ? cents(price.current * factor) : line.unitPrice,
        quantity: line?.quantity ?? price.quantity,
        tiers: line?.tiers ?? price.tiers,
      };
    }),
    leadTimeDays: offer.leadTimeDays,
    paymentTerms: offer.paymentTerms,
    concessions: offer.concessions.map((text) => text.trim()).filter((text) => text !== ''),
    conditions: offer.conditions.map((text) => text.trim()).filter((text) => text !== ''),
    ...(share < 1 ? { capacityShare: share } : {}),
  };
}

/** The standing offer as a draft, for a REJECT: it still stands. */
function standingDraft(context: SupplierTurnContext): OfferDraft | null {
  const last = offersOf(context).at(-1);
  if (last === undefined) return null;
  return {
    lines: last.lines.map(({ sku, unitPrice, quantity, tiers }) => ({ sku, unitPrice, quantity, tiers })),
    leadTimeDays: last.leadTimeDays,
    paymentTerms: last.paymentTerms,
    concessions: last.concessions,
    conditions: last.conditions,
    ...(last.capacityShare < 1 ? { capacityShare: last.capacityShare } : {}),
  };
}

export function supplierTurn(context: SupplierTurnContext, reply: SupplierReply): SupplierTurn {
  const offer =
    reply.action === 'WALK_AWAY'
      ? null
      : reply.action === 'REJECT' || !reply.offer
        ? standingDraft(context)
        : expandOffer(context, reply.offer);
  const reason = reply.reason?.trim();
  return supplierTurnSchema.parse({
    action: {
      type: reply.action,
      payload: { ...(offer === null ? {} : { offer }), ...(reason ? { reason } : {}) },
    },
    message_text: reply.message_text.trim(),
    used_strategies: [...new Set(reply.used_strategies.filter((id) => context.suggestedStrategies.includes(id)))],
  });
}
