// Calls into one worker thread, each answered by id: the piece the quotation reader's worker and the compute worker
// share. The worker starts on the first call (or `start()`) and is kept for the next; calls sent while one runs wait
// in its queue. A worker that dies fails every call it holds and the next call starts a new one. An idle worker is
// unreferenced, so it never keeps a CLI or a test process alive.
import type { Worker, WorkerOptions } from 'node:worker_threads';

import { log } from '../log.js';
import { startTypeScriptWorker } from './typescript-worker.js';

/** Every answer names the call it answers; the rest is the caller's to decode. */
export interface WorkerAnswer {
  id: number;
}

export interface WorkerCallsOptions<Answer extends WorkerAnswer> {
  entry: URL;
  workerOptions?: Omit<WorkerOptions, 'eval' | 'workerData'>;
  /** For messages and logs: "the compute worker". */
  name: string;
  /** The call's result, or the error it is rejected with. */
  decode(answer: Answer): { ok: true; result: unknown } | { ok: false; error: Error };
  /** The error the calls a dying worker held are rejected with (default: "<name> failed: …"). */
  failure?(error: Error & { code?: string }): Error | undefined;
}

export interface WorkerCalls {
  /** Posts `message` with a fresh id; resolves with the decoded answer to it. */
  call(message: Record<string, unknown>, transfer?: readonly ArrayBuffer[]): Promise<unknown>;
  /** Starts the worker now (unreferenced while idle), so the first call does not wait for its modules to load. */
  start(): void;
  /** Stops the worker; calls still waiting are rejected. */
  close(): Promise<void>;
}

export function createWorkerCalls<Answer extends WorkerAnswer>(options: WorkerCallsOptions<Answer>): WorkerCalls {
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  let worker: Worker | null = null;
  let nextId = 1;

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  const start = (): Worker => {
    const started = startTypeScriptWorker(options.entry, options.workerOptions);
    started.on('message', (answer: Answer) => {
      const waiting = pending.get(answer.id);
      if (!waiting) return;
      pending.delete(answer.id);
      const decoded = options.decode(answer);
      if (decoded.ok) waiting.resolve(decoded.result);
      else waiting.reject(decoded.error);
      if (pending.size === 0) started.unref();
    });
    // 'error' comes before 'exit' when the worker threw or ran out of heap; 'exit' alone when it was terminated.
    let failure: Error | null = null;
    started.on('error', (error: Error & { code?: string }) => {
      failure = options.failure?.(error) ?? new Error(`${options.name} failed: ${error.message}`, { cause: error });
      log.warn(`${options.name} stopped`, { error, calls: pending.size });
    });
    started.on('exit', (code) => {
      if (worker === started) worker = null;
      failAll(failure ?? new Error(`${options.name} exited (code ${code})`));
    });
    return started;
  };

  return {
    call(message, transfer) {
      const current = (worker ??= start());
      const id = nextId++;
      return new Promise<unknown>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        current.ref();
        current.postMessage({ ...message, id }, transfer);
      });
    },
    start() {
      (worker ??= start()).unref();
    },
    async close() {
      const current = worker;
      worker = null;
      if (current) await current.terminate();
      failAll(new Error(`${options.name} was closed`));
    },
  };
}
