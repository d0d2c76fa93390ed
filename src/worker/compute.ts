// Parley's CPU-heavy pure steps — the decision, the PO and review workbooks, the price chart (compute-tasks.ts) — run
// here, in a worker thread in the server, so Bolt's acks, the outbox and every other callback keep their event loop
// while a 3,000-line award is priced or written out (issue 15, item 4). The callers (services) await a promise either
// way; what they write, and the fencing around it (leases, versions), stays on the main thread. One worker, started on
// first use and kept; tasks sent while one runs wait in its queue. The CLIs and the tests use `computeInProcess`.
import type { Worker } from 'node:worker_threads';

import { log } from '../log.js';
import { COMPUTE_TASKS, type ComputeTaskName, type ComputeTasks } from './compute-tasks.js';
import { startTypeScriptWorker } from './typescript-worker.js';

/** Each task as an async function of its input. */
export type Compute = { [K in ComputeTaskName]: ComputeTasks[K] };

/** The tasks in this thread (CLIs, tests, the in-process default of a service context). */
export const computeInProcess: Compute = COMPUTE_TASKS;

export interface OffThreadCompute extends Compute {
  /**
   * Starts the worker now rather than on the first task: loading its modules (exceljs, vega, resvg; through tsx) is
   * seconds of CPU, in its own thread, better spent at start than in front of a negotiation's conclusion.
   */
  start(): void;
  /** Stops the worker; tasks still waiting are rejected. */
  close(): Promise<void>;
}

const WORKER_ENTRY = new URL('./compute-worker.ts', import.meta.url);

type WorkerAnswer =
  { id: number; ok: true; result: unknown; buffer: boolean } | { id: number; ok: false; message: string };

interface Pending {
  task: ComputeTaskName;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

export function createOffThreadCompute(): OffThreadCompute {
  const pending = new Map<number, Pending>();
  let worker: Worker | null = null;
  let nextId = 1;

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  const start = (): Worker => {
    const started = startTypeScriptWorker(WORKER_ENTRY);
    started.on('message', (answer: WorkerAnswer) => {
      const waiting = pending.get(answer.id);
      if (!waiting) return;
      pending.delete(answer.id);
      if (!answer.ok) waiting.reject(new Error(`${waiting.task} failed in the compute worker: ${answer.message}`));
      else if (answer.buffer) {
        const bytes = answer.result as Uint8Array;
        waiting.resolve(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      } else waiting.resolve(answer.result);
      // An idle worker must not keep a CLI or a test process alive.
      if (pending.size === 0) started.unref();
    });
    let failure: Error | null = null;
    started.on('error', (error: Error) => {
      failure = new Error(`the compute worker failed: ${error.message}`, { cause: error });
      log.warn('the compute worker stopped', { error, tasks: pending.size });
    });
    started.on('exit', (code) => {
      if (worker === started) worker = null;
      failAll(failure ?? new Error(`the compute worker exited (code ${code})`));
    });
    return started;
  };

  const run =
    <K extends ComputeTaskName>(task: K) =>
    (input: Parameters<ComputeTasks[K]>[0]): ReturnType<ComputeTasks[K]> => {
      const current = (worker ??= start());
      const id = nextId++;
      const answer = new Promise<unknown>((resolve, reject) => {
        pending.set(id, { task, resolve, reject });
        current.ref();
        current.postMessage({ id, task, input });
      });
      return answer as ReturnType<ComputeTasks[K]>;
    };

  return {
    decide: run('decide'),
    purchaseOrderWorkbook: run('purchaseOrderWorkbook'),
    reviewWorkbook: run('reviewWorkbook'),
    priceChart: run('priceChart'),
    start() {
      // Unreferenced while idle, like after a task: a started worker must not keep a process alive.
      (worker ??= start()).unref();
    },
    async close() {
      const current = worker;
      worker = null;
      if (current) await current.terminate();
      failAll(new Error('the compute worker was closed'));
    },
  };
}
