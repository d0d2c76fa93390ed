// Parley's CPU-heavy pure steps — the decision, the PO and review workbooks, the price chart (compute-tasks.ts) — run
// here, in a worker thread in the server, so Bolt's acks, the outbox and every other callback keep their event loop
// while a 3,000-line award is priced or written out. The callers (services) await a promise either
// way; what they write, and the fencing around it (leases, versions), stays on the main thread. One worker, started on
// first use and kept; tasks sent while one runs wait in its queue. The CLIs and the tests use `computeInProcess`.
import { COMPUTE_TASKS, type ComputeTaskName, type ComputeTasks } from './compute-tasks.js';
import { createWorkerCalls, type WorkerAnswer } from './worker-calls.js';

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

type ComputeAnswer = WorkerAnswer &
  ({ ok: true; result: unknown; buffer: boolean } | { ok: false; task: ComputeTaskName; message: string });

export function createOffThreadCompute(): OffThreadCompute {
  const calls = createWorkerCalls<ComputeAnswer>({
    entry: WORKER_ENTRY,
    name: 'the compute worker',
    decode(answer) {
      if (!answer.ok)
        return { ok: false, error: new Error(`${answer.task} failed in the compute worker: ${answer.message}`) };
      if (!answer.buffer) return { ok: true, result: answer.result };
      const bytes = answer.result as Uint8Array;
      return { ok: true, result: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    },
  });
  const run =
    <K extends ComputeTaskName>(task: K) =>
    (input: Parameters<ComputeTasks[K]>[0]): ReturnType<ComputeTasks[K]> =>
      calls.call({ task, input }) as ReturnType<ComputeTasks[K]>;

  return {
    decide: run('decide'),
    purchaseOrderWorkbook: run('purchaseOrderWorkbook'),
    reviewWorkbook: run('reviewWorkbook'),
    priceChart: run('priceChart'),
    start: () => calls.start(),
    close: () => calls.close(),
  };
}
