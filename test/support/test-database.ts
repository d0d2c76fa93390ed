// A fresh, migrated database per test file: in-memory PGlite by default, or — when DATABASE_URL is set — a new
// PostgreSQL schema of its own on that server, so test files running in parallel never see each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { env } from '../../src/config/env.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { applyMigrations } from '../../src/db/migrate.js';

export interface TestDatabase extends Database {
  /** Closes the connection and drops the test schema (PostgreSQL). */
  destroy(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const url = env.DATABASE_URL;
  if (!url) {
    const db = await openDatabase({ kind: 'pglite' });
    await applyMigrations(db);
    return { ...db, destroy: () => db.close() };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await runAdminStatement(url, `CREATE SCHEMA "${schema}"`);
  const db = await openDatabase({ kind: 'postgres', url, schema, poolSize: 4 });
  await applyMigrations(db);
  return {
    ...db,
    async destroy() {
      await db.close();
      await runAdminStatement(url, `DROP SCHEMA "${schema}" CASCADE`);
      // pg-boss's jobs, when the test started any (src/db/client.ts names their schema after the test's).
      await runAdminStatement(url, `DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`);
    },
  };
}

async function runAdminStatement(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
