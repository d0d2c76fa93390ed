// What Parley said in a negotiation, checked for contradictions with the facts it had: pure functions over a finished
// (or running) negotiation's state and events, so the tests can check every sample over many seeds and the outcomes
// benchmark can count "leaks" and "inventedFacts" the same way. Each check looks for a specific mistake that was
// seen in real transcripts:
// - wrongPartyPrice: a price attributed to the wrong party ("we'd pay $59.12 a unit" where $59.12 is the supplier's
//   price; "your $X" where X is not the supplier's figure);
// - zeroShare: a share written as "0% of the order";
// - allSkusOverLimit: "samples for all 3000 SKUs" (nobody asks that of an order over MAX_ALL_COUNT lines);
// - competitorLeak: with the workspace's disclosure setting off, a competitor's name, exact price or capacity problem
//   in a message to another supplier;
// - assumedFactAsSupplier: a figure Parley assumed (facts.ts) stated as the supplier's own while it was assumed;
// - mixedCurrencyFormats: more than one way of writing money in one thread (commerce/money.ts is the one format).
import { formatMoney, formatPercent, minorUnitDigits } from '../commerce/money.js';
import { describePaymentTerms } from '../commerce/payment-terms.js';
import type { NegotiationEvent, NegotiationState } from './engine.js';
import { type SupplierFact, SUPPLIER_FACTS, wasAssumedAt } from './facts.js';
import type { Offer } from './types.js';

export const VIOLATION_KINDS = [
  'wrongPartyPrice',
  'zeroShare',
  'allSkusOverLimit',
  'competitorLeak',
  'assumedFactAsSupplier',
  'mixedCurrencyFormats',
] as const;
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

/** The benchmark's "leaks": what the brand told one supplier about another without the workspace's leave. */
export const LEAK_KINDS: readonly ViolationKind[] = ['competitorLeak'];
/** The benchmark's "inventedFacts": Parley's own assumptions presented as a supplier's word. */
export const INVENTED_FACT_KINDS: readonly ViolationKind[] = ['assumedFactAsSupplier'];

/** Above this many, "all N SKUs" is not something anyone writes. */
export const MAX_ALL_COUNT = 50;

export interface Violation {
  kind: ViolationKind;
  /** The supplier the message was addressed to or is about; null for thread-wide findings. */
  supplierCode: string | null;
  /** The message's sequence number; null for text that is not a message (a brief, a question, the decision). */
  sequence: number | null;
  /** What was said, around the problem. */
  excerpt: string;
  detail: string;
}

export interface CheckOptions {
  /** More text shown in the same thread (the recommendation's words), checked for wording and money format. */
  extraTexts?: readonly string[];
}

/** Every violation in the negotiation's messages, briefs, questions and curveball, in the order they were said. */
export function checkNegotiation(
  state: NegotiationState,
  events: readonly NegotiationEvent[],
  options: CheckOptions = {},
): Violation[] {
  const violations: Violation[] = [];
  const currency = state.baseline.currency;
  const money = (amount: number) => formatMoney(amount, currency);
  const nameOf = (code: string) => state.profiles.find((p) => p.code === code)?.name ?? code;
  const offersSoFar = new Map<string, Offer[]>();
  const texts: string[] = [...(options.extraTexts ?? [])];

  for (const event of events) {
    switch (event.type) {
      case 'offer_extracted':
        offersSoFar.set(event.supplierCode, [...(offersSoFar.get(event.supplierCode) ?? []), event.offer]);
        break;
      case 'curveball':
        texts.push(event.curveball.impact, ...event.curveball.strategies.map((s) => `${s.title} ${s.detail}`));
        break;
      case 'question_asked': {
        texts.push(event.question);
        const where = { supplierCode: event.supplierCode, sequence: null };
        violations.push(...wording(event.question, where));
        // A question to the buyer about a supplier must not state its assumed figures as its quote either.
        const figures = factsOf(state, event.supplierCode, offersSoFar.get(event.supplierCode)?.at(-1) ?? null);
        if (figures !== null) {
          // Asked between two messages: what was assumed then is what the message before it saw.
          const sequence = latestSequence(events, event) ?? 0;
          violations.push(
            ...assumedAsStated(event.question, figures, (fact) =>
              wasAssumedAt(state.assumptions, event.supplierCode, fact, sequence + 1),
            ).map((v) => ({ ...v, ...where })),
          );
        }
        break;
      }
      case 'message': {
        texts.push(event.text);
        const where = { supplierCode: event.supplierCode, sequence: event.sequence };
        violations.push(...wording(event.text, where));
        if (event.pillarBriefs) {
          const briefs = [
            event.pillarBriefs.negotiator,
            event.pillarBriefs.riskAnalyst,
            event.pillarBriefs.productCost,
          ];
          texts.push(...briefs);
          for (const brief of briefs) violations.push(...wording(brief, { ...where, sequence: null }));
        }
        if (event.role !== 'brand_agent') break;
        const own = offersSoFar.get(event.supplierCode) ?? [];
        const figures = factsOf(state, event.supplierCode, own.at(-1) ?? null);
        const ask = event.action.payload['ask'];
        const askTotal = isRecord(ask) && typeof ask['targetTotal'] === 'number' ? ask['targetTotal'] : null;
        violations.push(
          ...wrongParty(event.text, own, askTotal, money).map((v) => ({ ...v, ...where })),
          ...(figures === null
            ? []
            : assumedAsStated(event.text, figures, (fact) =>
                wasAssumedAt(state.assumptions, event.supplierCode, fact, event.sequence),
              ).map((v) => ({ ...v, ...where }))),
        );
        if (!state.discloseCompetitors) {
          violations.push(
            ...leaks(event.text, {
              addressee: event.supplierCode,
              others: state.profiles.filter((p) => p.code !== event.supplierCode).map((p) => p.code),
              nameOf,
              offersOf: (code) => offersSoFar.get(code) ?? [],
              ownFigures: new Set([...own.flatMap(figuresOf), ...(askTotal === null ? [] : [askTotal])].map(money)),
              cappedCode:
                state.curveball !== null && event.round > state.curveball.afterRound
                  ? state.curveball.supplierCode
                  : null,
              money,
            }).map((v) => ({ ...v, ...where })),
          );
        }
        break;
      }
      default:
        break;
    }
  }
  for (const text of options.extraTexts ?? [])
    violations.push(...wording(text, { supplierCode: null, sequence: null }));
  violations.push(...currencyFormats(texts, currency));
  return violations;
}

/** How many of each kind. */
export function countViolations(violations: readonly Violation[]): Record<ViolationKind, number> {
  const counts = Object.fromEntries(VIOLATION_KINDS.map((kind) => [kind, 0])) as Record<ViolationKind, number>;
  for (const violation of violations) counts[violation.kind] += 1;
  return counts;
}

/** The benchmark's two counts. */
export function leakAndInventedCounts(violations: readonly Violation[]): { leaks: number; inventedFacts: number } {
  return {
    leaks: violations.filter((v) => LEAK_KINDS.includes(v.kind)).length,
    inventedFacts: violations.filter((v) => INVENTED_FACT_KINDS.includes(v.kind)).length,
  };
}

// ───────────────────────────── Wording ─────────────────────────────

type Found = Omit<Violation, 'supplierCode' | 'sequence'>;
type Where = Pick<Violation, 'supplierCode' | 'sequence'>;

const ZERO_SHARE = /(?<![\d.,])0(?:\.0+)?\s?%\s+(?:of|to)\b/g;
const ALL_N = /\ball (?:the |your |of the )?(\d{1,3}(?:,\d{3})+|\d+) (?:SKUs|lines|items|styles|products)\b/gi;

/** Contradictions any text can have, whoever wrote it. */
export function wording(text: string, where: Where): Violation[] {
  const out: Violation[] = [];
  for (const match of text.matchAll(ZERO_SHARE)) {
    out.push({ kind: 'zeroShare', ...where, excerpt: around(text, match.index), detail: 'a share written as 0%' });
  }
  for (const match of text.matchAll(ALL_N)) {
    const count = Number((match[1] ?? '').replace(/,/g, ''));
    if (count > MAX_ALL_COUNT) {
      out.push({
        kind: 'allSkusOverLimit',
        ...where,
        excerpt: around(text, match.index),
        detail: `"all ${count}" of something over ${MAX_ALL_COUNT}`,
      });
    }
  }
  return out;
}

// ───────────────────────────── Who a price belongs to ─────────────────────────────

/** First-person words that make the amount after them the brand's own ("we'd pay $X", "our number is $X"). */
const OURS =
  /\b(?:we(?:'d| would| will|'ll| can)? (?:pay|offer|commit at)|our (?:number|offer|target|budget)\b[^.;]*?\bis|we need|meet us at)\s*$/i;
/** The amount after these is the addressee's ("your $X offer"). */
const YOURS = /\byour\s+$/i;
/** How far before an amount its owner's words may be. */
const OWNER_WINDOW = 40;

function figuresOf(offer: Offer): number[] {
  return [offer.total, ...offer.lines.map((line) => line.unitPrice)];
}

/**
 * A brand message's amounts against who they belong to: one the brand claims as its own must not be the supplier's
 * standing figure (unless it is what the brand asks for), and one it calls "your" must be one of the supplier's.
 */
export function wrongParty(
  text: string,
  supplierOffers: readonly Offer[],
  askTotal: number | null,
  money: (amount: number) => string,
): Found[] {
  const standing = supplierOffers.at(-1);
  if (standing === undefined) return [];
  const theirsNow = new Set(figuresOf(standing).map(money));
  const theirsEver = new Set(supplierOffers.flatMap(figuresOf).map(money));
  const asked = askTotal === null ? null : money(askTotal);
  const out: Found[] = [];
  for (const { amount, index } of amountsIn(text, money)) {
    const before = text.slice(Math.max(0, index - OWNER_WINDOW), index);
    if (OURS.test(before) && theirsNow.has(amount) && amount !== asked) {
      out.push({
        kind: 'wrongPartyPrice',
        excerpt: around(text, index),
        detail: `${amount} is the supplier's price, written as the brand's`,
      });
    } else if (YOURS.test(before) && !theirsEver.has(amount)) {
      out.push({
        kind: 'wrongPartyPrice',
        excerpt: around(text, index),
        detail: `${amount} is called the supplier's but is none of its figures`,
      });
    }
  }
  return out;
}

/** Every amount in the thread's money format, with where it starts. */
function amountsIn(text: string, money: (amount: number) => string): { amount: string; index: number }[] {
  const sample = money(1234.5);
  const prefix = sample.slice(0, sample.search(/\d/));
  const pattern = new RegExp(`${escapeRegExp(prefix)}\\d[\\d,]*(?:\\.\\d+)?`, 'g');
  return [...text.matchAll(pattern)].map((m) => ({ amount: m[0].replace(/[.,]$/, ''), index: m.index }));
}

// ───────────────────────────── Assumptions ─────────────────────────────

/** The figures a supplier is scored on: its standing offer's terms and its profile's track record. */
export interface SupplierFigures {
  leadTimeDays: number;
  paymentTerms: string;
  onTimeDeliveryRate: number;
  defectRate: number;
  qualityRating: number;
}

function factsOf(state: NegotiationState, code: string, standing: Offer | null): SupplierFigures | null {
  const profile = state.profiles.find((p) => p.code === code);
  if (profile === undefined) return null;
  return {
    leadTimeDays: standing?.leadTimeDays ?? profile.leadTimeDays,
    paymentTerms: standing?.paymentTerms ?? profile.paymentTerms,
    onTimeDeliveryRate: profile.onTimeDeliveryRate,
    defectRate: profile.defectRate,
    qualityRating: profile.qualityRating,
  };
}

/**
 * The supplier's assumed figures written as its own: its assumed lead time ("your 50", "at 50 days"), terms, on-time
 * rate, defect rate or quality rating, in a message to it or a question about it.
 */
export function assumedAsStated(
  text: string,
  figures: SupplierFigures,
  assumedNow: (fact: SupplierFact) => boolean,
): Found[] {
  const out: Found[] = [];
  for (const fact of SUPPLIER_FACTS) {
    if (!assumedNow(fact)) continue;
    for (const pattern of assumedPatterns(fact, figures)) {
      const match = pattern.exec(text);
      if (match === null) continue;
      out.push({
        kind: 'assumedFactAsSupplier',
        excerpt: around(text, match.index),
        detail: `an assumed ${fact} stated as the supplier's`,
      });
      break;
    }
  }
  return out;
}

function assumedPatterns(fact: SupplierFact, figures: SupplierFigures): RegExp[] {
  switch (fact) {
    case 'leadTimeDays': {
      const days = String(figures.leadTimeDays);
      return [
        new RegExp(`\\byour (?:lead time of )?${days}(?![\\d/%.,]\\d)\\b`, 'i'),
        new RegExp(
          `\\b(?:at|quotes?|ship(?:s|ping)? in|instead of|than|from) ${days}(?:-day| days?)?(?![\\d/%])\\b`,
          'i',
        ),
        new RegExp(`\\b${days}-day (?:lead time|production|delivery)`, 'i'),
        new RegExp(`[,:] ${days} days, `, 'i'),
      ];
    }
    case 'paymentTerms': {
      const words = [figures.paymentTerms, describePaymentTerms(figures.paymentTerms)];
      return [...new Set(words)].map((w) => new RegExp(`(?<![\\d/])${escapeRegExp(w)}(?![\\d/%])`));
    }
    case 'onTimeDeliveryRate':
      return ratePatterns(figures.onTimeDeliveryRate, 'on-time');
    case 'defectRate':
      return ratePatterns(figures.defectRate, 'defect');
    case 'qualityRating': {
      const rating = figures.qualityRating;
      return [new RegExp(`(?<![\\d.])(?:${rating.toFixed(1)}|${String(rating)})\\/5\\b`)];
    }
  }
}

/** "90% on-time", "90.0% on-time", "on-time rate of 90%": however the rate is written. */
function ratePatterns(rate: number, word: string): RegExp[] {
  const written = [...new Set([formatPercent(rate, 1, 0), formatPercent(rate, 1), formatPercent(rate, 0)])];
  const either = written.map(escapeRegExp).join('|');
  return [
    new RegExp(`(?<![\\d.])(?:${either})\\s+${word}`, 'i'),
    new RegExp(`${word}[a-z ]{0,20}?(?<![\\d.])(?:${either})`, 'i'),
  ];
}

/** The latest message sequence at or before this event (a question is asked between messages). */
function latestSequence(events: readonly NegotiationEvent[], at: NegotiationEvent): number | null {
  let sequence: number | null = null;
  for (const event of events) {
    if (event === at) break;
    if (event.type === 'message') sequence = event.sequence;
  }
  return sequence;
}

// ───────────────────────────── Discretion ─────────────────────────────

interface LeakContext {
  addressee: string;
  others: readonly string[];
  nameOf: (code: string) => string;
  offersOf: (code: string) => readonly Offer[];
  /** The addressee's own figures and the brand's ask to it, as written: a coincidence with a rival's is no leak. */
  ownFigures: ReadonlySet<string>;
  /** After the curveball: the supplier whose capacity problem is its own business. */
  cappedCode: string | null;
  money: (amount: number) => string;
}

const CAPACITY_WORDS =
  /\b(?:capped|capacity (?:cap|constraint|shock|problem|limit)|can only (?:cover|fill|take)|can fill only)\b/i;

/** A competitor's name, exact price or capacity problem in a brand message to another supplier. */
export function leaks(text: string, context: LeakContext): Found[] {
  const out: Found[] = [];
  for (const code of context.others) {
    const name = context.nameOf(code);
    const at = name.length >= 3 ? text.indexOf(name) : -1;
    if (at >= 0) out.push({ kind: 'competitorLeak', excerpt: around(text, at), detail: `names ${name}` });
    // What the brand knew of this rival: its standing offer (an older figure it no longer sees is no disclosure).
    const standing = context.offersOf(code).at(-1);
    const prices = new Set((standing === undefined ? [] : figuresOf(standing)).map(context.money));
    for (const { amount, index } of amountsIn(text, context.money)) {
      if (prices.has(amount) && !context.ownFigures.has(amount)) {
        out.push({ kind: 'competitorLeak', excerpt: around(text, index), detail: `quotes ${name}'s ${amount}` });
      }
    }
  }
  if (context.cappedCode !== null && context.cappedCode !== context.addressee) {
    const match = CAPACITY_WORDS.exec(text);
    if (match !== null) {
      out.push({
        kind: 'competitorLeak',
        excerpt: around(text, match.index),
        detail: `tells of ${context.nameOf(context.cappedCode)}'s capacity problem`,
      });
    }
  }
  return out;
}

// ───────────────────────────── Money format ─────────────────────────────

const FIGURE = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
/**
 * Money as written anywhere: a symbol (with letters before it: "CN¥", "US$"), a three-letter code before the figure
 * ("CNY 1,234.50") or after it ("1,234 CNY"). Codes are checked against the currencies `Intl` knows afterwards, so
 * "SKU 12" or "MOQ 300" are not money.
 */
const MONEY_TOKEN = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:(?<symbol>[A-Z]{0,2}[$€£¥]\s?)(?<a>${FIGURE})|(?<pre>[A-Z]{3}) (?<b>${FIGURE})|(?<c>${FIGURE}) (?<post>[A-Z]{3})(?![\p{L}]))`,
  'gu',
);

const CURRENCY_CODES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** "$#.##", "CNY #.##", "# CNY": how a money token is written, its digits masked but its decimals counted. */
function shapeOf(match: RegExpMatchArray): string | null {
  const groups = match.groups ?? {};
  const figure = groups['a'] ?? groups['b'] ?? groups['c'] ?? '';
  const decimals = /\.(\d+)$/.exec(figure)?.[1]?.length ?? 0;
  const number = `#${decimals > 0 ? `.${'#'.repeat(decimals)}` : ''}`;
  if (groups['symbol'] !== undefined) return `${groups['symbol'].trim()}${number}`;
  if (groups['pre'] !== undefined) return CURRENCY_CODES.has(groups['pre']) ? `${groups['pre']} ${number}` : null;
  const post = groups['post'];
  return post !== undefined && CURRENCY_CODES.has(post) ? `${number} ${post}` : null;
}

/** More than one way of writing money in one thread is one violation, listing the ways. */
export function currencyFormats(texts: readonly string[], currency: string): Violation[] {
  const shapes = new Map<string, string>();
  for (const text of texts) {
    for (const match of text.matchAll(MONEY_TOKEN)) {
      const shape = shapeOf(match);
      if (shape !== null && !shapes.has(shape)) shapes.set(shape, match[0]);
    }
  }
  const expected = [...formatMoney(1234.5, currency).matchAll(MONEY_TOKEN)].map(shapeOf)[0] ?? null;
  const off = [...shapes.entries()].filter(([shape]) => shape !== expected);
  if (off.length === 0) return [];
  return [
    {
      kind: 'mixedCurrencyFormats',
      supplierCode: null,
      sequence: null,
      excerpt: off.map(([, token]) => token).join(' · '),
      detail:
        `money written as ${[...shapes.keys()].join(', ')}; the thread's format is ${expected ?? '?'} ` +
        `(${minorUnitDigits(currency)} digits)`,
    },
  ];
}

// ───────────────────────────── Helpers ─────────────────────────────

function around(text: string, index: number): string {
  return text.slice(Math.max(0, index - 50), Math.min(text.length, index + 70)).replace(/\s+/g, ' ');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
