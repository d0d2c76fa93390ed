// The worker thread behind off-thread-sheet-reader.ts: reads the workbooks it is sent, one answer per request id.
// Only plain data crosses the thread boundary (structured clone), so a QuotationError travels as its code and sentence.
import { parentPort } from 'node:worker_threads';

import { z } from 'zod';

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

port.on('message', (raw: unknown) => {
  const ping = pingSchema.safeParse(raw);
  if (ping.success) {
    port.postMessage({ id: ping.data.id, ok: true, result: null });
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
