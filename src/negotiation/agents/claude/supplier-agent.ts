// A supplier agent on Claude (seed 002 §6.4 "Supplier Agent"): code decides the reply, Claude says it. The offline
// twin (../offline/supplier-agent.ts) plans the turn from the supplier's private economics — its floor per line, what
// terms and speed cost it, its patience — and Claude writes the message in the supplier's voice: its
// personality, its tone, what changed and what it asks in return. Every figure in the message must be one the prompt
// gave it; a message that states any other price, percentage or lead time is sent back to be rewritten.
//
// Why not let Claude price the offer, as the seed did on Sonnet? Numbers are code's job everywhere else in Parley, and
// here it pays twice. The simulated suppliers then behave the same on both paths — the outcomes benchmark's floors
// hold for Claude runs too — and the prompt needs no price list: the seed's prompt listed every line with its floor
// and ceiling, ~2,000 tokens on 16 lines and ~35,000 on 3,000, read by Sonnet every round. Saying a decided reply in
// character is a writing task the fast tier does well; the prompt is the persona, the buyer's latest message, the
// reply decided and a plain draft of it (~1,300 tokens whatever the quotation's size), the answer one message. Below
// Haiku's 4,096-token cache minimum there is no prefix worth caching.
//
// The twin plans with an rng of its own, derived from the turn, so the context's rng stays untouched: if Claude
// fails, the fallback twin (with-fallback.ts) draws from it as an offline run would.
import { z } from 'zod';
import { formatMoney } from '../../../commerce/money.js';
import { createRng, fnv1a } from '../../../commerce/rng.js';
import type { Llm, ModelTier, StructuredRequest } from '../../../llm/llm.js';
import type { BaselineLine, Offer } from '../../types.js';
import { wordCount } from '../format.js';
import {
  BRAND_PERSONA,
  readOfferDraft,
  supplierTurnSchema,
  type HistoryMessage,
  type OfferDraft,
  type SupplierAgent,
  type SupplierTurn,
  type SupplierTurnContext,
} from '../interfaces.js';
import { draftTotal, offlineSupplierTurn } from '../offline/supplier-agent.js';
import {
  conversationLines,
  disputedLines,
  FENCES,
  fence,
  itemRef,
  strategiesLine,
  topLines,
  untrusted,
  untrustedRule,
} from './prompt-context.js';

export const SUPPLIER_PURPOSE = 'negotiation.supplier.respond';

/** The rules every supplier voice follows; the persona in front of them comes from the profile. */
export const SUPPLIER_RULES = `Your company has decided this turn's reply: its action and every figure in it. Write the message that says it.
- Stay in character. 60–110 words, plain text, addressed to ${BRAND_PERSONA}. Cite the SKU(Description) lines given.
- State the decided figures exactly as written here. State no other price, total, percentage, quantity or lead time,
  and invent nothing about your company, the order or anyone else.
- Say what changed since your last offer and what you ask in return; mention a competitor only as the buyer did.
- Do not repeat your previous message. The draft below has the right facts in plain words: rewrite it in your voice.
- used_strategies: the ids of the offered strategies your message uses.
${untrustedRule([FENCES.conversation])}`;

export const voiceSchema = z.object({
  message_text: z.string().min(1).max(1_500),
  used_strategies: z.array(z.string()),
});
export type Voice = z.infer<typeof voiceSchema>;

const REPLY_WORD_BOUNDS = { min: 30, max: 170 } as const;
const MAX_TOKENS = 600;
/** Lines whose unit prices the message may cite. */
const CITED_LINES = 3;

export interface ClaudeSupplierOptions {
  /** The fast tier by default: the reply is decided, the model only words it. */
  tier?: ModelTier;
}

export function createClaudeSupplierAgent(llm: Llm, options: ClaudeSupplierOptions = {}): SupplierAgent {
  const tier = options.tier ?? 'fast';
  return {
    async respond(context) {
      const planned = plannedTurn(context);
      const voice = await llm.structured({ ...supplierRequest(context, planned), tier });
      return voicedTurn(context, planned, voice);
    },
  };
}

/** The offline twin's turn, planned with an rng of its own (see the header): what this reply says and offers. */
export function plannedTurn(context: SupplierTurnContext): SupplierTurn {
  const key = [
    context.profile.code,
    context.round,
    context.history.messages.length,
    context.history.offers.length,
    context.latestBrandMessage.text,
  ].join('|');
  return offlineSupplierTurn({ ...context, rng: createRng(fnv1a(key)) });
}

// ───────────────────────────── Prompts ─────────────────────────────

/** The persona (seed 002 §6.3, §6.4 buildSupplierSystemPrompt) followed by the shared rules. */
export function supplierSystemPrompt(context: SupplierTurnContext): string {
  const { profile, brandName } = context;
  const { personality } = profile;
  // A track record the buyer has no history for is not the supplier's to quote (no invented facts).
  const record =
    profile.totalOrdersCount > 0
      ? ` Your record: quality ${profile.qualityRating}/5, on-time delivery ${Math.round(profile.onTimeDeliveryRate * 100)}%, ` +
        `defect rate ${(profile.defectRate * 100).toFixed(1)}%, ${profile.totalOrdersCount} orders delivered.`
      : '';
  const origin = profile.isSimulated
    ? 'The buyer found you as an alternative to the supplier who quoted first.'
    : 'You sent the quotation the buyer is negotiating.';
  return `You are the sales manager of ${untrusted(profile.name, 60)} (${profile.code}), an apparel manufacturer, negotiating one order with ${BRAND_PERSONA}, the buyer of ${untrusted(brandName, 60)}. ${origin}
Who you are: ${untrusted(personality.summary, 300)} Tone: ${untrusted(personality.tone, 80)}.${record}
${SUPPLIER_RULES}`;
}

export function supplierRequest(context: SupplierTurnContext, planned: SupplierTurn): StructuredRequest<Voice> {
  const prompt = promptText(context, planned);
  return {
    tier: 'fast',
    purpose: SUPPLIER_PURPOSE,
    system: supplierSystemPrompt(context),
    prompt,
    toolName: 'reply_to_buyer',
    toolDescription: 'Record your message to the buyer.',
    schema: voiceSchema.superRefine((voice, issues) => {
      for (const message of voiceProblems(voice, `${supplierSystemPrompt(context)}\n${prompt}`, context))
        issues.addIssue({ code: 'custom', message });
    }),
    maxTokens: MAX_TOKENS,
  };
}

function promptText(context: SupplierTurnContext, planned: SupplierTurn): string {
  const final = context.round >= context.maxRounds ? ' (the final round)' : '';
  const messages = withLatest(context);
  const previous = [...messages].reverse().find((message) => message.from === 'supplier');
  const latest = messages.at(-1);
  const said = conversationLines([...(previous === undefined ? [] : [previous]), ...(latest ? [latest] : [])], {
    supplierName: context.profile.name,
    currency: context.baseline.currency,
    offers: context.history.offers,
    maxMessageChars: 700,
  });
  return [
    `Round ${context.round} of ${context.maxRounds}${final}. Your previous message, then ${BRAND_PERSONA}'s latest:`,
    fence(FENCES.conversation, said),
    `The reply decided:\n${decidedReply(context, planned)}`,
    `Draft in plain words:\n${fence('draft', [untrusted(planned.message_text, 900)])}`,
    citedLine(context),
    strategiesLine(context.suggestedStrategies),
  ].join('\n\n');
}

/** The decided reply as figures: the action, the offer against the last one, what it gives and asks, the cap. */
function decidedReply(context: SupplierTurnContext, planned: SupplierTurn): string {
  const money = (amount: number) => formatMoney(amount, context.baseline.currency);
  const draft = readOfferDraft(planned.action);
  const last = [...context.history.offers].sort((a, b) => a.round - b.round).at(-1);
  const reason = planned.action.payload['reason'];
  const lines = [`- action: ${planned.action.type}`];
  if (draft !== null) {
    const total = draftTotal(draft);
    const change =
      last === undefined || Math.abs(last.total - total) < 0.005
        ? last === undefined
          ? ''
          : ' (unchanged)'
        : ` (was ${money(last.total)})`;
    lines.push(`- total ${money(total)}${change}`);
    lines.push(`- lead time ${draft.leadTimeDays} days; payment terms ${draft.paymentTerms}`);
    lines.push(`- lines to cite: ${citedPrices(context, draft, last).join('; ')}`);
    if (draft.concessions.length > 0)
      lines.push(`- gives: ${draft.concessions.map((c) => untrusted(c, 100)).join('; ')}`);
    if (draft.conditions.length > 0)
      lines.push(`- on condition: ${draft.conditions.map((c) => untrusted(c, 100)).join('; ')}`);
    if (draft.capacityShare !== undefined && draft.capacityShare < 1)
      lines.push(
        `- you can fill at most ${Math.round(draft.capacityShare * 100)}% of the order by value: say so plainly`,
      );
  } else {
    lines.push('- no new offer: your standing offer, if any, remains');
  }
  if (typeof reason === 'string' && reason.trim() !== '') lines.push(`- reason: ${untrusted(reason, 200)}`);
  return lines.join('\n');
}

/**
 * The largest lines' new unit prices, then those of every line in dispute (cited by SKU in the conversation), with
 * the old ones where they moved: a bounded list whatever the quotation's size, since messages are capped.
 */
function citedPrices(context: SupplierTurnContext, draft: OfferDraft, last: Offer | undefined): string[] {
  const money = (amount: number) => formatMoney(amount, context.baseline.currency);
  const disputed = supplierDisputedLines(context);
  const top = topLines(context.baseline, CITED_LINES).filter((line) => !disputed.includes(line));
  return [...top, ...disputed].flatMap((line) => {
    const now = draft.lines.find((candidate) => candidate.sku === line.sku);
    if (now === undefined) return [];
    const before = last?.lines.find((candidate) => candidate.sku === line.sku)?.unitPrice;
    const was = before === undefined || Math.abs(before - now.unitPrice) < 0.005 ? '' : ` (was ${money(before)})`;
    return [`${itemRef(line)} ${money(now.unitPrice)}${was}`];
  });
}

/** The lines the conversation cites by SKU (the RFQ, which lists every line, aside). */
export function supplierDisputedLines(context: SupplierTurnContext): BaselineLine[] {
  const said = withLatest(context)
    .filter((message) => message.action?.type !== 'REQUEST_CRITERIA')
    .map((message) => message.text);
  return disputedLines(context.baseline, said);
}

/** What the buyer told this supplier of its competitors: as the buyer said it, anonymous unless named. */
function citedLine(context: SupplierTurnContext): string {
  const money = (amount: number) => formatMoney(amount, context.baseline.currency);
  const cited = context.competitorMentions.map(
    (mention) => `r${mention.round} ${untrusted(mention.supplierName, 40)} at about ${money(mention.total)}`,
  );
  return `Competing offers the buyer cited: ${cited.join('; ') || 'none'}.`;
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

/**
 * What is wrong with a voiced message: its length, or a figure — an amount of money, a percentage, a number of days
 * — that appears nowhere in what the model was given.
 */
export function voiceProblems(voice: Voice, given: string, context: SupplierTurnContext): string[] {
  const problems: string[] = [];
  const words = wordCount(voice.message_text);
  if (words < REPLY_WORD_BOUNDS.min || words > REPLY_WORD_BOUNDS.max) {
    problems.push(`message_text has ${words} words; write 60–110.`);
  }
  const known = new Set(figuresIn(given, context.baseline.currency));
  const invented = [...new Set(figuresIn(voice.message_text, context.baseline.currency))].filter((f) => !known.has(f));
  if (invented.length > 0) {
    problems.push(
      `message_text states ${invented.join(', ')}, which the decided reply does not give: state only its figures.`,
    );
  }
  return problems;
}

/** Amounts of money (as the thread writes them), percentages and day counts in a text, normalised. */
export function figuresIn(text: string, currency: string): string[] {
  const sample = formatMoney(1234.5, currency);
  const prefix = sample.slice(0, sample.search(/\d/)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const figures: string[] = [];
  for (const match of text.matchAll(new RegExp(`${prefix}\\s?(\\d[\\d,]*(?:\\.\\d+)?)`, 'g')))
    figures.push(`money ${Number((match[1] ?? '').replace(/,/g, '').replace(/\.$/, ''))}`);
  for (const match of text.matchAll(/(?<![\d.])(\d+(?:\.\d+)?)\s?%/g)) figures.push(`${Number(match[1])}%`);
  for (const match of text.matchAll(/(?<![\d.,])(\d{1,3})(?:[- ]days?\b|-day\b| d\b)/gi))
    figures.push(`${Number(match[1])} days`);
  return figures;
}

export function voicedTurn(context: SupplierTurnContext, planned: SupplierTurn, voice: Voice): SupplierTurn {
  return supplierTurnSchema.parse({
    ...planned,
    message_text: voice.message_text.trim(),
    used_strategies: [...new Set(voice.used_strategies.filter((id) => context.suggestedStrategies.includes(id)))],
  });
}
