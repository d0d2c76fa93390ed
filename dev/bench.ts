// `npm run -s bench -- <name>`: Parley's benchmarks. Each prints a table and, as its last line, one JSON object with
// the figures. Speed and accuracy targets are measured here, not in timed unit tests.
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { CatalogIndex, toCatalogEntries } from '../src/catalog/catalog-index.js';
import { type MatchQuery, measureMatcher } from '../src/catalog/matcher.js';
import { readCatalogCsv } from '../src/catalog/products-csv.js';
import { priceFor } from '../src/llm/cost.js';
import { minCacheableTokens } from '../src/llm/prompt-cache.js';
import { summarizeUsage } from '../src/llm/usage.js';
import { createNegotiationAgents } from '../src/negotiation/agents/create-agents.js';
import { runUnattended } from '../src/negotiation/run-unattended.js';
import { CATALOG_CSV } from '../src/catalog/products-csv.js';
import { type ParsedQuotation, parseQuotation } from '../src/quotation/parse-quotation.js';
import { quotationTruthSchema, type QuotationTruth } from './sample-corpus/truth.js';
import { corpusFigures, type ExtractionScore, scoreExtraction } from './sample-corpus/score-extraction.js';
import { env } from '../src/config/env.js';
import { RELIABILITY_PARTS, type ReliabilityPart, runReliability } from './reliability/reliability-bench.js';
import { readLimitsFrom } from '../src/quotation/xlsx-reader.js';
import { documentKindInWarnings } from '../src/quotation/document-kind.js';
import { confirmAllScope } from '../src/quotation/confirm-all.js';
import { isChargeLabel, isClosingDiscountLabel, isTaxLabel, totalKind } from '../src/quotation/row-kinds.js';
import { runOutcomes } from './outcomes/outcomes-bench.js';
import { runCatalogImportBench } from './catalog/catalog-import-bench.js';
import { claudeNegotiation, costOf } from './scale/claude-negotiation.js';
import { runEngineScale } from './scale/engine-scale.js';
import { type DbScaleRow, runNegotiationDbScale } from './scale/negotiation-db-scale.js';
import { type DatabaseKind, postgresAvailable } from './reliability/bench-databases.js';
import { promptScaleFigures, runPromptScale } from './scale/prompt-scale.js';
import {
  CATALOG_SIZES,
  catalogScaleFigures,
  corpusLines,
  matcherBaselineFigures,
  matcherBaselineText,
  runCatalogScale,
} from './scale/catalog-scale.js';
import { benchNegotiationSetup, readSampleBaseline } from './sample-baseline.js';

const SAMPLES_DIR = fileURLToPath(new URL('../data/samples/', import.meta.url));
/** The 3,000-line sample: the large-file figure of `bench ingest` and the quotation `bench scale` grows. */
const LARGE_SAMPLE = '13-large-3000-lines.xlsx';
/** The sizes `bench scale` takes from it. */
const SCALE_SIZES = [16, 300, 3000] as const;
/** Lines timed against the naive baseline: every line would take minutes at the baseline's speed. */
const MATCHER_SAMPLE_LINES = 300;

const benches: Record<string, () => Promise<void>> = {
  ingest,
  negotiation,
  outcomes,
  reliability,
  'catalog-import': catalogImport,
  scale,
};

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

  const parse = (data: Buffer) =>
    parseQuotation({ data, catalog, suppliers: [], limits: readLimitsFrom(env), llm: null });
  // The large file cold: the first quotation this process parses (the index is built, nothing else has run).
  const largeData = await readFile(join(SAMPLES_DIR, LARGE_SAMPLE));
  const coldStarted = performance.now();
  await parse(largeData);
  const largeFileColdSeconds = (performance.now() - coldStarted) / 1000;

  const files = (await readdir(SAMPLES_DIR)).filter((file) => file.endsWith('.xlsx')).sort();
  const rows: string[][] = [];
  const scores: ExtractionScore[] = [];
  const matcherLines: { query: MatchQuery; expectedSku: string | null }[] = [];
  let largeFileSeconds = 0;
  // Lines read that no truth line sits on and whose label names a tax, total, discount or charge.
  let summaryRowsAsItems = 0;
  let docKindRight = 0;
  // Lines "Confirm all" would confirm, clicked on the review's first page, to a SKU other than the truth file's.
  let confirmAllWrong = 0;
  for (const file of files) {
    const truth: QuotationTruth = quotationTruthSchema.parse(
      JSON.parse(await readFile(join(SAMPLES_DIR, file.replace(/\.xlsx$/, '.truth.json')), 'utf8')),
    );
    const data = await readFile(join(SAMPLES_DIR, file));
    const started = performance.now();
    const parsed: ParsedQuotation = await parse(data);
    const seconds = (performance.now() - started) / 1000;
    if (truth.items.length >= 2_000) largeFileSeconds = Math.max(largeFileSeconds, seconds);
    const score = scoreExtraction(parsed, truth);
    summaryRowsAsItems += parsed.items.filter((item) => {
      if (truth.items.some((t) => t.sheet === item.sheet && t.row === item.row)) return false;
      const label = item.description ?? item.rawSku ?? '';
      return isTaxLabel(label) || totalKind(label) !== null || isClosingDiscountLabel(label) || isChargeLabel(label);
    }).length;
    // A quotation gets no sentence; an invoice or RFQ gets the sentence naming its kind.
    const kind = documentKindInWarnings(parsed.warnings);
    if (kind === truth.documentKind) docKindRight++;
    confirmAllWrong += wrongByConfirmAll(parsed, truth);
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
      kind === truth.documentKind ? kind : `${kind} ≠ ${truth.documentKind}`,
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

  // The large file warm: parsed again after the whole corpus, 5 times; median and fastest.
  const warm: number[] = [];
  for (let rep = 0; rep < 5; rep++) {
    const started = performance.now();
    await parse(largeData);
    warm.push((performance.now() - started) / 1000);
  }
  warm.sort((a, b) => a - b);

  // The same lines for both matchers: an even spread over the corpus.
  const step = Math.max(1, Math.floor(matcherLines.length / MATCHER_SAMPLE_LINES));
  const sample = matcherLines.filter((_, index) => index % step === 0).slice(0, MATCHER_SAMPLE_LINES);
  const matcher = measureMatcher(catalog, products, sample);

  printTable(
    ['file', 'truth', 'parsed', 'itemF1', 'qty', 'price', 'top1', 'wrongAuto', 'meta', 'kind', 'seconds'],
    rows,
  );
  const corpus = corpusFigures(scores);
  console.log(
    `\ncatalog index: ${products.length} products in ${indexBuildMs.toFixed(0)} ms; ${matcherBaselineText(matcher)}`,
  );
  const misses = scores.flatMap((score) => score.misses);
  if (misses.length) console.log(`\nfirst misses:\n  ${misses.slice(0, 15).join('\n  ')}`);
  console.log(
    JSON.stringify({
      ...corpus,
      summaryRowsAsItems,
      docKindAccuracy: round(docKindRight / Math.max(1, files.length), 3),
      confirmAllWrong,
      largeFileSeconds: round(largeFileSeconds, 3),
      largeFileColdSeconds: round(largeFileColdSeconds, 3),
      largeFileWarmSeconds: round(warm[Math.floor(warm.length / 2)] ?? 0, 3),
      largeFileWarmMinSeconds: round(warm[0] ?? 0, 3),
      ...matcherBaselineFigures(matcher),
    }),
  );
}

/**
 * The lines "Confirm all suggestions" would confirm when the buyer clicks it on the first review page (the one the
 * review opens on) whose suggested SKU is not the truth file's — or that sit on no truth line at all.
 */
function wrongByConfirmAll(parsed: ParsedQuotation, truth: QuotationTruth): number {
  const listed = parsed.items.filter((item) => item.reviewState !== 'auto_accepted');
  const scope = confirmAllScope(
    listed.map((item) => ({
      pending: true,
      suggested: item.match.productId !== null,
      confidence: item.match.confidence,
      flagCount: item.flags.length,
    })),
    1,
  );
  const squash = (text: string | null) => (text ?? '').toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');
  return scope.confirm.filter((index) => {
    const item = listed[index];
    if (!item) return false;
    const atRow = truth.items.filter((t) => t.sheet === item.sheet && t.row === item.row);
    const expected = atRow.length === 1 ? atRow[0] : atRow.find((t) => squash(t.size) === squash(item.size));
    return expected?.sku !== item.match.sku;
  }).length;
}

/**
 * Offline negotiations (3 suppliers × 4 rounds, curveball, questions answered automatically) on the baseline read from
 * a sample quotation: sequential latency and throughput, and throughput with 20 running at once in this process —
 * the engine alone, in memory. Then the same negotiation as Parley runs it, through the negotiation store on PGlite
 * and PostgreSQL (dev/scale/negotiation-db-scale.ts): wall time, bytes written per step, the Slack floor. Then one
 * whole negotiation on the Claude path — every round, then the decision memo — against the fake Messages
 * API, which records every prompt and returns the usage the cost is computed from: each turn's prompt counted with
 * the SDK's `messages.countTokens` (the fake counts by character class, src/llm/tokens.ts, as it bills), everything the
 * real SDK sends — tool definitions and the tool-use system prompt the API adds included — with Anthropic's prompt
 * caching emulated (minimum prefix per model,
 * 5-minute lifetime, writes 1.25×, reads 0.1×), and every answer at the longest its prompt allows (`atUpperBounds`).
 * The same Claude negotiation is run on the 3,000-line sample, to show how prompts grow with the quotation.
 */
async function negotiation(): Promise<void> {
  const catalog = CatalogIndex.build(toCatalogEntries(await readCatalogCsv(CATALOG_CSV)));
  const { baseline, quotedSupplier } = await readSample('02-title-block-header-row-9.xlsx', catalog);
  const agents = createNegotiationAgents(null);
  const run = (seed: number, withAgents = agents, earlyTermination: 'finish' | 'continue' = 'finish') =>
    runUnattended(benchNegotiationSetup(baseline, quotedSupplier, seed), withAgents, {
      answers: 'auto',
      earlyTermination,
    });

  await run(0); // warm-up
  const durations: number[] = [];
  let messages = 0;
  const sequentialStarted = performance.now();
  for (let seed = 1; seed <= 50; seed++) {
    const started = performance.now();
    const { events } = await run(seed);
    durations.push(performance.now() - started);
    messages += events.filter((event) => event.type === 'message').length;
  }
  const sequentialSeconds = (performance.now() - sequentialStarted) / 1000;
  const concurrentStarted = performance.now();
  await Promise.all(Array.from({ length: 20 }, (_, index) => run(100 + index)));
  const concurrentSeconds = (performance.now() - concurrentStarted) / 1000;

  // The same negotiation as Parley runs it: through the store, a transaction per step, on each database.
  const backends = await benchBackends();
  const stored = await runNegotiationDbScale({ baseline, quotedSupplier, sizes: [baseline.lines.length], backends });
  const claude = await claudeNegotiation(baseline, quotedSupplier);
  const large = await readSample(LARGE_SAMPLE, catalog);
  const claudeLarge = await claudeNegotiation(large.baseline, large.quotedSupplier);
  const { usage, requests, fallbacks, brandTurns, supplierTurns } = claude;
  const claudeCost = costOf(usage);
  const cachedTokens = usage.reduce((sum, entry) => sum + entry.cacheReadInputTokens, 0);
  const promptTokens = usage.reduce(
    (sum, entry) => sum + entry.inputTokens + entry.cacheCreationInputTokens + entry.cacheReadInputTokens,
    0,
  );

  const sorted = [...durations].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  printTable(
    ['runs', 'lines', 'median ms', 'p95 ms', 'messages/run', 'sequential/s', '20 concurrent/s'],
    [
      [
        String(durations.length),
        String(baseline.lines.length),
        median.toFixed(1),
        (sorted[Math.floor(sorted.length * 0.95)] ?? 0).toFixed(1),
        (messages / durations.length).toFixed(1),
        (durations.length / sequentialSeconds).toFixed(1),
        (20 / concurrentSeconds).toFixed(1),
      ],
    ],
  );
  console.log(
    `\nThrough the database (store, outbox rows, answers; no decision/PO), ${baseline.lines.length} lines:\n` +
      stored
        .map(
          (row) =>
            `  ${row.backend}: ${row.seconds.toFixed(2)} s for ${row.saves} saved steps, ` +
            `${Math.round(row.bytesPerStep)} bytes of write-ahead log per step, ${row.posts} posts = a Slack floor of ` +
            `${row.slackFloorSeconds} s`,
        )
        .join('\n'),
  );
  console.log('\nClaude path, where the money goes (tokens; USD at the prices of business-rules):');
  const usageRow = (row: ReturnType<typeof summarizeUsage>[number]) => [
    row.purpose,
    row.model,
    String(row.calls),
    String(row.inputTokens),
    String(row.cacheCreationInputTokens),
    String(row.cacheReadInputTokens),
    String(row.outputTokens),
    row.costUsd.toFixed(4),
    `${((row.costUsd / Math.max(claudeCost, Number.EPSILON)) * 100).toFixed(0)}%`,
  ];
  printTable(
    ['purpose', 'model', 'calls', 'input', 'cache write', 'cache read', 'output', 'USD', 'share'],
    [...summarizeUsage(usage).map(usageRow), ...summarizeUsage(usage, 'model').map(usageRow)],
  );
  const models = [...new Set(usage.map((entry) => entry.model))].map((model) => {
    const price = priceFor(model);
    return `${model} $${price.input}/$${price.output} per MTok, caches prefixes ≥ ${minCacheableTokens(model)} tokens`;
  });
  console.log(
    `\nClaude path (fake Messages API, ${baseline.lines.length} lines): ${requests.length} calls, brand turns of ` +
      `${Math.min(...brandTurns)}–${Math.max(...brandTurns)} prompt tokens (mean ${Math.round(mean(brandTurns))}), ` +
      `supplier turns of ${Math.min(...supplierTurns)}–${Math.max(...supplierTurns)}, ` +
      `${((cachedTokens / Math.max(promptTokens, 1)) * 100).toFixed(0)}% of prompt tokens read from the cache, ` +
      `$${claudeCost.toFixed(4)} in all, ${fallbacks.length} fallbacks to the offline twin\n` +
      `${large.baseline.lines.length} lines: brand turns up to ${Math.max(...claudeLarge.brandTurns)} prompt tokens, ` +
      `supplier turns up to ${Math.max(...claudeLarge.supplierTurns)}, $${costOf(claudeLarge.usage).toFixed(4)} in all, ` +
      `${claudeLarge.fallbacks.length} fallbacks\n${models.join('\n')}`,
  );
  console.log(
    JSON.stringify({
      offlineMedianMs: round(median, 1),
      offlinePerSecond: round(durations.length / sequentialSeconds, 1),
      concurrent20PerSecond: round(20 / concurrentSeconds, 1),
      promptTokensPerBrandTurn: Math.max(...brandTurns),
      promptTokensPerSupplierTurn: Math.max(...supplierTurns),
      llmCallsPerNegotiation: requests.length,
      estCostUsdPerNegotiation: round(claudeCost, 4),
      promptTokensPerBrandTurnLargeQuote: Math.max(...claudeLarge.brandTurns),
      estCostUsdLargeQuote: round(costOf(claudeLarge.usage), 4),
      storedNegotiationSecondsPglite: storedFigure(stored, 'pglite', (row) => round(row.seconds, 2)),
      storedNegotiationSecondsPostgres: storedFigure(stored, 'postgres', (row) => round(row.seconds, 2)),
      storedBytesPerStep: storedFigure(stored, 'pglite', (row) => Math.round(row.bytesPerStep)),
      slackFloorSeconds: storedFigure(stored, 'pglite', (row) => row.slackFloorSeconds),
    }),
  );
}

/** `--backends pglite,postgres`; by default PGlite, and PostgreSQL when its server answers. */
async function benchBackends(option?: string): Promise<DatabaseKind[]> {
  if (option) return option.split(',').map((b): DatabaseKind => (b === 'postgres' ? 'postgres' : 'pglite'));
  return ['pglite', ...((await postgresAvailable()) ? (['postgres'] as const) : [])];
}

function storedFigure(rows: DbScaleRow[], backend: DatabaseKind, figure: (row: DbScaleRow) => number): number | null {
  const row = rows.find((candidate) => candidate.backend === backend);
  return row ? figure(row) : null;
}

function readSample(file: string, catalog: CatalogIndex) {
  return readSampleBaseline(join(SAMPLES_DIR, file), catalog);
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

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

function round(value: number, decimals: number): number {
  return Math.round(value * 10 ** decimals) / 10 ** decimals;
}

/**
 * Negotiation outcomes over the scenario grid (dev/outcomes/): samples × modes × mandates × answers, offline agents.
 * `--samples 01,02` (every sample but the 3,000-line one), `--seeds N` per cell (1).
 */
async function outcomes(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { samples: { type: 'string' }, seeds: { type: 'string', default: '1' } },
  });
  const { figures } = await runOutcomes({
    samples: values.samples?.split(','),
    seedsPerCell: Number(values.seeds),
    print: (line) => console.log(line),
  });
  console.log(JSON.stringify(figures));
}

/**
 * Crashes, two instances, load, faults and hostile files (dev/reliability/). `--trials N` (20), `--side-by-side N`
 * (crash trials run at once, 2), `--uploads N` (50),
 * `--channels N` (10), `--fuzz N` (3000), `--backends pglite,postgres` (both, PostgreSQL when it answers), `--parts
 * crash,twins,midround,faults,load,fuzz,pglite,skew,replies,large,outage` (all: RELIABILITY_PARTS). `--quick`: a few minutes' worth (4 trials, 10 uploads in 3 channels,
 * 200 fuzz cases) unless those are given too.
 */
async function reliability(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: {
      trials: { type: 'string' },
      'side-by-side': { type: 'string', default: '2' },
      uploads: { type: 'string' },
      channels: { type: 'string' },
      fuzz: { type: 'string' },
      backends: { type: 'string' },
      parts: { type: 'string' },
      quick: { type: 'boolean', default: false },
    },
  });
  const size = values.quick
    ? { trials: '4', uploads: '10', channels: '3', fuzz: '200' }
    : { trials: '20', uploads: '50', channels: '10', fuzz: '3000' };
  const parts = values.parts
    ?.split(',')
    .filter((p): p is ReliabilityPart => RELIABILITY_PARTS.some((known) => known === p));
  const backends = values.backends
    ?.split(',')
    .map((b): 'pglite' | 'postgres' => (b === 'postgres' ? 'postgres' : 'pglite'));
  const figures = await runReliability({
    crashTrials: Number(values.trials ?? size.trials),
    crashConcurrency: Number(values['side-by-side']),
    loadUploads: Number(values.uploads ?? size.uploads),
    loadChannels: Number(values.channels ?? size.channels),
    fuzzCases: Number(values.fuzz ?? size.fuzz),
    backends,
    parts,
    print: (line) => console.log(line),
    logPath: join(tmpdir(), 'parley-reliability.log'),
  });
  console.log(JSON.stringify(figures));
}

/** A brand's catalog imported as `/parley catalog` does it, per backend. `--rows N` (100000). */
async function catalogImport(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { rows: { type: 'string', default: '100000' } },
  });
  const figures = await runCatalogImportBench({ rows: Number(values.rows), print: (line) => console.log(line) });
  console.log(JSON.stringify(figures));
}

/**
 * Issue 18's scale figures on the first 16, 300 and 3,000 lines of the 3,000-line sample: the engine alone in memory
 * (wall time, ms per line, the final state's JSON size); then one Claude negotiation on the first 16 and on all 3,000
 * lines (dev/scale/prompt-scale.ts: the largest turn's prompt counted with the SDK, the cost the fake bills); then the
 * matcher on catalogs of 10K, 100K and 1M products (dev/scale/catalog-scale.ts; `--catalogs 10000,100000` for
 * fewer); then whole negotiations through the database on PGlite and PostgreSQL (dev/scale/negotiation-db-scale.ts:
 * wall time and ms per line, bytes written per step, the Slack floor; `--backends pglite,postgres`, both by default,
 * PostgreSQL when it answers). The matcher against its two baselines (exact SKU first, then one fuse.js; one fuse.js
 * alone) on the bundled catalog and the same corpus lines, in turns: measureMatcher, as `bench ingest` does.
 */
async function scale(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { backends: { type: 'string' }, catalogs: { type: 'string' } },
  });
  const rows = await runEngineScale(join(SAMPLES_DIR, LARGE_SAMPLE), SCALE_SIZES);
  const prompts = await runPromptScale(join(SAMPLES_DIR, LARGE_SAMPLE));
  const catalogs = await runCatalogScale(SAMPLES_DIR, values.catalogs?.split(',').map(Number) ?? CATALOG_SIZES);
  console.log('The engine alone, in memory:');
  printTable(
    ['lines', 'seconds', 'ms/line', 'steps', 'final state JSON bytes'],
    rows.map((row) => [
      String(row.lines),
      row.seconds.toFixed(2),
      row.msPerLine.toFixed(2),
      String(row.steps),
      String(row.finalCheckpointBytes),
    ]),
  );
  console.log('\nClaude path (fake Messages API; prompts counted with the SDK, the largest turn; cost billed):');
  printTable(
    ['lines', 'calls', 'prompt tokens/turn', 'brand turn', 'supplier turn', 'est. USD', 'fallbacks'],
    prompts.map((row) => [
      String(row.lines),
      String(row.calls),
      String(row.promptTokensPerTurn),
      String(row.brandTurnTokens),
      String(row.supplierTurnTokens),
      row.estCostUsd.toFixed(4),
      String(row.fallbacks),
    ]),
  );
  console.log(`\nCatalog size: the matcher on ${catalogs.lines} corpus lines, in turns with the 10K catalog:`);
  printTable(
    ['products', 'names', 'index build s', 'index heap MB', 'µs/line median', 'µs/line min', '× 10K', 'top-1'],
    catalogs.rows.map((row) => [
      String(row.products),
      String(row.nameGroups),
      row.buildSeconds.toFixed(2),
      row.indexHeapMb.toFixed(0),
      row.usPerLine.toFixed(1),
      row.usPerLineMin.toFixed(1),
      row.ratioTo10k.toFixed(2),
      row.top1.toFixed(3),
    ]),
  );
  const at = (lines: number) => rows.find((row) => row.lines === lines);

  const products = toCatalogEntries(await readCatalogCsv(CATALOG_CSV));
  const catalog = CatalogIndex.build(products);
  const matcher = measureMatcher(catalog, products, await corpusLines(SAMPLES_DIR, MATCHER_SAMPLE_LINES));
  console.log(`\nBaselines, the bundled catalog (${products.length} products): ${matcherBaselineText(matcher)}`);
  const { baseline, quotedSupplier } = await readSample(LARGE_SAMPLE, catalog);
  const backends = await benchBackends(values.backends);
  const dbRows = await runNegotiationDbScale({ baseline, quotedSupplier, sizes: SCALE_SIZES, backends });
  console.log(
    '\nWhole negotiations through the database (store, outbox rows, answers; offline agents; no decision/PO). ' +
      "Per saved step: write-ahead log (on PostgreSQL the whole server's, other databases' writes included) and " +
      "this database's growth (tables, TOAST, indexes). Slack floor: posts × 1 s.",
  );
  printTable(
    [
      'backend',
      'lines',
      'seconds',
      'ms/line',
      'saves',
      'WAL bytes/step',
      'grown bytes/step',
      'posts',
      'Slack floor s',
      'seconds ÷ floor',
    ],
    dbRows.map((row) => [
      row.backend,
      String(row.lines),
      row.seconds.toFixed(2),
      row.msPerLine.toFixed(2),
      String(row.saves),
      String(Math.round(row.bytesPerStep)),
      String(Math.round(row.grownBytesPerStep)),
      String(row.posts),
      String(row.slackFloorSeconds),
      (row.seconds / Math.max(row.slackFloorSeconds, 1)).toFixed(2),
    ]),
  );
  const db = (backend: DatabaseKind, lines: number) =>
    dbRows.find((row) => row.backend === backend && row.lines === lines) ?? null;
  const figure = (value: number | undefined, decimals: number) => (value === undefined ? null : round(value, decimals));
  console.log(
    JSON.stringify({
      ...promptScaleFigures(prompts),
      ...catalogScaleFigures(catalogs.rows),
      engineInMemorySeconds3000: round(at(3000)?.seconds ?? 0, 2),
      engineMsPerLine16: round(at(16)?.msPerLine ?? 0, 3),
      engineMsPerLine300: round(at(300)?.msPerLine ?? 0, 3),
      engineMsPerLine3000: round(at(3000)?.msPerLine ?? 0, 3),
      checkpointBytes3000: at(3000)?.finalCheckpointBytes ?? 0,
      negotiation3000PgliteSeconds: figure(db('pglite', 3000)?.seconds, 2),
      negotiation3000PostgresSeconds: figure(db('postgres', 3000)?.seconds, 2),
      // PGlite, the default database; the PostgreSQL figures follow.
      negotiationMsPerLine16: figure(db('pglite', 16)?.msPerLine, 2),
      negotiationMsPerLine300: figure(db('pglite', 300)?.msPerLine, 2),
      negotiationMsPerLine3000: figure(db('pglite', 3000)?.msPerLine, 2),
      negotiationMsPerLine16Postgres: figure(db('postgres', 16)?.msPerLine, 2),
      negotiationMsPerLine3000Postgres: figure(db('postgres', 3000)?.msPerLine, 2),
      bytesPerStep3000: figure(db('pglite', 3000)?.bytesPerStep, 0),
      // The server's log holds other databases' writes too: this database's growth is the PostgreSQL run's own figure.
      grownBytesPerStep3000: figure(db('pglite', 3000)?.grownBytesPerStep, 0),
      grownBytesPerStep3000Postgres: figure(db('postgres', 3000)?.grownBytesPerStep, 0),
      slackFloorSeconds3000: figure(db('pglite', 3000)?.slackFloorSeconds, 0),
      ...matcherBaselineFigures(matcher),
    }),
  );
}
