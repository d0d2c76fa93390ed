// The engine alone, in memory, on the first 16, 300 and 3,000 lines of the 3,000-line sample: seconds, ms per line,
// and the final state's JSON size (what a step wrote whole before checkpoints were stored as deltas). The same
// negotiations through the database are dev/scale/negotiation-db-scale.ts.
import { CatalogIndex, toCatalogEntries } from '../../src/catalog/catalog-index.js';
import { CATALOG_CSV, readCatalogCsv } from '../../src/catalog/products-csv.js';
import { createNegotiationAgents } from '../../src/negotiation/agents/create-agents.js';
import { runUnattended } from '../../src/negotiation/run-unattended.js';
import { benchNegotiationSetup, firstLines, readSampleBaseline } from '../sample-baseline.js';

export interface EngineScaleRow {
  lines: number;
  seconds: number;
  msPerLine: number;
  steps: number;
  finalCheckpointBytes: number;
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
    await runUnattended(benchNegotiationSetup(firstLines(baseline, size), quotedSupplier), agents, {
      answers: 'auto',
      earlyTermination: 'continue',
    }).then(({ state }) => {
      steps = state.stepCount;
      bytes = Buffer.byteLength(JSON.stringify(state));
    });
    const seconds = (performance.now() - started) / 1000;
    const lines = Math.min(size, baseline.lines.length);
    rows.push({ lines, seconds, msPerLine: (seconds * 1000) / lines, steps, finalCheckpointBytes: bytes });
  }
  return rows;
}
