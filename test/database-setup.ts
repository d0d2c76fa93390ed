// The global setup of the projects that open databases: the templates every test file's database is copied from, made
// once per run and removed at its end. The database and e2e projects get them on the database the run is for
// (PostgreSQL when DATABASE_URL is set); the isolated project, whose tests are of PGlite itself, always gets PGlite's.
// Vitest runs each project's global setup on its own, in this one process: a project reuses what another one made.
import type { TestProject } from 'vitest/node';
import { env } from '../src/config/env.js';
import { makeDatabaseTemplates, type MadeTemplates } from './support/database-templates.js';

const shared = globalThis as {
  parleyTestTemplates?: Map<string, { made: Promise<MadeTemplates>; projects: number }>;
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = project.name === 'isolated' ? undefined : env.DATABASE_URL;
  const byDatabase = (shared.parleyTestTemplates ??= new Map());
  const key = url ?? 'pglite';
  let entry = byDatabase.get(key);
  if (!entry) {
    entry = { made: makeDatabaseTemplates(url), projects: 0 };
    byDatabase.set(key, entry);
  }
  const { made } = entry;
  entry.projects += 1;
  project.provide('databaseTemplates', (await made).templates);
  return async () => {
    const current = byDatabase.get(key);
    if (!current || (current.projects -= 1) > 0) return;
    byDatabase.delete(key);
    await (await made).drop();
  };
}
