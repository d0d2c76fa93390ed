// Matches quotation lines to catalog products (seed 002 §6.2): exact SKU, OCR-normalised SKU, fuzzy SKU, name +
// colour + size, then an injected LLM for what is left. Cheapest first, and every answer carries a confidence that
// means what it says: at or above MATCH_REVIEW.autoAcceptAt nobody looks at the line again, so only a SKU that
// identifies one product and that nothing on the line contradicts gets there.
import Fuse from 'fuse.js';
import { MATCH_REVIEW, MATCH_TIERS } from '../config/business-rules.js';
import { type CatalogEntry, type CatalogIndex, type NameGroup, tokenizeWords } from './catalog-index.js';
import {
  mergeLookAlikes,
  normalizeSku,
  ocrFixStylePrefix,
  ocrNormalizeSku,
  skuEditDistance,
  splitSkuLoose,
} from './sku.js';

/** The values of the Prisma enum MatchMethod, in its order (a test keeps the two equal). */
export const MATCH_METHODS = [
  'exact_sku',
  'ocr_sku',
  'fuzzy_sku',
  'name_match',
  'llm_match',
  'manual',
  'unmatched',
  'style_color_size',
] as const;
export type MatchMethod = (typeof MATCH_METHODS)[number];

export interface MatchQuery {
  rawSku: string | null;
  description: string | null;
  color: string | null;
  size: string | null;
}

export interface MatchCandidate {
  productId: string;
  sku: string;
  confidence: number;
}

export interface MatchResult {
  productId: string | null;
  sku: string | null;
  confidence: number;
  method: MatchMethod;
  /** Up to MATCH_REVIEW.maxCandidates, best first; the chosen product, when there is one, comes first. */
  candidates: MatchCandidate[];
}

export interface LlmMatchCandidate {
  productId: string;
  sku: string;
  name: string;
  color: string;
  size: string;
}

export interface LlmMatchItem {
  query: MatchQuery;
  candidates: LlmMatchCandidate[];
}

export interface LlmMatchAnswer {
  /** One of the item's candidates, or null for none of them. */
  productId: string | null;
  confidence: number;
}

/**
 * Tier 4: an LLM choosing among the candidates the cheap tiers found. Called with at most MATCH_TIERS.llmBatchSize
 * items; answers in the same order. The matcher trusts none of it blindly: an id it did not offer is ignored and the
 * confidence is clamped into MATCH_TIERS.llmMatch.
 */
export interface LlmMatchFallback {
  matchBatch(items: LlmMatchItem[]): Promise<LlmMatchAnswer[]>;
}

export interface MatchLinesOptions {
  llmFallback?: LlmMatchFallback;
  /**
   * Called when an LLM batch fails. Its lines keep what the cheap tiers found, which is below the auto-accept line
   * anyway, so a failure costs review work but never a wrong match; the caller decides how to report it.
   */
  onLlmError?: (error: unknown, items: LlmMatchItem[]) => void;
}

// ───────────────────────────── Tuning (each a judgement, explained) ─────────────────────────────

/** Confidence steps are this coarse: finer ones would claim a precision the evidence does not have. */
const STEP = 0.05;
/** A match that is probably right but unconfirmed (a tie broken, an edit that might be deliberate): a click away. */
const REVIEW_CAP = MATCH_REVIEW.autoAcceptAt - STEP;
/** One thing on the line disagrees with the product: mid-way through the review band. */
const CONTRADICTED_CAP = (MATCH_REVIEW.autoAcceptAt + MATCH_REVIEW.mustActBelow) / 2;
/** Two or more disagree: the buyer must act. */
const STRONGLY_CONTRADICTED_CAP = MATCH_REVIEW.mustActBelow - STEP;
/** A real-looking code two edits from ours, nothing else confirming: the buyer must act (and the LLM may look). */
const UNCONFIRMED_FAR_CAP = STRONGLY_CONTRADICTED_CAP;

/** Trigram neighbours scored per fuzzy line: plenty for one or two edits, small enough for fuse.js per line. */
const FUZZY_POOL = 40;
/** More edits than this and a SKU is someone else's code, not a typo of ours. */
const MAX_FUZZY_EDITS = 2;
/** fuse.js scores from 0 (same) to 1; at this score a SKU maps to the bottom of the fuzzy band. */
const FUSE_SKU_THRESHOLD = 0.5;

/** A product name explaining less than half of the description's name words is no name match. */
const NAME_MIN_FIT = 0.5;
/** Tier 3 also offers names fitting the description this much worse than the best one. */
const NAME_FIT_SLACK = 0.25;
/** Fits are ratios of small integers; below this they are equal. */
const FIT_EPSILON = 1e-9;
const QUALITY_RESOLUTION = 1e-6;
/** Name groups expanded into products for tier 3; colour and size then pick among their variants. */
const NAME_GROUP_LIMIT = 8;
const NAME_ENTRY_LIMIT = 80;
/** Candidates an LLM is shown per line: more than a human needs, few enough to keep the prompt small. */
const LLM_CANDIDATE_LIMIT = 10;

/** A SKU written inside a description when the sheet has no SKU column ("MC013-GLW-XL Summit Jacket"). */
const SKU_IN_TEXT = /(?<![A-Za-z0-9])([A-Za-z]{2}\d{3}-[A-Za-z0-9]{3}-[A-Za-z0-9]{1,3})(?![A-Za-z0-9])/;

// ───────────────────────────── Evidence ─────────────────────────────

type SkuEvidence =
  | { kind: 'exact' }
  /** `readings`: products sharing the OCR reading; 1 for a dash/case fix. */
  | { kind: 'ocr'; readings: number }
  | { kind: 'fuzzy'; distance: number; fuseScore: number }
  | { kind: 'none' };

type NameStatus = 'agree' | 'neutral' | 'contradict' | 'none';

interface LineEvidence {
  sku: string | null;
  /** The SKU after case, separator and positional OCR fixes. */
  target: string | null;
  nameWords: readonly string[];
  nameWordSet: ReadonlySet<string>;
  colorCodes: ReadonlySet<string> | null;
  sizeCodes: ReadonlySet<string> | null;
  /** Name groups sharing a word with the description, with their fit, best first. Worked out on first read. */
  readonly groups: { group: NameGroup; fit: number }[];
  readonly bestFit: number;
}

interface Scored {
  entry: CatalogEntry;
  sku: SkuEvidence;
  distance: number;
  fit: number;
  nameStatus: NameStatus;
  color: boolean | null;
  size: boolean | null;
  contradictions: number;
  support: number;
  confidence: number;
}

function readEvidence(index: CatalogIndex, query: MatchQuery): LineEvidence {
  const description = query.description?.trim() ? query.description : null;
  const sku = query.rawSku?.trim() ? query.rawSku : (description && SKU_IN_TEXT.exec(description)?.[1]) || null;
  const reading = description ? index.readDescription(description) : null;
  const colorCodes = (query.color?.trim() ? index.colorCodesFor(query.color) : null) ?? reading?.colorCodes ?? null;
  const sizeCodes = (query.size?.trim() ? index.sizeCodesFor(query.size) : null) ?? reading?.sizeCodes ?? null;
  const nameWords = reading?.nameWords ?? [];
  // The groups sharing a word: an exact SKU whose name holds every word said never needs them, so they are listed
  // only when something reads them, and sorted only for tier 3 (an exact SKU's check needs the best fit alone). The
  // index bounds the list whatever the catalog's size (nameGroupsWithWords).
  let groups: { group: NameGroup; fit: number }[] | undefined;
  let sorted = false;
  let best: number | undefined;
  const fits = () =>
    (groups ??= index
      .nameGroupsWithWords(nameWords)
      .map(({ group, shared }) => ({ group, fit: fitOf(shared, nameWords.length, group.words.length) })));
  const nameGroups = () => {
    if (!sorted) fits().sort((a, b) => b.fit - a.fit);
    sorted = true;
    return fits();
  };
  return {
    sku,
    target: sku ? ocrNormalizeSku(sku) : null,
    nameWords,
    nameWordSet: new Set(nameWords),
    colorCodes,
    sizeCodes,
    get groups() {
      return nameGroups();
    },
    get bestFit() {
      // An exact SKU's check needs this figure alone: read it off the groups without listing them, unless listed.
      if (best === undefined && groups) best = groups.reduce((most, { fit }) => Math.max(most, fit), 0);
      if (best === undefined) {
        let most = 0;
        index.visitNameGroupsWithWords(nameWords, (group, shared) => {
          most = Math.max(most, fitOf(shared, nameWords.length, group.words.length));
        });
        best = most;
      }
      return best;
    },
  };
}

/** F1 of the description's name words against a name's words: both "all I said is in it" and "it is all I said". */
function fitOf(shared: number, said: number, named: number): number {
  if (shared === 0) return 0;
  const precision = shared / said;
  const recall = shared / named;
  return (2 * precision * recall) / (precision + recall);
}

function nameEvidence(index: CatalogIndex, ev: LineEvidence, entry: CatalogEntry): { fit: number; status: NameStatus } {
  if (ev.nameWords.length === 0) return { fit: 0, status: 'none' };
  const nameWords = index.wordsOfName(entry.name);
  let shared = 0;
  for (const word of nameWords) if (ev.nameWordSet.has(word)) shared++;
  const fit = fitOf(shared, ev.nameWords.length, nameWords.length);
  const saidAllInName = shared === ev.nameWords.length;
  // A word of the description missing from this name while another name fits better: "Sundown 150 Base Layer Tee"
  // is not the Talus one. A description wholly inside the name ("Summit Fleece" for a Summit Grid Fleece Hoodie)
  // never contradicts it, however many shorter names it fits better.
  if (fit === 0 || (!saidAllInName && fit < ev.bestFit - FIT_EPSILON)) return { fit, status: 'contradict' };
  // Agreement needs at least half the name said as well: "Jacket" alone confirms no jacket.
  const agrees = saidAllInName && shared * 2 >= nameWords.length;
  return { fit, status: agrees ? 'agree' : 'neutral' };
}

// ───────────────────────────── Matching one line ─────────────────────────────

interface LineRanking {
  result: MatchResult;
  /** Products worth showing an LLM, best first; only worked out for the lines that go to it. */
  pool: () => CatalogEntry[];
}

export function matchLine(index: CatalogIndex, query: MatchQuery): MatchResult {
  return rankLine(index, query).result;
}

function rankLine(index: CatalogIndex, query: MatchQuery): LineRanking {
  const ranking = rankLineByTiers(index, query);
  if (ranking.result.confidence >= MATCH_TIERS.styleColorSize) return ranking;
  const product = matchByStyleColorSize(index, query);
  if (!product) return ranking;
  const chosen = { productId: product.id, sku: product.sku, confidence: MATCH_TIERS.styleColorSize };
  const others = ranking.result.candidates.filter((candidate) => candidate.productId !== product.id);
  return {
    ...ranking,
    result: {
      productId: product.id,
      sku: product.sku,
      confidence: MATCH_TIERS.styleColorSize,
      method: 'style_color_size',
      candidates: [chosen, ...others].slice(0, MATCH_REVIEW.maxCandidates),
    },
  };
}

/**
 * A size-run row names a style code and gives colour and size as words ("MS005", "Ember Red", "XS"): when the style
 * exists and exactly one of its products has that colour and size, that is the product — unless a description on
 * the line shares no word with its name, in which case the code may be a typo and a human should look.
 */
function matchByStyleColorSize(index: CatalogIndex, query: MatchQuery): CatalogEntry | null {
  const written = /^\s*([A-Za-z0-9]{2}[A-Za-z0-9]{3})(?![A-Za-z0-9])/.exec(query.rawSku?.normalize('NFKC') ?? '')?.[1];
  if (!written || !query.color || !query.size) return null;
  const colors = index.colorCodesFor(query.color);
  const sizes = index.sizeCodesFor(query.size);
  if (!colors || !sizes) return null;
  const hits = index
    .byPrefix(ocrFixStylePrefix(written.toUpperCase()))
    .filter((entry) => colors.has(entry.colorCode) && sizes.has(entry.sizeCode));
  const [only] = hits;
  if (!only || hits.length > 1) return null;
  if (query.description) {
    const nameWords = new Set(index.wordsOfName(only.name));
    if (!tokenizeWords(query.description).some((word) => nameWords.has(word))) return null;
  }
  return only;
}

function rankLineByTiers(index: CatalogIndex, query: MatchQuery): LineRanking {
  const ev = readEvidence(index, query);
  const found = new Map<string, Scored>();

  // Tiers 1 and 1.5: a Map hit each.
  if (ev.sku) {
    const exact = index.bySku(ev.sku.normalize('NFKC').trim().toUpperCase());
    const fixed = exact ? undefined : index.bySku(normalizeSku(ev.sku));
    if (exact) addCandidate(index, found, ev, exact, { kind: 'exact' }, 0);
    else if (fixed) addCandidate(index, found, ev, fixed, { kind: 'ocr', readings: 1 }, 0);
    else {
      const readings = index.byOcrKey(ev.target ?? ev.sku);
      for (const entry of readings)
        addCandidate(index, found, ev, entry, { kind: 'ocr', readings: readings.length }, 0);
    }
  }
  const [direct, ...others] = found.values();
  const directHolds = direct !== undefined && others.length === 0 && direct.contradictions === 0;

  // Tier 2, when the SKU found nothing, or only products the rest of the line disagrees with. A slip in one part of
  // a SKU-shaped code is found by the style and colour-size blocks; the trigram index is for the rest (a lost dash,
  // two slipped parts).
  let neighbours: CatalogEntry[] = [];
  if (ev.target && !directHolds) {
    const block = index.skuBlock(ev.target);
    let nearest = Infinity;
    for (const entry of block ?? []) {
      const distance = skuEditDistance(ev.target, entry.sku, MAX_FUZZY_EDITS);
      if (distance <= MAX_FUZZY_EDITS) addCandidate(index, found, ev, entry, { kind: 'none' }, distance);
      if (distance < nearest) nearest = distance;
    }
    neighbours = block ?? [];
    if (nearest > 1) {
      const trigramNeighbours = index.skuNeighbours(ev.target, FUZZY_POOL);
      for (const entry of trigramNeighbours) {
        const distance = skuEditDistance(ev.target, entry.sku, MAX_FUZZY_EDITS);
        if (distance <= MAX_FUZZY_EDITS) addCandidate(index, found, ev, entry, { kind: 'none' }, distance);
      }
      neighbours = [...neighbours, ...trigramNeighbours];
    }
  }

  // Tier 3, unless a SKU within one edit stands uncontradicted: names and colours cannot beat that, only tie with it.
  const weakGroups: NameGroup[] = [];
  if (!directHolds && ev.groups.length > 0 && !hasStandingSkuMatch(found)) {
    let added = 0;
    for (const { group, fit } of ev.groups.slice(0, NAME_GROUP_LIMIT)) {
      if (fit < NAME_MIN_FIT || fit < ev.bestFit - NAME_FIT_SLACK) {
        weakGroups.push(group);
        continue;
      }
      const fitting = group.entries.filter((entry) => variantFits(ev, entry));
      for (const entry of fitting.length > 0 ? fitting : group.entries) {
        if (added++ >= NAME_ENTRY_LIMIT) break;
        if (found.has(entry.id)) continue;
        const distance = ev.target ? skuEditDistance(ev.target, entry.sku, MAX_FUZZY_EDITS) : Infinity;
        addCandidate(index, found, ev, entry, { kind: 'none' }, distance);
      }
    }
  }

  const ranked = scoreAll(index, ev, [...found.values()]).sort(
    (a, b) => b.support - a.support || b.confidence - a.confidence || a.distance - b.distance,
  );
  const pool = () => {
    const entries = new Set(ranked.map(({ entry }) => entry));
    for (const entry of neighbours) entries.add(entry);
    for (const group of weakGroups) {
      for (const entry of group.entries) if (variantFits(ev, entry)) entries.add(entry);
    }
    return [...entries].slice(0, LLM_CANDIDATE_LIMIT);
  };
  return { result: toResult(ranked), pool };
}

function addCandidate(
  index: CatalogIndex,
  found: Map<string, Scored>,
  ev: LineEvidence,
  entry: CatalogEntry,
  sku: SkuEvidence,
  distance: number,
): void {
  if (found.has(entry.id)) return;
  const name = nameEvidence(index, ev, entry);
  const color = ev.colorCodes ? ev.colorCodes.has(entry.colorCode) : null;
  const size = ev.sizeCodes ? ev.sizeCodes.has(entry.sizeCode) : null;
  found.set(entry.id, {
    entry,
    sku,
    distance,
    fit: name.fit,
    nameStatus: name.status,
    color,
    size,
    contradictions: Number(name.status === 'contradict') + Number(color === false) + Number(size === false),
    support: 0,
    confidence: 0,
  });
}

function hasStandingSkuMatch(found: Map<string, Scored>): boolean {
  for (const c of found.values()) if (c.distance <= 1 && c.contradictions === 0) return true;
  return false;
}

function variantFits(ev: LineEvidence, entry: CatalogEntry): boolean {
  return (!ev.colorCodes || ev.colorCodes.has(entry.colorCode)) && (!ev.sizeCodes || ev.sizeCodes.has(entry.sizeCode));
}

const FUSE_SKU_OPTIONS = {
  includeScore: true,
  ignoreLocation: true,
  ignoreFieldNorm: true,
  threshold: FUSE_SKU_THRESHOLD,
} as const;

function scoreAll(index: CatalogIndex, ev: LineEvidence, scored: Scored[]): Scored[] {
  // fuse.js over the few candidates within reach of the typed SKU, never over the catalog. Those MAX_FUZZY_EDITS
  // away sit at the bottom of the band whatever fuse.js says, so they are not worth its time.
  const near = scored.filter((c) => c.sku.kind === 'none' && c.distance <= MAX_FUZZY_EDITS);
  const scoredByFuse = near.filter((c) => c.distance < MAX_FUZZY_EDITS);
  const scores = new Map<Scored, number>();
  if (ev.target && scoredByFuse.length > 0) {
    const fuse = new Fuse(
      scoredByFuse.map((c) => c.entry.sku),
      FUSE_SKU_OPTIONS,
    );
    for (const hit of fuse.search(ev.target)) {
      const c = scoredByFuse[hit.refIndex];
      if (c) scores.set(c, hit.score ?? FUSE_SKU_THRESHOLD);
    }
  }
  for (const c of near) {
    c.sku = { kind: 'fuzzy', distance: c.distance, fuseScore: scores.get(c) ?? FUSE_SKU_THRESHOLD };
  }
  // Rivals on the SKU are the candidates within reach of it; equally good names are counted once, not per candidate.
  const skuNear = scored.filter((c) => c.distance <= MAX_FUZZY_EDITS);
  const nameTies = new Map<number, number>();
  for (const c of scored) {
    if (c.sku.kind === 'none' && c.fit >= NAME_MIN_FIT)
      nameTies.set(nameQuality(c), (nameTies.get(nameQuality(c)) ?? 0) + 1);
  }
  for (const c of scored) {
    c.support = skuSupport(c.sku) + descriptionSupport(c);
    c.confidence = confidenceOf(index, ev, c, skuNear, nameTies);
  }
  return scored;
}

/**
 * How strongly the SKU alone points at a product. Ranking weights, not confidences (those are decided separately):
 * an exact SKU outranks its OCR reading, which outranks one slip, each further slip costing as much as a colour match
 * earns, so a SKU two slips away loses to a product that the description, colour and size all name.
 */
function skuSupport(sku: SkuEvidence): number {
  switch (sku.kind) {
    case 'exact':
      return 1;
    case 'ocr':
      return sku.readings === 1 ? 0.95 : 0.85;
    case 'fuzzy':
      return Math.max(0, 0.9 - 0.2 * (sku.distance - 1));
    case 'none':
      return 0;
  }
}

/** The description, colour and size as ranking points: a mismatch costs more than a match earns. */
function descriptionSupport(c: Scored): number {
  return 0.6 * c.fit + agreementPoints(c.color) + agreementPoints(c.size);
}

function agreementPoints(agrees: boolean | null): number {
  return agrees === null ? 0 : agrees ? 0.2 : -0.3;
}

function confidenceOf(
  index: CatalogIndex,
  ev: LineEvidence,
  c: Scored,
  skuNear: Scored[],
  nameTies: Map<number, number>,
): number {
  let confidence: number;
  switch (c.sku.kind) {
    case 'exact':
      confidence = MATCH_TIERS.exactSku;
      break;
    case 'ocr':
      confidence = c.sku.readings === 1 ? MATCH_TIERS.ocrSku : tied(c.sku.readings);
      break;
    case 'fuzzy':
      confidence = fuzzyConfidence(index, ev, c, skuNear);
      break;
    case 'none':
      confidence = nameConfidence(c, nameTies);
      break;
  }
  if (c.contradictions === 1) return Math.min(confidence, CONTRADICTED_CAP);
  if (c.contradictions > 1) return Math.min(confidence, STRONGLY_CONTRADICTED_CAP);
  return confidence;
}

/** k products explain the line equally well: the review band shared out between them. */
function tied(k: number): number {
  return MATCH_REVIEW.mustActBelow + (REVIEW_CAP - MATCH_REVIEW.mustActBelow) / k;
}

/**
 * Tier 2. The fuse.js score places a match in the fuzzy band; it may stay at or above auto-accept only when it is a
 * clear winner: at most one edit, no product nearer, no uncontradicted product within one more edit, nothing on the
 * line against it — and, when the SKU as typed could itself be a real product we lack (a known colour the style
 * lacks, a style number we do not have) or when a rival was ruled out only by the description, a description that
 * confirms it.
 */
function fuzzyConfidence(index: CatalogIndex, ev: LineEvidence, c: Scored, skuNear: Scored[]): number {
  if (c.sku.kind !== 'fuzzy') return 0;
  const { min, max } = MATCH_TIERS.fuzzySku;
  const band = max - (max - min) * Math.min(1, c.sku.fuseScore / FUSE_SKU_THRESHOLD);
  const rivals = skuNear.filter((other) => other !== c && other.distance < c.distance + 1);
  const standing = rivals.filter((other) => other.contradictions === 0);
  const confirmed = c.nameStatus === 'agree';
  const elsewhere = !confirmed && couldBeAnotherProduct(index, ev, c.entry);
  let confidence = band;
  // Two slips in one code are rare; a real-looking code two edits from ours is more likely a product we lack.
  if (c.distance >= MAX_FUZZY_EDITS) confidence = Math.min(confidence, elsewhere ? UNCONFIRMED_FAR_CAP : min);
  if (standing.length > 0) return Math.min(confidence, tied(standing.length + 1));
  // Any rivals this near are ones the line contradicts. One even nearer (an exact SKU with the wrong name) still means
  // the SKU and the description disagree, which a human settles; so does a rival ruled out by the description alone
  // when the description does not positively confirm this product.
  const nearer = rivals.some((other) => other.distance < c.distance);
  const clear =
    c.distance <= 1 && c.contradictions === 0 && !nearer && (rivals.length === 0 || confirmed) && !elsewhere;
  return clear ? confidence : Math.min(confidence, REVIEW_CAP);
}

/**
 * True when the part of the typed SKU that differs from the candidate is itself a valid-looking code: then the
 * supplier may mean a product we do not carry (Sage in a style made without it, style MC777) rather than have
 * mistyped ours. `GLX` or `MX013` can only be slips.
 */
function couldBeAnotherProduct(index: CatalogIndex, ev: LineEvidence, entry: CatalogEntry): boolean {
  const typed = ev.target ? splitSkuLoose(ev.target) : null;
  if (!typed) return false;
  const prefix = typed.skuPrefix;
  return (
    (!sameReading(prefix, entry.skuPrefix) &&
      index.hasStyleLetters(prefix.slice(0, 2)) &&
      /^\d{3}$/.test(prefix.slice(2))) ||
    (!sameReading(typed.colorCode, entry.colorCode) && index.isColorCode(typed.colorCode)) ||
    (!sameReading(typed.sizeCode, entry.sizeCode) && index.isSizeCode(typed.sizeCode))
  );
}

function sameReading(a: string, b: string): boolean {
  return a === b || mergeLookAlikes(a) === mergeLookAlikes(b);
}

/**
 * Tier 3: the name's fit counts half, a matching colour and a matching size a quarter each, placed in the name band
 * and shared out between equally good products. Never above the band's top: a name is not an identifier.
 */
function nameConfidence(c: Scored, nameTies: Map<number, number>): number {
  const { min, max } = MATCH_TIERS.nameMatch;
  if (c.fit < NAME_MIN_FIT) return min * c.fit;
  const quality = nameQuality(c);
  return min + ((max - min) * quality) / Math.max(1, nameTies.get(quality) ?? 1);
}

/** Rounded so that equal fits computed along different paths compare equal as Map keys. */
function nameQuality(c: Scored): number {
  const quality = 0.5 * c.fit + 0.25 * Number(c.color === true) + 0.25 * Number(c.size === true);
  return Math.round(quality / QUALITY_RESOLUTION) * QUALITY_RESOLUTION;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

function methodOf(sku: SkuEvidence): MatchMethod {
  switch (sku.kind) {
    case 'exact':
      return 'exact_sku';
    case 'ocr':
      return 'ocr_sku';
    case 'fuzzy':
      return 'fuzzy_sku';
    case 'none':
      return 'name_match';
  }
}

function toResult(ranked: Scored[]): MatchResult {
  const [best] = ranked;
  // The ranking may put a product first on the strength of the whole line while a rival scored a higher confidence
  // on its SKU alone: nobody below the first may look more certain than it.
  const ceiling = best?.confidence ?? 0;
  const candidates = ranked.slice(0, MATCH_REVIEW.maxCandidates).map((c) => ({
    productId: c.entry.id,
    sku: c.entry.sku,
    confidence: round(Math.min(c.confidence, ceiling)),
  }));
  const matched = best && (best.sku.kind !== 'none' || best.fit >= NAME_MIN_FIT);
  if (!best || !matched) return { productId: null, sku: null, confidence: 0, method: 'unmatched', candidates };
  return {
    productId: best.entry.id,
    sku: best.entry.sku,
    confidence: round(best.confidence),
    method: methodOf(best.sku),
    candidates,
  };
}

// ───────────────────────────── Many lines, with the LLM tier ─────────────────────────────

/**
 * Matches every line with the cheap tiers, then sends the lines they could not place (below the name band) to the
 * LLM in batches of MATCH_TIERS.llmBatchSize, one batch at a time to keep to the API's rate limits.
 */
export async function matchLines(
  index: CatalogIndex,
  queries: readonly MatchQuery[],
  options: MatchLinesOptions = {},
): Promise<MatchResult[]> {
  return settleWithLlm(queries, rankLines(index, queries, { pools: options.llmFallback !== undefined }), options);
}

/**
 * What the cheap tiers (1–3) found for each line, as plain data: the part of matching that needs the catalog index
 * and the CPU, run wherever the index is (the reader's worker, in the server), apart from the LLM tier.
 */
export interface RankedLines {
  results: MatchResult[];
  /** Asked for with `pools`: per line left below a name match, the products the LLM tier may choose among. */
  pools: (LlmMatchCandidate[] | null)[];
}

export function rankLines(
  index: CatalogIndex,
  queries: readonly MatchQuery[],
  options: { pools: boolean },
): RankedLines {
  const rankings = queries.map((query) => rankLine(index, query));
  return {
    results: rankings.map((ranking) => ranking.result),
    pools: rankings.map((ranking) =>
      options.pools && ranking.result.confidence < MATCH_TIERS.nameMatch.min
        ? ranking.pool().map(({ id, sku, name, color, size }) => ({ productId: id, sku, name, color, size }))
        : null,
    ),
  };
}

/**
 * Matching against a catalog index held in another thread (the reader's worker, in the server), under a key that names
 * the workspace and the catalog's version (src/db/stores/catalog-store.ts).
 */
export interface CatalogRanker {
  /** Builds the index of `products` there, kept under `key` for the next reads. */
  load(key: string, products: readonly CatalogEntry[]): Promise<void>;
  /** rankLines there; null when it holds no index under `key` (a new worker, a new catalog): load it and ask again. */
  rank(key: string, queries: readonly MatchQuery[], options: { pools: boolean }): Promise<RankedLines | null>;
}

/** Tier 4 over what rankLines found: the LLM chooses among each low line's pool, in batches. */
export async function settleWithLlm(
  queries: readonly MatchQuery[],
  ranked: RankedLines,
  options: MatchLinesOptions = {},
): Promise<MatchResult[]> {
  const results = [...ranked.results];
  const { llmFallback, onLlmError } = options;
  if (!llmFallback) return results;

  const pending = ranked.pools.flatMap((candidates, line) => {
    const query = queries[line];
    // With nothing to choose from, the LLM could only say "none": not worth a call.
    return query && candidates && candidates.length > 0 ? [{ line, item: { query, candidates } }] : [];
  });
  for (let start = 0; start < pending.length; start += MATCH_TIERS.llmBatchSize) {
    const batch = pending.slice(start, start + MATCH_TIERS.llmBatchSize);
    const items = batch.map(({ item }) => item);
    let answers: LlmMatchAnswer[];
    try {
      answers = await llmFallback.matchBatch(items);
    } catch (error) {
      onLlmError?.(error, items);
      continue;
    }
    if (!Array.isArray(answers)) continue;
    batch.forEach(({ line, item }, i) => {
      const chosen = acceptLlmAnswer(answers[i], item.candidates);
      const before = results[line];
      if (chosen && before) results[line] = llmResult(chosen, before);
    });
  }
  return results;
}

function acceptLlmAnswer(
  answer: LlmMatchAnswer | undefined,
  offered: LlmMatchCandidate[],
): { candidate: LlmMatchCandidate; confidence: number } | null {
  if (!answer || answer.productId === null || !Number.isFinite(answer.confidence)) return null;
  const candidate = offered.find((offer) => offer.productId === answer.productId);
  if (!candidate) return null;
  const { min, max } = MATCH_TIERS.llmMatch;
  return { candidate, confidence: round(Math.min(max, Math.max(min, answer.confidence))) };
}

function llmResult(chosen: { candidate: LlmMatchCandidate; confidence: number }, before: MatchResult): MatchResult {
  const { productId, sku } = chosen.candidate;
  const others = before.candidates.filter((candidate) => candidate.productId !== productId);
  return {
    productId,
    sku,
    confidence: chosen.confidence,
    method: 'llm_match',
    candidates: [{ productId, sku, confidence: chosen.confidence }, ...others].slice(0, MATCH_REVIEW.maxCandidates),
  };
}

// ───────────────────────────── Benchmark ─────────────────────────────

interface NamedProduct {
  sku: string;
  name: string;
}

const naiveIndexes = new WeakMap<readonly NamedProduct[], Fuse<NamedProduct>>();

/**
 * The naive matcher this one is measured against: one fuse.js instance over the whole catalog (SKU and name), one
 * search per line with its SKU (or, without one, its description), top result taken. Built once per product list.
 */
export function naiveFuseMatch(products: readonly NamedProduct[], query: MatchQuery): string | null {
  let fuse = naiveIndexes.get(products);
  if (!fuse) {
    fuse = new Fuse(products, { keys: ['sku', 'name'], includeScore: true });
    naiveIndexes.set(products, fuse);
  }
  const text = query.rawSku?.trim() || query.description?.trim();
  if (!text) return null;
  return fuse.search(text, { limit: 1 })[0]?.item.sku ?? null;
}

const skuIndexes = new WeakMap<readonly NamedProduct[], Map<string, string>>();

/**
 * The baseline a developer with SKUs would write: the line's SKU looked up exactly (trimmed, upper case) in a map,
 * and only when that finds nothing one fuse.js search as in naiveFuseMatch. Fairer than the naive one, which fuzzy-
 * searches even a SKU the catalog holds verbatim.
 */
export function skuFirstFuseMatch(products: readonly NamedProduct[], query: MatchQuery): string | null {
  let bySku = skuIndexes.get(products);
  if (!bySku) {
    bySku = new Map(products.map((product) => [product.sku.trim().toUpperCase(), product.sku]));
    skuIndexes.set(products, bySku);
  }
  const sku = query.rawSku?.trim().toUpperCase();
  return (sku ? bySku.get(sku) : undefined) ?? naiveFuseMatch(products, query);
}

export interface MatcherMeasurement {
  lines: number;
  repetitions: number;
  /** Median over the repetitions; `…Min` the fastest. */
  msPerLine: number;
  msPerLineMin: number;
  /** Share of the lines with an expected SKU whose top result is that SKU. */
  top1: number;
  /** naiveFuseMatch. */
  baselineMsPerLine: number;
  baselineMsPerLineMin: number;
  baselineTop1: number;
  /** skuFirstFuseMatch. */
  skuFirstMsPerLine: number;
  skuFirstMsPerLineMin: number;
  skuFirstTop1: number;
}

/** Lines used to warm the matchers up (JIT, caches) before the clock starts, so none pays its start-up. */
const WARM_UP_LINES = 10;

/**
 * Times this matcher, skuFirstFuseMatch and naiveFuseMatch on the same lines in the same process, in turns (one pass
 * of each per repetition, the order rotating) so that a slow spell of a loaded machine falls on all three alike.
 * Index and baseline construction are not timed (each is built once and reused); the top-1 rate counts lines whose
 * expected SKU is not null.
 */
export function measureMatcher(
  index: CatalogIndex,
  products: readonly NamedProduct[],
  queries: readonly { query: MatchQuery; expectedSku: string | null }[],
  repetitions = 5,
): MatcherMeasurement {
  const matchers = [
    (query: MatchQuery) => matchLine(index, query).sku,
    (query: MatchQuery) => naiveFuseMatch(products, query),
    (query: MatchQuery) => skuFirstFuseMatch(products, query),
  ];
  for (const { query } of queries.slice(0, WARM_UP_LINES)) for (const pick of matchers) pick(query);
  const times: number[][] = matchers.map(() => []);
  const picks: (string | null)[][] = matchers.map(() => []);
  for (let rep = 0; rep < repetitions; rep++) {
    for (let turn = 0; turn < matchers.length; turn++) {
      const which = (rep + turn) % matchers.length;
      const pick = matchers[which];
      if (!pick) continue;
      const start = performance.now();
      const picked = queries.map(({ query }) => pick(query));
      times[which]?.push(performance.now() - start);
      picks[which] = picked;
    }
  }

  const expected = queries.flatMap((q, i) => (q.expectedSku === null ? [] : [i]));
  const top1 = (picked: (string | null)[] = []) =>
    expected.length === 0 ? 0 : expected.filter((i) => picked[i] === queries[i]?.expectedSku).length / expected.length;
  const lines = queries.length;
  const perLine = (ms: number | undefined) => (lines === 0 || ms === undefined ? 0 : ms / lines);
  const median = (ms: number[] = []) => perLine([...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]);
  const fastest = (ms: number[] = []) => perLine(ms.length === 0 ? undefined : Math.min(...ms));
  return {
    lines,
    repetitions,
    msPerLine: median(times[0]),
    msPerLineMin: fastest(times[0]),
    top1: top1(picks[0]),
    baselineMsPerLine: median(times[1]),
    baselineMsPerLineMin: fastest(times[1]),
    baselineTop1: top1(picks[1]),
    skuFirstMsPerLine: median(times[2]),
    skuFirstMsPerLineMin: fastest(times[2]),
    skuFirstTop1: top1(picks[2]),
  };
}
