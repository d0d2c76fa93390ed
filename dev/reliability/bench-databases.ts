// A fresh database for one benchmark run, of either kind: an embedded PGlite directory, or a new database on the
// PostgreSQL server. Parley processes get its environment; the benchmark opens it itself only when they are down
// (PGlite is one process's database). A run's database starts as a copy of the test suite's seeded template (a
// directory copy, or PostgreSQL's CREATE DATABASE … TEMPLATE), as if Parley had started on it before: seeding the
// 10K-product catalog again for every run would double a short run's time. Under vitest the run's templates are
// used (provideBenchTemplates); a benchmark makes its own once.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client.js';
import {
  type DatabaseTemplates,
  makeDatabaseTemplates,
  type MadeTemplates,
  runAdminStatement,
} from '../../test/support/database-templates.js';

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

function admin(sql: string): Promise<void> {
  return runAdminStatement(POSTGRES_ADMIN_URL, sql);
}

/** The templates of each kind: the test run's, or made on first use and kept for the rest of the process. */
const templates = new Map<DatabaseKind, Promise<MadeTemplates>>();

/** Hands the test run's templates (test/database-setup.ts) to the benchmark's runs: nothing is made again. */
export function provideBenchTemplates(provided: DatabaseTemplates): void {
  templates.set(provided.kind, Promise.resolve({ templates: provided, drop: async () => {} }));
}

function template(kind: DatabaseKind): Promise<DatabaseTemplates> {
  let made = templates.get(kind);
  if (!made) {
    made = makeDatabaseTemplates(kind === 'postgres' ? POSTGRES_ADMIN_URL : undefined);
    templates.set(kind, made);
    made.catch(() => templates.delete(kind));
  }
  return made.then((m) => m.templates);
}

/** Removes the templates this process made (the end of a benchmark); the test run's are its own to remove. */
export async function dropBenchTemplates(): Promise<void> {
  const made = [...templates.values()];
  templates.clear();
  for (const each of made) await (await each.catch(() => null))?.drop();
}

let created = 0;

/** A fresh database, migrated and seeded with the stand-in's workspace (a copy of the seeded template). */
export async function createBenchDatabase(kind: DatabaseKind, label: string): Promise<BenchDatabase> {
  const made = await template(kind);
  if (made.kind === 'pglite') {
    const dataDir = await mkdtemp(join(tmpdir(), `parley-${label}-`));
    await cp(made.seededDataDir, dataDir, { recursive: true });
    return {
      kind,
      env: { PGLITE_DATA_DIR: dataDir },
      open: () => openDatabase({ kind: 'pglite', dataDir }),
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `parley_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${Date.now().toString(36)}_${++created}`;
  await admin(`CREATE DATABASE "${name}" TEMPLATE "${made.databases.seeded}"`);
  const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
  return {
    kind,
    env: { DATABASE_URL: url },
    open: () => openDatabase({ kind: 'postgres', url }),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
