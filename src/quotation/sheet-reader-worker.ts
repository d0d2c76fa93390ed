// The worker thread behind off-thread-sheet-reader.ts: reads the workbooks it is sent and matches their lines against
// the catalog indexes it keeps, one answer per request id. Only plain data crosses the thread boundary (structured
// clone), so a QuotationError travels as its code and sentence.
import { parentPort } from 'node:worker_threads';

import { z } from 'zod';

import { CatalogIndex, type CatalogEntry } from '../catalog/catalog-index.js';
import { type MatchQuery, rankLines } from '../catalog/matcher.js';
import { QuotationError } from './errors.js';
import { readGridInProcess, readSheetsInProcess } from './sheet-reader.js';

const requestSchema = z.object({
  id: z.number().int(),
  data: z.instanceof(Uint8Array),
  limits: z.object({
    maxBytes: z.number(),
    maxRowsPerSheet: z.number(),
    maxCells: z.number(),
  }),
  /** How to structure the grids (what the buyer settled about the file); null: the grids alone (a catalog). */
  structure: z
    .object({
      buyerNames: z.array(z.string()).optional(),
      priceColumn: z.object({ sheet: z.string(), column: z.number().int(), name: z.string() }).optional(),
    })
    .nullable(),
});

const port = parentPort;
if (!port) throw new Error('sheet-reader-worker.ts runs as a worker thread (see off-thread-sheet-reader.ts)');

/** Asked once at start (OffThreadSheetReader.warmUp): answered as soon as this module, and so the reader, is loaded. */
const pingSchema = z.object({ id: z.number().int(), ping: z.literal(true) });

/**
 * The catalog indexes this worker built, by key (workspace and catalog version), the latest few: building one is ~0.3 s
 * of CPU for 10,000 products, matching a line a fraction of a millisecond. The rows come from the server's own query,
 * so they are taken as they are.
 */
const catalogs = new Map<string, CatalogIndex>();
const CATALOGS_KEPT = 4;
const loadSchema = z.object({
  id: z.number().int(),
  load: z.object({ key: z.string(), products: z.array(z.custom<CatalogEntry>()) }),
});
const rankSchema = z.object({
  id: z.number().int(),
  rank: z.object({ key: z.string(), queries: z.array(z.custom<MatchQuery>()), pools: z.boolean() }),
});

port.on('message', (raw: unknown) => {
  const ping = pingSchema.safeParse(raw);
  if (ping.success) {
    port.postMessage({ id: ping.data.id, ok: true, result: null });
    return;
  }
  const load = loadSchema.safeParse(raw);
  if (load.success) {
    const { id, load: catalog } = load.data;
    answer(id, () => {
      catalogs.delete(catalog.key);
      catalogs.set(catalog.key, CatalogIndex.build(catalog.products));
      for (const key of [...catalogs.keys()].slice(0, -CATALOGS_KEPT)) catalogs.delete(key);
      return null;
    });
    return;
  }
  const rank = rankSchema.safeParse(raw);
  if (rank.success) {
    const { id, rank: request } = rank.data;
    answer(id, () => {
      const index = catalogs.get(request.key);
      return index ? rankLines(index, request.queries, { pools: request.pools }) : null;
    });
    return;
  }
  const { id, data, limits, structure } = requestSchema.parse(raw);
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const read = structure ? readSheetsInProcess(bytes, limits, structure) : readGridInProcess(bytes, limits);
  read.then(
    (result) => port.postMessage({ id, ok: true, result }),
    (error: unknown) =>
      port.postMessage({
        id,
        ok: false,
        error:
          error instanceof QuotationError
            ? { kind: 'quotation', code: error.code, userMessage: error.userMessage }
            : { kind: 'internal', message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      }),
  );
});

/** Answers `id` with what `work` returns, or with the internal error it threw. */
function answer(id: number, work: () => unknown) {
  if (!port) return;
  try {
    port.postMessage({ id, ok: true, result: work() });
  } catch (error) {
    port.postMessage({ id, ok: false, error: { kind: 'internal', message: errorText(error) } });
  }
}

const errorText = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));
