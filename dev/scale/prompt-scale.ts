// Issue 18's prompt figures for `bench scale`: one whole Claude negotiation (fake Messages API, answers at their
// longest, the decision memo included) on the first 16 and on all 3,000 lines of the same quotation. A turn's prompt
// is counted with the SDK's `messages.countTokens` (tools and the tool-use system prompt included); the cost is what
// the fake bills, cache writes and reads priced as the API prices them.
import { CatalogIndex, toCatalogEntries } from '../../src/catalog/catalog-index.js';
import { CATALOG_CSV, readCatalogCsv } from '../../src/catalog/products-csv.js';
import { readSampleBaseline } from '../sample-baseline.js';
import { claudeNegotiation, costOf } from './claude-negotiation.js';
import { firstLines } from '../sample-baseline.js';

export interface PromptScaleRow {
  lines: number;
  calls: number;
  /** The largest prompt of any negotiating turn, brand or supplier, in tokens. */
  promptTokensPerTurn: number;
  brandTurnTokens: number;
  supplierTurnTokens: number;
  estCostUsd: number;
  fallbacks: number;
}

export interface PromptScaleFigures {
  promptTokensPerTurn16: number;
  promptTokensPerTurn3000: number;
  estCostUsd16: number;
  estCostUsd3000: number;
}

export async function runPromptScale(samplePath: string, sizes: readonly number[] = [16, 3000]) {
  const catalog = CatalogIndex.build(toCatalogEntries(await readCatalogCsv(CATALOG_CSV)));
  const { baseline, quotedSupplier } = await readSampleBaseline(samplePath, catalog);
  const rows: PromptScaleRow[] = [];
  for (const size of sizes) {
    const lines = firstLines(baseline, size);
    const run = await claudeNegotiation(lines, quotedSupplier);
    const brand = Math.max(0, ...run.brandTurns);
    const supplier = Math.max(0, ...run.supplierTurns);
    rows.push({
      lines: lines.lines.length,
      calls: run.requests.length,
      promptTokensPerTurn: Math.max(brand, supplier),
      brandTurnTokens: brand,
      supplierTurnTokens: supplier,
      estCostUsd: costOf(run.usage),
      fallbacks: run.fallbacks.length,
    });
  }
  return rows;
}

/** The JSON keys `bench scale` prints for the prompts, from the 16- and 3,000-line rows. */
export function promptScaleFigures(rows: readonly PromptScaleRow[]): PromptScaleFigures {
  const at = (lines: number) => rows.find((row) => row.lines === lines);
  const cents = (usd: number) => Math.round(usd * 10_000) / 10_000;
  return {
    promptTokensPerTurn16: at(16)?.promptTokensPerTurn ?? 0,
    promptTokensPerTurn3000: at(3000)?.promptTokensPerTurn ?? 0,
    estCostUsd16: cents(at(16)?.estCostUsd ?? 0),
    estCostUsd3000: cents(at(3000)?.estCostUsd ?? 0),
  };
}
