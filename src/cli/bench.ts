// `npm run -s bench -- <name>`: Parley's benchmarks. Each prints a table and, as its last line, one JSON object with
// the figures. Speed and accuracy targets are measured here, not in timed unit tests.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CatalogIndex, toCatalogEntries } from '../catalog/catalog-index.js';
import { type MatchQuery, measureMatcher } from '../catalog/matcher.js';
import { readCatalogCsv } from '../catalog/products-csv.js';
import { CATALOG_CSV } from '../db/seed.js';
import { type ParsedQuotation, parseQuotation } from '../quotation/parse-quotation.js';
import { quotationTruthSchema, type QuotationTruth } from '../quotation/sample-corpus/truth.js';
import { corpusFigures, type ExtractionScore, scoreExtraction } from '../quotation/score-extraction.js';
import { env } from '../config/env.js';
import { readLimitsFrom } from '../quotation/xlsx-reader.js';

const SAMPLES_DIR = fileURLToPath(new URL('../../data/samples/', import.meta.url));
/** Lines timed against the naive baseline: every line would take minutes at the baseline's speed. */
const MATCHER_SAMPLE_LINES = 300;

const benches: Record<string, () => Promise<void>> = { ingest };

const name = process.argv[2];
const bench = name ? benches[name] : undefined;
if (!bench) {
  console.error(`usage: npm run -s bench -- <${Object.keys(benches).join(' | ')}>`);
  process.exit(2);
}
await bench();

async function ingest(): Promise<void> {
  const products = toCatalogEntries(await readCatalogCsv(CATALOG_CSV));
  const buildStarted = performance.now();
  const catalog = CatalogIndex.build(products);
  const indexBuildMs = performance.now() - buildStarted;

  const files = (await readdir(SAMPLES_DIR)).filter((file) => file.endsWith('.xlsx')).sort();
  const rows: string[][] = [];
  const scores: ExtractionScore[] = [];
  const matcherLines: { query: MatchQuery; expectedSku: string | null }[] = [];
  let largeFileSeconds = 0;
  for (const file of files) {
    const truth: QuotationTruth = quotationTruthSchema.parse(
      JSON.parse(await readFile(join(SAMPLES_DIR, file.replace(/\.xlsx$/, '.truth.json')), 'utf8')),
    );
    const data = await readFile(join(SAMPLES_DIR, file));
    const started = performance.now();
    const parsed: ParsedQuotation = await parseQuotation({
      data,
      catalog,
      suppliers: [],
      limits: readLimitsFrom(env),
      llm: null,
    });
    const seconds = (performance.now() - started) / 1000;
    if (truth.items.length >= 2_000) largeFileSeconds = Math.max(largeFileSeconds, seconds);
    const score = scoreExtraction(parsed, truth);
    scores.push(score);
    const figures = corpusFigures([score]);
    rows.push([
      file,
      String(truth.items.length),
      String(parsed.items.length),
      figures.itemF1.toFixed(3),
      figures.qtyAcc.toFixed(3),
      figures.priceAcc.toFixed(3),
      figures.matchTop1.toFixed(3),
      String(figures.wrongAutoAccept),
      figures.metaAcc.toFixed(3),
      seconds.toFixed(2),
    ]);
    for (const expected of truth.items) {
      const line = parsed.items.find(
        (item) =>
          item.sheet === expected.sheet && item.row === expected.row && (item.size ?? '') === (expected.size ?? ''),
      );
      if (line) {
        const { rawSku, description, color, size } = line;
        matcherLines.push({ query: { rawSku, description, color, size }, expectedSku: expected.sku });
      }
    }
  }

  // The same lines for both matchers: an even spread over the corpus.
  const step = Math.max(1, Math.floor(matcherLines.length / MATCHER_SAMPLE_LINES));
  const sample = matcherLines.filter((_, index) => index % step === 0).slice(0, MATCHER_SAMPLE_LINES);
  const matcher = measureMatcher(catalog, products, sample);

  printTable(['file', 'truth', 'parsed', 'itemF1', 'qty', 'price', 'top1', 'wrongAuto', 'meta', 'seconds'], rows);
  const corpus = corpusFigures(scores);
  console.log(
    `\ncatalog index: ${products.length} products in ${indexBuildMs.toFixed(0)} ms; matcher on ${sample.length} ` +
      `lines: ${matcher.msPerLine.toFixed(3)} ms/line (top-1 ${matcher.top1.toFixed(3)}) vs naive fuse.js ` +
      `${matcher.baselineMsPerLine.toFixed(2)} ms/line (top-1 ${matcher.baselineTop1.toFixed(3)})`,
  );
  const misses = scores.flatMap((score) => score.misses);
  if (misses.length) console.log(`\nfirst misses:\n  ${misses.slice(0, 15).join('\n  ')}`);
  console.log(
    JSON.stringify({
      ...corpus,
      largeFileSeconds: round(largeFileSeconds, 3),
      matcherMsPerLine: round(matcher.msPerLine, 4),
      fuseBaselineMsPerLine: round(matcher.baselineMsPerLine, 3),
      matcherSpeedup: round(matcher.baselineMsPerLine / matcher.msPerLine, 1),
    }),
  );
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
}

function round(value: number, decimals: number): number {
  return Math.round(value * 10 ** decimals) / 10 ** decimals;
}
