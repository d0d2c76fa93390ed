// One Prisma client for either backend: embedded PGlite (the default, stored under data/) or a PostgreSQL server
// (when DATABASE_URL is set). Everything above this file sees the same `Database` and never asks which it got.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { fromPglite } from 'pg-boss';
import type { JobQueueConnection } from '../jobs/background-work.js';
import { PGliteAdapterFactory } from './pglite-adapter.js';
import { lockPgliteFolder } from './pglite-lock.js';
import { PrismaClient } from '../generated/prisma/client.js';

export type { PrismaClient } from '../generated/prisma/client.js';

/** A single connection for multi-statement scripts (migrations), which prepared statements cannot run. */
export interface ScriptConnection {
  exec(sql: string): Promise<void>;
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface Database {
  readonly prisma: PrismaClient;
  readonly kind: 'pglite' | 'postgres';
  /** Where it lives, for logs: a directory, `memory`, or the server URL without credentials plus the schema. */
  readonly location: string;
  /** Where pg-boss keeps its jobs: this database, in a schema of its own (src/jobs/background-work.ts). */
  readonly jobQueue: JobQueueConnection;
  withScriptConnection<T>(work: (connection: ScriptConnection) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type OpenDatabaseOptions =
  | {
      kind: 'pglite';
      /** A directory, or omitted for an in-memory database. */ dataDir?: string;
      /**
       * A data directory dumped by PGlite's `dumpDataDir` (an uncompressed tarball) for an in-memory database to start
       * from instead of an empty cluster: loading one is several times faster than PGlite's own first start (tests).
       */
      fromDump?: string;
    }
  | {
      kind: 'postgres';
      url: string;
      /** A PostgreSQL schema other than public (tests use one per file). */ schema?: string;
      poolSize?: number;
    };

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.kind === 'pglite' ? openPglite(options) : openPostgres(options.url, options.schema, options.poolSize);
}

async function openPglite({ dataDir, fromDump }: OpenDatabaseOptions & { kind: 'pglite' }): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // PGlite cannot see another process on the same files, and two writers corrupt them: the folder is this process's
  // until close (or exit), and a second opener is refused with a sentence naming the holder.
  const lock = dataDir ? await lockPgliteFolder(dataDir) : null;
  // On this thread, one connection for everyone: PGlite runs each statement synchronously and its own lock serves
  // statements and transactions first come, first served (a statement outside a transaction waits for the open one).
  // Its loads (the demo, the tests, the CLIs, one small instance) afford it: the default story's acks took at most
  // 155 ms, ten stories at once p99 514 ms (bench reliability --parts load --backends pglite), and the stories ran
  // faster than through a worker thread and priority lanes. Large loads are PostgreSQL's.
  const pglite = new PGlite({
    dataDir,
    ...(fromDump ? { loadDataDir: new Blob([await readFile(fromDump)]) } : {}),
  });
  try {
    await pglite.waitReady;
  } catch (error) {
    await pglite.close().catch(() => {});
    lock?.release();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PGliteAdapterFactory(pglite) });
  // A script runs on it directly, taking its turns like everyone else.
  const connection: ScriptConnection = {
    async exec(sql) {
      await pglite.exec(sql);
    },
    async query<Row>(sql: string, params: unknown[] = []) {
      return (await pglite.query<Row>(sql, params)).rows;
    },
  };
  return {
    prisma,
    kind: 'pglite',
    location: dataDir ?? 'memory',
    // The same PGlite: one connection, whose queue serialises pg-boss's statements with Prisma's transactions.
    jobQueue: { db: fromPglite(pglite), backend: 'pglite' },
    withScriptConnection: (work) => work(connection),
    async close() {
      try {
        // Prisma's disconnect ends a transaction still open (work that outlived the app's stop), which PGlite's close
        // would otherwise wait for.
        await prisma.$disconnect();
        await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
}

async function openPostgres(url: string, schema: string | undefined, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Unqualified names in the migrations resolve to the chosen schema.
    options: schema ? `-c search_path="${schema}"` : undefined,
  });
  // An idle client whose server connection drops emits 'error'; unhandled, that would kill the process. The pool
  // replaces the client and the next query reconnects.
  pool.on('error', () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, schema ? { schema } : undefined) });
  const { host, pathname } = new URL(url);
  return {
    prisma,
    kind: 'postgres',
    // pg-boss's own small pool (and a listening connection); a test schema gets a job schema of its own.
    jobQueue: { connectionString: url, schema: schema ? `${schema}_jobs` : undefined, max: 3 },
    location: `postgresql://${host}${pathname}${schema ? `?schema=${schema}` : ''}`,
    async withScriptConnection(work) {
      const client = await pool.connect();
      try {
        return await work({
          async exec(sql) {
            await client.query(sql);
          },
          async query<Row>(sql: string, params: unknown[] = []) {
            return (await client.query(sql, params)).rows as Row[];
          },
        });
      } finally {
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
