import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { CellValue, Worksheet } from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCatalogCsv, type CatalogProduct } from '../../src/catalog/products-csv.js';
import { generateSampleCorpus, SAMPLE_STYLES, sampleNumber, type SampleFile } from './generate-corpus.js';
import { MESS_IDS } from './messes.js';
import { HYPERLINK_TEXT, INJECTION_NOTE } from './styles/hostile-hidden.js';
import { formatTruthJson, quotationTruthSchema, type QuotationTruth } from './truth.js';
import { loadWorkbook } from './workbook.js';

const repoUrl = new URL('../../', import.meta.url);
const samplesUrl = new URL('data/samples/', repoUrl);

let catalog: CatalogProduct[];
let corpus: SampleFile[];

beforeAll(async () => {
  catalog = await readCatalogCsv(fileURLToPath(new URL('data/products.csv', repoUrl)));
  corpus = await generateSampleCorpus({ catalog });
});

function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('error' in value) return String(value.error);
  if ('result' in value && value.result !== undefined) return cellText(value.result);
  if ('text' in value) return cellText(value.text);
  return '';
}

function rowTexts(sheet: Worksheet, row: number): string[] {
  const texts: string[] = [];
  sheet.getRow(row).eachCell({ includeEmpty: false }, (cell) => texts.push(cellText(cell.value)));
  return texts;
}

const digitsOf = (text: string) => text.replace(/[.,](?=\d{3}\b)/g, '').replace(/\D/g, '');

const file = (pattern: string): SampleFile => {
  const found = corpus.find((sample) => sample.fileName.includes(pattern));
  if (!found) throw new Error(`no sample file matching ${pattern}`);
  return found;
};

const small = () => corpus.filter((sample) => sample.truth.items.length < 1000);

describe('generateSampleCorpus', () => {
  it('writes at least 12 styles plus one large file, numbered in order', () => {
    expect(small().length).toBeGreaterThanOrEqual(12);
    expect(corpus.map((sample) => sample.fileName)).toEqual(
      SAMPLE_STYLES.map((style, i) => `${String(sampleNumber(style, i)).padStart(2, '0')}-${style.name}.xlsx`),
    );
    expect(new Set(corpus.map((sample) => sample.truth.description)).size).toBe(corpus.length);
  });

  it('gives every file a truth that validates and survives the JSON file format', () => {
    for (const sample of corpus) {
      const parsed = quotationTruthSchema.parse(JSON.parse(formatTruthJson(sample.truth)));
      expect(parsed).toEqual(sample.truth);
      expect(parsed.file).toBe(sample.fileName);
      expect(sample.truthFileName).toBe(sample.fileName.replace(/\.xlsx$/, '.truth.json'));
    }
  });

  it('uses only catalog SKUs, or null for products the catalog does not have', () => {
    const skus = new Set(catalog.map((product) => product.sku));
    for (const { truth } of corpus) {
      for (const item of truth.items) if (item.sku !== null) expect(skus.has(item.sku), item.sku).toBe(true);
    }
    expect(file('ocr-sku').truth.items.filter((item) => item.sku === null)).toHaveLength(3);
  });

  it('covers every catalogued mess', () => {
    const covered = new Set(corpus.flatMap((sample) => sample.truth.messes));
    expect([...covered].sort((a, b) => a - b)).toEqual([...MESS_IDS]);
  });

  it('has a large file of about 3,000 lines', () => {
    const large = file('large-3000-lines');
    expect(large.truth.items.length).toBeGreaterThanOrEqual(2900);
    expect(large.truth.items.length).toBeLessThanOrEqual(3100);
    const noisy = large.truth.items.filter((item) => item.rawSku !== null && item.rawSku !== item.sku).length;
    const codeless = large.truth.items.filter((item) => item.rawSku === null).length;
    expect(noisy / large.truth.items.length).toBeGreaterThan(0.03);
    expect(noisy / large.truth.items.length).toBeLessThan(0.07);
    expect(codeless).toBeGreaterThan(0);
  });

  it('is deterministic: a second run gives the same bytes and the same truth', async () => {
    const again = await generateSampleCorpus({ catalog });
    expect(again.map((sample) => sample.fileName)).toEqual(corpus.map((sample) => sample.fileName));
    again.forEach((sample, i) => {
      expect(sample.xlsx.equals(corpus[i]?.xlsx ?? Buffer.alloc(0)), sample.fileName).toBe(true);
      expect(formatTruthJson(sample.truth)).toBe(formatTruthJson(corpus[i]?.truth ?? sample.truth));
    });
  });

  it('matches what is committed in data/samples (regenerate with npm run samples:generate)', async () => {
    for (const sample of corpus) {
      const xlsx = await readFile(new URL(sample.fileName, samplesUrl));
      const json = await readFile(new URL(sample.truthFileName, samplesUrl), 'utf8');
      expect(xlsx.equals(sample.xlsx), sample.fileName).toBe(true);
      expect(json, sample.truthFileName).toBe(formatTruthJson(sample.truth));
    }
  });
});

describe('each sample re-read with exceljs', () => {
  it.each(SAMPLE_STYLES.map((style) => style.name))('%s: every item is on its stated row, visibly', async (name) => {
    const sample = file(name);
    const workbook = await loadWorkbook(sample.xlsx);
    for (const item of sample.truth.items) {
      const where = `${sample.fileName} ${item.sheet}!${item.row}`;
      const sheet = workbook.getWorksheet(item.sheet);
      if (!sheet) throw new Error(`${where}: no such sheet`);
      expect(sheet.getRow(item.row).hidden, where).toBe(false);
      const texts = rowTexts(sheet, item.row);
      // A code is its own cell, or the start of a "code + name" cell.
      const rawSku = item.rawSku;
      if (rawSku !== null)
        expect(
          texts.some((t) => t === rawSku || t.startsWith(`${rawSku} `)),
          where,
        ).toBe(true);
      if (item.description !== null) expect(texts, where).toContain(item.description);
      if (item.color !== null) expect(texts, where).toContain(item.color);
      expect(texts.map(digitsOf), where).toContain(String(item.quantity));
    }
  });
});

const lineAmount = (item: QuotationTruth['items'][number]) =>
  Math.round(item.quantity * (item.unitPrice ?? 0) * 100) / 100;

describe('truth semantics', () => {
  it('adds up: items at their net unit prices plus charges make the stated total', () => {
    for (const { fileName, truth } of corpus) {
      if (truth.statedTotal === null) continue;
      const computed =
        truth.items.reduce((total, item) => total + lineAmount(item), 0) +
        truth.charges.reduce((total, entry) => total + entry.amount, 0);
      // Net prices are rounded to 4 dp, the sheet rounds each line to the cent: allow a cent a line.
      expect(Math.abs(computed - truth.statedTotal), fileName).toBeLessThanOrEqual(0.01 * truth.items.length + 0.005);
    }
  });

  it('prices a tiered line at the break its quantity reaches', () => {
    const tiered = corpus.flatMap((sample) => sample.truth.items).filter((item) => item.tiers.length > 0);
    expect(tiered.length).toBeGreaterThan(0);
    for (const item of tiered) {
      const applicable = item.tiers.filter((tier) => tier.minQty <= item.quantity).at(-1);
      expect(item.unitPrice).toBe(applicable?.unitPrice);
    }
    const reached = new Set(tiered.map((item) => item.tiers.filter((tier) => tier.minQty <= item.quantity).length));
    expect(reached).toEqual(new Set([1, 2, 3]));
  });

  it('nets an explicit discount column into the unit price but not a discount named in a note', async () => {
    const euro = file('euro-decimal-comma');
    const workbook = await loadWorkbook(euro.xlsx);
    const sheet = workbook.getWorksheet(euro.truth.items[0]?.sheet ?? '');
    if (!sheet) throw new Error('euro sheet missing');
    const discounted = euro.truth.items.filter((item) => rowTexts(sheet, item.row).some((text) => text.endsWith('%')));
    expect(discounted.length).toBeGreaterThan(0);
    for (const item of discounted) {
      const listed = rowTexts(sheet, item.row).find((text) => text.endsWith(' €'));
      expect(Number(listed?.replace(' €', '').replace('.', '').replace(',', '.'))).toBeGreaterThan(
        item.unitPrice ?? Infinity,
      );
    }

    const usd = file('numbers-as-text');
    const noted = await loadWorkbook(usd.xlsx);
    const usdSheet = noted.getWorksheet('Quotation');
    if (!usdSheet) throw new Error('usd sheet missing');
    for (const item of usd.truth.items) {
      const texts = rowTexts(usdSheet, item.row);
      const price = texts.find((text) => text.startsWith('$') || text.startsWith('US$'));
      expect(Number(price?.replace(/[^\d.]/g, '')), `row ${item.row}`).toBe(item.unitPrice);
    }
    expect(usd.truth.items.some((item) => rowTexts(usdSheet, item.row).some((text) => text.includes('less 3%')))).toBe(
      true,
    );
  });

  it('builds size-run SKUs from the style written on the row plus colour and size', () => {
    const matrix = file('size-run-matrix').truth.items;
    for (const item of matrix) expect(item.sku?.startsWith(`${item.rawSku}-`)).toBe(true);
    const perRow = new Map<number, number>();
    for (const item of matrix) perRow.set(item.row, (perRow.get(item.row) ?? 0) + 1);
    expect(Math.max(...perRow.values())).toBeGreaterThan(1);
    expect(matrix.some((item) => item.size === '32')).toBe(true);
  });

  it('writes every kind of OCR slip into the noisy-SKU file', () => {
    const written = file('ocr-sku').truth.items.flatMap((item) =>
      item.sku !== null && item.rawSku !== null && item.rawSku !== item.sku
        ? [{ sku: item.sku, raw: item.rawSku }]
        : [],
    );
    const seen = (test: (raw: string, sku: string) => boolean) => written.some(({ raw, sku }) => test(raw, sku));
    expect(seen((raw, sku) => raw.replaceAll('O', '0') === sku.replaceAll('O', '0') && raw !== sku)).toBe(true);
    expect(seen((raw) => /[A-Z]{2}\d*I\d*-/.test(raw))).toBe(true);
    expect(seen((raw) => raw.includes('l') && raw !== raw.toLowerCase())).toBe(true);
    expect(seen((raw) => !raw.includes('-') && !raw.includes(' '))).toBe(true);
    expect(seen((raw) => raw === raw.toLowerCase())).toBe(true);
    expect(seen((raw) => raw.includes(' '))).toBe(true);
  });

  it('keeps hostile text as plain strings and leaves hidden cells out of the truth', async () => {
    const hostile = file('hostile');
    const workbook = await loadWorkbook(hostile.xlsx);
    const sheet = workbook.getWorksheet('Quotation');
    if (!sheet) throw new Error('hostile sheet missing');
    const strings: string[] = [];
    const hiddenRows: number[] = [];
    sheet.eachRow((row, number) => {
      if (row.hidden) hiddenRows.push(number);
      row.eachCell((cell) => {
        if (typeof cell.value === 'string') strings.push(cell.value);
      });
    });
    expect(strings).toContain(INJECTION_NOTE);
    expect(strings).toContain(HYPERLINK_TEXT);
    expect(hiddenRows).toHaveLength(1);
    expect(rowTexts(sheet, hiddenRows[0] ?? 0).some((text) => /^[A-Z]{2}\d{3}-/.test(text))).toBe(true);
    expect(hostile.truth.items.map((item) => item.row)).not.toContain(hiddenRows[0]);
    expect(sheet.getColumn(7).hidden).toBe(true);
    expect(hostile.truth.items.every((item) => (item.unitPrice ?? 0) > 0.01)).toBe(true);
  });

  it('puts the multi-sheet items on their own sheets and nothing on the Terms sheet', () => {
    const sheets = new Set(file('multi-sheet').truth.items.map((item) => item.sheet));
    expect(sheets).toEqual(new Set(['Jackets', 'Fleece', 'Accessories']));
  });
});
