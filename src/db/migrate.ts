// Applies the committed SQL migrations (prisma/migrations/*/migration.sql) on start, on PGlite or PostgreSQL, without
// the Prisma CLI. It keeps Prisma's own bookkeeping table, so `prisma migrate status` agrees with it, and holds an
// advisory lock so that two instances starting together apply each migration once.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database, ScriptConnection } from './client.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations/', import.meta.url));

/** Any constant: the key of the advisory lock that serialises migrations. */
const MIGRATION_LOCK_KEY = 72_616_001;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: number;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(`${dir}/${name}/migration.sql`, 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

export async function applyMigrations(db: Database, migrations?: Migration[]): Promise<MigrationReport> {
  const pending = migrations ?? (await loadMigrations());
  return db.withScriptConnection(async (connection) => {
    await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await applyUnderLock(connection, pending);
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}

async function applyUnderLock(connection: ScriptConnection, migrations: Migration[]): Promise<MigrationReport> {
  await connection.exec(`
    CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum"            VARCHAR(64) NOT NULL,
      "finished_at"         TIMESTAMPTZ,
      "migration_name"      VARCHAR(255) NOT NULL,
      "logs"                TEXT,
      "rolled_back_at"      TIMESTAMPTZ,
      "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
  const rows = await connection.query<{ migration_name: string; checksum: string }>(
    'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  const done = new Map(rows.map((row) => [row.migration_name, row.checksum]));
  const applied: string[] = [];
  for (const migration of migrations) {
    const checksum = done.get(migration.name);
    if (checksum !== undefined) {
      if (checksum !== migration.checksum) {
        throw new MigrationError(
          `Migration ${migration.name} was changed after it was applied; add a new migration instead of editing it.`,
        );
      }
      continue;
    }
    // One transaction per migration: a failing migration leaves no half-built schema behind.
    await connection.exec('BEGIN');
    try {
      await connection.exec(migration.sql);
      await connection.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
         VALUES (gen_random_uuid()::text, $1, $2, now(), 1)`,
        [migration.checksum, migration.name],
      );
      await connection.exec('COMMIT');
    } catch (error) {
      await connection.exec('ROLLBACK');
      throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
    }
    applied.push(migration.name);
  }
  return { applied, alreadyApplied: done.size };
}
