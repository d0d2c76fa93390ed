// The fuzzer's worker thread: builds each case it is asked for from (seed, index) and runs it through the ingestion.
// Cases run here, not in the runner's thread, so that a case that never ends can be stopped (the runner terminates
// the whole thread) and one that exhausts memory takes down this thread, not the process.
import { parentPort, workerData } from 'node:worker_threads';

import { z } from 'zod';

import { buildFuzzCase, loadFuzzCorpus } from './fuzz-cases.js';
import { describeError, ingestOnce, loadFuzzCatalog } from './fuzz-ingest.js';

export const workerInitSchema = z.object({
  seed: z.number().int(),
  samplesDir: z.string().optional(),
  catalog: z.enum(['full', 'empty']),
  sabotage: z.object({ hangAt: z.array(z.number()), dieAt: z.array(z.number()), lateAt: z.array(z.number()) }),
  limits: z.object({
    maxBytes: z.number().positive(),
    maxRowsPerSheet: z.number().int().positive(),
    maxCells: z.number().int().positive(),
  }),
});

const runMessageSchema = z.object({ type: z.literal('run'), index: z.number().int().min(0) });

const port = parentPort;
if (!port) throw new Error('fuzz-worker.ts runs as a worker thread (see ingestion-fuzz.ts)');

const init = workerInitSchema.parse(workerData);
const corpus = await loadFuzzCorpus(init.samplesDir);
const catalog = await loadFuzzCatalog(init.catalog);

port.on('message', (raw: unknown) => {
  const { index } = runMessageSchema.parse(raw);
  void runCase(index);
});
port.postMessage({ type: 'ready' });

async function runCase(index: number): Promise<void> {
  let built;
  try {
    built = await buildFuzzCase(init.seed, index, corpus);
  } catch (error) {
    port?.postMessage({
      type: 'done',
      index,
      ms: 0,
      outcome: { kind: 'crash', error: `the fuzzer could not build the case: ${describeError(error)}` },
    });
    return;
  }
  port?.postMessage({
    type: 'started',
    index,
    family: built.family,
    mutation: built.mutation,
    bytes: built.data.length,
  });
  if (init.sabotage.hangAt.includes(index)) {
    // A synchronous loop, the worst kind of hang: only terminating the thread ends it.
    for (;;);
  }
  if (init.sabotage.dieAt.includes(index)) {
    setImmediate(() => {
      throw new Error(`sabotaged case ${index}`);
    });
    return;
  }
  const started = performance.now();
  const outcome = await ingestOnce(built.data, { catalog, limits: init.limits });
  port?.postMessage({ type: 'done', index, ms: performance.now() - started, outcome });
  if (init.sabotage.lateAt.includes(index)) {
    setTimeout(() => {
      throw new Error(`sabotaged case ${index}, after it ended`);
    }, 20);
  }
}
