// The app's database as the environment describes it, migrated and ready: PostgreSQL when DATABASE_URL is set,
// otherwise the embedded PGlite under data/.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env } from '../config/env.js';
import { type Database, type OpenDatabaseOptions, openDatabase } from './client.js';
import { applyMigrations } from './migrate.js';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function databaseOptionsFromEnv(env: Pick<Env, 'DATABASE_URL' | 'PGLITE_DATA_DIR'>): OpenDatabaseOptions {
  if (env.DATABASE_URL) return { kind: 'postgres', url: env.DATABASE_URL };
  return { kind: 'pglite', dataDir: resolve(PROJECT_ROOT, env.PGLITE_DATA_DIR) };
}

export async function openAppDatabase(env: Pick<Env, 'DATABASE_URL' | 'PGLITE_DATA_DIR'>): Promise<Database> {
  const db = await openDatabase(databaseOptionsFromEnv(env));
  try {
    await applyMigrations(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
