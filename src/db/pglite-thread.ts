// PGlite in a worker thread, with the part of PGlite's interface that Prisma's adapter, pg-boss and the migrations use
// (query, exec, transaction, listen, close). PGlite executes each statement synchronously on the thread that calls it:
// on Bolt's thread, the large story's event loop stood still for up to 13 s (a 3,000-item insert, big checkpoints),
// and acknowledgements waited 25 s before their listener even ran (issue 15). Run here, a statement blocks only the
// worker, and this thread keeps answering Slack.
import type { Worker } from 'node:worker_threads';
import { messages, type PGlite, type Results, type Transaction } from '@electric-sql/pglite';
import { startTypeScriptWorker } from '../worker/typescript-worker.js';

const WORKER_ENTRY = new URL('./pglite-thread-worker.ts', import.meta.url);

export type ThreadRequest = { id: number } & (
  | {
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object' | undefined;
      rawTypes: number[];
      tx?: number;
    }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'rollback'; tx: number }
  | { op: 'listen' | 'unlisten'; channel: string }
  | { op: 'close' }
);

/** Where the worker's PGlite lives: a directory or memory, and the dump (a tarball's path) it starts from. */
export type PGliteThreadData = { dataDir?: string; fromDump?: string };

export type ThreadError = { message: string; database: boolean } & Record<string, unknown>;

export type ThreadReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: ThreadError }
  | { notify: string; payload: string }
  | { ready: true }
  | { ready: false; error: ThreadError };

type Parser = (value: string, typeId: number) => unknown;
interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, Parser>;
}

/** A PostgreSQL error as PGlite raised it in the worker: the same class, so the adapters map its code. */
function fromThread(error: ThreadError): Error {
  if (!error.database) return new Error(error.message);
  const { message, database: _database, length, name, ...fields } = error;
  const rebuilt = new messages.DatabaseError(
    message,
    typeof length === 'number' ? length : 0,
    (typeof name === 'string' ? name : 'error') as messages.MessageName,
  );
  return Object.assign(rebuilt, fields);
}

/** Applies the caller's parsers to the columns the worker left as text. */
function parsed(result: Results, parsers: Record<number, Parser> | undefined): Results {
  if (!parsers) return result;
  const columns = result.fields.map((field, index) => ({ index, name: field.name, parse: parsers[field.dataTypeID] }));
  const withParser = columns.filter((column) => column.parse);
  if (withParser.length === 0) return result;
  for (const row of result.rows as Record<string | number, unknown>[]) {
    for (const column of withParser) {
      const key = Array.isArray(row) ? column.index : column.name;
      const value = row[key];
      if (typeof value === 'string' && column.parse) {
        row[key] = column.parse(value, result.fields[column.index]?.dataTypeID ?? 0);
      }
    }
  }
  return result;
}

/** How long closing waits for PGlite to close itself before its thread is ended. */
export const PGLITE_CLOSE_WAIT_MS = 5_000;

export class PGliteThread {
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();

  constructor(where: PGliteThreadData = {}) {
    this.worker = startTypeScriptWorker(WORKER_ENTRY, { workerData: where });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (message: ThreadReply) => {
        if ('ready' in message) {
          if (this.pending.size === 0) this.worker.unref();
          return message.ready ? resolve() : reject(fromThread(message.error));
        }
        if ('notify' in message) {
          for (const listener of this.listeners.get(message.notify) ?? []) listener(message.payload);
          return;
        }
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (this.pending.size === 0) this.worker.unref();
        if (message.ok) waiting?.resolve(message.result);
        else waiting?.reject(fromThread(message.error));
      });
      this.worker.on('error', (error) => {
        reject(error);
        for (const waiting of this.pending.values()) waiting.reject(error);
        this.pending.clear();
      });
    });
  }

  private call<T>(request: DistributiveOmit<ThreadRequest, 'id'>): Promise<T> {
    const id = this.nextId++;
    // The worker keeps the process alive only while a statement is in flight, as a connection's socket would: a
    // script that ends without closing the database still exits.
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  private async run<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number) {
    const result = await this.call<Results>({
      op: 'query',
      sql,
      params,
      rowMode: options.rowMode,
      rawTypes: Object.keys(options.parsers ?? {}).map(Number),
      ...(tx === undefined ? {} : { tx }),
    });
    return parsed(result, options.parsers) as Results<T>;
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.run<T>(sql, params, options);
  }

  exec(sql: string): Promise<Results[]> {
    return this.call<Results[]>({ op: 'exec', sql });
  }

  /** A transaction in the worker; committed when `work` resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = await this.call<number>({ op: 'begin' });
    let closed = false;
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
        open();
        return this.run<R>(sql, params, options, id);
      },
      exec: (sql: string) => {
        open();
        return this.call<Results[]>({ op: 'exec', sql, tx: id });
      },
      rollback: async () => {
        open();
        await this.call({ op: 'rollback', tx: id });
        closed = true;
      },
      get closed() {
        return closed;
      },
    };
    let value: T;
    try {
      value = await work(tx as unknown as Transaction);
    } catch (error) {
      await this.call({ op: 'end', tx: id, commit: false }).catch(() => {});
      throw error;
    }
    await this.call({ op: 'end', tx: id, commit: true });
    return value;
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.call({ op: 'listen', channel });
    }
    set.add(callback);
    return async () => {
      set.delete(callback);
      if (set.size === 0 && this.listeners.get(channel) === set) {
        this.listeners.delete(channel);
        await this.call({ op: 'unlisten', channel });
      }
    };
  }

  async close(): Promise<void> {
    let waited: NodeJS.Timeout | undefined;
    try {
      // PGlite's close waits for a transaction still open, and one whose work never ends (background work that
      // outlived the app's stop) would hold the shutdown for ever. After a bounded wait the thread is ended as a crash
      // would end it: an in-memory database is gone anyway, a folder's is recovered from its WAL at the next open.
      const timedOut = new Promise<void>((resolve) => (waited = setTimeout(resolve, PGLITE_CLOSE_WAIT_MS)));
      await Promise.race([this.call({ op: 'close' }), timedOut]);
    } finally {
      clearTimeout(waited);
      await this.worker.terminate();
    }
  }

  /**
   * This as the PGlite type the driver adapter and pg-boss's `fromPglite` are declared with: they call only the
   * methods above (query with rowMode and parsers, exec, transaction and its tx.query/exec/rollback, listen).
   */
  asPGlite(): PGlite {
    return this as unknown as PGlite;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
