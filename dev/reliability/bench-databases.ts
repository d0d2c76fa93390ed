// A fresh database for one benchmark run, of either kind: an embedded PGlite directory, or a new database on the
// PostgreSQL server. Parley processes get its environment; the benchmark opens it itself only when they are down
// (PGlite is one process's database). A run's database starts as a copy of a template migrated and seeded once per
// benchmark (a directory copy, or PostgreSQL's CREATE DATABASE … TEMPLATE), as if Parley had started on it before:
// seeding the 10K-product catalog again for every run would double a short run's time.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadEnv } from '../../src/config/env.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { applyMigrations } from '../../src/db/migrate.js';
import { seedWorkspace } from '../../src/db/seed.js';
import { TEAM_ID } from '../slack-stand-in/sandboxed-parley.js';
import { runAdminStatement } from '../../test/support/database-templates.js';

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

/** Migrates and seeds (the stand-in's workspace), as Parley's first start would. */
async function prepare(db: Database): Promise<void> {
  try {
    await applyMigrations(db);
    await seedWorkspace(db.prisma, { slackTeamId: TEAM_ID, brandName: loadEnv({}).SEED_BRAND_NAME });
  } finally {
    await db.close();
  }
}

/** The template of each kind, made on first use and kept for the rest of the process. */
const templates = new Map<DatabaseKind, Promise<string>>();

function template(kind: DatabaseKind): Promise<string> {
  let made = templates.get(kind);
  if (!made) {
    made = kind === 'pglite' ? pgliteTemplate() : postgresTemplate();
    templates.set(kind, made);
    made.catch(() => templates.delete(kind));
  }
  return made;
}

async function pgliteTemplate(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parley-template-'));
  await prepare(await openDatabase({ kind: 'pglite', dataDir }));
  return dataDir;
}

async function postgresTemplate(): Promise<string> {
  const name = `parley_template_${process.pid}_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE "${name}"`);
  await prepare(
    await openDatabase({ kind: 'postgres', url: `postgresql://postgres@127.0.0.1:5432/${name}`, poolSize: 2 }),
  );
  return name;
}

/** Removes the templates this process made (the end of a benchmark). */
export async function dropBenchTemplates(): Promise<void> {
  for (const [kind, made] of templates) {
    const where = await made.catch(() => null);
    if (where === null) continue;
    if (kind === 'pglite') await rm(where, { recursive: true, force: true });
    else await admin(`DROP DATABASE IF EXISTS "${where}" WITH (FORCE)`);
  }
  templates.clear();
}

let created = 0;

/** A fresh database, migrated and seeded (a copy of the template; `seeded: false` for an empty one). */
export async function createBenchDatabase(
  kind: DatabaseKind,
  label: string,
  options: { seeded?: boolean } = {},
): Promise<BenchDatabase> {
  const seeded = options.seeded ?? true;
  if (kind === 'pglite') {
    const dataDir = await mkdtemp(join(tmpdir(), `parley-${label}-`));
    if (seeded) await cp(await template(kind), dataDir, { recursive: true });
    return {
      kind,
      env: { PGLITE_DATA_DIR: dataDir },
      open: () => openDatabase({ kind: 'pglite', dataDir }),
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `parley_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${Date.now().toString(36)}_${++created}`;
  await admin(seeded ? `CREATE DATABASE "${name}" TEMPLATE "${await template(kind)}"` : `CREATE DATABASE "${name}"`);
  const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
  return {
    kind,
    env: { DATABASE_URL: url },
    open: () => openDatabase({ kind: 'postgres', url }),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
