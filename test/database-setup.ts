// The database and e2e projects' global setup: the templates every test file's database is copied from, made once
// per run on the database the run is for (PostgreSQL when DATABASE_URL is set), and removed at its end. Vitest runs
// each project's global setup on its own, in this one process: the second project reuses what the first one made.
import type { TestProject } from 'vitest/node';
import { env } from '../src/config/env.js';
import { makeDatabaseTemplates, type MadeTemplates } from './support/database-templates.js';

const shared = globalThis as { parleyTestTemplates?: { made: Promise<MadeTemplates>; projects: number } };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const entry = (shared.parleyTestTemplates ??= { made: makeDatabaseTemplates(env.DATABASE_URL), projects: 0 });
  entry.projects += 1;
  project.provide('databaseTemplates', (await entry.made).templates);
  return async () => {
    entry.projects -= 1;
    if (entry.projects > 0) return;
    delete shared.parleyTestTemplates;
    await (await entry.made).drop();
  };
}
