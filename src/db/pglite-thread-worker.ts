// The worker thread that runs PGlite (src/db/pglite-thread.ts). PGlite is PostgreSQL compiled to WebAssembly and runs
// every statement synchronously on the thread that calls it; on Bolt's thread, a 3,000-item insert or a big
// checkpoint froze the event loop for seconds and every acknowledgement waited (issue 15). Here it blocks only this
// thread. Statements and transactions arrive as messages, one at a time per transaction; notifications go back.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction, messages } from '@electric-sql/pglite';
import type { PGliteThreadData, ThreadReply, ThreadRequest, ThreadError } from './pglite-thread.js';

const port = parentPort;
if (!port) throw new Error('pglite-thread-worker runs as a worker thread');
const { dataDir, fromDump } = workerData as PGliteThreadData;

/** Thrown inside a transaction to have PGlite roll it back, when the caller's work failed. */
class RollBack extends Error {}

const pglite = new PGlite({ dataDir, ...(fromDump ? { loadDataDir: new Blob([readFileSync(fromDump)]) } : {}) });
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void; done: Promise<void> }>();
const unlisten = new Map<string, () => Promise<void>>();
let nextTransaction = 1;

function reply(message: ThreadReply): void {
  port?.postMessage(message);
}

function asThreadError(error: unknown): ThreadError {
  if (error instanceof messages.DatabaseError) {
    // Every field the driver adapters read (code, detail, column, constraint…), kept as PGlite set them. Only the
    // text and numbers: the query's options hold parser functions, which cannot be posted.
    const fields = Object.entries(error).filter(([, value]) => typeof value === 'string' || typeof value === 'number');
    return { ...Object.fromEntries(fields), message: error.message, database: true };
  }
  return { message: error instanceof Error ? error.message : String(error), database: false };
}

/** Columns whose types the caller parses itself arrive as PostgreSQL's text (functions cannot cross threads). */
function rawParsers(types: number[]) {
  return Object.fromEntries(types.map((oid) => [oid, (value: string) => value]));
}

async function handle(request: ThreadRequest): Promise<unknown> {
  const on = (tx: number | undefined) => {
    if (tx === undefined) return pglite;
    const open = transactions.get(tx);
    if (!open) throw new Error(`transaction ${tx} is not open`);
    return open.tx;
  };
  switch (request.op) {
    case 'query': {
      const result = await on(request.tx).query(request.sql, request.params, {
        rowMode: request.rowMode,
        parsers: rawParsers(request.rawTypes),
      });
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec': {
      const results = await on(request.tx).exec(request.sql);
      return results.map((result) => ({ rows: result.rows, fields: result.fields, affectedRows: result.affectedRows }));
    }
    case 'begin': {
      const id = nextTransaction++;
      return await new Promise<number>((began, failed) => {
        const done = pglite
          .transaction(async (tx) => {
            const commit = await new Promise<boolean>((end) => {
              transactions.set(id, { tx, end, done });
              began(id);
            });
            if (!commit && !tx.closed) throw new RollBack();
          })
          .catch((error: unknown) => {
            if (error instanceof RollBack) return;
            if (!transactions.has(id)) failed(error);
            throw error;
          });
        // Settled by 'end'; a BEGIN that failed was reported above.
        done.catch(() => {});
      });
    }
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error(`transaction ${request.tx} is not open`);
      open.end(request.commit);
      try {
        await open.done;
      } finally {
        transactions.delete(request.tx);
      }
      return null;
    }
    case 'rollback': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error(`transaction ${request.tx} is not open`);
      await open.tx.rollback();
      return null;
    }
    case 'listen':
      if (!unlisten.has(request.channel)) {
        const channel = request.channel;
        unlisten.set(channel, await pglite.listen(channel, (payload) => reply({ notify: channel, payload })));
      }
      return null;
    case 'unlisten':
      await unlisten.get(request.channel)?.();
      unlisten.delete(request.channel);
      return null;
    case 'close':
      await pglite.close();
      return null;
  }
}

port.on('message', (request: ThreadRequest) => {
  handle(request)
    .then(
      (result) => reply({ id: request.id, ok: true, result }),
      (error: unknown) => reply({ id: request.id, ok: false, error: asThreadError(error) }),
    )
    // A result that cannot be posted must still answer, or its caller would wait forever.
    .catch((error: unknown) => reply({ id: request.id, ok: false, error: asThreadError(error) }));
});

pglite.waitReady.then(
  () => reply({ ready: true }),
  (error: unknown) => reply({ ready: false, error: asThreadError(error) }),
);
