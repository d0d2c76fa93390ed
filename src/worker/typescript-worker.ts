// Starts a worker thread on a TypeScript module. Parley runs through tsx (npm start, the CLIs, vitest), and a worker
// thread does not inherit the parent's module loader: the worker first registers tsx's ESM loader, then imports its
// entry. One place for it, used by worker-calls.ts (the quotation reader's and the compute worker) and the fuzzer.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

import { z } from 'zod';

const BOOT_SCRIPT = `(async () => {
  const { workerData } = await import('node:worker_threads');
  const { register } = await import(workerData.tsxApi);
  register();
  await import(workerData.entry);
})().catch((error) => { throw error; });`;

let tsxApi: string | undefined;

/** tsx's ESM API module (its `import` export; the CommonJS twin cannot register from a worker). */
function tsxEsmApi(): string {
  if (tsxApi) return tsxApi;
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = z
    .object({ exports: z.object({ './esm/api': z.object({ import: z.object({ default: z.string() }) }) }) })
    .parse(JSON.parse(readFileSync(packageJson, 'utf8')));
  tsxApi = pathToFileURL(join(dirname(packageJson), exports['./esm/api'].import.default)).href;
  return tsxApi;
}

/**
 * A worker thread running `entry` (a .ts module). Its `workerData` is the given object plus `tsxApi` and `entry`,
 * which the entry can ignore.
 */
export function startTypeScriptWorker(
  entry: URL,
  options: Omit<WorkerOptions, 'eval' | 'workerData'> & { workerData?: Record<string, unknown> } = {},
): Worker {
  return new Worker(BOOT_SCRIPT, {
    ...options,
    eval: true,
    workerData: { ...options.workerData, tsxApi: tsxEsmApi(), entry: entry.href },
  });
}
