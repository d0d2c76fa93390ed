import { readdirSync, readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CatalogIndex, toCatalogEntries } from '../catalog/catalog-index.js';
import { claudeMatchFallback } from '../catalog/llm-match-fallback.js';
import { readCatalogCsv } from '../catalog/products-csv.js';
import { CATALOG_CSV } from '../catalog/products-csv.js';
import { type FakeMessagesApi, type FakeResponder, startFakeClaude } from '../../test/support/fake-messages-api.js';
import type { Llm } from '../llm/llm.js';
import { QuotationError } from './errors.js';
import { parseQuotation } from './parse-quotation.js';
import { toParseJson } from './parse-report.js';
import { quotationTruthSchema } from '../../dev/sample-corpus/truth.js';
import { corpusFigures, scoreExtraction } from '../../dev/sample-corpus/score-extraction.js';

const SAMPLES = new URL('../../data/samples/', import.meta.url);
const limits = { maxBytes: 15 * 1024 * 1024, maxRowsPerSheet: 20_000, maxCells: 500_000 };
const suppliers = [
  { id: 's2', code: 'SUP-002', name: 'Alpine Premium' },
  { id: 's3', code: 'SUP-003', name: 'RapidGear Co' },
];

let catalog: CatalogIndex;
beforeAll(async () => {
  catalog = CatalogIndex.build(toCatalogEntries(await readCatalogCsv(CATALOG_CSV)));
});

const parse = (data: Buffer, llm: Llm | null = null) =>
  parseQuotation({
    data,
    catalog,
    suppliers,
    limits,
    llm,
    llmMatchFallback: llm ? claudeMatchFallback(llm) : undefined,
  });

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Oferta');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('parseQuotation on the sample corpus (offline)', () => {
  const files = readdirSync(SAMPLES).filter((file) => file.endsWith('.xlsx'));

  it('reads every sample to its truth: items, quantities, prices, matches and terms, with no wrong auto-accept', async () => {
    expect(files.length).toBeGreaterThanOrEqual(13);
    const scores = [];
    for (const file of files) {
      const truth = quotationTruthSchema.parse(
        JSON.parse(readFileSync(new URL(file.replace(/\.xlsx$/, '.truth.json'), SAMPLES), 'utf8')),
      );
      const score = scoreExtraction(await parse(readFileSync(new URL(file, SAMPLES))), truth);
      expect(score.wrongAutoAccepts, `${file}: ${score.misses.join('; ')}`).toBe(0);
      scores.push(score);
    }
    const figures = corpusFigures(scores);
    expect(figures.itemF1).toBeGreaterThanOrEqual(0.98);
    expect(figures.qtyAcc).toBeGreaterThanOrEqual(0.98);
    expect(figures.priceAcc).toBeGreaterThanOrEqual(0.98);
    expect(figures.matchTop1).toBeGreaterThanOrEqual(0.97);
    expect(figures.metaAcc).toBeGreaterThanOrEqual(0.9);
  }, 60_000);

  it('treats a hostile note as data: prices unchanged, the note kept, formula-like text kept as text', async () => {
    const parsed = await parse(readFileSync(new URL('12-hostile-notes-hidden-cells.xlsx', SAMPLES)));
    expect(parsed.items.every((item) => (item.unitPrice ?? 0) > 1)).toBe(true);
    expect(JSON.stringify(parsed)).toContain('IGNORE PREVIOUS INSTRUCTIONS');
    expect(JSON.stringify(parsed)).toContain('=HYPERLINK(');
  });

  it('sends uncertain lines to review and says which supplier it is', async () => {
    const parsed = await parse(readFileSync(new URL('10-ocr-sku-errors-custom-items.xlsx', SAMPLES)));
    const review = parsed.items.filter((item) => item.reviewState === 'needs_review');
    expect(review.length).toBeGreaterThan(0);
    expect(review.every((item) => item.match.confidence < 0.85 || item.flags.length > 0)).toBe(true);
    expect(parsed.supplier.identification.status).toBe('new');
    expect(parsed.needsReview).toBe(true);
  });

  it('produces the CLI’s JSON contract', async () => {
    const json = toParseJson(await parse(readFileSync(new URL('04-numbers-as-text-usd.xlsx', SAMPLES))));
    expect(Object.keys(json)).toEqual(['supplier', 'terms', 'items', 'charges', 'warnings']);
    expect(Object.keys(json.terms).sort()).toEqual(
      ['currency', 'incoterm', 'leadTimeDays', 'moq', 'paymentTerms', 'validityDays'].sort(),
    );
    expect(json.items[0]).toEqual({
      sheet: expect.any(String),
      row: expect.any(Number),
      rawSku: expect.any(String),
      description: expect.any(String),
      quantity: expect.any(Number),
      unitPrice: expect.any(Number),
      totalPrice: expect.anything(),
      notes: null,
      tiers: [],
      flags: [],
      match: {
        sku: expect.any(String),
        confidence: expect.any(Number),
        method: expect.any(String),
        candidates: expect.any(Array),
      },
    });
  });

  it('says so when no sheet holds an item table', async () => {
    const data = await xlsx([['Dear buyer,'], ['Thank you for your enquiry. Prices follow next week.']]);
    const error = await parse(data).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QuotationError);
    expect(error).toMatchObject({ code: 'no_item_table', userMessage: expect.stringMatching(/table of quoted items/) });
  });
});

describe('parseQuotation on hostile text', () => {
  it('reads cells at Excel’s 32,767-character limit in seconds, not minutes, keeping their text', async () => {
    // Found by the ingestion fuzzer: the matcher's colour comparison grows with the text's length, and twenty such
    // colour cells (a 60 KB upload) took minutes before the matcher was shown only a plausible colour's length.
    const long = 'Slate Grey and '.repeat(2200).slice(0, 32_767);
    const rows: (string | number)[][] = [['SKU', 'Description', 'Colour', 'Size', 'Qty', 'Unit Price']];
    for (let i = 0; i < 20; i++) rows.push(['MF012-SLT-S', long, long, long, 100 + i, 17.5]);
    const started = performance.now();
    const parsed = await parse(await xlsx(rows));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(parsed.items).toHaveLength(20);
    expect(parsed.items[0]?.description).toBe(long);
    expect(parsed.items[0]?.color).toBe(long);
  });
});

describe('parseQuotation with Claude (real SDK, fake Messages API)', () => {
  let api: FakeMessagesApi | undefined;
  afterEach(async () => {
    await api?.close();
  });

  // Polish headers: the rules' vocabulary does not know them, so the sheet goes to Claude.
  const polishQuote = () =>
    xlsx([
      ['Kod', 'Opis', 'Ilość', 'Cena'],
      ['MC001-BON-XL', 'Kurtka', 300, 24.5],
      ['MC001-BON-L', 'Kurtka', 200, 24.5],
      ['MC001-BON-M', 'Kurtka', 100, 24.5],
    ]);

  async function claude(respond: FakeResponder): Promise<Llm> {
    const fake = await startFakeClaude(respond, { maxRetries: 1 });
    api = fake.api;
    return fake.llm;
  }

  const line = (row: number, rawSku: string, quantity: number) => ({
    row,
    rawSku,
    description: 'Kurtka',
    color: null,
    size: null,
    quantity,
    unitPrice: 24.5,
    totalPrice: null,
    discount: null,
    notes: null,
    tiers: [],
  });
  const structured = {
    lines: [line(2, 'MC001-BON-XL', 300), line(3, 'MC001-BON-L', 200), line(4, 'MC001-BON-M', 100)],
    charges: [],
    metadata: {
      supplierName: null,
      paymentTerms: null,
      leadTimeDays: null,
      currency: 'PLN',
      incoterm: null,
      moq: null,
      validityDays: null,
    },
  };

  it('asks Claude to read a sheet the rules could not, and matches its lines', async () => {
    const llm = await claude(() => ({ kind: 'tool', input: structured }));
    const parsed = await parse(await polishQuote(), llm);
    expect(parsed.sheets[0]).toMatchObject({ readBy: 'claude' });
    expect(parsed.items.map((item) => [item.row, item.quantity, item.match.sku])).toEqual([
      [2, 300, 'MC001-BON-XL'],
      [3, 200, 'MC001-BON-L'],
      [4, 100, 'MC001-BON-M'],
    ]);
    expect(parsed.terms.currency).toBe('PLN');
    expect(api?.requests[0]?.tool_choice).toEqual({ type: 'tool', name: 'record_quotation' });
  });

  it('never turns a malformed Claude answer into data', async () => {
    const llm = await claude(() => ({ kind: 'tool', input: { lines: 'not a list' } }));
    const error = await parse(await polishQuote(), llm).catch((caught: unknown) => caught);
    // The rules found no table either, so the buyer is told so.
    expect(error).toMatchObject({ code: 'no_item_table' });
    expect(api?.requests).toHaveLength(2); // the first answer, and one retry shown its validation error
  });

  // Readable headers but garbled cells: the rules read it with low confidence, so Claude is asked.
  const garbledQuote = () =>
    xlsx([
      ['SKU', 'Description', 'Qty', 'Unit Price', 'Amount'],
      ['MC001-BON-XL', 'Jacket', 300, 24.5, 9999],
      ['MC001-BON-L', 'Jacket', 'two hundred', 24.5, 4900],
      ['MC001-BON-M', 'Jacket', 100, '24,5 ??', 2450],
    ]);

  it('keeps the rule-based reading, with a warning, when Claude is down', async () => {
    const llm = await claude(() => ({ kind: 'error', status: 529, type: 'overloaded_error' }));
    const parsed = await parse(await garbledQuote(), llm);
    expect(parsed.items.map((item) => item.row)).toEqual([2, 3, 4]);
    expect(parsed.sheets[0]?.readBy).toBe('rules');
    expect(parsed.warnings).toContainEqual(expect.stringMatching(/^Claude could not re-read sheet 'Oferta'/));
    expect(parsed.items.every((item) => item.reviewState === 'needs_review')).toBe(true);
  });

  it('flags the lines where Claude and the rules disagree', async () => {
    const llm = await claude(() => ({
      kind: 'tool',
      input: {
        ...structured,
        lines: [line(2, 'MC001-BON-XL', 300), line(3, 'MC001-BON-L', 200), line(4, 'MC001-BON-M', 100)].map((l) => ({
          ...l,
          description: 'Jacket',
        })),
      },
    }));
    const parsed = await parse(await garbledQuote(), llm);
    expect(parsed.sheets[0]?.readBy).toBe('claude');
    const disagreements = parsed.items.map(
      (item) => item.flags.filter((flag) => flag.code === 'llm_disagreement').length,
    );
    expect(disagreements).toEqual([0, 1, 1]); // row 3: no quantity by rules; row 4: no price by rules
    expect(parsed.items.map((item) => item.quantity)).toEqual([300, 200, 100]);
  });
});
