/**
 * Valden Outdoor SKUs read `STYLE-COLOR-SIZE`, e.g. `MC001-GLW-XL`:
 * - style: line letter + family letter + 3 digits (`MC001`, see PRODUCT_LINES / PRODUCT_FAMILIES),
 * - colour: 3 characters, mostly letters, a few with 0 or 1 (`GLW`, `0BS`),
 * - size: 1–3 characters (`XL`, `32`, `7H`, `OS`).
 */
export const SKU_PATTERN = /^[A-Z]{2}\d{3}-[A-Z0-9]{3}-[A-Z0-9]{1,3}$/;

export interface SkuParts {
  skuPrefix: string;
  colorCode: string;
  sizeCode: string;
}

export function parseSku(sku: string): SkuParts | null {
  if (!SKU_PATTERN.test(sku)) return null;
  // The pattern fixes where each part sits, so slicing cannot go wrong.
  return { skuPrefix: sku.slice(0, 5), colorCode: sku.slice(6, 9), sizeCode: sku.slice(10) };
}

// ───────────────────────────── Normalising what suppliers type ─────────────────────────────

/** Hyphens, dashes and minus signs from Word/Excel/PDF exports, plus the separators people use instead of a dash. */
const SEPARATORS = /[\s\-_./\\\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]+/g;

/** A footwear half size written the way people read it (`-9.5`) instead of the catalog's code (`-9H`). */
const HALF_SIZE = /([\s\-_/])(\d{1,2})[.,]5$/;

/**
 * The SKU a supplier meant, typographically: NFKC (full-width forms from CJK keyboards), upper case, any dash-like
 * character or space/underscore/dot/slash as one `-`, and the dashes put back when the three parts run together
 * (`mc001glwxl` → `MC001-GLW-XL`). Dashes already splitting the code in three are kept where they are: moving them
 * would hide a missing character from the fuzzy tier (`MC01-GLW-XL` is not `MC01G-LWX-L`). Does not fix OCR
 * confusions; see ocrNormalizeSku.
 */
export function normalizeSku(raw: string): string {
  const cleaned = raw
    .normalize('NFKC')
    .trim()
    .toUpperCase()
    .replace(HALF_SIZE, '$1$2H')
    .replace(SEPARATORS, '-')
    .replace(/^-+|-+$/g, '');
  if (SKU_PATTERN.test(cleaned) || cleaned.split('-').length === 3) return cleaned;
  const compact = cleaned.replaceAll('-', '');
  // Style 5 + colour 3 + size 1–3: only this length range can be split, and only when the head reads as a style.
  if (!/^[A-Z0-9]{9,11}$/.test(compact) || !looksLikeStylePrefix(compact.slice(0, 5))) return cleaned;
  return `${compact.slice(0, 5)}-${compact.slice(5, 8)}-${compact.slice(8)}`;
}

/**
 * Characters OCR and hurried typing confuse, one group per look-alike set; the first member stands for the group in
 * canonical keys. From the seed (§6.2): O↔0, I↔1↔l (after upper-casing, l is L) and K↔Q. Added because they are the
 * classic OCR pairs for a sans-serif font and none of them separates two real catalog codes: S↔5, B↔8, Z↔2.
 */
export const OCR_CONFUSABLE_GROUPS: readonly (readonly string[])[] = [
  ['0', 'O'],
  ['1', 'I', 'L'],
  ['5', 'S'],
  ['8', 'B'],
  ['2', 'Z'],
  ['K', 'Q'],
];

const CANONICAL_CHAR = new Map<string, string>(
  OCR_CONFUSABLE_GROUPS.flatMap((group) => group.map((char): [string, string] => [char, group[0] ?? char])),
);
const CONFUSABLE_WITH = new Map<string, readonly string[]>(
  OCR_CONFUSABLE_GROUPS.flatMap((group) => group.map((char): [string, readonly string[]] => [char, group])),
);

/**
 * A style prefix is LETTER LETTER DIGIT DIGIT DIGIT, so the position says which reading of a look-alike is right.
 * These maps go a little beyond the symmetric groups (D and Q read as 0, G as 6) because a slot that must hold a digit
 * leaves no other reading.
 */
const LETTER_FOR_DIGIT: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '5': 'S',
  '6': 'G',
  '8': 'B',
};
const DIGIT_FOR_LETTER: Readonly<Record<string, string>> = {
  O: '0',
  Q: '0',
  D: '0',
  I: '1',
  L: '1',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
};

function looksLikeStylePrefix(text: string): boolean {
  if (text.length !== 5) return false;
  return [...text].every((char, i) =>
    i < 2 ? /[A-Z]/.test(char) || char in LETTER_FOR_DIGIT : /\d/.test(char) || char in DIGIT_FOR_LETTER,
  );
}

/** Reads each position of a 5-character style prefix as the kind of character that position holds. */
export function ocrFixStylePrefix(prefix: string): string {
  if (!looksLikeStylePrefix(prefix)) return prefix;
  return [...prefix]
    .map((char, i) => (i < 2 ? (LETTER_FOR_DIGIT[char] ?? char) : (DIGIT_FOR_LETTER[char] ?? char)))
    .join('');
}

/** Parts of a normalised SKU-shaped string, tolerating OCR look-alikes in the prefix (`MC0O1-GLW-XL`). */
export function splitSkuLoose(sku: string): SkuParts | null {
  const match = /^([A-Z0-9]{5})-([A-Z0-9]{3})-([A-Z0-9]{1,3})$/.exec(sku);
  if (!match?.[1] || !match[2] || !match[3] || !looksLikeStylePrefix(match[1])) return null;
  return { skuPrefix: match[1], colorCode: match[2], sizeCode: match[3] };
}

/**
 * normalizeSku, then the style prefix read positionally (`MC0O1` → `MC001`, `M8013` → `MB013`). Colour and size
 * codes are left alone: real ones contain 0 and 1 (`0BS`, `1RN`), so only the catalog can say which reading exists;
 * see ocrSkuVariants and ocrCanonicalSku.
 */
export function ocrNormalizeSku(raw: string): string {
  const sku = normalizeSku(raw);
  const parts = splitSkuLoose(sku);
  if (!parts) return sku;
  return `${ocrFixStylePrefix(parts.skuPrefix)}-${parts.colorCode}-${parts.sizeCode}`;
}

/**
 * A key equal for all SKUs that differ only by look-alike characters: the prefix read positionally, then every
 * character replaced by its group's representative. Two catalog SKUs never share a key (a test checks this on the
 * real catalog), so a key that finds exactly one product is an unambiguous OCR reading.
 */
export function ocrCanonicalSku(raw: string): string {
  return mergeLookAlikes(ocrNormalizeSku(raw));
}

/** Every look-alike replaced by its group's representative, nothing else: ocrCanonicalSku of an already normalised SKU. */
export function mergeLookAlikes(text: string): string {
  let merged = '';
  for (const char of text) merged += CANONICAL_CHAR.get(char) ?? char;
  return merged;
}

/**
 * Every reading of the colour and size codes under the look-alike groups, prefix read positionally, for checking
 * against the catalog: `MB013-OB5-XL` → `MB013-0BS-XL`, `MB013-08S-XL`, … Capped at `limit` readings (a fully
 * ambiguous 6-character tail has 3^6), which only ever drops readings of garbage.
 */
export function ocrSkuVariants(raw: string, limit = 256): string[] {
  const sku = ocrNormalizeSku(raw);
  const parts = splitSkuLoose(sku);
  if (!parts) return [sku];
  let tails = [''];
  for (const char of `${parts.colorCode}-${parts.sizeCode}`) {
    const readings = CONFUSABLE_WITH.get(char) ?? [char];
    tails = tails.flatMap((tail) => readings.map((reading) => tail + reading)).slice(0, limit);
  }
  return tails.map((tail) => `${parts.skuPrefix}-${tail}`);
}

/** Look-alike group number (1-based) per ASCII character code, 0 for none: a lookup the hot loop can afford. */
const LOOK_ALIKE_GROUP = new Uint8Array(128);
OCR_CONFUSABLE_GROUPS.forEach((group, g) => {
  for (const char of group) LOOK_ALIKE_GROUP[char.charCodeAt(0)] = g + 1;
});

/** Rows reused across calls: the matcher computes thousands of distances a second and each would allocate three. */
let rows = [new Int32Array(32), new Int32Array(32), new Int32Array(32)] as const;
/** Stands for "beyond any limit" in cells outside the band; small enough that adding to it cannot overflow. */
const FAR = 1 << 20;

/**
 * Optimal-string-alignment distance: Levenshtein plus adjacent transposition (the commonest typing slip), counted in
 * half edits so that a look-alike substitution can cost half (`lookAlikeCost` = 1) without floating point. With a
 * finite `max` only the diagonal band a path within `max` can use is computed, and Infinity comes back as soon as the
 * distance must exceed it: far candidates cost a few cells, near ones a band of 2·max+1 cells a row.
 */
function alignmentDistance(a: string, b: string, lookAlikeCost: number, max: number): number {
  if (a === b) return 0;
  const limit = max * 2;
  if (Math.abs(a.length - b.length) * 2 > limit) return Infinity;
  const band = Number.isFinite(max) ? Math.ceil(max) : Math.max(a.length, b.length);
  const width = b.length + 1;
  if (rows[0].length < width + 1)
    rows = [new Int32Array(width + 1), new Int32Array(width + 1), new Int32Array(width + 1)];
  let [before, previous, current] = rows;
  for (let j = 0; j <= width; j++) previous[j] = j <= band ? j * 2 : FAR;
  let previousMin = 0;
  for (let i = 1; i <= a.length; i++) {
    const ca = a.charCodeAt(i - 1);
    const group = ca < 128 ? (LOOK_ALIKE_GROUP[ca] ?? 0) : 0;
    const from = Math.max(1, i - band);
    const to = Math.min(b.length, i + band);
    const first = i <= band ? i * 2 : FAR;
    current[0] = first;
    current[from - 1] = from === 1 ? first : FAR;
    current[to + 1] = FAR;
    let rowMin = first;
    for (let j = from; j <= to; j++) {
      const cb = b.charCodeAt(j - 1);
      const substitution =
        ca === cb ? 0 : group !== 0 && cb < 128 && LOOK_ALIKE_GROUP[cb] === group ? lookAlikeCost : 2;
      let best = (previous[j - 1] ?? FAR) + substitution;
      const up = (previous[j] ?? FAR) + 2;
      const left = (current[j - 1] ?? FAR) + 2;
      if (up < best) best = up;
      if (left < best) best = left;
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        const swap = (before[j - 2] ?? FAR) + 2;
        if (swap < best) best = swap;
      }
      current[j] = best;
      if (best < rowMin) rowMin = best;
    }
    // Later rows build on this one or (by a transposition, +2) on the one before: both already past the limit.
    if (rowMin > limit && previousMin + 2 > limit) return Infinity;
    previousMin = rowMin;
    const spare = before;
    before = previous;
    previous = current;
    current = spare;
  }
  const distance = (previous[b.length] ?? FAR) / 2;
  return distance > max ? Infinity : distance;
}

/** Optimal-string-alignment distance (edits and adjacent transpositions), or Infinity once it must exceed `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  return alignmentDistance(a, b, 2, max);
}

/**
 * editDistance between two upper-case SKUs where swapping look-alikes (O for 0, l for 1) costs half an edit: it is
 * what OCR does, not what a typo does.
 */
export function skuEditDistance(a: string, b: string, max = Infinity): number {
  return alignmentDistance(a, b, 1, max);
}
