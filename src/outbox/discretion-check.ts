// Discretion, checked before every send to a supplier's organisation. In a Slack Connect channel the supplier sees
// everything the bot posts there, so one check reads every outgoing message — its fallback `text` and every string
// (and number) anywhere in its `blocks` — and refuses it when it carries anything internal: another supplier's name or
// code, a figure of another supplier's offers, a figure of the buyer's mandate, the buyer's own words, or a word that
// only makes sense inside Parley. Pure: no database, no Slack client.
//
// How a caller uses it (the outbox, before it posts to an external channel):
//
//   const facts = confidentialFacts(state, recipientCode);   // the negotiation's checkpoint, the supplier posted to
//   const leaks = findLeaks({ text, blocks }, facts);
//   if (leaks.length > 0) {
//     // do not post; tell the buyer in the internal thread why:
//     describeLeaks(leaks);   // "Held back from the supplier: the message names Alpine Premium and states …"
//   }
//
// The facts are plain data (JSON), so they can be computed once with the state that produced the message and kept
// with the outbox row. The check errs towards refusing: a message it cannot read whole (nested too deeply, too many
// fields) is refused too, since an unchecked message to a supplier is the one mistake that cannot be taken back.
import { isSafeAmount, toMinorUnits } from '../commerce/money.js';
import { distinctiveNameWords } from '../negotiation/agents/discretion.js';
import type { NegotiationState } from '../negotiation/engine.js';
import type { Offer } from '../negotiation/types.js';
import { parseNumber } from '../quotation/numbers.js';

// ───────────────────────────── What the recipient must not see ─────────────────────────────

export type FigureKind = 'competitor_figure' | 'mandate_figure';

export interface ConfidentialFigure {
  kind: FigureKind;
  /** Whose figure and which, for the buyer: "Alpine Premium's total", "the buyer's walk-away total". */
  what: string;
  /** Minor units of the negotiation's currency (amounts), whole days (lead times) or whole percent (shares). */
  value: number;
}

/**
 * capacity: a share of the order a supplier can fill. split_saving: how much a split must save. A percentage is one of
 * these only when words of its topic stand near it: "15% lower than yours" is a price gap, not a capacity share.
 */
export type ShareTopic = 'capacity' | 'split_saving';

export interface ConfidentialShare extends ConfidentialFigure {
  topic: ShareTopic;
}

export interface ConfidentialFacts {
  recipientCode: string;
  currency: string;
  /** Every other supplier, with the forms that identify it in a text (folded: see `fold`). */
  competitors: { code: string; name: string; forms: string[] }[];
  amounts: ConfidentialFigure[];
  days: ConfidentialFigure[];
  shares: ConfidentialShare[];
  /** The buyer's own words: answers typed to Parley's questions, the notes given at the start. */
  buyerWords: { what: string; text: string }[];
}

/**
 * What `recipientCode` must not see of the negotiation `state`.
 *
 * A number that is also one of the recipient's own figures is left out, and this is how a competitor's price that
 * equals the recipient's by coincidence stays clear: a text cannot say whose $8.20 it means, and a figure the
 * recipient stated itself, or was asked for by the brand, tells it nothing it does not know. Its own figures are
 * every figure of its offers (totals, unit and tier prices, line values, lead times, capacity and line shares), its
 * profile's lead time and rates, the brand's asks to it (total, lead time, the discount each implies) and, when the
 * curveball caps it, its own capped and open values. The cost is a citation of a competitor at exactly the
 * recipient's own figure going unnoticed — which discloses no more than "the same as yours".
 */
export function confidentialFacts(state: NegotiationState, recipientCode: string): ConfidentialFacts {
  const currency = state.baseline.currency;
  const minor = (amount: number): number | null => minorUnits(amount, currency);
  const own = ownFigures(state, recipientCode, minor);

  const amounts: ConfidentialFigure[] = [];
  const days: ConfidentialFigure[] = [];
  const shares: ConfidentialShare[] = [];
  const amount = (kind: FigureKind, what: string, value: number | null | undefined) => {
    const cents = typeof value === 'number' ? minor(value) : null;
    if (cents !== null && !own.amounts.has(cents)) amounts.push({ kind, what, value: cents });
  };
  const day = (kind: FigureKind, what: string, value: number | null | undefined) => {
    if (typeof value === 'number' && value > 0 && !own.days.has(Math.round(value)))
      days.push({ kind, what, value: Math.round(value) });
  };
  const share = (kind: FigureKind, topic: ShareTopic, what: string, fraction: number | null | undefined) => {
    // A full share says nothing: every supplier can take the whole order unless something caps it.
    if (typeof fraction !== 'number' || !(fraction > 0 && fraction < 1)) return;
    const value = wholePercent(fraction);
    if (!own.percents.has(value)) shares.push({ kind, topic, what, value });
  };

  const latestOwnTotal = state.suppliers[recipientCode]?.offers.at(-1)?.total ?? null;
  const curveball = state.curveball;
  const competitors: ConfidentialFacts['competitors'] = [];
  for (const profile of state.profiles) {
    if (profile.code === recipientCode) continue;
    const name = profile.name;
    competitors.push({ code: profile.code, name, forms: nameForms(profile.code, name, own.vocabulary) });
    const offers = state.suppliers[profile.code]?.offers ?? [];
    for (const offer of offers) {
      amount('competitor_figure', `${name}'s total`, offer.total);
      for (const line of offer.lines) {
        amount('competitor_figure', `${name}'s unit price`, line.unitPrice);
        for (const tier of line.tiers) amount('competitor_figure', `${name}'s tier price`, tier.unitPrice);
      }
      day('competitor_figure', `${name}'s lead time`, offer.leadTimeDays);
      share('competitor_figure', 'capacity', `${name}'s capacity`, offer.capacityShare);
      // The gap to the recipient's standing total gives the competitor's total away as surely as the total itself.
      if (latestOwnTotal !== null && offer.total !== latestOwnTotal)
        amount('competitor_figure', `the gap to ${name}'s total`, Math.abs(latestOwnTotal - offer.total));
    }
    if (curveball?.supplierCode === profile.code) {
      share('competitor_figure', 'capacity', `${name}'s capacity`, curveball.capacityShare);
      share('competitor_figure', 'capacity', `${name}'s capacity`, 1 - curveball.capacityShare);
      for (const offer of offers) {
        amount('competitor_figure', `${name}'s capped share`, offer.total * curveball.capacityShare);
        amount('competitor_figure', `${name}'s capped share`, offer.total * (1 - curveball.capacityShare));
      }
    }
  }

  const mandate = state.mandate;
  for (const limits of [mandate, mandate.setAtStart]) {
    if (limits === null) continue;
    amount('mandate_figure', "the buyer's target total", limits.targetTotal);
    amount('mandate_figure', "the buyer's walk-away total", limits.walkAwayTotal);
    day('mandate_figure', "the buyer's delivery deadline", limits.maxLeadTimeDays);
  }
  for (const price of Object.values(mandate.walkAwayUnitPrices))
    amount('mandate_figure', "the buyer's walk-away unit price", price);
  day('mandate_figure', 'the lead time the buyer accepts', mandate.acceptedLeadTimeDays);
  share('mandate_figure', 'split_saving', 'the saving the buyer wants from a split', mandate.minSplitSaving);
  for (const consent of mandate.premiumConsents)
    amount('mandate_figure', 'the premium the buyer agreed to pay', consent.amountOverQuote);

  return {
    recipientCode,
    currency,
    competitors,
    amounts: distinct(amounts),
    days: distinct(days),
    shares: distinct(shares),
    buyerWords: buyerWords(state),
  };
}

interface OwnFigures {
  amounts: Set<number>;
  days: Set<number>;
  percents: Set<number>;
  /** Words of the recipient's own world (its name, the brand's, the products, its port): no competitor's mark. */
  vocabulary: Set<string>;
}

function ownFigures(state: NegotiationState, code: string, minor: (amount: number) => number | null): OwnFigures {
  const own: OwnFigures = { amounts: new Set(), days: new Set(), percents: new Set(), vocabulary: new Set() };
  const addAmount = (value: number) => {
    const cents = minor(value);
    if (cents !== null) own.amounts.add(cents);
  };
  const supplier = state.suppliers[code];
  const offers: readonly Offer[] = supplier?.offers ?? [];
  const capped = state.curveball?.supplierCode === code ? state.curveball.capacityShare : null;
  for (const offer of offers) {
    addAmount(offer.total);
    own.days.add(offer.leadTimeDays);
    own.percents.add(wholePercent(offer.capacityShare));
    for (const line of offer.lines) {
      addAmount(line.unitPrice);
      addAmount(line.unitPrice * line.quantity);
      for (const tier of line.tiers) addAmount(tier.unitPrice);
      if (offer.total > 0) own.percents.add(wholePercent((line.unitPrice * line.quantity) / offer.total));
    }
    if (capped !== null) {
      addAmount(offer.total * capped);
      addAmount(offer.total * (1 - capped));
      own.percents.add(wholePercent(capped)).add(wholePercent(1 - capped));
    }
    for (const word of tokens(fold(offer.incoterm ?? ''))) own.vocabulary.add(word);
  }
  for (const ask of supplier?.brandAsks ?? []) {
    if (ask.leadTimeDays !== null) own.days.add(ask.leadTimeDays);
    const target = ask.targetTotal;
    if (target === null) continue;
    addAmount(target);
    // The ask as a discount off the offer it answered, and as the unit price each line comes to at that discount
    // ("about $21.51 a unit on …"): the record keeps the total only, and the lines' prices are said with it. The brand
    // rounds that price down, and moves it a cent or two lower when it would equal a competitor's (brand-analysis.ts).
    const answered = [...offers].reverse().find((offer) => offer.round < ask.round) ?? offers[0];
    if (answered === undefined || !(answered.total > 0)) continue;
    const factor = target / answered.total;
    own.percents.add(wholePercent(1 - factor));
    for (const line of answered.lines) {
      const cents = Math.floor(line.unitPrice * factor * 100);
      for (const step of ASK_UNIT_STEPS) addAmount((cents - step) / 100);
      addAmount(line.unitPrice * factor);
    }
  }
  const profile = state.profiles.find((candidate) => candidate.code === code);
  if (profile !== undefined) {
    own.days.add(profile.leadTimeDays);
    own.percents.add(wholePercent(profile.onTimeDeliveryRate)).add(wholePercent(profile.defectRate));
  }
  const words = [profile?.name ?? '', state.brandName, ...state.baseline.lines.flatMap((l) => [l.sku, l.description])];
  for (const text of words) for (const word of tokens(fold(text))) own.vocabulary.add(word);
  return own;
}

/**
 * The buyer's answers, except a click on one of the answers Parley itself suggested: those words are Parley's (the
 * button's label), and what the click decided is in the mandate, whose figures are checked as figures.
 */
function buyerWords(state: NegotiationState): ConfidentialFacts['buyerWords'] {
  const words: ConfidentialFacts['buyerWords'] = [];
  const seen = new Set<string>();
  const add = (what: string, text: string) => {
    const key = tokens(fold(text)).join(' ');
    if (key === '' || seen.has(key)) return;
    seen.add(key);
    words.push({ what, text });
  };
  const suggested = (questionId: string, answer: string): boolean => {
    const key = tokens(fold(answer)).join(' ');
    const question = state.askInfo.questions.find((q) => q.id === questionId);
    return question?.suggestedAnswers.some((s) => tokens(fold(s)).join(' ') === key) ?? false;
  };
  const answers = [
    ...state.askInfo.clarifications.map((c) => ({ questionId: c.questionId, answer: c.answer })),
    ...state.mandate.answers,
  ];
  for (const { questionId, answer } of answers)
    if (!suggested(questionId, answer)) add("the buyer's answer to a question", answer);
  if (state.buyerNotes !== null) add("the buyer's notes", state.buyerNotes);
  return words;
}

/** The cents below an ask's rounded unit price that the brand may say instead (see `ownFigures`). */
const ASK_UNIT_STEPS = [0, 1, 2];

/** Legal forms and generic words that follow a company's name: "Ltd", "GmbH", "有限公司". */
const LEGAL_FORMS = new Set([
  'co',
  'company',
  'corp',
  'corporation',
  'inc',
  'llc',
  'ltd',
  'limited',
  'plc',
  'gmbh',
  'ag',
  'kg',
  'sa',
  'sl',
  'srl',
  'spa',
  'bv',
  'nv',
  'lda',
  'jsc',
  'pte',
  'pvt',
  'pt',
  'tbk',
  'as',
  'san',
  'tic',
  've',
]);
const CJK_LEGAL_FORMS = /(?:股份有限公司|有限责任公司|有限公司|公司|集团|株式会社)$/u;
/** Below this many letters a name's short form ("Max" of "Max Co") is an ordinary word, not a name. */
const MIN_SHORT_FORM_LETTERS = 4;

/**
 * The forms that identify a supplier: its code ("sup 002", "sup002"), its whole name, its name without the legal
 * form, and each word of its name that names nothing else (agents/discretion.ts decides which; the recipient's own
 * words — its name, its port, the products — are left out, so "Ningbo" of a rival is not found in "FOB Ningbo" said of
 * the recipient's own offer). German umlauts are also written out ("Mueller"). All folded as texts are.
 */
function nameForms(code: string, name: string, vocabulary: ReadonlySet<string>): string[] {
  const forms = new Set<string>();
  const codeTokens = tokens(fold(code));
  if (codeTokens.length > 0) forms.add(codeTokens.join(' ')).add(codeTokens.join(''));
  for (const spelling of [name, name.replace(/ä/giu, 'ae').replace(/ö/giu, 'oe').replace(/ü/giu, 'ue')]) {
    const words = tokens(fold(spelling));
    if (words.length === 0) continue;
    forms.add(words.join(' '));
    if (words.length > 1) forms.add(words.join(''));
    const cut = words.findIndex((word, index) => index > 0 && LEGAL_FORMS.has(word));
    const short = (cut > 0 ? words.slice(0, cut) : words).map((word) => word.replace(CJK_LEGAL_FORMS, ''));
    const shortForm = short.join(' ');
    if (
      shortForm.replace(/\s/g, '').length >= MIN_SHORT_FORM_LETTERS &&
      !(short.length === 1 && vocabulary.has(shortForm))
    )
      forms.add(shortForm);
    for (const word of distinctiveNameWords(spelling)) {
      const folded = tokens(fold(word)).join(' ');
      if (folded !== '' && !vocabulary.has(folded)) forms.add(folded);
    }
  }
  return [...forms].filter((form) => form !== '');
}

/**
 * What a supplier's channel must not see outside any negotiation (a welcome, a notice): the workspace's other
 * suppliers, by name and code. A negotiation's messages carry its own, fuller facts (`confidentialFacts`).
 */
export function supplierChannelFacts(
  recipient: { code: string; name: string },
  others: readonly { code: string; name: string }[],
  currency = 'USD',
): ConfidentialFacts {
  const vocabulary = new Set(tokens(fold(recipient.name)));
  return {
    recipientCode: recipient.code,
    currency,
    competitors: others
      .filter((other) => other.code !== recipient.code)
      .map((other) => ({ code: other.code, name: other.name, forms: nameForms(other.code, other.name, vocabulary) })),
    amounts: [],
    days: [],
    shares: [],
    buyerWords: [],
  };
}

/** Amounts compare to the minor unit of the negotiation's currency: the cent, the yen. */
function minorUnits(amount: number, currency: string): number | null {
  return amount > 0 && isSafeAmount(amount, currency) ? toMinorUnits(amount, currency) : null;
}

function wholePercent(fraction: number): number {
  return Math.round(fraction * 100);
}

function distinct<T extends ConfidentialFigure>(figures: readonly T[]): T[] {
  const seen = new Set<string>();
  return figures.filter((figure) => {
    const key = `${figure.kind}|${figure.what}|${figure.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ───────────────────────────── Finding leaks ─────────────────────────────

export type LeakKind =
  | 'competitor_name'
  | 'competitor_figure'
  | 'mandate_figure'
  | 'buyer_answer'
  | 'internal_word'
  /** The message could not be read whole (nested too deeply, too many fields): refused unread. */
  | 'unchecked';

export interface Leak {
  kind: LeakKind;
  /** `text`, or the path of the field in the blocks: `blocks[2].fields[0].text`. */
  where: string;
  /** What it gives away, for the buyer, without the figure itself: "names Alpine Premium", "states … lead time". */
  what: string;
}

export interface OutgoingMessage {
  text: string;
  blocks?: readonly unknown[];
}

/** Block Kit nests a few levels (rich text: block → section → element); far deeper is no message Slack would show. */
export const MAX_BLOCK_DEPTH = 32;
/** Fields read in one message's blocks: 50 blocks of rich text stay far below it. */
export const MAX_BLOCK_FIELDS = 50_000;

/** Every leak in the message's text and blocks: empty when it may go to the recipient the facts were made for. */
export function findLeaks(message: OutgoingMessage, facts: ConfidentialFacts): Leak[] {
  const index = indexFacts(facts);
  const found = new Map<string, Leak>();
  const add = (leak: Leak) => {
    const key = `${leak.kind}|${leak.where}|${leak.what}`;
    if (!found.has(key)) found.set(key, leak);
  };
  const read = (raw: string, where: string) => {
    for (const leak of leaksIn(fold(raw), index)) add({ ...leak, where });
  };
  read(typeof message.text === 'string' ? message.text : '', 'text');
  if (message.blocks !== undefined) walkBlocks(message.blocks, read, add);
  return [...found.values()];
}

/** Every string and number at any depth of the blocks, whatever its key: a supplier's client receives them all. */
function walkBlocks(blocks: unknown, read: (raw: string, where: string) => void, add: (leak: Leak) => void): void {
  const seen = new WeakSet<object>();
  let fields = 0;
  let refused = false;
  const refuse = (where: string, why: string) => {
    if (refused) return;
    refused = true;
    add({ kind: 'unchecked', where, what: `could not be checked (${why})` });
  };
  const visit = (value: unknown, where: string, depth: number): void => {
    if (refused) return;
    if (++fields > MAX_BLOCK_FIELDS) return refuse(where, `more than ${MAX_BLOCK_FIELDS} fields`);
    if (typeof value === 'string') return read(value, where);
    if (typeof value === 'number' || typeof value === 'bigint') return read(String(value), where);
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    if (depth > MAX_BLOCK_DEPTH) return refuse(where, `blocks nested deeper than ${MAX_BLOCK_DEPTH} levels`);
    seen.add(value);
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${where}[${i}]`, depth + 1));
    else for (const [key, inner] of Object.entries(value)) visit(inner, `${where}.${key}`, depth + 1);
  };
  visit(blocks, 'blocks', 0);
}

interface FactIndex {
  names: TokenForms;
  /** CJK forms, found as substrings: those scripts put no spaces between words. */
  cjkNames: { form: string; what: string }[];
  amounts: Map<number, ConfidentialFigure[]>;
  days: Map<number, ConfidentialFigure[]>;
  shares: Map<number, ConfidentialShare[]>;
  fragments: Map<string, string>;
  shortAnswers: TokenForms;
  currency: string;
  currencyWords: ReadonlySet<string>;
}

/** Token sequences by their first token, so a text is scanned once whatever the number of forms. */
type TokenForms = Map<string, { tokens: string[]; what: string }[]>;

function indexFacts(facts: ConfidentialFacts): FactIndex {
  const names: TokenForms = new Map();
  const cjkNames: FactIndex['cjkNames'] = [];
  for (const competitor of facts.competitors) {
    for (const form of competitor.forms) {
      const what = `names ${competitor.name}`;
      if (CJK.test(form)) cjkNames.push({ form: form.replace(/\s/g, ''), what });
      else addForm(names, tokens(form), what);
    }
  }
  const fragments = new Map<string, string>();
  const shortAnswers: TokenForms = new Map();
  for (const { what, text } of facts.buyerWords) {
    const words = tokens(fold(text));
    const repeats = `repeats ${what}`;
    if (words.length >= FRAGMENT_WORDS) {
      for (let i = 0; i + FRAGMENT_WORDS <= words.length; i++)
        fragments.set(words.slice(i, i + FRAGMENT_WORDS).join(' '), repeats);
    } else if (words.filter((word) => !COMMON_WORDS.has(word)).length >= SHORT_ANSWER_CONTENT_WORDS) {
      addForm(shortAnswers, words, repeats);
    }
  }
  return {
    names,
    cjkNames,
    amounts: byValue(facts.amounts),
    days: byValue(facts.days),
    shares: byValue(facts.shares),
    fragments,
    shortAnswers,
    currency: facts.currency,
    currencyWords: new Set([...CURRENCY_WORDS, facts.currency.toLowerCase()]),
  };
}

function addForm(forms: TokenForms, sequence: string[], what: string): void {
  const first = sequence[0];
  if (first === undefined) return;
  forms.set(first, [...(forms.get(first) ?? []), { tokens: sequence, what }]);
}

function byValue<T extends ConfidentialFigure>(figures: readonly T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const figure of figures) map.set(figure.value, [...(map.get(figure.value) ?? []), figure]);
  return map;
}

/**
 * The buyer's words count from this many in a row: fewer are phrases anyone says ("need delivery within 30 days" is
 * what Alex asks a supplier, whoever said it first). Six consecutive words of the buyer's are a quotation.
 */
const FRAGMENT_WORDS = 6;
/** A shorter answer counts whole when it has this many words that are not common ones ("Vietnam factory preferred"). */
const SHORT_ANSWER_CONTENT_WORDS = 3;
const COMMON_WORDS = new Set(
  (
    'a an the and or but if of to in on at by for from with within without under over about as is are be it its ' +
    'this that these those we us our you your they them their i me my yes no not ok okay fine good sure please ' +
    'thanks thank just only more less than then so do does did can could would should will works work need needs ' +
    'want wants keep go one two days day weeks week price prices order supplier suppliers split whatever'
  ).split(' '),
);

function leaksIn(text: string, index: FactIndex): Omit<Leak, 'where'>[] {
  const out: Omit<Leak, 'where'>[] = [];
  const words = tokens(text);
  for (const what of sequencesIn(words, index.names)) out.push({ kind: 'competitor_name', what });
  if (index.cjkNames.length > 0) {
    const compact = text.replace(/[^\p{L}\p{N}]+/gu, '');
    for (const { form, what } of index.cjkNames)
      if (compact.includes(form)) out.push({ kind: 'competitor_name', what });
  }
  for (const reading of readingsIn(text, index.currencyWords)) {
    const figures =
      reading.unit === 'amount'
        ? index.amounts.get(minorUnits(reading.value, index.currency) ?? NaN)
        : reading.unit === 'days'
          ? index.days.get(reading.value)
          : index.shares.get(reading.value)?.filter((share) => TOPIC_WORDS[share.topic].test(reading.around));
    for (const figure of figures ?? []) out.push({ kind: figure.kind, what: `states ${figure.what}` });
  }
  for (let i = 0; i + FRAGMENT_WORDS <= words.length && index.fragments.size > 0; i++) {
    const what = index.fragments.get(words.slice(i, i + FRAGMENT_WORDS).join(' '));
    if (what !== undefined) out.push({ kind: 'buyer_answer', what });
  }
  for (const what of sequencesIn(words, index.shortAnswers)) out.push({ kind: 'buyer_answer', what });
  for (const { word, pattern } of INTERNAL_WORDS)
    if (pattern.test(text)) out.push({ kind: 'internal_word', what: `uses the internal word "${word}"` });
  return out;
}

function sequencesIn(words: readonly string[], forms: TokenForms): string[] {
  const found: string[] = [];
  if (forms.size === 0) return found;
  words.forEach((word, i) => {
    for (const form of forms.get(word) ?? []) {
      if (form.tokens.every((token, j) => words[i + j] === token)) found.push(form.what);
    }
  });
  return found;
}

/**
 * Words that are internal by nature. Left out on purpose, because Alex says them to suppliers in ordinary
 * negotiation (phrases.ts): "our target", "our budget", "our number", "walk away" as a verb, "the purchase order" /
 * "the PO" (Alex says it will issue one), "risk assessment". Their figures are what matter, and those are checked as
 * figures.
 */
const INTERNAL_WORDS: readonly { word: string; pattern: RegExp }[] = [
  // The buyer's limit as such ("our walk-away price"), not a party walking away from a deal.
  { word: 'walk-away', pattern: /\bwalk\W?away\W(?:price|total|figure|point|limit|number|amount)s?\b/ },
  { word: 'walk-away', pattern: /\b(?:our|my|buyer'?s?|their|your)\Wwalk\W?away\b/ },
  { word: 'reservation price', pattern: /\breservation\W(?:price|value)\b/ },
  { word: 'BATNA', pattern: /\bbatna\b/ },
  // Parley's name for the buyer's limits and answers.
  { word: 'mandate', pattern: /\bmandate\b/ },
  // The decision's scoring and recommendation, and the PO before a human approved it.
  {
    word: 'score',
    pattern: /\bscor(?:ing|ecards?|ed)\b|\b(?:weighted|overall|total|final|supplier|decision)\Wscores?\b/,
  },
  { word: 'recommendation', pattern: /\brecommendations?\b|\brecommended\W(?:award|supplier|allocation|split)\b/ },
  { word: 'draft PO', pattern: /\bdraft\W(?:po|purchase\Worder)\b|\b(?:po|purchase\Worder)\Wdraft\b/ },
  // A real supplier must not learn that the competition it is weighed against is simulated.
  { word: 'simulated', pattern: /\bsimulated\b/ },
  { word: 'curveball', pattern: /\bcurve\W?ball\b|\bcapacity\Wshock\b/ },
  // The briefs under each brand turn are the buyer's.
  { word: 'brief', pattern: /\b(?:pillar|negotiator|risk\Wanalyst|product\W?cost)\Wbriefs?\b|\bwhy this ask\b/ },
];

const TOPIC_WORDS: Readonly<Record<ShareTopic, RegExp>> = {
  capacity: new RegExp(
    String.raw`capacit|\bcap(?:ped|s)?\b|\bfill|\bcover|\bshare\b|\bcommit|` +
      String.raw`\bof\W(?:the\W|your\W|our\W|this\W)?(?:order|volume|quantity|units|value)\b`,
  ),
  split_saving: /\bsplit|\bsav(?:e|es|ed|ing|ings)\b/,
};

// ───────────────────────────── Numbers in a text ─────────────────────────────

interface Reading {
  unit: 'amount' | 'days' | 'share';
  /** An amount in units of the currency, whole days or whole percent. */
  value: number;
  /** The text around the number, for a share's topic words. */
  around: string;
}

/** Codes that name currencies in trade talk; the negotiation's own currency is added. Not "all" (lek) or "top". */
const CURRENCY_WORDS = [
  'usd',
  'eur',
  'gbp',
  'cny',
  'rmb',
  'jpy',
  'hkd',
  'twd',
  'inr',
  'krw',
  'vnd',
  'bdt',
  'idr',
  'myr',
  'thb',
  'php',
  'sgd',
  'aud',
  'cad',
  'nzd',
  'chf',
  'sek',
  'nok',
  'dkk',
  'pln',
  'czk',
  'huf',
  'mxn',
  'brl',
  'pkr',
  'lkr',
  'aed',
  'zar',
  'dollar',
  'dollars',
  'euro',
  'euros',
  'yuan',
  'rupees',
];
const CURRENCY_SIGNS = /[$€£¥₹₩₫元]/u;

/**
 * A number as suppliers and agents write one: grouped by commas, dots or apostrophes (thin and no-break spaces become
 * apostrophes in `fold`), with a decimal part. Not part of a code or a date ("SUP-002", "MC001", "2026-12-01"), a
 * ratio ("30/70", "4.0/5") or a dotted version ("1.2.3").
 */
const NUMBER = new RegExp(
  String.raw`(?<![\p{L}\p{N}_]|\p{N}[.,']|[\p{L}\p{N}][-/:])` +
    String.raw`(\d{1,3}(?:[.,']\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)` +
    String.raw`(?!\p{N}|[.,']\p{N}|[-/:]\p{N})`,
  'gu',
);
const MULTIPLIER = /^(k|m|mn|bn)\b|^\s(thousand|million|billion)\b/;
const MULTIPLIERS: Readonly<Record<string, number>> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  million: 1e6,
  bn: 1e9,
  billion: 1e9,
};
const PERCENT = /^\s?(?:%|percent\b|per\scent\b|pct\b)/;
const OF_THE_ORDER = /^\s(?:of\s(?:the\s|your\s|our\s|this\s)?)(?:order|volume|quantity|units|value|total|capacity)\b/;
const DAYS = /^[\s-]?(?:(?:calendar|working|business)\s)?(?:days?|tage?n?|dias|jours?)\b|^\s?[天日]/u;
const WEEKS = /^[\s-]?(?:weeks?|wks?|wochen|semanas|semaines)\b/;
const LEAD_TIME_BEFORE = /lead\W?times?(?:\sof|\sis|\sare|:)?\s*$/;
/** Counts and durations, not money: "300 units", "24-month warranty", "round 2". */
const COUNT_WORDS = [
  'units?',
  'pcs',
  'pieces?',
  'pairs?',
  'sets?',
  'skus?',
  'lines?',
  'items?',
  'styles?',
  'colou?rs?',
  'sizes?',
  'rounds?',
  'months?',
  'years?',
  'hours?',
  'minutes?',
  'times',
  'cartons?',
  'ctns?',
  'dozens?',
  'orders?',
  'suppliers?',
  'x',
];
const COUNT_AFTER = new RegExp(String.raw`^[\s-]?(?:${COUNT_WORDS.join('|')})\b`);
const COUNT_BEFORE = /\b(?:round|rounds|sku|no|number|top|page)\s*$/;
const PER_UNIT = /^\s?(?:a|per|\/)\s?(?:unit|pc|pcs|piece|item|pair)\b|^\s?(?:each|apiece|ea)\b/;

/**
 * Every number in a folded text, read as what its neighbours make it: a share ("60%", "0.6 of the order"), a number
 * of days ("45 days", "6 weeks", "45-day", "lead time of 45") or an amount — to the minor unit, however it is grouped
 * ("$12.50", "12,50", "USD 1,234.56", "1.234,56 €", "144854.1", "120k"). An ambiguous grouping ("12,500") is read
 * both ways. A small whole number with no money about it ("round 2 of 4", "top 3") is not taken for an amount: a
 * price is written with a currency, cents, thousands or "a unit".
 */
function readingsIn(text: string, currencyWords: ReadonlySet<string>): Reading[] {
  const readings: Reading[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const token = match[0];
    const start = match.index;
    const end = start + token.length;
    const before = text.slice(Math.max(0, start - 24), start);
    const after = text.slice(end, end + 24);
    const around = text.slice(Math.max(0, start - 80), end + 80);
    const values = numberValues(token);
    const multiplier = MULTIPLIER.exec(after);
    if (multiplier !== null) {
      const factor = MULTIPLIERS[multiplier[1] ?? multiplier[2] ?? ''] ?? 1;
      for (const value of values) readings.push({ unit: 'amount', value: value * factor, around });
      continue;
    }
    if (PERCENT.test(after)) {
      for (const value of values) readings.push({ unit: 'share', value: Math.round(value), around });
      continue;
    }
    if (OF_THE_ORDER.test(after) && values.some((value) => value > 0 && value < 1)) {
      for (const value of values) readings.push({ unit: 'share', value: wholePercent(value), around });
      continue;
    }
    const weeks = WEEKS.test(after);
    if (DAYS.test(after) || weeks || (LEAD_TIME_BEFORE.test(before) && !COUNT_AFTER.test(after))) {
      for (const value of values)
        if (Number.isInteger(value)) readings.push({ unit: 'days', value: weeks ? value * 7 : value, around });
      continue;
    }
    if (COUNT_AFTER.test(after) || COUNT_BEFORE.test(before)) continue;
    const currency =
      CURRENCY_SIGNS.test(before.slice(-2)) ||
      CURRENCY_SIGNS.test(after.slice(0, 2)) ||
      currencyWords.has(/([a-z]+)\W?$/.exec(before)?.[1] ?? '') ||
      currencyWords.has(/^\s?([a-z]+)/.exec(after)?.[1] ?? '');
    const moneyLike = currency || /[.,']/.test(token) || PER_UNIT.test(after) || values.some((value) => value >= 1000);
    if (!moneyLike) continue;
    for (const value of values) readings.push({ unit: 'amount', value, around });
  }
  return readings;
}

/** The values a number's text can mean: "1,234" is 1234 in English and 1.234 where commas mark decimals. */
function numberValues(token: string): number[] {
  const values = new Set<number>();
  for (const decimal of ['.', ','] as const) {
    const value = parseNumber(token, { decimal });
    if (value !== null && Number.isFinite(value)) values.add(value);
  }
  return [...values];
}

// ───────────────────────────── Reading a Slack text ─────────────────────────────

const SLACK_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>' };
const LETTERS_WITHOUT_DECOMPOSITION: Readonly<Record<string, string>> = {
  ß: 'ss',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
  '’': "'",
};
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * A text as a reader sees it, in one comparable form: Slack's escaping decoded (`&amp;` `&lt;` `&gt;`); link and
 * mention syntax opened (`<https://x|Label>` keeps both the address and the label, either may name someone);
 * formatting marks and invisible characters dropped, so `*Ning*bo` and "Ning\u200Bbo" read "Ningbo"; grouping spaces
 * kept as apostrophes for the numbers; then compatibility forms (full-width digits), accents and case folded away.
 * Names and texts are folded alike, so they compare token by token.
 */
function fold(raw: string): string {
  let text = raw
    .replace(/&(amp|lt|gt);/g, (_, entity: string) => SLACK_ENTITIES[entity] ?? '')
    .replace(/[\u00A0\u2007\u2009\u202F]/g, "'")
    .normalize('NFKC')
    .replace(/[\p{Cf}*_~`]/gu, '')
    .replace(/[<>|]/g, ' ');
  text = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  text = text.replace(/[ßøłđæœı’]/g, (letter) => LETTERS_WITHOUT_DECOMPOSITION[letter] ?? letter);
  // Lowercasing can decompose again ("İ" → "i̇").
  return text.normalize('NFKD').replace(/\p{M}/gu, '');
}

function tokens(folded: string): string[] {
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

// ───────────────────────────── Telling the buyer ─────────────────────────────

/** At most this many things are listed; the rest are counted. */
const LISTED = 4;

/**
 * One plain sentence for the buyer's internal thread: what was held back and why. It names what leaked ("names Alpine
 * Premium", "states Alpine Premium's total") but never repeats a figure or the buyer's words.
 */
export function describeLeaks(leaks: readonly Leak[]): string {
  const whats = [...new Set(leaks.map((leak) => leak.what))];
  if (whats.length === 0) return '';
  const listed = whats.slice(0, LISTED);
  const rest = whats.length - listed.length;
  const items = rest > 0 ? [...listed, `${rest} more thing${rest === 1 ? '' : 's'}`] : listed;
  const list = items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
  return (
    `Held back from the supplier: the message ${list}. ` +
    "The supplier's organisation sees everything posted in a shared channel."
  );
}
