// A fresh database for one benchmark run, of either kind: an embedded PGlite directory, or a new database on the
// PostgreSQL server. Parley processes get its environment; the benchmark opens it itself only when they are down
// (PGlite is one process's database).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface BenchDatabase {
  kind: DatabaseKind;
  /** DATABASE_URL or PGLITE_DATA_DIR, as Parley reads it. */
  env: Record<string, string>;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export const POSTGRES_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(kind: DatabaseKind, label: string): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const dataDir = await mkdtemp(join(tmpdir(), `parley-${label}-`));
    return {
      kind,
      env: { PGLITE_DATA_DIR: dataDir },
      open: () => openDatabase({ kind: 'pglite', dataDir }),
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `parley_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE "${name}"`);
  const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
  return {
    kind,
    env: { DATABASE_URL: url },
    open: () => openDatabase({ kind: 'postgres', url }),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
