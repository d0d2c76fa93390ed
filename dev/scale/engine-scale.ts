// The engine alone, in memory, on the first 16, 300 and 3,000 lines of the 3,000-line sample: seconds, ms per line,
// and the checkpoint a step would write whole (its JSON size), so the cost per line can be compared across sizes.
// The database and Slack parts of `bench scale` (issue 18) are not measured here.
import { SIMULATED_SUPPLIERS } from '../../src/config/business-rules.js';
import { CatalogIndex, toCatalogEntries } from '../../src/catalog/catalog-index.js';
import { CATALOG_CSV, readCatalogCsv } from '../../src/catalog/products-csv.js';
import { createNegotiationAgents } from '../../src/negotiation/agents/create-agents.js';
import { runUnattended } from '../../src/negotiation/run-unattended.js';
import type { Baseline } from '../../src/negotiation/types.js';
import { readSampleBaseline } from '../sample-baseline.js';

export interface EngineScaleRow {
  lines: number;
  seconds: number;
  msPerLine: number;
  steps: number;
  finalCheckpointBytes: number;
}

/** The first `count` lines of a baseline, its total recomputed from them. */
export function firstLines(baseline: Baseline, count: number): Baseline {
  const lines = baseline.lines.slice(0, count);
  return { ...baseline, lines, total: lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0) };
}

export async function runEngineScale(samplePath: string, sizes: readonly number[]): Promise<EngineScaleRow[]> {
  const catalog = CatalogIndex.build(toCatalogEntries(await readCatalogCsv(CATALOG_CSV)));
  const { baseline, quotedSupplier } = await readSampleBaseline(samplePath, catalog);
  const agents = createNegotiationAgents(null);
  const rows: EngineScaleRow[] = [];
  for (const size of sizes) {
    let steps = 0;
    let bytes = 0;
    const started = performance.now();
    await runUnattended(
      {
        seed: 1,
        brandName: 'Valden Outdoor',
        mode: 'balanced',
        maxRounds: 4,
        mandate: { targetTotal: null, walkAwayTotal: null },
        buyerNotes: null,
        baseline: firstLines(baseline, size),
        profiles: [quotedSupplier, ...SIMULATED_SUPPLIERS],
      },
      agents,
      { answers: 'auto', earlyTermination: 'continue' },
    ).then(({ state }) => {
      steps = state.stepCount;
      bytes = Buffer.byteLength(JSON.stringify(state));
    });
    const seconds = (performance.now() - started) / 1000;
    const lines = Math.min(size, baseline.lines.length);
    rows.push({ lines, seconds, msPerLine: (seconds * 1000) / lines, steps, finalCheckpointBytes: bytes });
  }
  return rows;
}
