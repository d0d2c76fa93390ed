// The deterministic structurer against the sample corpus (data/samples/*.xlsx with their *.truth.json answer keys),
// read through the real XLSX reader. Two conventions differ between the answer keys and the structurer's contract
// (types.ts), and the comparison applies them rather than hiding them:
// - the reader trims cell text, so a raw SKU typed with a stray leading or trailing space arrives without it;
// - a size-run line's rawSku is style + colour + size assembled (types.ts), where the key keeps the style cell alone.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samePrice } from '../../dev/sample-corpus/score-extraction.js';
import { quotationTruthSchema, type QuotationTruth } from '../../dev/sample-corpus/truth.js';
import { assembleSku } from './size-matrix.js';
import { structureWorkbook } from './structurer.js';
import type { ExtractedLine, Extraction } from './types.js';
import { readWorkbook } from './xlsx-reader.js';

const SAMPLES = join(process.cwd(), 'data', 'samples');
const LIMITS = { maxBytes: 15 * 1024 * 1024, maxRowsPerSheet: 20_000, maxCells: 500_000 };

const files = existsSync(SAMPLES)
  ? readdirSync(SAMPLES)
      .filter((file) => file.endsWith('.xlsx'))
      .sort()
  : [];

interface FileScore {
  file: string;
  items: number;
  paired: number;
  extra: number;
  quantity: number;
  price: number;
  rawSku: number;
  termFields: number;
  termsRight: number;
  chargesRight: boolean;
  totalRight: boolean;
  misses: string[];
}

function score(file: string, extraction: Extraction, truth: QuotationTruth): FileScore {
  const misses: string[] = [];
  const lines = extraction.sheets.flatMap((sheet) => sheet.lines);
  const unpaired = new Set(lines);
  const rowCounts = new Map<string, number>();
  for (const item of truth.items)
    rowCounts.set(`${item.sheet}|${item.row}`, (rowCounts.get(`${item.sheet}|${item.row}`) ?? 0) + 1);

  let paired = 0;
  let quantity = 0;
  let price = 0;
  let rawSku = 0;
  for (const item of truth.items) {
    const at = `${item.sheet}!${item.row}${item.size ? ` ${item.size}` : ''}`;
    const sizeRun = (rowCounts.get(`${item.sheet}|${item.row}`) ?? 0) > 1;
    const line = [...unpaired].find(
      (candidate: ExtractedLine) =>
        candidate.sheet === item.sheet && candidate.row === item.row && (!sizeRun || candidate.size === item.size),
    );
    if (!line) {
      misses.push(`missed ${at}`);
      continue;
    }
    unpaired.delete(line);
    paired++;
    if (line.quantity === item.quantity) quantity++;
    else misses.push(`quantity ${at}: ${line.quantity} ≠ ${item.quantity}`);
    if (samePrice(line.unitPrice, item.unitPrice)) price++;
    else misses.push(`price ${at}: ${line.unitPrice} ≠ ${item.unitPrice}`);
    const expectedSku =
      item.rawSku === null
        ? null
        : sizeRun && item.size
          ? assembleSku(item.rawSku.trim(), item.color, item.size)
          : item.rawSku.trim();
    if (line.rawSku === expectedSku) rawSku++;
    else misses.push(`rawSku ${at}: ${JSON.stringify(line.rawSku)} ≠ ${JSON.stringify(expectedSku)}`);
    if (JSON.stringify(line.tiers) !== JSON.stringify(item.tiers)) misses.push(`tiers ${at}`);
  }
  for (const line of unpaired) misses.push(`extra line ${line.sheet}!${line.row} ${line.rawSku ?? line.description}`);

  const charges = extraction.sheets
    .flatMap((sheet) => sheet.charges)
    .map((c) => ({ description: c.description, amount: c.amount }));
  const chargesRight = JSON.stringify(charges) === JSON.stringify(truth.charges);
  if (!chargesRight) misses.push(`charges ${JSON.stringify(charges)} ≠ ${JSON.stringify(truth.charges)}`);

  const checks: [string, unknown, unknown][] = [
    ['supplier', extraction.supplierName, truth.supplier.name],
    ...Object.entries(truth.terms).map(([key, value]): [string, unknown, unknown] => [
      key,
      extraction.terms[key as keyof typeof truth.terms],
      value,
    ]),
  ];
  const termsRight = checks.filter(([field, got, expected]) => {
    const same = got === expected;
    if (!same) misses.push(`${field}: ${JSON.stringify(got)} ≠ ${JSON.stringify(expected)}`);
    return same;
  }).length;

  // The key's total is the quotation's; a workbook of several item sheets states one per sheet.
  const stated = extraction.sheets.reduce((sum, sheet) => sum + (sheet.statedTotal?.amount ?? 0), 0);
  const totalRight =
    truth.statedTotal === null
      ? extraction.sheets.every((sheet) => sheet.statedTotal === null)
      : Math.abs(stated - truth.statedTotal) < 0.01;
  if (!totalRight) misses.push(`stated total ${stated} ≠ ${truth.statedTotal}`);

  return {
    file,
    items: truth.items.length,
    paired,
    extra: unpaired.size,
    quantity,
    price,
    rawSku,
    termFields: checks.length,
    termsRight,
    chargesRight,
    totalRight,
    misses,
  };
}

describe.skipIf(files.length === 0)('structurer on the sample corpus (data/samples)', () => {
  const scores: FileScore[] = [];

  it.each(files)('%s', async (file) => {
    const truth = quotationTruthSchema.parse(
      JSON.parse(readFileSync(join(SAMPLES, file.replace(/\.xlsx$/, '.truth.json')), 'utf8')),
    );
    const workbook = await readWorkbook(readFileSync(join(SAMPLES, file)), LIMITS);
    const extraction = structureWorkbook(workbook, { buyerNames: ['Valden Outdoor'] });
    const result = score(file, extraction, truth);
    scores.push(result);
    // Every sample is read as a careful buyer reads it; the misses say where not.
    expect(result.misses).toEqual([]);
    // …and the structurer trusts its own reading of every item sheet, so none goes to Claude needlessly.
    for (const sheet of extraction.sheets) if (sheet.lines.length) expect(sheet.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('reaches the corpus-wide accuracy', () => {
    const sum = (pick: (s: FileScore) => number) => scores.reduce((total, s) => total + pick(s), 0);
    const items = sum((s) => s.items);
    const figures = {
      files: scores.length,
      items,
      itemRecall: sum((s) => s.paired) / items,
      extraLines: sum((s) => s.extra),
      quantity: sum((s) => s.quantity) / items,
      price: sum((s) => s.price) / items,
      rawSku: sum((s) => s.rawSku) / items,
      terms: sum((s) => s.termsRight) / sum((s) => s.termFields),
      charges: scores.filter((s) => s.chargesRight).length / scores.length,
      statedTotals: scores.filter((s) => s.totalRight).length / scores.length,
    };
    expect(figures).toEqual({
      files: files.length,
      items,
      itemRecall: 1,
      extraLines: 0,
      quantity: 1,
      price: 1,
      rawSku: 1,
      terms: 1,
      charges: 1,
      statedTotals: 1,
    });
  });
});
