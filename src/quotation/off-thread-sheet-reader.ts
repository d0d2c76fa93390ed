// Reads quotations in a worker thread, so the server's event loop — Bolt's acks, the outbox, the engine — keeps
// running while a large file is unpacked and structured (sample 13, 3,000 lines: 0.5–1.5 s of CPU), and matches their
// lines against the catalog there too (`catalog`: the index built and kept in the worker, ~0.3 s to build and ~0.35 s
// to match 3,000 lines that ran on the event loop before). One worker,
// started by warmUp (the server, before it listens) or else the first read, and kept for the next; reads sent while
// one runs wait in its queue. The worker has its own heap limit: a file that needs more memory than that takes down
// the worker, not the process, and is turned down with a sentence; the next read starts a new worker.
import { createWorkerCalls, type WorkerAnswer } from '../worker/worker-calls.js';
import { type QuotationErrorCode, QuotationError, type ReadLimits } from './errors.js';
import type { CatalogEntry } from '../catalog/catalog-index.js';
import type { CatalogRanker, RankedLines } from '../catalog/matcher.js';
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
  /**
   * Starts the worker and resolves once it has loaded its modules (tsx compiling the reader and its dependencies:
   * seconds on a busy machine), so the first file shared after a start is not read by a worker still loading.
   */
  warmUp(): Promise<void>;
  /** Catalog matching in the same worker. */
  catalog: CatalogRanker;
  /** Stops the worker; reads still waiting are rejected. */
  close(): Promise<void>;
}

type ReaderAnswer = WorkerAnswer &
  (
    | { ok: true; result: ReadSheets | WorkbookGrid | RankedLines | null }
    | {
        ok: false;
        error:
          { kind: 'quotation'; code: QuotationErrorCode; userMessage: string } | { kind: 'internal'; message: string };
      }
  );

export function createOffThreadSheetReader(options: { heapMb?: number } = {}): OffThreadSheetReader {
  const heapMb = options.heapMb ?? DEFAULT_WORKER_HEAP_MB;
  const calls = createWorkerCalls<ReaderAnswer>({
    entry: WORKER_ENTRY,
    workerOptions: { resourceLimits: { maxOldGenerationSizeMb: heapMb } },
    name: "the workbook reader's worker",
    decode(answer) {
      if (answer.ok) return { ok: true, result: answer.result };
      if (answer.error.kind === 'quotation') {
        return { ok: false, error: new QuotationError(answer.error.code, answer.error.userMessage) };
      }
      return { ok: false, error: new Error(`reading the workbook failed in the worker: ${answer.error.message}`) };
    },
    failure: (error) =>
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new QuotationError('too_large', OUT_OF_MEMORY, { cause: error })
        : undefined,
  });

  /** Sends one read to the worker; `structure: null` answers with the grids alone. */
  const request = (data: Buffer, limits: ReadLimits, structure: StructureOptions | null) =>
    // A copy, not a transfer: the caller's Buffer may share its memory with other Buffers (Node's pool).
    calls.call({ data: new Uint8Array(data), limits, structure }) as Promise<ReadSheets | WorkbookGrid>;

  return {
    read: (data, limits, options = {}) => request(data, limits, options) as Promise<ReadSheets>,
    readGrid: (data, limits) => request(data, limits, null) as Promise<WorkbookGrid>,
    warmUp: async () => {
      await calls.call({ ping: true });
    },
    catalog: {
      load: async (key: string, products: readonly CatalogEntry[]) => {
        await calls.call({ load: { key, products } });
      },
      rank: (key, queries, options) =>
        calls.call({ rank: { key, queries, pools: options.pools } }) as Promise<RankedLines | null>,
    },
    close: () => calls.close(),
  };
}
