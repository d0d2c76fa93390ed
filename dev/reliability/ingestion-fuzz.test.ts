// The hostile-input proof for ingestion, small enough for every test run: a fuzz run through the worker pool and its
// watchdog, the watchdog itself (a case that never ends, a worker that dies), and the cases the fuzzer found, each
// replayed directly.
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';

import type { CatalogIndex } from '../../src/catalog/catalog-index.js';
import { parseQuotation } from '../../src/quotation/parse-quotation.js';
import { type FuzzCorpus, MUTATIONS, buildFuzzCase, loadFuzzCorpus } from './fuzz-cases.js';
import {
  DEFAULT_FUZZ_LIMITS,
  QUOTATION_ERROR_CODES,
  ingestOnce,
  loadFuzzCatalog,
  storageProblems,
} from './fuzz-ingest.js';
import { readParts, writeHostileZip, writeParts } from './fuzz-zip.js';
import { EXCEL_MAX_CELL_CHARS, longText } from './hostile-values.js';
import { formatFuzzTable, runIngestionFuzz } from './ingestion-fuzz.js';

let corpus: FuzzCorpus;
let catalog: CatalogIndex;

beforeAll(async () => {
  [corpus, catalog] = await Promise.all([loadFuzzCorpus(), loadFuzzCatalog('full')]);
}, 60_000);

const ingest = (data: Buffer) => ingestOnce(data, { catalog, limits: DEFAULT_FUZZ_LIMITS });

async function workbook(rows: ExcelJS.CellValue[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Quote');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe('runIngestionFuzz', () => {
  it('reads or turns down 150 mutated uploads, each with a typed code: no crash, no hang, bounded memory', async () => {
    const result = await runIngestionFuzz({
      seed: 20_250_601,
      cases: 150,
      timeBudgetMs: 240_000,
      // Generous: the machine is shared; a real hang runs forever, so this still catches one.
      perCaseTimeoutMs: 30_000,
    });
    const report = formatFuzzTable(result).join('\n');
    expect(result.crashes, report).toEqual([]);
    expect(result.hangs, report).toBe(0);
    expect(result.failures, report).toEqual([]);
    expect(result.cases).toBe(150);
    expect(result.stoppedByTimeBudget).toBe(false);

    const rejected = Object.values(result.rejectedByCode).reduce((sum, n) => sum + (n ?? 0), 0);
    expect(result.accepted + rejected).toBe(result.cases);
    for (const code of Object.keys(result.rejectedByCode)) expect(QUOTATION_ERROR_CODES).toContain(code);
    // The mutations reach both sides and many reasons: a fuzzer whose every case is "corrupt" proves little.
    expect(result.accepted).toBeGreaterThan(10);
    expect(Object.keys(result.rejectedByCode).length).toBeGreaterThanOrEqual(4);
    for (const tally of Object.values(result.byFamily)) expect(tally.cases).toBeGreaterThan(10);
    expect(result.maxRssMb).toBeGreaterThan(0);
    expect(result.maxRssMb).toBeLessThanOrEqual(result.rssBoundMb);
  }, 300_000);

  it('ends a case that never finishes, counts a worker that dies, and carries on with fresh workers', async () => {
    const { value: result, ms } = await timed(() =>
      runIngestionFuzz({
        seed: 5,
        cases: 6,
        workers: 1,
        catalog: 'empty',
        timeBudgetMs: 120_000,
        perCaseTimeoutMs: 4_000,
        sabotage: { hangAt: [1], dieAt: [3] },
      }),
    );
    expect(result.cases).toBe(6);
    expect(result.hangs).toBe(1);
    expect(result.hangCases.map((hang) => hang.case)).toEqual([1]);
    expect(result.crashes.map((crash) => crash.case)).toEqual([3]);
    expect(result.crashes[0]?.error).toMatch(/process-level failure: Error: sabotaged case 3/);
    expect(result.failures).toEqual(['1 crash(es)', '1 hang(s) over 4000 ms']);
    // The four honest cases each got an outcome, after the hang and the death.
    const outcomes = result.accepted + Object.values(result.rejectedByCode).reduce((sum, n) => sum + (n ?? 0), 0);
    expect(outcomes).toBe(4);
    expect(ms).toBeLessThan(100_000);
  }, 150_000);

  it('counts a failure a worker throws after its case ended, and survives it', async () => {
    const result = await runIngestionFuzz({
      seed: 5,
      cases: 4,
      workers: 1,
      catalog: 'empty',
      timeBudgetMs: 120_000,
      perCaseTimeoutMs: 10_000,
      sabotage: { lateAt: [0] },
    });
    expect(result.cases).toBe(4);
    // It lands between cases (blamed on the one that ended) or during a later one (which then dies): a crash either
    // way, and the run goes on.
    expect(result.crashes).toHaveLength(1);
    expect(result.crashes[0]?.error).toMatch(/sabotaged case 0, after it ended/);
  }, 150_000);

  it('stops starting cases when its time budget is spent', async () => {
    const result = await runIngestionFuzz({
      seed: 9,
      cases: 10_000,
      workers: 1,
      catalog: 'empty',
      timeBudgetMs: 1,
      perCaseTimeoutMs: 30_000,
    });
    expect(result.stoppedByTimeBudget).toBe(true);
    expect(result.cases).toBeLessThan(10_000);
  }, 120_000);
});

describe('fuzz cases', () => {
  it('are the same bytes for the same seed and index, whatever else ran before', async () => {
    for (const index of [0, 1, 17, 404]) {
      const first = await buildFuzzCase(77, index, corpus);
      await buildFuzzCase(78, index + 1, corpus);
      const again = await buildFuzzCase(77, index, corpus);
      expect(again.mutation).toBe(first.mutation);
      // exceljs stamps the time into docProps/core.xml, so grid cases are compared by mutation only.
      if (first.family !== 'grid') expect(again.data.equals(first.data)).toBe(true);
    }
  });

  it('every mutation builds, and the ingestion reads or rejects what it builds without a crash', async () => {
    for (const mutation of MUTATIONS) {
      const name = `${mutation.family}.${mutation.name}`;
      const built = await buildFuzzCase(11, 3, corpus, name);
      const outcome = await ingest(built.data);
      expect({ name, outcome }).not.toMatchObject({ outcome: { kind: 'crash' } });
    }
  }, 240_000);
});

describe('what the fuzzer found, replayed', () => {
  it('reads twenty colour cells at Excel’s character limit in seconds, not minutes', async () => {
    const long = longText(EXCEL_MAX_CELL_CHARS, 'Slate Grey ');
    const rows: ExcelJS.CellValue[][] = [['SKU', 'Description', 'Colour', 'Size', 'Qty', 'Unit Price']];
    for (let i = 0; i < 20; i++) rows.push(['MF012-SLT-S', 'Sierra Grid Fleece Hoodie', long, 'S', 100 + i, 17.5]);
    const { value: outcome, ms } = await timed(async () => ingest(await workbook(rows)));
    expect(outcome).toEqual({ kind: 'accepted', items: 20 });
    expect(ms).toBeLessThan(5_000);
  });

  it('stores what it accepts: quantities, prices and an MOQ no column could hold read as unreadable', async () => {
    const data = await workbook([
      ['MOQ:', '99999999999 pcs'],
      ['SKU', 'Description', 'Qty', 'Unit Price', 'Amount'],
      ['MF012-SLT-S', 'Hoodie', 2_147_483_648, 17.5, 100],
      ['MF012-SLT-XL', 'Hoodie', 10, 1e15, 1e20],
      ['MC015-MUS-S', 'Jacket', Number.MAX_VALUE, -Number.MAX_VALUE, 12],
      ['MJ016-SMR-M', 'Jacket', 400, 30.2, 12_080],
    ]);
    const parsed = await parseQuotation({ data, catalog, suppliers: [], limits: DEFAULT_FUZZ_LIMITS, llm: null });
    expect(storageProblems(parsed)).toEqual([]);
    expect(parsed.terms.moq).toBeNull();
    expect(parsed.items.map((item) => [item.quantity, item.unitPrice, item.totalPrice])).toEqual([
      [null, 17.5, 100],
      [10, null, null],
      [null, null, 12],
      [400, 30.2, 12_080],
    ]);
    // Each damaged line goes to a person, with a flag saying which number was missing.
    const flags = parsed.items.map((item) => item.flags.map((flag) => flag.code));
    expect(flags.slice(0, 3)).toEqual([['missing_quantity'], ['missing_price'], ['missing_quantity', 'missing_price']]);
    expect(parsed.items.slice(0, 3).every((item) => item.reviewState === 'needs_review')).toBe(true);
  });

  it('reads a 9 KB sheet with one cell moved to XFD1048576 (16,384 columns wide) in seconds', async () => {
    const sample = corpus.samples.find((s) => s.name.startsWith('06-'));
    if (!sample) throw new Error('no sample 06');
    const parts = sample.parts.map((part) => {
      if (part.name !== 'xl/worksheets/sheet1.xml') return part;
      const xml = part.data.toString('utf8');
      // The last cell of the header row's neighbour: still inside its <row>, now in Excel's last column.
      const moved = xml.replace(/<c r="([A-Z]+)6"/, '<c r="XFD1048576"');
      expect(moved).not.toBe(xml);
      return { ...part, data: Buffer.from(moved) };
    });
    const { value: outcome, ms } = await timed(() => ingest(writeParts(parts)));
    expect(outcome.kind).toBe('accepted');
    expect(ms).toBeLessThan(8_000);
  });

  it('lists a worksheet once however many sheets name it, so a small file cannot multiply its cells', async () => {
    const sample = corpus.samples.find((s) => s.name.startsWith('01-')) ?? corpus.samples[0];
    if (!sample) throw new Error('no sample');
    const parts = sample.parts.map((part) => ({ ...part }));
    const workbookPart = parts.find((part) => part.name === 'xl/workbook.xml');
    if (!workbookPart) throw new Error('no workbook part');
    const id = /r:id="(rId\d+)"/.exec(workbookPart.data.toString('utf8'))?.[1] ?? 'rId1';
    const sheets = Array.from({ length: 1000 }, (_, i) => `<sheet name="S${i}" sheetId="${i + 1}" r:id="${id}"/>`);
    workbookPart.data = Buffer.from(
      workbookPart.data.toString('utf8').replace(/<sheets>[\s\S]*<\/sheets>/, `<sheets>${sheets.join('')}</sheets>`),
    );
    const honest = await ingest(sample.data);
    const { value: outcome, ms } = await timed(() => ingest(writeParts(parts)));
    expect(outcome).toEqual(honest);
    expect(ms).toBeLessThan(5_000);
  });

  it('never expands XML entities: a billion laughs in the shared strings is read as nothing, fast', async () => {
    const sample = corpus.samples[0];
    if (!sample) throw new Error('no sample');
    const parts = (await readParts(sample.data)).map((part) => {
      if (part.name !== 'xl/sharedStrings.xml') return part;
      const laughs =
        '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
        Array.from({ length: 8 }, (_, i) => `<!ENTITY lol${i + 2} "${`&lol${i + 1};`.repeat(10)}">`).join('') +
        ']>';
      const xml = part.data.toString('utf8').replace('?>', `?>${laughs}`).replace('<t>', '<t>&lol9;');
      return { ...part, data: Buffer.from(xml) };
    });
    const { value: outcome, ms } = await timed(() => ingest(writeParts(parts)));
    expect(outcome.kind).not.toBe('crash');
    expect(ms).toBeLessThan(5_000);
  });

  it('turns down archives that lie about themselves with a typed code', async () => {
    const sample = corpus.samples[0];
    if (!sample) throw new Error('no sample');
    const entries = () => sample.parts.map((part) => ({ name: part.name, data: part.data }));
    const bomb = entries().map((entry) =>
      entry.name === 'xl/worksheets/sheet1.xml' ? { ...entry, size: 0xfffffffe } : entry,
    );
    const unsupported = entries().map((entry) =>
      entry.name === 'xl/worksheets/sheet1.xml' ? { ...entry, method: 12 } : entry,
    );
    expect(await ingest(writeHostileZip(bomb))).toEqual({ kind: 'rejected', code: 'zip_bomb' });
    expect(await ingest(writeHostileZip(unsupported))).toEqual({ kind: 'rejected', code: 'corrupt' });
    expect(await ingest(writeHostileZip(entries(), { entryCount: 0xffff }))).toEqual({
      kind: 'rejected',
      code: 'corrupt',
    });
    expect(await ingest(writeHostileZip([{ name: 'quote.xlsx', data: sample.data }]))).toEqual({
      kind: 'rejected',
      code: 'not_xlsx',
    });
  });
});
