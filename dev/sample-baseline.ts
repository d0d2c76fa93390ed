// A bundled quotation read offline (no Claude) into the baseline a negotiation starts from, for the benchmarks.
import { readFile } from 'node:fs/promises';
import type { CatalogIndex } from '../src/catalog/catalog-index.js';
import { env } from '../src/config/env.js';
import { baselineFromQuotation } from '../src/negotiation/baseline.js';
import type { Baseline } from '../src/negotiation/types.js';
import type { NegotiationSetup } from '../src/negotiation/engine.js';
import { SIMULATED_SUPPLIERS, type SupplierProfile } from '../src/config/business-rules.js';
import { parseQuotation } from '../src/quotation/parse-quotation.js';
import { readLimitsFrom } from '../src/quotation/xlsx-reader.js';

export async function readSampleBaseline(path: string, catalog: CatalogIndex) {
  const parsed = await parseQuotation({
    data: await readFile(path),
    catalog,
    suppliers: [],
    limits: readLimitsFrom(env),
    llm: null,
  });
  return baselineFromQuotation(parsed, new Map(catalog.entries.map((e) => [e.sku, e.name])));
}

/** The first `count` lines of a baseline, its total recomputed from them: one sample read at several sizes. */
export function firstLines(baseline: Baseline, count: number): Baseline {
  const lines = baseline.lines.slice(0, count);
  return { ...baseline, lines, total: lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0) };
}

/**
 * The negotiation every benchmark runs on a sample: the quoted supplier and the two simulated ones, balanced, four
 * rounds, no target or walk-away — so the benches' figures are of one and the same negotiation.
 */
export function benchNegotiationSetup(baseline: Baseline, quotedSupplier: SupplierProfile, seed = 1): NegotiationSetup {
  return {
    seed,
    brandName: 'Valden Outdoor',
    mode: 'balanced',
    maxRounds: 4,
    mandate: { targetTotal: null, walkAwayTotal: null },
    buyerNotes: null,
    baseline,
    profiles: [quotedSupplier, ...SIMULATED_SUPPLIERS],
  };
}
