// Reads quotations in a worker thread, so the server's event loop — Bolt's acks, the outbox, the engine — keeps
// running while a large file is unpacked and structured (sample 13, 3,000 lines: 0.5–1.5 s of CPU). One worker,
// started on the first read and kept for the next; reads sent while one runs wait in its queue. The worker has its own
// heap limit: a file that needs more memory than that takes down the worker, not the process, and is turned down
// with a sentence; the next read starts a new worker.
import type { Worker } from 'node:worker_threads';

import { log } from '../log.js';
import { startTypeScriptWorker } from '../worker/typescript-worker.js';
import { type QuotationErrorCode, QuotationError, type ReadLimits } from './errors.js';
import type { StructureOptions } from './structurer.js';
import type { WorkbookGrid } from './types.js';
import type { GridReader, ReadSheets, SheetReader } from './sheet-reader.js';

const WORKER_ENTRY = new URL('./sheet-reader-worker.ts', import.meta.url);

/** The worker's heap: far above what the read limits let a file use, far below what would starve the process. */
const DEFAULT_WORKER_HEAP_MB = 1024;

const OUT_OF_MEMORY =
  'This file needs more memory to read than Parley allows for one quotation. Split it into smaller files, or ' +
  'save it again from Excel (a damaged or unusual file can also cause this).';

export interface OffThreadSheetReader {
  read: SheetReader;
  readGrid: GridReader;
  /** Stops the worker; reads still waiting are rejected. */
  close(): Promise<void>;
}

type WorkerAnswer =
  | { id: number; ok: true; result: ReadSheets | WorkbookGrid }
  | {
      id: number;
      ok: false;
      error:
        { kind: 'quotation'; code: QuotationErrorCode; userMessage: string } | { kind: 'internal'; message: string };
    };

interface Pending {
  resolve: (result: ReadSheets | WorkbookGrid) => void;
  reject: (error: Error) => void;
}

export function createOffThreadSheetReader(options: { heapMb?: number } = {}): OffThreadSheetReader {
  const heapMb = options.heapMb ?? DEFAULT_WORKER_HEAP_MB;
  const pending = new Map<number, Pending>();
  let worker: Worker | null = null;
  let nextId = 1;

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  const start = (): Worker => {
    const started = startTypeScriptWorker(WORKER_ENTRY, { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    started.on('message', (answer: WorkerAnswer) => {
      const waiting = pending.get(answer.id);
      if (!waiting) return;
      pending.delete(answer.id);
      if (answer.ok) waiting.resolve(answer.result);
      else if (answer.error.kind === 'quotation')
        waiting.reject(new QuotationError(answer.error.code, answer.error.userMessage));
      else waiting.reject(new Error(`reading the workbook failed in the worker: ${answer.error.message}`));
      // An idle worker must not keep a CLI or a test process alive.
      if (pending.size === 0) started.unref();
    });
    // 'error' comes before 'exit' when the worker threw or ran out of heap; 'exit' alone when it was terminated.
    let failure: Error | null = null;
    started.on('error', (error: Error & { code?: string }) => {
      failure =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new QuotationError('too_large', OUT_OF_MEMORY, { cause: error })
          : new Error(`the workbook reader's worker failed: ${error.message}`, { cause: error });
      log.warn('the workbook reader worker stopped', { error, reads: pending.size });
    });
    started.on('exit', (code) => {
      if (worker === started) worker = null;
      failAll(failure ?? new Error(`the workbook reader's worker exited (code ${code})`));
    });
    return started;
  };

  /** Sends one read to the worker; `structure: null` answers with the grids alone. */
  const request = (data: Buffer, limits: ReadLimits, structure: StructureOptions | null) => {
    const current = (worker ??= start());
    const id = nextId++;
    return new Promise<ReadSheets | WorkbookGrid>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      current.ref();
      // A copy, not a transfer: the caller's Buffer may share its memory with other Buffers (Node's pool).
      current.postMessage({ id, data: new Uint8Array(data), limits, structure });
    });
  };

  return {
    read: (data, limits, options = {}) => request(data, limits, options) as Promise<ReadSheets>,
    readGrid: (data, limits) => request(data, limits, null) as Promise<WorkbookGrid>,
    async close() {
      const current = worker;
      worker = null;
      if (current) await current.terminate();
      failAll(new Error('the workbook reader was closed'));
    },
  };
}
