// Issue 18's catalog figures for `bench scale`: the matcher on catalogs of 10K, 100K and 1M products — index build
// seconds, heap the index holds, µs per quotation line, top-1 — each larger catalog timed in turns with the 10K one
// over 7 repetitions, min and median. The matcher against its two baselines (one fuse.js over the catalog; exact SKU
// first, then that fuse.js) is measureMatcher on the bundled catalog; both `bench ingest` and `bench scale` report it
// through matcherBaselineText and matcherBaselineFigures below.
//
// The catalog at N products is the bundled one (10,052 products, so the corpus lines keep their expected SKUs) plus
// synthetic styles up to N, each with a name of its own ("Summit Down Parka Z1k3"): a large catalog has many names,
// and every one shares words ("parka", "summit") with the lines, which is what made matching slow down as it grew.
// The lines are the sample corpus's truth lines as the sheets write them (raw SKU with its OCR slips, description,
// colour, size), spread evenly over the corpus.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { CatalogIndex, type CatalogEntry, toCatalogEntries } from '../../src/catalog/catalog-index.js';
import { type MatcherMeasurement, type MatchQuery, matchLine } from '../../src/catalog/matcher.js';
import { CATALOG_CSV, readCatalogCsv } from '../../src/catalog/products-csv.js';
import { createRng } from '../../src/commerce/rng.js';
import { CATALOG_COLORS, PRODUCT_FAMILIES, PRODUCT_LINE_WORDS, SIZE_SCALES } from '../catalog/catalog-generator.js';
import { quotationTruthSchema } from '../sample-corpus/truth.js';

export const CATALOG_SIZES = [10_000, 100_000, 1_000_000] as const;
/** Lines timed per repetition. */
const LINES = 300;
const REPETITIONS = 7;
/** Times each line is matched in one timed pass: ~3,000 matches, 100 ms or more, so no single pause dominates. */
const PASS_ROUNDS = 10;
/** Style prefixes the bundled catalog never uses (its first letters are M, W, U and K), so no SKU repeats. */
const SYNTHETIC_FIRST_LETTERS = 'ABCDEFGHIJLNOPQRSTVXYZ';

export interface CatalogScaleRow {
  products: number;
  nameGroups: number;
  buildSeconds: number;
  /** Heap the index holds beyond its entries, after a full collection. */
  indexHeapMb: number;
  usPerLine: number;
  usPerLineMin: number;
  /** Median over the repetitions of this catalog's time over the 10K one's in the same turn. */
  ratioTo10k: number;
  top1: number;
}

export interface CatalogScaleFigures {
  matchUsPerLine10k: number;
  matchUsPerLine100k: number;
  matchUsPerLine1m: number;
  indexBuildSeconds10k: number;
  indexBuildSeconds100k: number;
  indexBuildSeconds1m: number;
  indexHeapMb1m: number;
  matcherTop1At1m: number;
  /** Median of the paired per-turn ratios, 1M over 10K: the target is ≤ 1.5. */
  matchRatio1mTo10k: number;
}

/** The corpus lines with the SKU each should find, `count` of them spread evenly. */
export async function corpusLines(samplesDir: string, count = LINES) {
  const files = (await readdir(samplesDir)).filter((file) => file.endsWith('.truth.json')).sort();
  const lines: { query: MatchQuery; expectedSku: string | null }[] = [];
  for (const file of files) {
    const truth = quotationTruthSchema.parse(JSON.parse(await readFile(join(samplesDir, file), 'utf8')));
    for (const item of truth.items) {
      const { rawSku, description, color, size } = item;
      lines.push({ query: { rawSku, description, color, size }, expectedSku: item.sku });
    }
  }
  const step = Math.max(1, Math.floor(lines.length / count));
  return lines.filter((_, index) => index % step === 0).slice(0, count);
}

/** The bundled catalog's entries (all of them: "10K" is its 10,052) followed by synthetic styles up to `count`. */
export function scaleCatalog(bundled: readonly CatalogEntry[], count: number, seed = 18): CatalogEntry[] {
  const entries = [...bundled];
  const rng = createRng(seed);
  const apparel = SIZE_SCALES.apparel;
  for (let style = 0; entries.length < count; style++) {
    const first = SYNTHETIC_FIRST_LETTERS[Math.floor(style / 26_000) % SYNTHETIC_FIRST_LETTERS.length] ?? 'Z';
    const second = String.fromCharCode(65 + (Math.floor(style / 1000) % 26));
    const prefix = `${first}${second}${String(style % 1000).padStart(3, '0')}`;
    const family = rng.pick(PRODUCT_FAMILIES);
    const name = `${rng.pick(PRODUCT_LINE_WORDS)} ${rng.pick(family.types)} Z${style.toString(36)}`;
    const start = rng.int(0, 2);
    const sizes = apparel.slice(start, start + rng.int(4, 6 - start));
    for (const color of rng.sample(CATALOG_COLORS, rng.int(2, 6))) {
      for (const size of sizes) {
        if (entries.length >= count) break;
        const sku = `${prefix}-${color.code}-${size.code}`;
        entries.push({
          id: sku,
          sku,
          name,
          color: color.name,
          size: size.size,
          category: family.category,
          skuPrefix: prefix,
          colorCode: color.code,
          sizeCode: size.code,
        });
      }
    }
  }
  return entries;
}

/** A full collection before each heap reading, so the index's share is not noise (v8's own gc, exposed here). */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

function heapMb(collect: () => void): number {
  collect();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/**
 * Milliseconds per round of matching every line, PASS_ROUNDS rounds after a full collection. A pass of the 300 lines
 * once took ~10 ms, so one old-space collection (building the 1M index leaves the collector work) or one slice of a
 * loaded scheduler falling into it could move a figure 2×: runs read 1M at 1.05× and at 1.85× the 10K catalog.
 * Collecting first leaves each pass only the garbage it makes itself.
 */
function pass(index: CatalogIndex, lines: readonly { query: MatchQuery }[], collect: () => void): number {
  collect();
  const started = performance.now();
  for (let round = 0; round < PASS_ROUNDS; round++) for (const { query } of lines) matchLine(index, query);
  return (performance.now() - started) / PASS_ROUNDS;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function runCatalogScale(samplesDir: string, sizes: readonly number[] = CATALOG_SIZES) {
  const collect = collector();
  const bundled = toCatalogEntries(await readCatalogCsv(CATALOG_CSV));
  const lines = await corpusLines(samplesDir);
  const expected = lines.filter((line) => line.expectedSku !== null);
  const top1 = (index: CatalogIndex) =>
    expected.filter((line) => matchLine(index, line.query).sku === line.expectedSku).length / expected.length;

  // The smallest catalog stays built: every larger one is timed in turns with it, so a slow spell of a loaded
  // machine falls on both alike and the ratio between them holds.
  let small: { index: CatalogIndex; times: number[] } | undefined;
  const rows: CatalogScaleRow[] = [];
  for (const products of [...sizes].sort((a, b) => a - b)) {
    const entries = scaleCatalog(bundled, products);
    const before = heapMb(collect);
    const started = performance.now();
    const index = CatalogIndex.build(entries);
    const buildSeconds = (performance.now() - started) / 1000;
    const indexHeapMb = heapMb(collect) - before;
    // Warm-up, every line once: the JIT, and the index's cache of misspelt words read as name words, which would
    // otherwise fill during the first timed pass of each catalog alone.
    for (const { query } of lines) matchLine(index, query);
    const times: number[] = [];
    const ratios: number[] = [];
    for (let rep = 0; rep < REPETITIONS; rep++) {
      if (small === undefined) {
        times.push(pass(index, lines, collect));
        ratios.push(1);
        continue;
      }
      // Rotating which goes first, as measureMatcher does.
      const smallFirst = rep % 2 === 1;
      const before = smallFirst ? pass(small.index, lines, collect) : 0;
      const time = pass(index, lines, collect);
      const after = smallFirst ? before : pass(small.index, lines, collect);
      times.push(time);
      small.times.push(after);
      ratios.push(time / after);
    }
    small ??= { index, times };
    rows.push({
      products: entries.length,
      nameGroups: index.nameGroups.length,
      buildSeconds,
      indexHeapMb,
      usPerLine: (median(times) * 1000) / lines.length,
      usPerLineMin: (Math.min(...times) * 1000) / lines.length,
      ratioTo10k: median(ratios),
      top1: top1(index),
    });
  }
  const [smallRow] = rows;
  if (small === undefined || smallRow === undefined) throw new Error('no catalog size to measure');
  // The smallest catalog's figure over every turn it ran in.
  smallRow.usPerLine = (median(small.times) * 1000) / lines.length;
  smallRow.usPerLineMin = (Math.min(...small.times) * 1000) / lines.length;
  return { rows, lines: lines.length };
}

/** The JSON keys `bench scale` prints for the catalog. */
export function catalogScaleFigures(rows: readonly CatalogScaleRow[]): CatalogScaleFigures {
  const at = (products: number) => rows.find((row) => Math.abs(row.products - products) < products * 0.01);
  const us = (value: number | undefined) => Math.round((value ?? 0) * 10) / 10;
  const seconds = (value: number | undefined) => Math.round((value ?? 0) * 1000) / 1000;
  return {
    matchUsPerLine10k: us(at(10_000)?.usPerLine),
    matchUsPerLine100k: us(at(100_000)?.usPerLine),
    matchUsPerLine1m: us(at(1_000_000)?.usPerLine),
    indexBuildSeconds10k: seconds(at(10_000)?.buildSeconds),
    indexBuildSeconds100k: seconds(at(100_000)?.buildSeconds),
    indexBuildSeconds1m: seconds(at(1_000_000)?.buildSeconds),
    indexHeapMb1m: Math.round(at(1_000_000)?.indexHeapMb ?? 0),
    matcherTop1At1m: Math.round((at(1_000_000)?.top1 ?? 0) * 1000) / 1000,
    matchRatio1mTo10k: Math.round((at(1_000_000)?.ratioTo10k ?? 0) * 100) / 100,
  };
}

/** One sentence on the matcher against its two baselines, for both benches that measure it. */
export function matcherBaselineText(m: MatcherMeasurement): string {
  const ms = (median: number, min: number, decimals: number) =>
    `${median.toFixed(decimals)} (${min.toFixed(decimals)})`;
  return (
    `matcher on ${m.lines} lines, ${m.repetitions} repetitions in turns, median (min) ms/line: Parley ` +
    `${ms(m.msPerLine, m.msPerLineMin, 3)}, top-1 ${m.top1.toFixed(3)}; exact SKU first, then one fuse.js ` +
    `${ms(m.skuFirstMsPerLine, m.skuFirstMsPerLineMin, 3)}, top-1 ${m.skuFirstTop1.toFixed(3)}; naive one fuse.js ` +
    `${ms(m.baselineMsPerLine, m.baselineMsPerLineMin, 2)}, top-1 ${m.baselineTop1.toFixed(3)}; ` +
    `${(m.skuFirstMsPerLine / m.msPerLine).toFixed(1)}× the SKU-first baseline, ` +
    `${(m.baselineMsPerLine / m.msPerLine).toFixed(0)}× the naive one (medians)`
  );
}

/** The JSON keys both benches print for the matcher against its baselines; speed-ups are ratios of the medians. */
export function matcherBaselineFigures(m: MatcherMeasurement) {
  const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
  const ratio = (baseline: number) => (m.msPerLine > 0 ? round(baseline / m.msPerLine, 1) : null);
  return {
    matcherMsPerLine: round(m.msPerLine, 4),
    matcherMsPerLineMin: round(m.msPerLineMin, 4),
    matcherTop1: round(m.top1, 3),
    fuseBaselineMsPerLine: round(m.baselineMsPerLine, 3),
    fuseBaselineTop1: round(m.baselineTop1, 3),
    matcherSpeedup: ratio(m.baselineMsPerLine),
    skuFirstFuseMsPerLine: round(m.skuFirstMsPerLine, 4),
    skuFirstFuseTop1: round(m.skuFirstTop1, 3),
    matcherVsSkuFirstFuse: ratio(m.skuFirstMsPerLine),
  };
}
