// The databases test files start from, made once per `vitest run` by its global setup (test/database-setup.ts):
// migrating a fresh database in every file, and seeding the 10K-product catalog in every story, cost more than many of
// the tests themselves. PGlite's are data directories dumped to tarballs, which an in-memory PGlite loads several
// times faster than it starts empty; PostgreSQL's are databases that CREATE DATABASE … TEMPLATE copies.
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client.js';
import { applyMigrations } from '../../src/db/migrate.js';
import { seedWorkspace } from '../../src/db/seed.js';
import { TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';

/**
 * `empty`: a database as PostgreSQL's initdb leaves it (PGlite's initdb alone costs ~5 s of CPU). `migrated`: every
 * migration applied, no rows. `seeded`: that, plus the stand-in's workspace and its catalog.
 */
export type TemplateName = 'empty' | 'migrated' | 'seeded';

/** The stand-in's workspace, as the seeded template holds it (the demo's brand). */
export const SEEDED_WORKSPACE = { slackTeamId: TEAM_ID, brandName: 'Valden Outdoor' } as const;

export type DatabaseTemplates =
  | {
      kind: 'pglite';
      dumps: Record<TemplateName, string>;
      /** The empty template as a closed data directory, to copy into a folder a process opens. */
      emptyDataDir: string;
      /** The seeded template as a closed data directory: a Parley process's folder starts as its copy. */
      seededDataDir: string;
    }
  | {
      kind: 'postgres';
      /** The server's URL (its database is only where the administrative statements connect). */
      url: string;
      databases: Record<TemplateName, string>;
      /** Every database of this run starts with it, so the teardown finds the ones a crashed file left behind. */
      prefix: string;
    };

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

export interface MadeTemplates {
  templates: DatabaseTemplates;
  drop(): Promise<void>;
}

/** Both templates, on PostgreSQL when `url` is given, else on PGlite. */
export function makeDatabaseTemplates(url: string | undefined): Promise<MadeTemplates> {
  return url ? postgresTemplates(url) : pgliteTemplates();
}

async function pgliteTemplates(): Promise<MadeTemplates> {
  const folder = await mkdtemp(join(tmpdir(), 'parley-test-templates-'));
  const dataDir = join(folder, 'data');
  const emptyDataDir = join(folder, 'empty-data');
  const dumps = {
    empty: join(folder, 'empty.tar'),
    migrated: join(folder, 'migrated.tar'),
    seeded: join(folder, 'seeded.tar'),
  };
  await withDatabase(await openDatabase({ kind: 'pglite', dataDir }), async () => {});
  // Closed, the folder holds no lock of Parley's (src/db/pglite-lock.ts): a copy opens as a folder never opened.
  await cp(dataDir, emptyDataDir, { recursive: true });
  await dumpPglite(dataDir, dumps.empty);
  await withDatabase(await openDatabase({ kind: 'pglite', dataDir }), (db) => applyMigrations(db));
  await dumpPglite(dataDir, dumps.migrated);
  await withDatabase(await openDatabase({ kind: 'pglite', dataDir }), (db) =>
    seedWorkspace(db.prisma, SEEDED_WORKSPACE),
  );
  await dumpPglite(dataDir, dumps.seeded);
  return {
    templates: { kind: 'pglite', dumps, emptyDataDir, seededDataDir: dataDir },
    drop: () => rm(folder, { recursive: true, force: true }),
  };
}

/** The closed folder's data directory as `dumpDataDir` writes it, read by `openDatabase({ fromDump })`. */
async function dumpPglite(dataDir: string, file: string): Promise<void> {
  const pglite = new PGlite(dataDir);
  try {
    // dumpDataDir does not wait for the start itself.
    await pglite.waitReady;
    const dump = await pglite.dumpDataDir('none');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pglite.close();
  }
}

async function postgresTemplates(url: string): Promise<MadeTemplates> {
  const prefix = `parley_test_${randomBytes(4).toString('hex')}`;
  const databases = { empty: `${prefix}_empty`, migrated: `${prefix}_migrated`, seeded: `${prefix}_seeded` };
  await runAdminStatement(url, `CREATE DATABASE "${databases.empty}"`);
  await runAdminStatement(url, `CREATE DATABASE "${databases.migrated}" TEMPLATE "${databases.empty}"`);
  const migrated = await openDatabase({ kind: 'postgres', url: databaseUrl(url, databases.migrated), poolSize: 2 });
  await withDatabase(migrated, (db) => applyMigrations(db));
  await runAdminStatement(url, `CREATE DATABASE "${databases.seeded}" TEMPLATE "${databases.migrated}"`);
  const seeded = await openDatabase({ kind: 'postgres', url: databaseUrl(url, databases.seeded), poolSize: 2 });
  await withDatabase(seeded, (db) => seedWorkspace(db.prisma, SEEDED_WORKSPACE));
  return {
    templates: { kind: 'postgres', url, databases, prefix },
    drop: () => dropDatabasesStartingWith(url, prefix),
  };
}

async function withDatabase(db: Database, work: (db: Database) => Promise<unknown>): Promise<void> {
  try {
    await work(db);
  } finally {
    await db.close();
  }
}

/** The same server and credentials, another database. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function runAdminStatement(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function dropDatabasesStartingWith(url: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
      [prefix],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
