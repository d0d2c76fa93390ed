// `npm run -s bench -- outcomes`: plays the scenario grid (scenarios.ts) with the offline agents, no database and no
// Claude, and reports what a buyer would judge the negotiations by — deals, the share of the suppliers' room the buyer
// won, savings against the quote — and every violation the detectors (detectors.ts) find. The last line printed is
// one JSON object with the keys.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CatalogIndex, toCatalogEntries } from '../../src/catalog/catalog-index.js';
import { CATALOG_CSV, readCatalogCsv } from '../../src/catalog/products-csv.js';
import { SIMULATED_SUPPLIERS } from '../../src/config/business-rules.js';
import { env } from '../../src/config/env.js';
import { createNegotiationAgents } from '../../src/negotiation/agents/create-agents.js';
import { baselineFromQuotation, whyNotNegotiable } from '../../src/negotiation/baseline.js';
import { parseQuotation } from '../../src/quotation/parse-quotation.js';
import { readLimitsFrom } from '../../src/quotation/xlsx-reader.js';
import { playScenario, type PreparedSample, type ScenarioOutcome } from './play-scenario.js';
import { type Scenario, scenarioGrid } from './scenarios.js';

export const SAMPLES_DIR = fileURLToPath(new URL('../../data/samples/', import.meta.url));
/** Sample 13 has 3,000 lines: one negotiation of it takes longer than the rest of a cell together. */
const LARGE_SAMPLE = /^13-/;

/** The figures, in its order: the benchmark's last line. */
export interface OutcomeFigures {
  scenarios: number;
  dealRate: number;
  buyerSurplusShare: number | null;
  medianSavingsVsQuote: number | null;
  awardsAboveWalkAway: number;
  awardsMissingDeadline: number;
  answersIgnored: number;
  overQuoteWithoutConsent: number;
  inventedFacts: number;
  leaks: number;
  curveballBindingShare: number;
  impasseShare: number;
  earlyTerminationOffered: number;
}

export const OUTCOME_TARGETS = {
  buyerSurplusShare: 0.6,
  medianSavingsVsQuote: 0.03,
  curveballBindingShare: 0.25,
} as const;

/**
 * dealRate, impasseShare, curveballBindingShare: shares of all scenarios. buyerSurplusShare and medianSavingsVsQuote:
 * medians over the deals. awardsAboveWalkAway, awardsMissingDeadline, overQuoteWithoutConsent: awards (scenarios).
 * answersIgnored: answers. inventedFacts: texts stating an assumption as the supplier's word (a message, the briefs
 * of one brand turn, a question, the recommendation). leaks: brand messages disclosing a competitor.
 * earlyTerminationOffered: scenarios where the buyer was offered to stop early.
 */
export function outcomeFigures(outcomes: readonly ScenarioOutcome[]): OutcomeFigures {
  const count = (keep: (outcome: ScenarioOutcome) => boolean) => outcomes.filter(keep).length;
  const sum = (value: (outcome: ScenarioOutcome) => number) => outcomes.reduce((total, o) => total + value(o), 0);
  const share = (keep: (outcome: ScenarioOutcome) => boolean) => round(count(keep) / Math.max(1, outcomes.length), 3);
  const deals = outcomes.filter((outcome) => outcome.status === 'deal');
  const surplus = median(deals.flatMap((outcome) => (outcome.surplusShare === null ? [] : [outcome.surplusShare])));
  const savings = median(deals.flatMap((outcome) => (outcome.savingsVsQuote === null ? [] : [outcome.savingsVsQuote])));
  return {
    scenarios: outcomes.length,
    dealRate: share((outcome) => outcome.status === 'deal'),
    buyerSurplusShare: surplus === null ? null : round(surplus, 3),
    medianSavingsVsQuote: savings === null ? null : round(savings, 4),
    awardsAboveWalkAway: count((outcome) => outcome.aboveWalkAway),
    awardsMissingDeadline: count((outcome) => outcome.missingDeadline),
    answersIgnored: sum((outcome) => outcome.ignoredAnswers.length),
    overQuoteWithoutConsent: count((outcome) => outcome.overQuote),
    inventedFacts: sum((outcome) => outcome.inventedTexts),
    leaks: sum((outcome) => outcome.leakingMessages),
    curveballBindingShare: share((outcome) => outcome.curveballBinding),
    impasseShare: share((outcome) => outcome.impasse),
    earlyTerminationOffered: count((outcome) => outcome.earlyTerminationOffered),
  };
}

/** A sample Parley would not negotiate, and why (the sentence the buyer gets, or the step still to take). */
export interface UnplayedSample {
  file: string;
  why: string;
}

/**
 * Reads each sample once, as the negotiate CLI does (every line's top catalog match taken), without a database. Only
 * the samples Parley would negotiate are prepared: an RFQ or a requirements list has no priced line, and a comparison
 * is negotiated only once the buyer has picked a supplier's column; the others come back in `unplayed`.
 */
export async function prepareSamples(
  files: readonly string[],
  dir = SAMPLES_DIR,
): Promise<{ prepared: PreparedSample[]; unplayed: UnplayedSample[] }> {
  const catalog = CatalogIndex.build(toCatalogEntries(await readCatalogCsv(CATALOG_CSV)));
  const names = new Map(catalog.entries.map((entry) => [entry.sku, entry.name]));
  const prepared: PreparedSample[] = [];
  const unplayed: UnplayedSample[] = [];
  for (const file of files) {
    const parsed = await parseQuotation({
      data: await readFile(join(dir, file)),
      catalog,
      suppliers: [],
      limits: readLimitsFrom(env),
      llm: null,
    });
    if (parsed.comparison.length > 0) {
      unplayed.push({ file, why: 'a comparison: negotiated once the buyer picks a supplier’s column' });
      continue;
    }
    const { baseline, quotedSupplier } = baselineFromQuotation(parsed, names);
    const notNegotiable = whyNotNegotiable(baseline);
    if (notNegotiable) {
      unplayed.push({ file, why: notNegotiable });
      continue;
    }
    prepared.push({ file, baseline, quotedSupplier, simulated: SIMULATED_SUPPLIERS });
  }
  return { prepared, unplayed };
}

export async function bundledSamples(options: { includeLarge?: boolean } = {}): Promise<string[]> {
  return (await readdir(SAMPLES_DIR))
    .filter((file) => file.endsWith('.xlsx') && (options.includeLarge === true || !LARGE_SAMPLE.test(file)))
    .sort();
}

export interface OutcomesRun {
  figures: OutcomeFigures;
  outcomes: ScenarioOutcome[];
}

export async function playScenarios(
  scenarios: readonly Scenario[],
  samples: readonly PreparedSample[],
): Promise<ScenarioOutcome[]> {
  const bySample = new Map(samples.map((sample) => [sample.file, sample]));
  const agents = createNegotiationAgents(null);
  const outcomes: ScenarioOutcome[] = [];
  for (const scenario of scenarios) {
    const sample = bySample.get(scenario.sample);
    if (sample === undefined) throw new Error(`sample ${scenario.sample} was not prepared`);
    outcomes.push(await playScenario(scenario, sample, agents));
  }
  return outcomes;
}

export async function runOutcomes(options: {
  /** Sample file names or their number prefixes ("02"); every bundled sample but the 3,000-line one by default. */
  samples?: readonly string[];
  seedsPerCell?: number;
  print?: (line: string) => void;
}): Promise<OutcomesRun> {
  const all = await bundledSamples({ includeLarge: true });
  const wanted = options.samples;
  const files =
    wanted === undefined
      ? all.filter((file) => !LARGE_SAMPLE.test(file))
      : all.filter((file) => wanted.some((prefix) => file === prefix || file.startsWith(`${prefix}-`)));
  const { prepared, unplayed } = await prepareSamples(files);
  const played = prepared.map((sample) => sample.file);
  const scenarios = scenarioGrid({ samples: played, seedsPerCell: options.seedsPerCell ?? 1 });
  const outcomes = await playScenarios(scenarios, prepared);
  const figures = outcomeFigures(outcomes);
  if (options.print) {
    printOutcomes(outcomes, options.print);
    for (const { file, why } of unplayed) options.print(`not played: ${file} — ${why}`);
  }
  return { figures, outcomes };
}

function printOutcomes(outcomes: readonly ScenarioOutcome[], print: (line: string) => void): void {
  const header = [
    'group',
    'n',
    'deals',
    'surplus',
    'savings',
    '>walk',
    'late',
    'ignored',
    '>quote',
    'invented',
    'leaks',
    'split1',
    'binding',
    'impasse',
    'early',
  ];
  const row = (group: string, subset: readonly ScenarioOutcome[]): string[] => {
    const f = outcomeFigures(subset);
    const percent = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(1)}%`);
    return [
      group,
      String(f.scenarios),
      percent(f.dealRate),
      f.buyerSurplusShare === null ? '—' : f.buyerSurplusShare.toFixed(2),
      percent(f.medianSavingsVsQuote),
      String(f.awardsAboveWalkAway),
      String(f.awardsMissingDeadline),
      String(f.answersIgnored),
      String(f.overQuoteWithoutConsent),
      String(f.inventedFacts),
      String(f.leaks),
      String(subset.filter((outcome) => outcome.splitDespiteSingleSource).length),
      percent(f.curveballBindingShare),
      percent(f.impasseShare),
      String(f.earlyTerminationOffered),
    ];
  };
  const groups = (key: (outcome: ScenarioOutcome) => string) => {
    const map = new Map<string, ScenarioOutcome[]>();
    for (const outcome of outcomes) map.set(key(outcome), [...(map.get(key(outcome)) ?? []), outcome]);
    return [...map.entries()];
  };
  const rows = [
    ...groups((outcome) => outcome.scenario.sample.replace(/\.xlsx$/, '').slice(0, 32)).map(([g, s]) => row(g, s)),
    ...groups((outcome) => `mode ${outcome.scenario.mode}`).map(([g, s]) => row(g, s)),
    ...groups((outcome) => `mandate ${outcome.scenario.mandate}`).map(([g, s]) => row(g, s)),
    ...groups((outcome) => `answers ${outcome.scenario.answers}`).map(([g, s]) => row(g, s)),
    row('all', outcomes),
  ];
  printTable(header, rows, print);
  print(
    '\nsurplus: median (opening − final)/(opening − private floor) over deals; savings: median landed saving vs the ' +
      'quote; >walk, late, >quote, split1: awards above the walk-away, missing the deadline, above the quote without ' +
      "consent, split against a single-source mandate; ignored: the buyer's answers the award breaks; early: offers to " +
      'stop early.',
  );
  const examples = (label: string, items: string[]) => {
    if (items.length > 0) print(`\n${label} (${items.length}), e.g.:\n  ${items.slice(0, 4).join('\n  ')}`);
  };
  const where = (outcome: ScenarioOutcome) =>
    `#${outcome.scenario.id} ${outcome.scenario.sample.slice(0, 2)} ${outcome.scenario.mode}/${outcome.scenario.mandate}/${outcome.scenario.answers} seed ${outcome.scenario.seed}`;
  const award = (label: string, keep: (outcome: ScenarioOutcome) => boolean) =>
    examples(label, outcomes.filter(keep).map(where));
  award('awards above the walk-away', (outcome) => outcome.aboveWalkAway);
  award('awards missing the deadline', (outcome) => outcome.missingDeadline);
  award('awards above the quote without consent', (outcome) => outcome.overQuote);
  examples(
    'answers ignored',
    outcomes.flatMap((o) => o.ignoredAnswers.map((i) => `${where(o)}: "${i.answer}" — ${i.why}`)),
  );
  examples(
    'invented facts',
    outcomes.flatMap((o) => o.inventedFacts.map((i) => `${where(o)} [${i.where}] ${i.fact}: ${i.excerpt}`)),
  );
  examples(
    'leaks',
    outcomes.flatMap((o) =>
      o.leaks.map((l) => `${where(o)} [${l.sequence} → ${l.to}] ${l.kind} of ${l.about}: ${l.excerpt}`),
    ),
  );
  print(
    `\ntargets: every violation 0; buyerSurplusShare ≥ ${OUTCOME_TARGETS.buyerSurplusShare}; medianSavingsVsQuote ≥ ` +
      `${OUTCOME_TARGETS.medianSavingsVsQuote * 100}%; curveballBindingShare ≥ ${OUTCOME_TARGETS.curveballBindingShare * 100}%`,
  );
}

function printTable(header: string[], rows: string[][], print: (line: string) => void): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
  print(line(header));
  print(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) print(line(row));
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? null) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function round(value: number, decimals: number): number {
  return Math.round(value * 10 ** decimals) / 10 ** decimals;
}
