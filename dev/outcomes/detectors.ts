// The outcomes benchmark's violation detectors. Each is defined here from what a buyer would call a violation, and
// reads only the negotiation's record (its events, its state, the decision's figures) — never the code that is
// supposed to prevent the violation — so a detector keeps working when that code changes, and can catch it failing.
import { formatMoney } from '../../src/commerce/money.js';
import { describePaymentTerms } from '../../src/commerce/payment-terms.js';
import type { AwardedSupplier, DecisionNumbers, OfferFigures } from '../../src/decision/decide.js';
import type { NegotiationEvent } from '../../src/negotiation/engine.js';
import type { SupplierProfile } from '../../src/config/business-rules.js';
import type { Baseline, Offer } from '../../src/negotiation/types.js';
import type { IntendedMandate } from './scenarios.js';
import { distinctiveNameWords } from '../../src/negotiation/agents/discretion.js';

/** Money compares to the cent; a premium under this share of the award is rounding, not a premium. */
const CENT = 0.01;
const PREMIUM_TOLERANCE = 0.001;

// ───────────────────────────── The award against the mandate ─────────────────────────────

/** What the award detectors read of a decision (a `DecisionNumbers` is one): small enough to write by hand in a test. */
export interface AwardFigures {
  weights: DecisionNumbers['weights'];
  allocation: Pick<DecisionNumbers['allocation'], 'effectiveLandedCost' | 'fob' | 'charges'>;
  award: readonly Pick<AwardedSupplier, 'supplierCode' | 'share' | 'fob' | 'cashFlowCost' | 'leadTimeDays'>[];
  offers: readonly AlternativeFigures[];
}

export type AlternativeFigures = Pick<
  OfferFigures,
  | 'supplierCode'
  | 'name'
  | 'total'
  | 'leadTimeDays'
  | 'qualityRating'
  | 'onTimeDeliveryRate'
  | 'defectRate'
  | 'cashFlowCost'
  | 'effectiveLandedCost'
  | 'canFillAlone'
  | 'capacityShare'
>;

/**
 * What the buyer pays the suppliers for the award: their prices and their own charges. Not the freight and duty the
 * buyer pays others, nor the imputed costs (cash flow, split overhead) that only rank awards.
 */
export function awardPrice(numbers: AwardFigures): number {
  return numbers.allocation.fob + numbers.allocation.charges;
}

/** When the whole award is in: the slowest awarded supplier's lead time. */
export function awardLeadTime(numbers: AwardFigures): number {
  return Math.max(...numbers.award.map((supplier) => supplier.leadTimeDays));
}

/**
 * awardsAboveWalkAway: the buyer set a walk-away total and the award's price (`awardPrice`) is more than a cent above
 * it.
 */
export function isAboveWalkAway(numbers: AwardFigures, mandate: IntendedMandate): boolean {
  return mandate.walkAwayTotal !== null && awardPrice(numbers) > mandate.walkAwayTotal + CENT;
}

/** awardsMissingDeadline: the buyer set a maximum lead time and the award's slowest supplier is slower. */
export function missesDeadline(numbers: AwardFigures, mandate: IntendedMandate): boolean {
  return mandate.maxLeadTimeDays !== null && awardLeadTime(numbers) > mandate.maxLeadTimeDays;
}

/**
 * The buyer asked for one supplier at the start and the award is split. No later answer excuses it: an answer may
 * tighten the start mandate, never loosen it, and the brand does not ask what the mandate settles. Shown in the
 * table; not one of the keys.
 */
export function splitDespiteSingleSource(numbers: AwardFigures, mandate: IntendedMandate): boolean {
  return mandate.singleSource && numbers.award.length > 1;
}

/**
 * overQuoteWithoutConsent: the award's effective landed cost is more than a cent above the quotation's own landed cost
 * (its total plus the cash-flow cost of its terms) and the buyer did not accept a premium. `quoteLanded` is the
 * decision's figure when it has one, else the caller's (the quotation priced at the terms the negotiation assumed).
 */
export function isOverQuote(numbers: AwardFigures, quoteLanded: number, premiumAccepted: boolean): boolean {
  return !premiumAccepted && numbers.allocation.effectiveLandedCost > quoteLanded + CENT;
}

// ───────────────────────────── The buyer's answers ─────────────────────────────

/** What an answer tells the code, read from its words alone (the answer buttons and anything typed). */
export interface AnswerConstraint {
  /** "Yes, 45 days is fine": a lead time up to this is acceptable, so nothing is worth paying to be faster. */
  acceptedLeadTimeDays: number | null;
  /** "Need delivery within 21 days". */
  maxLeadTimeDays: number | null;
  /** "Prefer a single supplier". */
  singleSource: boolean;
  /** "Split only if it saves more than 5%": a split must save at least this share against the best single award. */
  splitMinSaving: number | null;
  /** "Keep it under $100,000", "keep it under 120k". */
  budget: number | null;
  /** "We must split", "dual-source this": one supplier alone will not do. */
  requireSplit: boolean;
}

export function readAnswer(answer: string): AnswerConstraint {
  const text = answer.toLowerCase();
  const number = (pattern: RegExp): number | null => {
    const match = pattern.exec(text);
    const value = match?.[1] === undefined ? NaN : Number(match[1].replace(/,/g, ''));
    return Number.isFinite(value) ? value : null;
  };
  // Days, or weeks of seven days: "within 30 days", "in under 5 weeks".
  const days = (pattern: RegExp): number | null => {
    const match = pattern.exec(text);
    if (match?.[1] === undefined) return null;
    const value = Number(match[1]);
    return match[2]?.startsWith('w') === true ? value * 7 : value;
  };
  return {
    acceptedLeadTimeDays: number(/\b(\d{1,3})[- ]?days? (?:(?:is|are) (?:fine|ok|okay|acceptable)|works?)\b/),
    maxLeadTimeDays: days(
      /\b(?:within|in|by|max(?:imum)?|at most|no more than|under) (?:under )?(\d{1,3})[- ]?(days?|weeks?)\b/,
    ),
    singleSource: /\b(single supplier|one supplier|single[- ]source|no split|don't split|do not split)\b/.test(text),
    splitMinSaving: (() => {
      const percent = number(/split only if it saves more than (\d+(?:\.\d+)?)%/);
      return percent === null ? null : percent / 100;
    })(),
    budget: readBudget(text),
    requireSplit: /\b(?:must|have to|need to) split\b|\bat least two suppliers\b|\b(?:dual|multi)[- ]?sourc/.test(text),
  };
}

/** "$100,000", "120k", "1.2m" after a word that makes it a ceiling; a bare small number is a count, not a budget. */
function readBudget(text: string): number | null {
  const match =
    /\b(?:budget(?: is)?|under|at most|no more than|below) \$?(\d[\d,]*(?:\.\d+)?)(k|m)?\b(?! ?(?:days?|weeks?|%))/.exec(
      text,
    );
  if (match?.[1] === undefined) return null;
  const value = Number(match[1].replace(/,/g, '')) * (match[2] === 'k' ? 1_000 : match[2] === 'm' ? 1_000_000 : 1);
  return Number.isFinite(value) && value >= 1_000 ? value : null;
}

export interface IgnoredAnswer {
  question: string;
  answer: string;
  why: string;
}

/**
 * answersIgnored: an answer implied a constraint and the award breaks it — a lead time over the one the buyer needs,
 * a split when the buyer wants one supplier (or a split that saves less than the buyer's threshold), more than the
 * buyer's budget — or the award pays a premium for exactly what the buyer waived: the buyer accepted lead time L, and
 * a supplier that can take the whole order within L (and within the mandate) is cheaper in landed cost, while the
 * award is better than it on nothing the mode weighs but lead time (quality, reliability, payment terms).
 */
export function ignoredAnswers(
  answers: readonly { question: string; answer: string }[],
  numbers: AwardFigures,
  mandate: IntendedMandate,
): IgnoredAnswer[] {
  const ignored: IgnoredAnswer[] = [];
  const landed = numbers.allocation.effectiveLandedCost;
  const lead = awardLeadTime(numbers);
  const split = numbers.award.length > 1;
  for (const { question, answer } of answers) {
    const wants = readAnswer(answer);
    const flag = (why: string) => ignored.push({ question, answer, why });
    if (wants.maxLeadTimeDays !== null && lead > wants.maxLeadTimeDays)
      flag(`the award arrives in ${lead} days, the buyer needs ${wants.maxLeadTimeDays}`);
    if (wants.singleSource && split) flag('the award is split, the buyer wants one supplier');
    // A split the buyer required, unless the start mandate asked for one supplier (an answer does not overturn it).
    if (wants.requireSplit && !split && !mandate.singleSource)
      flag('the award goes to one supplier, the buyer required a split');
    if (wants.budget !== null && awardPrice(numbers) > wants.budget + CENT)
      flag(`the award costs ${awardPrice(numbers).toFixed(2)}, the buyer's budget is ${wants.budget}`);
    if (wants.splitMinSaving !== null && split) {
      const single = cheapestSingle(numbers.offers, () => true);
      const saving = single === null ? Infinity : (single.effectiveLandedCost - landed) / single.effectiveLandedCost;
      if (saving <= wants.splitMinSaving)
        flag(`the split saves ${(saving * 100).toFixed(1)}% against one supplier, the buyer asked for more`);
    }
    if (wants.acceptedLeadTimeDays !== null) {
      const accepted = wants.acceptedLeadTimeDays;
      const alternative = cheapestSingle(
        numbers.offers,
        (offer) =>
          offer.leadTimeDays <= accepted &&
          (mandate.maxLeadTimeDays === null || offer.leadTimeDays <= mandate.maxLeadTimeDays) &&
          (mandate.walkAwayTotal === null || offer.total <= mandate.walkAwayTotal + CENT),
      );
      if (
        alternative !== null &&
        alternative.effectiveLandedCost < landed * (1 - PREMIUM_TOLERANCE) &&
        lead < alternative.leadTimeDays &&
        !betterOnOtherFactors(numbers, alternative)
      ) {
        flag(
          `the award pays ${(landed - alternative.effectiveLandedCost).toFixed(2)} more than ${alternative.name} ` +
            `for lead time, which the buyer accepted up to ${accepted} days`,
        );
      }
    }
  }
  return ignored;
}

/** The cheapest offer (effective landed cost) that can take the whole order alone and passes `keep`. */
function cheapestSingle(
  offers: readonly AlternativeFigures[],
  keep: (offer: AlternativeFigures) => boolean,
): AlternativeFigures | null {
  return (
    offers
      .filter((offer) => offer.canFillAlone && offer.capacityShare >= 1 && keep(offer))
      .sort((a, b) => a.effectiveLandedCost - b.effectiveLandedCost)[0] ?? null
  );
}

/**
 * Whether the award beats `other` on a factor the mode weighs, other than lead time and price: a higher quality rating,
 * a better delivery record (on-time or defects) or — only where the mode weighs terms above price (cash-flow mode) —
 * less money paid early. Elsewhere terms are no separate reason to pay more: the landed cost compared already counts
 * their cash-flow cost. The award's figures are its suppliers' weighted by their share of the award.
 */
function betterOnOtherFactors(numbers: AwardFigures, other: AlternativeFigures): boolean {
  const weights = numbers.weights;
  const byCode = new Map(numbers.offers.map((offer) => [offer.supplierCode, offer]));
  const weighted = (value: (offer: AlternativeFigures) => number): number =>
    numbers.award.reduce((sum, supplier) => {
      const offer = byCode.get(supplier.supplierCode);
      return offer === undefined ? sum : sum + supplier.share * value(offer);
    }, 0);
  const EPS = 1e-9;
  const fob = numbers.award.reduce((sum, supplier) => sum + supplier.fob, 0);
  const cash = numbers.award.reduce((sum, supplier) => sum + supplier.cashFlowCost, 0);
  return (
    (weights.quality > 0 && weighted((offer) => offer.qualityRating) > other.qualityRating + EPS) ||
    (weights.reliability > 0 &&
      (weighted((offer) => offer.onTimeDeliveryRate) > other.onTimeDeliveryRate + EPS ||
        weighted((offer) => offer.defectRate) < other.defectRate - EPS)) ||
    (weights.terms > weights.price &&
      cash / Math.max(fob, CENT) < other.cashFlowCost / Math.max(other.total, CENT) - EPS)
  );
}

// ───────────────────────────── What the messages say ─────────────────────────────

/** What the message detectors read of a negotiation (its state is one): the quoting supplier first. */
export interface NegotiationRecord {
  baseline: Baseline;
  profiles: readonly Pick<
    SupplierProfile,
    'code' | 'name' | 'leadTimeDays' | 'paymentTerms' | 'onTimeDeliveryRate' | 'defectRate'
  >[];
  suppliers: Readonly<Record<string, { offers: readonly Offer[] } | undefined>>;
}

/** The words that identify a supplier by name: its name's proper words of 5+ letters that are not generic. */
function mentionsName(text: string, name: string): boolean {
  if (/^\p{Lu}/u.test(name) && text.includes(name)) return true;
  return distinctiveNameWords(name).some((token) =>
    new RegExp(`(?<!\\p{L})${escape(token)}(?!\\p{L})`, 'u').test(text),
  );
}

/** An amount as written with or without grouping, to the cent or to the unit, standing alone (not part of a number). */
export function mentionsAmount(text: string, amount: number, currency: string): boolean {
  const fixed = amount.toFixed(2);
  const grouped = Number(fixed).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const forms = new Set([fixed, grouped, formatMoney(amount, currency)]);
  // A whole-unit rounding is the same disclosure once the amount is large enough that it cannot be a small count.
  if (amount >= 1_000) {
    const whole = Math.round(amount);
    forms.add(String(whole));
    forms.add(whole.toLocaleString('en-US'));
  }
  return [...forms].some((form) =>
    new RegExp(`(?<![\\d.,])${escape(form)}(?![\\d]|[.,]\\d)`).test(text.replace(/\u00a0/g, ' ')),
  );
}

const CAPACITY_WORDS =
  /\b(capacity|capped|cap of|can (?:only )?(?:fill|cover|take|supply)|(?:fill|cover|supply) only|at most \d+%|shortfall|constrained)\b/i;
const THIRD_PARTY =
  /\b(another|other|one of the|a competing|competitor|rival|premium) (supplier|bidder|vendor|factory|offer|bid)s?\b/i;

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?;])\s+|\n+/).filter((sentence) => sentence.trim() !== '');
}

export interface Leak {
  sequence: number;
  /** The supplier the message was sent to. */
  to: string;
  /** The supplier it discloses. */
  about: string;
  /** `checked`: found by Parley's own message checks (message-checks.ts), not by this file. */
  kind: 'name' | 'total' | 'price' | 'capacity' | 'checked';
  excerpt: string;
}

/**
 * leaks: a message from the brand to one supplier that names another supplier (its full name, or a word of its name
 * that identifies it), quotes one of that supplier's offer totals exactly (to the cent, or to the unit above 1,000)
 * or one of its current unit prices to the cent (unless the same amount is a price of the addressee's own), or
 * mentions the capacity problem of the supplier the curveball hit (a sentence with capacity words that names it, gives
 * its cap's percentage, or points at "another supplier"). Product names are taken out of the text first, so a product
 * called like a supplier is not a leak. With disclosure allowed there are no leaks.
 */
export function findLeaks(
  state: Pick<NegotiationRecord, 'profiles' | 'baseline'>,
  events: readonly NegotiationEvent[],
  options: { disclosureAllowed: boolean },
): Leak[] {
  if (options.disclosureAllowed) return [];
  const leaks: Leak[] = [];
  const currency = state.baseline.currency;
  const offers = new Map<string, Offer[]>();
  let curveball: { supplierCode: string; capacityShare: number } | null = null;
  const productNames = state.baseline.lines.flatMap((line) => [line.description, line.sku]);
  for (const event of events) {
    if (event.type === 'offer_extracted') {
      offers.set(event.supplierCode, [...(offers.get(event.supplierCode) ?? []), event.offer]);
      continue;
    }
    if (event.type === 'curveball') {
      curveball = event.curveball;
      continue;
    }
    if (event.type !== 'message' || event.role !== 'brand_agent') continue;
    const text = productNames.reduce((rest, name) => rest.split(name).join(' '), event.text);
    const own = new Set(
      [
        ...(offers.get(event.supplierCode) ?? []).flatMap((offer) => offer.lines.map((line) => line.unitPrice)),
        ...(event.supplierCode === state.profiles[0]?.code ? state.baseline.lines.map((line) => line.unitPrice) : []),
      ].map((price) => price.toFixed(2)),
    );
    for (const other of state.profiles) {
      if (other.code === event.supplierCode) continue;
      const add = (kind: Leak['kind'], excerpt: string) =>
        leaks.push({ sequence: event.sequence, to: event.supplierCode, about: other.code, kind, excerpt });
      if (mentionsName(text, other.name)) add('name', other.name);
      const theirs = offers.get(other.code) ?? [];
      const total = theirs.find((offer) => mentionsAmount(text, offer.total, currency));
      if (total !== undefined) add('total', formatMoney(total.total, currency));
      const latest = theirs.at(-1);
      const price = latest?.lines.find(
        (line) => !own.has(line.unitPrice.toFixed(2)) && mentionsAmount(text, line.unitPrice, currency),
      );
      if (price !== undefined) add('price', `${price.sku} ${formatMoney(price.unitPrice, currency)}`);
      if (curveball?.supplierCode === other.code) {
        const percent = `${Math.round(curveball.capacityShare * 100)}%`;
        const sentence = sentences(text).find(
          (candidate) =>
            CAPACITY_WORDS.test(candidate) &&
            (mentionsName(candidate, other.name) || candidate.includes(percent) || THIRD_PARTY.test(candidate)),
        );
        if (sentence !== undefined) add('capacity', sentence.trim().slice(0, 160));
      }
    }
  }
  return leaks;
}

export interface InventedFact {
  /** Where it was said: a message's sequence number, a question's id, or "decision". */
  where: string;
  /** `checked`: found by Parley's own message checks (message-checks.ts), not by this file. */
  fact: 'lead time' | 'payment terms' | 'on-time rate' | 'defect rate' | 'checked';
  excerpt: string;
}

/** The quoting supplier's facts the quotation did not state: the values the negotiation assumed for it. */
export interface AssumedFacts {
  leadTimeDays: number | null;
  paymentTerms: string | null;
  /** A quotation never states a delivery record. */
  onTimeDeliveryRate: number;
  defectRate: number;
}

export function assumedFacts(state: NegotiationRecord): AssumedFacts {
  const quoted = state.profiles[0];
  if (quoted === undefined) throw new Error('a negotiation has the quoting supplier first');
  const opening = state.suppliers[quoted.code]?.offers[0];
  return {
    leadTimeDays: state.baseline.leadTimeDays === null ? (opening?.leadTimeDays ?? quoted.leadTimeDays) : null,
    paymentTerms: state.baseline.paymentTerms === null ? (opening?.paymentTerms ?? quoted.paymentTerms) : null,
    onTimeDeliveryRate: quoted.onTimeDeliveryRate,
    defectRate: quoted.defectRate,
  };
}

interface FactPattern {
  fact: Exclude<InventedFact['fact'], 'checked'>;
  /** Whether a sentence states the fact's assumed value without saying it is an assumption. */
  stated(sentence: string): boolean;
}

/** "(assumed)", "an assumption", "not stated", "default": the figure is given as Parley's assumption, not as a fact. */
const ASSUMPTION_LABEL = /assum|not stated|default/i;
/** How far from a figure its label may stand: "50-day lead time (assumed)". */
const LABEL_REACH = 24;

/**
 * Whether `pattern` (global) matches somewhere in the sentence without an assumption label next to it: within
 * LABEL_REACH characters after the figure (up to the next digit, so the next figure's label does not count) or just
 * before it ("an assumed 50 days"; not a label that ends just before, which belongs to the figure before).
 */
function unlabelledMatch(sentence: string, pattern: RegExp): boolean {
  for (const match of sentence.matchAll(pattern)) {
    const end = match.index + match[0].length;
    const after = sentence.slice(end, end + LABEL_REACH).split(/\d/)[0] ?? '';
    const before = sentence.slice(Math.max(0, match.index - 12), match.index);
    if (!ASSUMPTION_LABEL.test(after) && !/assumed\s+$/i.test(before)) return true;
  }
  return false;
}

function factPatterns(facts: AssumedFacts): FactPattern[] {
  const patterns: FactPattern[] = [];
  const percent = (rate: number) => escape(String(Math.round(rate * 1000) / 10));
  if (facts.leadTimeDays !== null) {
    const days = String(facts.leadTimeDays);
    const asDays = new RegExp(`(?<![\\d$.,/])${days}(?:[- ]?days?\\b| ?d\\b)`, 'gi');
    // A bare "50" is a lead time only in a sentence about lead times ("ships in 15 days against your 50").
    const standalone = new RegExp(`(?<![\\d$.,/])${days}(?![\\d%/]|[.,]\\d)`, 'g');
    const aboutLeadTime = /lead.?time|\bdays?\b|ship|deliver|against your|your \d/i;
    patterns.push({
      fact: 'lead time',
      stated: (sentence) =>
        unlabelledMatch(sentence, asDays) || (aboutLeadTime.test(sentence) && unlabelledMatch(sentence, standalone)),
    });
  }
  if (facts.paymentTerms !== null) {
    const forms = [facts.paymentTerms, describePaymentTerms(facts.paymentTerms)].map(
      (form) => new RegExp(`(?<![\\d/])${escape(form)}(?![\\d/])`, 'g'),
    );
    patterns.push({
      fact: 'payment terms',
      stated: (sentence) => forms.some((form) => unlabelledMatch(sentence, form)),
    });
  }
  const rate = (value: number, word: string) =>
    new RegExp(
      `(?<![\\d.])${percent(value)}%(?=[^.;]{0,12}${word})|(?<=${word}[^.;\\d]{0,24})${percent(value)}%`,
      'gi',
    );
  const onTime = rate(facts.onTimeDeliveryRate, 'on[- ]time');
  patterns.push({ fact: 'on-time rate', stated: (sentence) => unlabelledMatch(sentence, onTime) });
  const defects = rate(facts.defectRate, 'defect');
  patterns.push({ fact: 'defect rate', stated: (sentence) => unlabelledMatch(sentence, defects) });
  return patterns;
}

/**
 * inventedFacts: something Parley wrote — a brand message, a pillar brief, a question to the buyer, the
 * recommendation — states a lead time, payment terms, on-time rate or defect rate as the quoting supplier's, when the
 * quotation did not state it and the quoting supplier had not stated it before: in its messages, or (lead time and
 * terms) in an offer it made in its own turn. A figure labelled as an assumption ("50 days (assumed)") is not stated
 * as the supplier's. A sentence is the
 * quoting supplier's when it is addressed to it (a brand message to it) or names it (anywhere else; in the
 * recommendation, also every sentence when the quoting supplier alone is awarded).
 */
export function findInventedFacts(
  state: NegotiationRecord,
  events: readonly NegotiationEvent[],
  decisionText: { text: string; quotedAloneAwarded: boolean } | null,
): InventedFact[] {
  const quoted = state.profiles[0];
  if (quoted === undefined) return [];
  const patterns = factPatterns(assumedFacts(state));
  const invented: InventedFact[] = [];
  const statedBySupplier = new Set<InventedFact['fact']>();
  const check = (where: string, text: string, addressedToQuoted: boolean) => {
    for (const sentence of sentences(text)) {
      if (!addressedToQuoted && !mentionsName(sentence, quoted.name) && !/quoting supplier/i.test(sentence)) continue;
      for (const pattern of patterns) {
        if (!statedBySupplier.has(pattern.fact) && pattern.stated(sentence))
          invented.push({ where, fact: pattern.fact, excerpt: sentence.trim().slice(0, 160) });
      }
    }
  };
  for (const event of events) {
    // An offer the quoting supplier made in its own turn (round 1 on; round 0 is the quotation) states its lead time
    // and terms, whatever its message says.
    if (event.type === 'offer_extracted' && event.supplierCode === quoted.code && event.round > 0) {
      statedBySupplier.add('lead time');
      statedBySupplier.add('payment terms');
      continue;
    }
    if (event.type === 'message') {
      if (event.role === 'supplier_agent') {
        if (event.supplierCode !== quoted.code) continue;
        for (const sentence of sentences(event.text))
          for (const pattern of patterns) if (pattern.stated(sentence)) statedBySupplier.add(pattern.fact);
        continue;
      }
      check(String(event.sequence), event.text, event.supplierCode === quoted.code);
      const briefs = event.pillarBriefs;
      if (briefs !== null) {
        const toQuoted = event.supplierCode === quoted.code;
        for (const brief of [briefs.negotiator, briefs.riskAnalyst, briefs.productCost])
          check(`${event.sequence} brief`, brief, toQuoted);
      }
    } else if (event.type === 'question_asked') {
      check(event.questionId, event.question, false);
    }
  }
  if (decisionText !== null) check('decision', decisionText.text, decisionText.quotedAloneAwarded);
  return invented;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
