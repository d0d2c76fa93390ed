// Scores a parsed quotation against its answer key (data/samples/*.truth.json): what the ingestion benchmark and the
// corpus test report. Lines are paired by sheet and row (a size-run row holds several, paired by size).
import { MATCH_REVIEW } from '../../src/config/business-rules.js';
import type { ParsedItem, ParsedQuotation } from '../../src/quotation/parse-quotation.js';
import type { QuotationTruth, TruthItem, TruthTerms } from './truth.js';

export interface ExtractionScore {
  truthItems: number;
  predictedItems: number;
  paired: number;
  quantityCorrect: number;
  priceCorrect: number;
  /** Truth items that are in the catalog, and how many of those the matcher's top candidate got right. */
  matchable: number;
  matchTop1: number;
  /** Matches at ≥ the auto-accept threshold that are wrong (or that belong to no real line). */
  wrongAutoAccepts: number;
  metaFields: number;
  metaCorrect: number;
  /** Human-readable misses, for the bench table and test failures. */
  misses: string[];
}

const PRICE_TOLERANCE = 0.005;

/** Within half a cent; a blank price (an RFQ's) is right only when the key's is blank too. */
export const samePrice = (got: number | null, expected: number | null) =>
  got === null || expected === null ? got === expected : Math.abs(got - expected) <= PRICE_TOLERANCE;

const squash = (text: string | null | undefined) => (text ?? '').toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');

export function scoreExtraction(parsed: ParsedQuotation, truth: QuotationTruth): ExtractionScore {
  const misses: string[] = [];
  const byRow = new Map<string, ParsedItem[]>();
  for (const item of parsed.items) {
    const key = `${item.sheet}|${item.row}`;
    byRow.set(key, [...(byRow.get(key) ?? []), item]);
  }

  const pairs: [TruthItem, ParsedItem][] = [];
  for (const expected of truth.items) {
    const candidates = byRow.get(`${expected.sheet}|${expected.row}`) ?? [];
    // Within a row, the size tells the lines of a size run apart.
    const index = Math.max(
      0,
      candidates.findIndex((item) => candidates.length === 1 || squash(item.size) === squash(expected.size)),
    );
    const found = candidates.length ? candidates.splice(index, 1)[0] : undefined;
    if (found) pairs.push([expected, found]);
    else misses.push(`missed ${expected.sheet}!${expected.row} ${expected.rawSku ?? expected.description}`);
  }
  const paired = new Set(pairs.map(([, item]) => item));
  for (const item of parsed.items) {
    if (!paired.has(item)) misses.push(`extra line ${item.sheet}!${item.row} ${item.rawSku ?? item.description}`);
  }

  let quantityCorrect = 0;
  let priceCorrect = 0;
  let matchable = 0;
  let matchTop1 = 0;
  for (const [expected, item] of pairs) {
    const at = `${expected.sheet}!${expected.row}${expected.size ? ` ${expected.size}` : ''}`;
    if (item.quantity === expected.quantity) quantityCorrect++;
    else misses.push(`quantity ${at}: ${item.quantity} ≠ ${expected.quantity}`);
    if (samePrice(item.unitPrice, expected.unitPrice)) priceCorrect++;
    else misses.push(`price ${at}: ${item.unitPrice} ≠ ${expected.unitPrice}`);
    if (expected.sku) {
      matchable++;
      if (item.match.sku === expected.sku) matchTop1++;
      else misses.push(`match ${at}: ${item.match.sku} ≠ ${expected.sku}`);
    }
  }

  const wrongAutoAccepts = parsed.items.filter((item) => {
    if (item.match.confidence < MATCH_REVIEW.autoAcceptAt) return false;
    const expected = pairs.find(([, candidate]) => candidate === item)?.[0];
    const wrong = !expected || item.match.sku !== expected.sku;
    if (wrong)
      misses.push(`WRONG AUTO-ACCEPT ${item.sheet}!${item.row}: ${item.match.sku} ≠ ${expected?.sku ?? '(no line)'}`);
    return wrong;
  }).length;

  const meta = scoreTerms(parsed, truth, misses);
  return {
    truthItems: truth.items.length,
    predictedItems: parsed.items.length,
    paired: pairs.length,
    quantityCorrect,
    priceCorrect,
    matchable,
    matchTop1,
    wrongAutoAccepts,
    metaFields: meta.fields,
    metaCorrect: meta.correct,
    misses,
  };
}

function scoreTerms(parsed: ParsedQuotation, truth: QuotationTruth, misses: string[]) {
  const checks: [string, unknown, unknown][] = [
    ['supplier', parsed.supplier.name, truth.supplier.name],
    ...(Object.keys(truth.terms) as (keyof TruthTerms)[]).map((key): [string, unknown, unknown] => [
      key,
      parsed.terms[key],
      truth.terms[key],
    ]),
  ];
  let correct = 0;
  for (const [field, got, expected] of checks) {
    const same =
      typeof expected === 'string' && typeof got === 'string' ? squash(got) === squash(expected) : got === expected;
    if (same) correct++;
    else misses.push(`${field}: ${JSON.stringify(got)} ≠ ${JSON.stringify(expected)}`);
  }
  return { fields: checks.length, correct };
}

/** Sums file scores into the corpus figures the benchmark prints. */
export function corpusFigures(scores: ExtractionScore[]) {
  const total = (pick: (score: ExtractionScore) => number) => scores.reduce((sum, score) => sum + pick(score), 0);
  const truthItems = total((s) => s.truthItems);
  const predicted = total((s) => s.predictedItems);
  const paired = total((s) => s.paired);
  const precision = predicted ? paired / predicted : 0;
  const recall = truthItems ? paired / truthItems : 0;
  const ratio = (part: number, whole: number) => (whole ? round(part / whole) : 0);
  return {
    itemF1: precision + recall ? round((2 * precision * recall) / (precision + recall)) : 0,
    qtyAcc: ratio(
      total((s) => s.quantityCorrect),
      truthItems,
    ),
    priceAcc: ratio(
      total((s) => s.priceCorrect),
      truthItems,
    ),
    matchTop1: ratio(
      total((s) => s.matchTop1),
      total((s) => s.matchable),
    ),
    wrongAutoAccept: total((s) => s.wrongAutoAccepts),
    metaAcc: ratio(
      total((s) => s.metaCorrect),
      total((s) => s.metaFields),
    ),
  };
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;
