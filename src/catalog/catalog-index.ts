// The catalog, indexed once for the matcher. Every lookup a quotation line needs is a Map hit or a walk over a small
// posting list; fuse.js only ever runs over a few dozen candidates, never over the whole catalog.
//
// Cost on the 10,052-product catalog (Node 20, one core): build ≈ 110 ms warm, ≈ 200 ms in a cold process, and ≈ 3 MB
// of heap beyond the entries themselves, mostly the per-SKU maps and the SKU trigram postings (≈ 130K entry numbers in
// typed arrays). Build it once per catalog version and reuse it; a lookup never changes it except for two bounded
// caches (word readings, colour-name fuse).
import Fuse from 'fuse.js';
import type { CatalogProduct } from './products-csv.js';
import { editDistance, mergeLookAlikes, ocrCanonicalSku, parseSku } from './sku.js';

/** A product as the matcher sees it: the DB row's fields (seed data and Prisma `Product` alike). */
export interface CatalogEntry {
  id: string;
  sku: string;
  name: string;
  color: string;
  size: string;
  category: string;
  skuPrefix: string;
  colorCode: string;
  sizeCode: string;
}

/** Entries for products read from the CSV, which have no DB id: the SKU stands in for it (it is unique). */
export function toCatalogEntries(products: readonly CatalogProduct[]): CatalogEntry[] {
  return products.map((product) => {
    const parts = parseSku(product.sku);
    if (!parts) throw new Error(`catalog SKU ${product.sku} does not look like STYLE-COLOR-SIZE`);
    const { sku, name, color, size, category } = product;
    return { id: sku, sku, name, color, size, category, ...parts };
  });
}

/** Product names with the same text share one group: 496 distinct names for 10,052 products. */
export interface NameGroup {
  name: string;
  /** Distinct lower-case words of the name, as tokenizeWords reads them. */
  words: readonly string[];
  entries: readonly CatalogEntry[];
}

/** Lower-case words; apostrophes dropped first so that "men's" is one word and never leaves a stray "s" (Small). */
export function tokenizeWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** What a free-text description says besides the product's name. */
export interface DescriptionReading {
  /** Colour codes the description names (full colour name, or a plain colour word such as "black"), or null. */
  colorCodes: ReadonlySet<string> | null;
  /** Size codes the description names ("XL", "X-Large", "9.5", "One Size"), or null. */
  sizeCodes: ReadonlySet<string> | null;
  /** The remaining words that are (or, allowing a typo, nearly are) words of some product name, distinct. */
  nameWords: readonly string[];
}

/** Words that describe who a product is for or how a sheet labels it; never evidence of which product it is. */
const STOP_WORDS = new Set(
  'a an and the with for in of by to on per pcs pc new style item sku ref code colour color col size sz men mens ' +
    'man women womens woman ladies lady kid kids boys girls unisex youth junior adult'.split(' '),
);

/** Common ways to write a colour word that the catalog spells otherwise. */
const COLOR_WORD_SYNONYMS: Readonly<Record<string, string>> = {
  gray: 'grey',
  blk: 'black',
  wht: 'white',
  grn: 'green',
  blu: 'blue',
  nvy: 'navy',
  gry: 'grey',
  org: 'orange',
  brn: 'brown',
};

/**
 * Size spellings beyond the catalog's own (which are read from the data), keyed without spaces or hyphens. Apparel
 * letters also name the nearest fit size (S/M, L/XL): "Small" for a beanie made only in S/M means S/M, and a product
 * has one scale, so the extra reading can never pick a different size of the same product.
 */
const SIZE_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  XS: ['XS'],
  XSMALL: ['XS'],
  EXTRASMALL: ['XS'],
  S: ['S', 'SM'],
  SMALL: ['S', 'SM'],
  SM: ['SM', 'S'],
  M: ['M', 'SM'],
  MEDIUM: ['M', 'SM'],
  MED: ['M', 'SM'],
  MD: ['M', 'SM'],
  L: ['L', 'LX'],
  LARGE: ['L', 'LX'],
  LG: ['L', 'LX'],
  LRG: ['L', 'LX'],
  XL: ['XL', 'LX'],
  XLARGE: ['XL', 'LX'],
  EXTRALARGE: ['XL', 'LX'],
  '1XL': ['XL', 'LX'],
  'L/XL': ['LX'],
  LX: ['LX'],
  'S/M': ['SM'],
  XXL: ['XXL'],
  '2XL': ['XXL'],
  XXLARGE: ['XXL'],
  '2X': ['XXL'],
  OS: ['OS'],
  'O/S': ['OS'],
  ONESIZE: ['OS'],
  ONESIZEFITSALL: ['OS'],
  OSFA: ['OS'],
};

/**
 * A size inside free text, whole-word: fit sizes and multi-word spellings before the single letters they contain,
 * numbers with an optional half (9.5, 9H) and waist/US markers (W32, US 9).
 */
const SIZE_IN_TEXT =
  /(?<![\p{L}\p{N}])(one[\s-]?size(?:\s+fits\s+all)?|osfa|o\/s|s\/m|l\/xl|extra[\s-](?:small|large)|x{1,2}-?(?:small|large)|2xl|xxl|xl|xs|small|medium|large|lrg|lg|med|s|m|l|(?:w|us\s?)?\d{1,2}(?:[.,]5|h)?w?)(?![\p{L}\p{N}])/giu;

/**
 * A typed word may differ from a name word by one edit, two once it is long enough that two still leave it unique.
 * The first letter must match: slips rarely hit it, and without that rule "patch" would read as "watch".
 */
const maxWordEdits = (length: number) => (length >= 8 ? 2 : length >= 4 ? 1 : 0);

/** A trigram in more than this share of SKUs is a stop-gram (but never one in fewer than the minimum). */
const STOP_GRAM_SHARE = 0.1;
const STOP_GRAM_MIN_POSTINGS = 100;

/**
 * A name word or word pair in more name groups than this is too common to look candidates up by: its list grows with
 * the catalog ("jacket" is in ~100 of the bundled catalog's 496 names, thousands at 1M products). Candidates come
 * from the rarer keys a description has, and their shared words are then counted exactly. No key of the bundled
 * catalog is this common, so matching on it is unchanged; at 1M products it keeps a line's cost flat.
 */
export const NAME_KEY_POSTING_CAP = 256;
/** A colour-size block bigger than this (≈ 4,000 products at 1M) is left to the trigram index, as a lost dash is. */
const TAIL_BLOCK_CAP = 512;
/** A trigram in more SKUs than this is a stop-gram at any catalog size: its list would grow with the catalog. */
const STOP_GRAM_MAX_POSTINGS = 2_000;

/** Bounds the word-reading cache: supplier text is open-ended, the catalog's vocabulary is not. */
const WORD_CACHE_LIMIT = 20_000;

/** fuse.js threshold for a misspelt colour name in a colour column ("Obsidan Black"): a couple of slips, no more. */
const COLOR_FUSE_THRESHOLD = 0.3;

export class CatalogIndex {
  readonly entries: readonly CatalogEntry[];
  readonly nameGroups: readonly NameGroup[];

  private readonly bySkuMap = new Map<string, CatalogEntry>();
  private readonly byIdMap = new Map<string, CatalogEntry>();
  private readonly byOcrKeyMap = new Map<string, CatalogEntry[]>();
  private readonly byPrefixMap = new Map<string, CatalogEntry[]>();
  /** Look-alike-merged style prefix → products; and look-alike-merged `COLOR-SIZE` → products. */
  private readonly byStyleKey = new Map<string, CatalogEntry[]>();
  private readonly byTailKey = new Map<string, CatalogEntry[]>();
  private readonly styleLetters = new Set<string>();
  private readonly colorCodeByOcrKey = new Map<string, string>();
  private readonly sizeCodes = new Set<string>();
  /** Upper-case size texts and codes as the catalog writes them ("S/M", "ONE SIZE", "9.5", "9H") → size code. */
  private readonly sizeByText = new Map<string, string>();

  /** Trigram of an OCR-canonical SKU → entry numbers, ascending. */
  private readonly skuGrams = new Map<string, Int32Array>();
  /** Per-entry trigram hit counter, reused by every skuNeighbours call (zeroed again before it returns). */
  private readonly gramHits: Uint8Array;
  /**
   * Trigrams in more postings than this are skipped by skuNeighbours: the size endings (`X1$` is in 2,169 SKUs) cost
   * most of the counting and tell almost nothing apart.
   */
  private readonly stopGramPostings: number;

  private readonly groupsByWord = new Map<string, number[]>();
  /** Adjacent name-word pairs ("camp shirt") → name groups: rare where their words are common. */
  private readonly groupsByPair = new Map<string, number[]>();
  private readonly groupByName = new Map<string, NameGroup>();
  /** Per-name-group word counter, reused like gramHits. */
  private readonly groupHits: Uint8Array;
  private readonly vocabulary = new Set<string>();
  private readonly vocabularyByLength = new Map<number, string[]>();
  private readonly wordReadings = new Map<string, string | null>();

  /** Full colour names as lower-case words, by their first word, longest first; and by their whole text. */
  private readonly colorPhrasesByFirstWord = new Map<string, { words: readonly string[]; code: string }[]>();
  private readonly colorByPhrase = new Map<string, string>();
  /** Any word of a colour name → codes of the colours whose name has it (a colour column may say just "Black"). */
  private readonly colorCodesByWord = new Map<string, Set<string>>();
  /** The subset of colorCodesByWord safe to read in a description: words no product name uses ("Glacier" is). */
  private readonly plainColorWords = new Map<string, Set<string>>();
  private readonly colorNames: { name: string; code: string }[] = [];
  private colorFuse: Fuse<{ name: string; code: string }> | null = null;

  private constructor(entries: readonly CatalogEntry[]) {
    this.entries = entries;
    this.gramHits = new Uint8Array(entries.length);
    this.stopGramPostings = Math.min(
      STOP_GRAM_MAX_POSTINGS,
      Math.max(STOP_GRAM_MIN_POSTINGS, entries.length * STOP_GRAM_SHARE),
    );
    const groups = new Map<string, CatalogEntry[]>();
    const grams = new Map<string, number[]>();

    entries.forEach((entry, n) => {
      if (this.bySkuMap.has(entry.sku)) throw new Error(`catalog has SKU ${entry.sku} twice`);
      if (this.byIdMap.has(entry.id)) throw new Error(`catalog has product id ${entry.id} twice`);
      this.bySkuMap.set(entry.sku, entry);
      this.byIdMap.set(entry.id, entry);
      pushTo(this.byOcrKeyMap, ocrCanonicalSku(entry.sku), entry);
      pushTo(this.byPrefixMap, entry.skuPrefix, entry);
      pushTo(this.byStyleKey, mergeLookAlikes(entry.skuPrefix), entry);
      pushTo(this.byTailKey, mergeLookAlikes(`${entry.colorCode}-${entry.sizeCode}`), entry);
      pushTo(groups, entry.name, entry);
      this.styleLetters.add(entry.skuPrefix.slice(0, 2));
      this.colorCodeByOcrKey.set(ocrCanonicalSku(entry.colorCode), entry.colorCode);
      this.sizeCodes.add(entry.sizeCode);
      this.sizeByText.set(entry.size.toUpperCase(), entry.sizeCode);
      this.sizeByText.set(entry.sizeCode, entry.sizeCode);
      for (const gram of skuTrigrams(ocrCanonicalSku(entry.sku))) pushTo(grams, gram, n);
      if (!this.colorNames.some((color) => color.code === entry.colorCode)) {
        this.colorNames.push({ name: entry.color, code: entry.colorCode });
      }
    });
    for (const [gram, postings] of grams) this.skuGrams.set(gram, Int32Array.from(postings));

    this.groupHits = new Uint8Array(groups.size);
    this.nameGroups = [...groups].map(([name, members], g) => {
      const tokens = tokenizeWords(name);
      const words = [...new Set(tokens)];
      for (const word of words) {
        pushTo(this.groupsByWord, word, g);
        this.vocabulary.add(word);
      }
      for (const pair of new Set(wordPairs(tokens))) pushTo(this.groupsByPair, pair, g);
      return { name, words, entries: members };
    });
    for (const group of this.nameGroups) this.groupByName.set(group.name, group);
    for (const word of this.vocabulary) pushTo(this.vocabularyByLength, word.length, word);

    for (const { name, code } of this.colorNames) {
      const words = tokenizeWords(name);
      pushTo(this.colorPhrasesByFirstWord, words[0] ?? '', { words, code });
      this.colorByPhrase.set(words.join(' '), code);
      for (const word of words) {
        addTo(this.colorCodesByWord, word, code);
        if (!this.vocabulary.has(word)) addTo(this.plainColorWords, word, code);
      }
    }
    for (const phrases of this.colorPhrasesByFirstWord.values())
      phrases.sort((a, b) => b.words.length - a.words.length);
  }

  /** Indexes the catalog. Throws on a repeated SKU or id, which would make every later answer ambiguous. */
  static build(products: readonly CatalogEntry[]): CatalogIndex {
    return new CatalogIndex(products);
  }

  get size(): number {
    return this.entries.length;
  }

  byId(id: string): CatalogEntry | undefined {
    return this.byIdMap.get(id);
  }

  /** The product with exactly this SKU (upper case, dashes in place). */
  bySku(sku: string): CatalogEntry | undefined {
    return this.bySkuMap.get(sku);
  }

  /** Products whose SKU reads the same as `raw` once look-alike characters are merged (see ocrCanonicalSku). */
  byOcrKey(raw: string): readonly CatalogEntry[] {
    return this.byOcrKeyMap.get(ocrCanonicalSku(raw)) ?? [];
  }

  byPrefix(prefix: string): readonly CatalogEntry[] {
    return this.byPrefixMap.get(prefix) ?? [];
  }

  /** True when some style starts with these two letters (`MC`): a prefix like `MC777` then looks real. */
  hasStyleLetters(letters: string): boolean {
    return this.styleLetters.has(letters);
  }

  /** True when some product has this colour code, reading look-alikes as the catalog does (`OBS` is `0BS`). */
  isColorCode(code: string): boolean {
    return this.colorCodeByOcrKey.has(ocrCanonicalSku(code));
  }

  isSizeCode(code: string): boolean {
    return this.sizeCodes.has(code);
  }

  /**
   * Every product whose SKU differs from `target` (an ocrNormalizeSku result) in at most one of its three
   * dash-separated parts, look-alikes aside: the same style (≈ 19 products), or the same colour and size (≈ 9). Any
   * product one slip away from a three-part target is among them, found by two Map hits. Null when `target` does not
   * have three parts (a lost dash), which is the trigram index's job.
   */
  skuBlock(target: string): CatalogEntry[] | null {
    const parts = target.split('-');
    if (parts.length !== 3) return null;
    const [style = '', color = '', size = ''] = parts;
    const sameStyle = this.byStyleKey.get(mergeLookAlikes(style)) ?? [];
    const tail = this.byTailKey.get(mergeLookAlikes(`${color}-${size}`)) ?? [];
    const sameTail = tail.length > TAIL_BLOCK_CAP ? [] : tail;
    return [...new Set([...sameStyle, ...sameTail])];
  }

  /**
   * Up to `limit` products whose SKU shares the most trigrams with `target` (an ocrNormalizeSku result; both sides
   * have look-alikes merged, so an O for a 0 costs nothing here), sharing at least two. The pre-filter for fuzzy SKU
   * matching: it touches a couple of thousand postings, where scoring every SKU would cost 10,052 edit distances.
   */
  skuNeighbours(target: string, limit: number): CatalogEntry[] {
    const hits = this.gramHits;
    const touched: number[] = [];
    let most = 0;
    for (const gram of skuTrigrams(mergeLookAlikes(target))) {
      const postings = this.skuGrams.get(gram);
      if (!postings || postings.length > this.stopGramPostings) continue;
      for (let k = 0; k < postings.length; k++) {
        const n = postings[k] ?? 0;
        const count = (hits[n] ?? 0) + 1;
        if (count === 1) touched.push(n);
        hits[n] = count;
        if (count > most) most = count;
      }
    }
    // A histogram of hit counts finds the cut-off without sorting the few thousand entries a trigram like "-XL" touches.
    const histogram = new Int32Array(most + 1);
    for (const n of touched) {
      const count = hits[n] ?? 0;
      histogram[count] = (histogram[count] ?? 0) + 1;
    }
    let cutoff = most;
    let taken = histogram[most] ?? 0;
    while (cutoff > 2 && taken < limit) taken += histogram[--cutoff] ?? 0;
    const found: { entry: CatalogEntry; count: number }[] = [];
    for (const n of touched) {
      const count = hits[n] ?? 0;
      hits[n] = 0;
      const entry = this.entries[n];
      if (entry && count >= Math.max(2, cutoff)) found.push({ entry, count });
    }
    return found
      .sort((a, b) => b.count - a.count)
      .slice(0, limit)
      .map(({ entry }) => entry);
  }

  /**
   * A supplier's word read as a word of some product name: itself, or the one name word within maxWordEdits
   * ("insulted" → "insulated"); null when it is no such word, or near two equally.
   */
  readNameWord(word: string): string | null {
    if (this.vocabulary.has(word)) return word;
    const cached = this.wordReadings.get(word);
    if (cached !== undefined) return cached;
    const reading = this.nearestNameWord(word);
    if (this.wordReadings.size >= WORD_CACHE_LIMIT) this.wordReadings.clear();
    this.wordReadings.set(word, reading);
    return reading;
  }

  private nearestNameWord(word: string): string | null {
    const allowed = maxWordEdits(word.length);
    if (allowed === 0 || STOP_WORDS.has(word) || /^\d+$/.test(word)) return null;
    let best: string | null = null;
    let bestDistance = allowed + 1;
    let tied = false;
    for (let length = word.length - allowed; length <= word.length + allowed; length++) {
      for (const candidate of this.vocabularyByLength.get(length) ?? []) {
        if (candidate.charAt(0) !== word.charAt(0)) continue;
        const distance = editDistance(word, candidate, allowed);
        if (distance < bestDistance) [best, bestDistance, tied] = [candidate, distance, false];
        else if (distance === bestDistance) tied = true;
      }
    }
    return tied ? null : best;
  }

  /** The distinct words of a product name as the index reads them; empty for a name no product has. */
  wordsOfName(name: string): readonly string[] {
    return this.groupByName.get(name)?.words ?? [];
  }

  /**
   * Name groups having any of these name words (in the description's order), with how many of them each has. The
   * groups are looked up by the words and adjacent word pairs in at most NAME_KEY_POSTING_CAP groups; when every key
   * is more common than that, by the rarest one's first NAME_KEY_POSTING_CAP groups. So the lists read per line are
   * bounded whatever the catalog's size, and a group found shares every word it has with the description counted.
   */
  nameGroupsWithWords(words: readonly string[]): { group: NameGroup; shared: number }[] {
    const found: { group: NameGroup; shared: number }[] = [];
    this.visitNameGroupsWithWords(words, (group, shared) => found.push({ group, shared }));
    return found;
  }

  /**
   * nameGroupsWithWords without the list: `visit` is called once for each of the same groups. For a caller that wants
   * one figure over them (the best fit), so a line against a large catalog allocates nothing per group.
   */
  visitNameGroupsWithWords(words: readonly string[], visit: (group: NameGroup, shared: number) => void): void {
    const keys = [
      ...words.map((word) => this.groupsByWord.get(word) ?? []),
      ...wordPairs(words).map((pair) => this.groupsByPair.get(pair) ?? []),
    ].filter((postings) => postings.length > 0);
    let lists = keys.filter((postings) => postings.length <= NAME_KEY_POSTING_CAP);
    if (lists.length === 0 && keys.length > 0) {
      const rarest = keys.reduce((a, b) => (b.length < a.length ? b : a));
      lists = [rarest.slice(0, NAME_KEY_POSTING_CAP)];
    }
    const seen = this.groupHits;
    const touched: number[] = [];
    for (const postings of lists) {
      for (const g of postings) {
        if (seen[g] === 0) touched.push(g);
        seen[g] = 1;
      }
    }
    const said = new Set(words);
    for (const g of touched) seen[g] = 0;
    for (const g of touched) {
      const group = this.nameGroups[g];
      if (!group) continue;
      let shared = 0;
      for (const word of group.words) if (said.has(word)) shared++;
      visit(group, shared);
    }
  }

  /**
   * Colour codes a colour column means: a full colour name, a code (look-alikes allowed: `OBS`), any colour word
   * ("Black" → every colour with Black in its name), or a misspelt colour name. Null when it names no catalog colour.
   */
  colorCodesFor(text: string): ReadonlySet<string> | null {
    const words = tokenizeWords(text).map((word) => COLOR_WORD_SYNONYMS[word] ?? word);
    if (words.length === 0) return null;
    const phrase = words.join(' ');
    const named = this.colorByPhrase.get(phrase);
    if (named) return new Set([named]);
    const code = this.colorCodeByOcrKey.get(ocrCanonicalSku(text.trim().toUpperCase()));
    if (code && words.length === 1) return new Set([code]);

    // Several words: the colours every known word agrees on ("Storm Blue" spelt "Blue Storm"), else any of them.
    const perWord = words.flatMap((word) => {
      const codes = this.colorCodesByWord.get(word);
      return codes ? [codes] : [];
    });
    if (perWord.length > 0) {
      const common = [...(perWord[0] ?? [])].filter((c) => perWord.every((codes) => codes.has(c)));
      return new Set(common.length > 0 ? common : perWord.flatMap((codes) => [...codes]));
    }
    const [fuzzy] = this.colorNameFuse().search(phrase, { limit: 1 });
    return fuzzy ? new Set([fuzzy.item.code]) : null;
  }

  private colorNameFuse(): Fuse<{ name: string; code: string }> {
    this.colorFuse ??= new Fuse(this.colorNames, {
      keys: ['name'],
      threshold: COLOR_FUSE_THRESHOLD,
      ignoreLocation: true,
    });
    return this.colorFuse;
  }

  /** Size codes a size column means: the catalog's own texts and codes, or a common spelling ("X-Large", "W32"). */
  sizeCodesFor(text: string): ReadonlySet<string> | null {
    const key = text
      .normalize('NFKC')
      .toUpperCase()
      .replace(/^\s*(?:SIZE|SZ)\b[\s:.-]*/, '')
      .trim();
    const codes = new Set<string>();
    const own = this.sizeByText.get(key) ?? this.sizeByText.get(key.replace(',', '.'));
    if (own) codes.add(own);
    const compact = key.replace(/[\s-]+/g, '');
    for (const code of SIZE_SYNONYMS[compact] ?? []) codes.add(code);

    const numeric = /^(?:W|US|EU|UK)?(\d{1,2})(?:([.,]5|H|1\/2|½))?W?$/.exec(compact);
    if (numeric?.[1]) codes.add(`${Number(numeric[1])}${numeric[2] ? 'H' : ''}`);

    const known = [...codes].filter((code) => this.sizeCodes.has(code));
    return known.length > 0 ? new Set(known) : null;
  }

  /**
   * Splits a description into its colour, its size and the words that may name the product, e.g.
   * "Summit Insulated Jacket - Obsidian Black / XL" → 0BS, XL, [summit, insulated, jacket]. A full colour name wins
   * over a plain colour word, and the last size-like token wins (sizes close a description).
   */
  readDescription(text: string): DescriptionReading {
    let rest = text.normalize('NFKC').replace(/['’`]/g, '');
    let sizeCodes: ReadonlySet<string> | null = null;
    const sizeHits = [...rest.matchAll(SIZE_IN_TEXT)];
    for (let i = sizeHits.length - 1; i >= 0 && !sizeCodes; i--) {
      const hit = sizeHits[i];
      const codes = hit?.[1] ? this.sizeCodesFor(hit[1]) : null;
      if (hit && codes) {
        sizeCodes = codes;
        rest = `${rest.slice(0, hit.index)} ${rest.slice(hit.index + hit[0].length)}`;
      }
    }

    const words = tokenizeWords(rest).map((word) => COLOR_WORD_SYNONYMS[word] ?? word);
    const used = new Array<boolean>(words.length).fill(false);
    const named = new Set<string>();
    for (let i = 0; i < words.length; i++) {
      const color = this.colorPhrasesByFirstWord
        .get(words[i] ?? '')
        ?.find((phrase) => phrase.words.every((word, k) => words[i + k] === word));
      if (!color) continue;
      named.add(color.code);
      used.fill(true, i, i + color.words.length);
      i += color.words.length - 1;
    }
    if (named.size === 0) {
      words.forEach((word, i) => {
        const codes = this.plainColorWords.get(word);
        if (!codes) return;
        for (const code of codes) named.add(code);
        used[i] = true;
      });
    }

    const nameWords = new Set<string>();
    words.forEach((word, i) => {
      const reading = used[i] ? null : this.readNameWord(word);
      if (reading) nameWords.add(reading);
    });
    return { colorCodes: named.size > 0 ? named : null, sizeCodes, nameWords: [...nameWords] };
  }
}

/** Adjacent words as one key each: "camp shirt" for ["larch", "camp", "shirt"]'s second and third. */
function wordPairs(words: readonly string[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) pairs.push(`${words[i]} ${words[i + 1]}`);
  return pairs;
}

/** Trigrams of `^SKU$`: the anchors make the first and last characters count as much as the middle ones. */
export function skuTrigrams(key: string): Set<string> {
  const padded = `^${key}$`;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}
