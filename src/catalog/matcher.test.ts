import { describe, expect, it, vi } from 'vitest';
import { MATCH_REVIEW, MATCH_TIERS } from '../config/business-rules.js';
import { type CatalogEntry, CatalogIndex, toCatalogEntries } from './catalog-index.js';
import {
  type LlmMatchAnswer,
  type LlmMatchFallback,
  type LlmMatchItem,
  MATCH_METHODS,
  type MatchQuery,
  type MatchResult,
  matchLine,
  matchLines,
  measureMatcher,
  naiveFuseMatch,
  skuFirstFuseMatch,
} from './matcher.js';
import { readCatalogCsv } from './products-csv.js';
import { createRng, type Rng } from '../commerce/rng.js';
import { ocrNormalizeSku, skuEditDistance } from './sku.js';

const entries = toCatalogEntries(await readCatalogCsv('data/products.csv'));
const index = CatalogIndex.build(entries);

const AUTO = MATCH_REVIEW.autoAcceptAt;
const query = (fields: Partial<MatchQuery>): MatchQuery => ({
  rawSku: null,
  description: null,
  color: null,
  size: null,
  ...fields,
});
const entry = (sku: string): CatalogEntry => {
  const found = index.bySku(sku);
  if (!found) throw new Error(`test catalog lacks ${sku}`);
  return found;
};
/** The product's name, colour and size written the way the brief's example writes them. */
const described = (sku: string) => {
  const { name, color, size } = entry(sku);
  return `${name} - ${color} / ${size}`;
};

function expectWellFormed(result: MatchResult): void {
  expect(MATCH_METHODS).toContain(result.method);
  expect(result.candidates.length).toBeLessThanOrEqual(MATCH_REVIEW.maxCandidates);
  expect(result.confidence).toBeGreaterThanOrEqual(0);
  expect(result.confidence).toBeLessThanOrEqual(1);
  if (result.productId !== null) {
    expect(result.candidates[0]).toEqual({
      productId: result.productId,
      sku: result.sku,
      confidence: result.confidence,
    });
  } else {
    expect(result.confidence).toBe(0);
    expect(result.method).toBe('unmatched');
  }
  for (const candidate of result.candidates) expect(candidate.confidence).toBeLessThanOrEqual(result.confidence || 1);
}

describe('matchLine, tier by tier', () => {
  it('tier 1: an exact SKU is certain', () => {
    const result = matchLine(index, query({ rawSku: 'MJ001-0BS-XL' }));
    expect(result).toMatchObject({ sku: 'MJ001-0BS-XL', confidence: MATCH_TIERS.exactSku, method: 'exact_sku' });
    expect(result.productId).toBe('MJ001-0BS-XL');
    expectWellFormed(result);
  });

  it('tier 1: stays certain when the description, colour and size agree', () => {
    const result = matchLine(
      index,
      query({ rawSku: ' mj001-0bs-xl ', description: 'Switchback Wind Jacket', color: 'Black', size: 'X-Large' }),
    );
    expect(result).toMatchObject({ sku: 'MJ001-0BS-XL', confidence: 1, method: 'exact_sku' });
  });

  it.each([
    ['mj0010bsxl', 'lower case, no dashes'],
    ['MJ001 0BS XL', 'spaces'],
    ['MJ001_0BS_XL', 'underscores'],
    ['MJ001–0BS–XL', 'en dashes'],
    ['MJ0O1-0BS-XL', 'O for 0 in the style number'],
    ['MJOO1-0BS-XL', 'two Os'],
    ['MJ00l-0BS-XL', 'l for 1'],
    ['MJ001-OBS-XL', 'OBS for 0BS'],
    ['MJ001-0B5-XL', '5 for S'],
  ])('tier 1.5: %s (%s) reads unambiguously as MJ001-0BS-XL', (rawSku) => {
    const result = matchLine(index, query({ rawSku }));
    expect(result).toMatchObject({ sku: 'MJ001-0BS-XL', confidence: MATCH_TIERS.ocrSku, method: 'ocr_sku' });
    expectWellFormed(result);
  });

  it.each([
    ['MJ001-0BX-XL', 'MJ001-0BS-XL', 'a colour code no product has'],
    ['MJ001-B0S-XL', 'MJ001-0BS-XL', 'a transposed colour'],
    ['MJ001-0BS-XLP', 'MJ001-0BS-XL', 'a stray size letter'],
    ['UX001-0BS-XL', 'UC001-0BS-XL', 'style letters no product has'],
  ])('tier 2: %s has one clear winner, %s (%s), and is accepted', (rawSku, sku) => {
    const result = matchLine(index, query({ rawSku }));
    expect(result.sku).toBe(sku);
    expect(result.method).toBe('fuzzy_sku');
    expect(result.confidence).toBeGreaterThanOrEqual(AUTO);
    expect(result.confidence).toBeLessThanOrEqual(MATCH_TIERS.fuzzySku.max);
    expectWellFormed(result);
  });

  it.each([
    ['MJ001-0BS-SX', ['MJ001-0BS-XS', 'MJ001-0BS-S']],
    ['MJ001-0BS-XLL', ['MJ001-0BS-XL', 'MJ001-0BS-XXL']],
    ['MX001-0BS-XL', ['MJ001-0BS-XL', 'MT001-0BS-XL']],
  ])('tier 2: %s is one slip from each of %j, a tie and not a guess', (rawSku, tied) => {
    const result = matchLine(index, query({ rawSku }));
    expect(result.method).toBe('fuzzy_sku');
    expect(result.confidence).toBeLessThan(AUTO);
    expect(result.candidates.slice(0, 2).map((candidate) => candidate.sku)).toEqual(expect.arrayContaining(tied));
    expect(result.candidates[1]?.confidence).toBe(result.confidence);
  });

  it('tier 1: an exact SKU whose name holds the words said reads no shared-word list', () => {
    // The lists grow with the catalog; a line the SKU settles must cost the same at 10K products as at 1M.
    const reads = vi.spyOn(index, 'visitNameGroupsWithWords');
    try {
      const result = matchLine(index, query({ rawSku: 'MJ001-0BS-XL', description: 'Switchback Wind Jacket - XL' }));
      expect(result.method).toBe('exact_sku');
      expect(reads).not.toHaveBeenCalled();
      // A word the name lacks needs the best fit elsewhere: one bounded read, no more.
      matchLine(index, query({ rawSku: 'MJ001-0BS-XL', description: 'Switchback Rain Jacket - XL' }));
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('tier 2: a description naming the product and its size settles a tie', () => {
    const result = matchLine(index, query({ rawSku: 'MJ001-0BS-SX', description: described('MJ001-0BS-XS') }));
    expect(result.sku).toBe('MJ001-0BS-XS');
    expect(result.confidence).toBeGreaterThanOrEqual(AUTO);
    // A size column alone rules S out, but nothing confirms the product itself: a human confirms.
    const sizeOnly = matchLine(index, query({ rawSku: 'MJ001-0BS-SX', size: 'XS' }));
    expect(sizeOnly.sku).toBe('MJ001-0BS-XS');
    expect(sizeOnly.confidence).toBeLessThan(AUTO);
  });

  it('tier 2: a real-looking style number we do not have is not auto-accepted as a typo', () => {
    const result = matchLine(index, query({ rawSku: 'MJ901-0BS-XL' }));
    expect(result.confidence).toBeLessThan(AUTO);
    const far = matchLine(index, query({ rawSku: 'MJ991-0BS-XL' }));
    expect(far.confidence).toBeLessThan(MATCH_REVIEW.mustActBelow);
  });

  it('tier 3: a name with colour and size and no SKU', () => {
    const sku = uniqueVariantSkus[0] ?? '';
    const result = matchLine(index, query({ description: described(sku) }));
    expect(result).toMatchObject({ sku, method: 'name_match', confidence: MATCH_TIERS.nameMatch.max });
    expectWellFormed(result);
  });

  it('tier 3: colour and size may come from their own columns, spelt loosely', () => {
    const sku = uniqueVariantSkus[1] ?? '';
    const { name, color, size } = entry(sku);
    const result = matchLine(index, query({ description: name.toLowerCase(), color: color.toUpperCase(), size }));
    expect(result.sku).toBe(sku);
    expect(result.confidence).toBeLessThanOrEqual(MATCH_TIERS.nameMatch.max);
  });

  it('tier 3: a name alone names a style, not a variant, so confidence stays at the bottom of the band', () => {
    const result = matchLine(index, query({ description: 'Switchback Wind Jacket' }));
    expect(result.method).toBe('name_match');
    expect(entry(result.sku ?? '').name).toBe('Switchback Wind Jacket');
    expect(result.confidence).toBeLessThan(MATCH_TIERS.nameMatch.min + 0.01);
  });

  it('finds a SKU written inside the description when there is no SKU column', () => {
    const result = matchLine(index, query({ description: 'MJ001-0BS-XL Switchback Wind Jacket' }));
    expect(result).toMatchObject({ sku: 'MJ001-0BS-XL', method: 'exact_sku' });
  });

  it('tier 5: nothing to go on is unmatched', () => {
    for (const line of [
      query({}),
      query({ rawSku: '  ', description: '' }),
      query({ description: 'Custom embroidered patch' }),
      query({ rawSku: 'ZZ999-QQQ-QQ' }),
    ]) {
      const result = matchLine(index, line);
      expect(result).toMatchObject({ productId: null, sku: null, confidence: 0, method: 'unmatched' });
      expectWellFormed(result);
    }
  });
});

describe('matchLine, honest confidence', () => {
  it('an exact SKU the description contradicts goes to a human, with the described product first', () => {
    // MJ001 is a Switchback Wind Jacket; MT001, one slip away, is the Meadow Wool Blend Tee.
    const result = matchLine(index, query({ rawSku: 'MJ001-0BS-XL', description: described('MT001-0BS-XL') }));
    expect(result.confidence).toBeLessThan(AUTO);
    expect(result.sku).toBe('MT001-0BS-XL');
    expect(result.candidates.map((candidate) => candidate.sku)).toContain('MJ001-0BS-XL');
  });

  it('an exact SKU with another colour or size on the line goes to a human', () => {
    const colour = matchLine(index, query({ rawSku: 'MJ001-0BS-XL', color: 'Glacier White' }));
    expect(colour.confidence).toBeLessThan(AUTO);
    const size = matchLine(index, query({ rawSku: 'MJ001-0BS-XL', size: 'S' }));
    expect(size.confidence).toBeLessThan(AUTO);
    expect(size.sku).toBe('MJ001-0BS-S');
  });

  it('a description that only names the type, or only part of the name, does not count against a SKU', () => {
    for (const description of ['Wind Jacket', 'Switchback Jacket', 'jacket', 'Waterproof breathable shell']) {
      const result = matchLine(index, query({ rawSku: 'MJ001-0BS-XL', description }));
      expect(result.sku).toBe('MJ001-0BS-XL');
      if (description !== 'Waterproof breathable shell') expect(result.confidence).toBe(1);
    }
  });

  it('never lets a name-only match exceed the name band', () => {
    for (const sku of uniqueVariantSkus.slice(0, 50)) {
      const result = matchLine(index, query({ description: described(sku) }));
      expect(result.confidence).toBeLessThanOrEqual(MATCH_TIERS.nameMatch.max);
    }
  });
});

// ───────────────────────────── A realistic test set from the real catalog ─────────────────────────────

/** Products whose name, colour and size together belong to no other product: a description can identify them. */
const variantCounts = new Map<string, number>();
const variantKey = (p: CatalogEntry) => `${p.name}|${p.colorCode}|${p.sizeCode}`;
for (const p of entries) variantCounts.set(variantKey(p), (variantCounts.get(variantKey(p)) ?? 0) + 1);
const uniqueVariantSkus = entries.filter((p) => variantCounts.get(variantKey(p)) === 1).map((p) => p.sku);

type LineKind = 'exact' | 'case_dash' | 'ocr' | 'typo' | 'transposition' | 'name' | 'wrong_sku' | 'not_in_catalog';

interface MessyLine {
  kind: LineKind;
  query: MatchQuery;
  /** The product a careful buyer with the catalog would pick; null when the catalog has none. */
  expectedSku: string | null;
}

const KIND_WEIGHTS: [LineKind, number][] = [
  ['exact', 15],
  ['case_dash', 10],
  ['ocr', 15],
  ['typo', 15],
  ['transposition', 10],
  ['name', 20],
  ['wrong_sku', 5],
  ['not_in_catalog', 10],
];
const OCR_MISREADS: Readonly<Record<string, readonly string[]>> = {
  '0': ['O', 'o'],
  '1': ['I', 'l'],
  O: ['0'],
  I: ['1', 'l'],
  L: ['1'],
  S: ['5'],
  B: ['8'],
  '5': ['S'],
  '8': ['B'],
};
const TYPO_CHARS = [...'ABCDEFGHJKMNPRTUVWXY34679'];
const NOT_IN_CATALOG: MatchQuery[] = [
  query({ description: 'Custom embroidered patch' }),
  query({ description: 'Woven hang tags, printed, 2 colours' }),
  query({ description: 'Polybag with suffocation warning' }),
  query({ rawSku: 'ZX123-QQQ-XL', description: 'Sample development fee' }),
  query({ rawSku: 'PKG-001', description: 'Retail box' }),
  query({ description: 'Reflective zip puller', color: 'Black' }),
];

interface Description {
  text: string;
  /** What it gives a buyer to settle a doubtful SKU with. */
  fullName: boolean;
  color: boolean;
  size: boolean;
}

function describeLoosely(rng: Rng, p: CatalogEntry): Description {
  const fullName = rng.next() >= 0.15;
  const name = fullName ? p.name : p.name.split(' ').slice(1).join(' ');
  const text = rng.next() < 0.2 ? name.toLowerCase() : name;
  switch (rng.int(0, 3)) {
    case 0:
      return { text, fullName, color: false, size: false };
    case 1:
      return { text: `${text} - ${p.color} / ${p.size}`, fullName, color: true, size: true };
    case 2:
      return { text: `${text}, ${p.color}, size ${p.size}`, fullName, color: true, size: true };
    default:
      return { text: `${text} ${p.color}`, fullName, color: true, size: false };
  }
}

/**
 * Quotation lines as suppliers write them, each with the product a careful buyer would pick. A slip that lands on
 * another real SKU is a wrong_sku line (the description then names the right product), and a slipped SKU counts only
 * when the line still identifies one product: nothing could settle "SX" between S and XS without a size.
 */
function generateMessyLines(products: readonly CatalogEntry[], count: number, seed: number): MessyLine[] {
  const rng = createRng(seed);
  const bySku = new Map(products.map((p) => [p.sku, p]));
  const byStyle = new Map<string, CatalogEntry[]>();
  const byTail = new Map<string, CatalogEntry[]>();
  for (const p of products) {
    byStyle.set(p.skuPrefix, [...(byStyle.get(p.skuPrefix) ?? []), p]);
    byTail.set(`${p.colorCode}-${p.sizeCode}`, [...(byTail.get(`${p.colorCode}-${p.sizeCode}`) ?? []), p]);
  }
  const oneSlipAway = (p: CatalogEntry) => [
    ...(byStyle.get(p.skuPrefix) ?? []),
    ...(byTail.get(`${p.colorCode}-${p.sizeCode}`) ?? []),
  ];
  const identifiable = (raw: string, p: CatalogEntry, said: Description | null) => {
    const typed = ocrNormalizeSku(raw);
    const own = skuEditDistance(typed, p.sku);
    return oneSlipAway(p)
      .filter(
        (rival) =>
          !said ||
          ((!said.fullName || rival.name === p.name) &&
            (!said.color || rival.colorCode === p.colorCode) &&
            (!said.size || rival.sizeCode === p.sizeCode)),
      )
      .every((rival) => rival === p || skuEditDistance(typed, rival.sku) > own);
  };
  const pickKind = (): LineKind => {
    let roll = rng.next() * KIND_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [kind, weight] of KIND_WEIGHTS) if ((roll -= weight) < 0) return kind;
    return 'exact';
  };

  const lines: MessyLine[] = [];
  let notInCatalog = 0;
  while (lines.length < count) {
    const p = rng.pick(products);
    const said = rng.next() < 0.8 ? describeLoosely(rng, p) : null;
    const kind = pickKind();
    const line = (rawSku: string | null, description = said?.text ?? null): MessyLine => ({
      kind,
      query: query({ rawSku, description }),
      expectedSku: p.sku,
    });
    const chars = [...p.sku];
    switch (kind) {
      case 'exact':
        lines.push(line(p.sku));
        break;
      case 'case_dash':
        lines.push(
          line(
            rng.pick([
              p.sku.toLowerCase(),
              p.sku.replaceAll('-', ''),
              p.sku.replaceAll('-', ' '),
              p.sku.replaceAll('-', '_'),
              p.sku.replaceAll('-', '–'),
              p.sku.toLowerCase().replaceAll('-', ''),
              ` ${p.sku.replaceAll('-', '.')} `,
            ]),
          ),
        );
        break;
      case 'ocr': {
        const positions = chars.flatMap((char, i) => (OCR_MISREADS[char] ? [i] : []));
        if (positions.length === 0) continue;
        const i = rng.pick(positions);
        chars[i] = rng.pick(OCR_MISREADS[chars[i] ?? ''] ?? ['?']);
        lines.push(line(chars.join('')));
        break;
      }
      case 'typo':
      case 'transposition': {
        const i = rng.pick(chars.flatMap((char, k) => (char === '-' ? [] : [k])));
        if (kind === 'typo') chars[i] = rng.pick(TYPO_CHARS.filter((char) => char !== chars[i]));
        else {
          const [a, b] = [chars[i], chars[i + 1]];
          if (a === undefined || b === undefined || b === '-' || a === b) continue;
          [chars[i], chars[i + 1]] = [b, a];
        }
        const typed = chars.join('');
        if (bySku.has(typed) || !identifiable(typed, p, said)) continue;
        lines.push(line(typed));
        break;
      }
      case 'name': {
        if (variantCounts.get(variantKey(p)) !== 1) continue;
        const form = rng.int(0, 3);
        if (form === 0) lines.push(line(null, `${p.name} - ${p.color} / ${p.size}`));
        else if (form === 1) lines.push(line(null, `${p.name.toLowerCase()} ${p.color.toLowerCase()} ${p.size}`));
        else if (form === 2) {
          lines.push({ kind, query: query({ description: p.name, color: p.color, size: p.size }), expectedSku: p.sku });
        } else lines.push(line(null, `${p.name} (${p.color}) size ${p.size}`));
        break;
      }
      case 'wrong_sku': {
        // Another product's SKU, one slip from the right one; the description names the right one in full.
        const slips = oneSlipAway(p).filter(
          (other) => other.name !== p.name && skuEditDistance(other.sku, p.sku) === 1,
        );
        if (slips.length === 0 || variantCounts.get(variantKey(p)) !== 1) continue;
        lines.push(line(rng.pick(slips).sku, `${p.name} - ${p.color} / ${p.size}`));
        break;
      }
      case 'not_in_catalog': {
        const fixed = NOT_IN_CATALOG[notInCatalog++ % (NOT_IN_CATALOG.length + 2)];
        // Otherwise a style number the brand never issued, in a real colour and size.
        const rawSku = `${p.skuPrefix.slice(0, 2)}${rng.int(700, 999)}-${p.colorCode}-${p.sizeCode}`;
        const description = rng.next() < 0.5 ? 'New style 2025 sample' : null;
        lines.push({ kind, query: fixed ?? query({ rawSku, description }), expectedSku: null });
        break;
      }
    }
  }
  return lines;
}

describe('matchLines on 2,000 generated messy lines from the real catalog', async () => {
  const lines = generateMessyLines(entries, 2000, 0x5eed);
  const results = await matchLines(
    index,
    lines.map((line) => line.query),
  );
  const outcomes = lines.map((line, i) => ({ line, result: results[i] }));

  it('covers every kind of line', () => {
    const kinds = new Set(lines.map((line) => line.kind));
    expect([...kinds].sort()).toEqual(KIND_WEIGHTS.map(([kind]) => kind).sort());
    for (const kind of kinds) expect(lines.filter((line) => line.kind === kind).length).toBeGreaterThan(40);
  });

  it('picks the right product first on at least 97% of the lines the catalog can match', () => {
    const matchable = outcomes.filter(({ line }) => line.expectedSku !== null);
    const right = matchable.filter(({ line, result }) => result?.sku === line.expectedSku);
    expect(right.length / matchable.length).toBeGreaterThanOrEqual(0.97);
  });

  it('is never wrong at or above the auto-accept line, not-in-catalog lines included', () => {
    const wrong = outcomes.filter(
      ({ line, result }) => result && result.confidence >= AUTO && result.sku !== line.expectedSku,
    );
    expect(wrong.map(({ line, result }) => ({ query: line.query, expected: line.expectedSku, got: result }))).toEqual(
      [],
    );
  });

  it('auto-accepts the lines whose SKU is exact or only misread, and never a name-only or contradicted line', () => {
    for (const { line, result } of outcomes) {
      if (line.kind === 'exact' || line.kind === 'case_dash' || line.kind === 'ocr') {
        expect(result?.confidence, JSON.stringify(line.query)).toBeGreaterThanOrEqual(AUTO);
      }
      if (line.kind === 'name' || line.kind === 'wrong_sku' || line.kind === 'not_in_catalog') {
        expect(result?.confidence, JSON.stringify(line.query)).toBeLessThan(AUTO);
      }
      if (line.kind === 'name') expect(result?.confidence).toBeLessThanOrEqual(MATCH_TIERS.nameMatch.max);
    }
  });

  it('auto-accepts most slipped SKUs that one product explains', () => {
    const slipped = outcomes.filter(({ line }) => line.kind === 'typo' || line.kind === 'transposition');
    const accepted = slipped.filter(({ result }) => (result?.confidence ?? 0) >= AUTO);
    expect(accepted.length / slipped.length).toBeGreaterThan(0.8);
  });

  it('returns well-formed results in the order of the lines', () => {
    expect(results).toHaveLength(lines.length);
    for (const result of results) expectWellFormed(result);
  });
});

// ───────────────────────────── Tier 4 ─────────────────────────────

/** Lines the cheap tiers leave below the name band: real-looking style numbers two slips from ours. */
const doubtfulLines = entries
  .filter((p) => /^[A-Z]{2}00\d$/.test(p.skuPrefix) && p.sizeCode === 'M')
  .slice(0, 25)
  .map((p) => query({ rawSku: `${p.skuPrefix.slice(0, 2)}99${p.skuPrefix.slice(4)}-${p.colorCode}-${p.sizeCode}` }));

class FakeLlm implements LlmMatchFallback {
  batches: LlmMatchItem[][] = [];
  constructor(private readonly answer: (item: LlmMatchItem, n: number) => LlmMatchAnswer) {}

  async matchBatch(items: LlmMatchItem[]): Promise<LlmMatchAnswer[]> {
    this.batches.push(items);
    return items.map((item) => this.answer(item, this.batches.flat().indexOf(item)));
  }
}

describe('matchLines with the LLM fallback', () => {
  it('sends only the lines the cheap tiers could not place, in batches of at most llmBatchSize', async () => {
    const cheap = await matchLines(index, doubtfulLines);
    expect(cheap.every((result) => result.confidence < MATCH_TIERS.nameMatch.min)).toBe(true);

    const llm = new FakeLlm((item) => ({ productId: item.candidates[0]?.productId ?? null, confidence: 0.8 }));
    const lines = [query({ rawSku: 'MJ001-0BS-XL' }), ...doubtfulLines, query({ description: 'Custom patch' })];
    const results = await matchLines(index, lines, { llmFallback: llm });

    expect(llm.batches.map((batch) => batch.length)).toEqual([10, 10, 5]);
    const sent = llm.batches.flat();
    expect(sent.map((item) => item.query)).toEqual(doubtfulLines);
    for (const item of sent) {
      expect(item.candidates.length).toBeGreaterThan(0);
      expect(item.candidates.length).toBeLessThanOrEqual(10);
      expect(Object.keys(item.candidates[0] ?? {}).sort()).toEqual(['color', 'name', 'productId', 'size', 'sku']);
    }
    expect(results[0]?.method).toBe('exact_sku');
    expect(results.at(-1)?.method).toBe('unmatched');
    for (const result of results.slice(1, -1)) {
      expect(result).toMatchObject({ method: 'llm_match', confidence: 0.8 });
      expectWellFormed(result);
    }
  });

  it('clamps the confidence into the LLM band, so an LLM is never certain and never dismissed', async () => {
    const eager = new FakeLlm((item) => ({ productId: item.candidates[0]?.productId ?? null, confidence: 1 }));
    const [high] = await matchLines(index, doubtfulLines.slice(0, 1), { llmFallback: eager });
    expect(high?.confidence).toBe(MATCH_TIERS.llmMatch.max);
    const timid = new FakeLlm((item) => ({ productId: item.candidates[0]?.productId ?? null, confidence: 0.01 }));
    const [low] = await matchLines(index, doubtfulLines.slice(0, 1), { llmFallback: timid });
    expect(low?.confidence).toBe(MATCH_TIERS.llmMatch.min);
  });

  it('ignores a product it did not offer, a "none" answer, a missing answer and a non-number', async () => {
    const llm = new FakeLlm(
      (item, n) =>
        [
          { productId: 'BOGUS-ID', confidence: 0.9 },
          { productId: null, confidence: 0.9 },
          { productId: item.candidates[0]?.productId ?? null, confidence: Number.NaN },
        ][n % 3] ?? { productId: null, confidence: 0 },
    );
    const lines = doubtfulLines.slice(0, 4);
    const cheap = await matchLines(index, lines);
    const results = await matchLines(index, lines, { llmFallback: llm });
    expect(results).toEqual(cheap);

    const short: LlmMatchFallback = { matchBatch: async () => [] };
    expect(await matchLines(index, lines, { llmFallback: short })).toEqual(cheap);
  });

  it('keeps the cheap answers of a batch whose call fails, reports it and goes on with the next', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const flaky: LlmMatchFallback = {
      async matchBatch(items) {
        calls++;
        if (calls === 1) throw new Error('overloaded');
        return items.map((item) => ({ productId: item.candidates[0]?.productId ?? null, confidence: 0.7 }));
      },
    };
    const results = await matchLines(index, doubtfulLines.slice(0, 15), {
      llmFallback: flaky,
      onLlmError: (error, items) => errors.push([error, items.length]),
    });
    expect(errors).toEqual([[new Error('overloaded'), 10]]);
    expect(results.slice(0, 10).every((result) => result.method !== 'llm_match')).toBe(true);
    expect(results.slice(10).every((result) => result.method === 'llm_match')).toBe(true);
  });
});

// ───────────────────────────── Benchmark helpers ─────────────────────────────

describe('naiveFuseMatch', () => {
  it('searches one fuse.js index over the catalog by SKU, else by description', () => {
    expect(naiveFuseMatch(entries, query({ rawSku: 'MJ001-0BS-XL' }))).toBe('MJ001-0BS-XL');
    expect(naiveFuseMatch(entries, query({ description: described('MJ001-0BS-XL') }))).toEqual(expect.any(String));
    expect(naiveFuseMatch(entries, query({}))).toBeNull();
  });
});

describe('skuFirstFuseMatch', () => {
  it('takes a SKU the catalog holds from a map, and falls back to one fuse.js search', () => {
    expect(skuFirstFuseMatch(entries, query({ rawSku: ' mj001-0bs-xl ' }))).toBe('MJ001-0BS-XL');
    expect(skuFirstFuseMatch(entries, query({ rawSku: 'MJ001-OBS-XL' }))).toBe(
      naiveFuseMatch(entries, query({ rawSku: 'MJ001-OBS-XL' })),
    );
    expect(skuFirstFuseMatch(entries, query({}))).toBeNull();
  });
});

describe('measureMatcher', () => {
  // Several seconds: it runs each of the three matchers over the same lines, in turns, to compare them.
  it('times the three matchers in turns on the same lines and reports median, fastest and top-1', () => {
    // The naive baseline takes tens of milliseconds a line on the full catalog: a handful of lines is enough here.
    const lines = generateMessyLines(entries, 6, 7);
    const measured = measureMatcher(index, entries, lines, 3);
    expect(measured.lines).toBe(6);
    expect(measured.repetitions).toBe(3);
    for (const [median, min] of [
      [measured.msPerLine, measured.msPerLineMin],
      [measured.baselineMsPerLine, measured.baselineMsPerLineMin],
      [measured.skuFirstMsPerLine, measured.skuFirstMsPerLineMin],
    ]) {
      expect(min).toBeGreaterThan(0);
      expect(median).toBeGreaterThanOrEqual(min ?? 0);
    }
    for (const rate of [measured.top1, measured.baselineTop1, measured.skuFirstTop1]) {
      expect(rate).toBeGreaterThanOrEqual(0);
      expect(rate).toBeLessThanOrEqual(1);
    }
    expect(measured.top1).toBeGreaterThanOrEqual(measured.skuFirstTop1);
    expect(measured.skuFirstTop1).toBeGreaterThanOrEqual(measured.baselineTop1);
  }, 30_000);

  it('reports zeros for no lines', () => {
    expect(measureMatcher(index, entries, [])).toMatchObject({
      lines: 0,
      msPerLine: 0,
      top1: 0,
      baselineMsPerLine: 0,
      skuFirstMsPerLine: 0,
      skuFirstTop1: 0,
    });
  });
});

describe('style code with colour and size in words (a size-run row)', () => {
  const line = (rawSku: string, color: string, size: string, description: string | null = null) =>
    matchLine(index, { rawSku, description, color, size });

  it('is one product when the style has exactly one of that colour and size', () => {
    expect(line('KT004', 'Ember Red', 'M')).toMatchObject({
      sku: 'KT004-EMR-M',
      confidence: MATCH_TIERS.styleColorSize,
      method: 'style_color_size',
    });
    expect(line('KT004', 'ember red', 'M', 'Glacier Wool Blend Tee').sku).toBe('KT004-EMR-M');
    expect(line('KT0O4', 'Ember Red', 'M').sku).toBe('KT004-EMR-M');
  });

  it('goes to a human when the description names another product', () => {
    expect(line('KT004', 'Ember Red', 'M', 'Summit Neck Gaiter').confidence).toBeLessThan(MATCH_REVIEW.autoAcceptAt);
  });

  it('does not guess a colour or size the style is not made in', () => {
    expect(line('KT004', 'Ember Red', 'XXXL').method).not.toBe('style_color_size');
    expect(line('KT004', 'Plaid Rainbow', 'M').method).not.toBe('style_color_size');
  });
});
