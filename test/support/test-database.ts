// A fresh database per test file, copied from a template the run made once (database-templates.ts): an in-memory
// PGlite by default, or — when DATABASE_URL is set — a database of its own on that server, so test files running in
// parallel never see each other's rows.
import { randomBytes } from 'node:crypto';
import { cp } from 'node:fs/promises';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { databaseUrl, runAdminStatement, type DatabaseTemplates, type TemplateName } from './database-templates.js';

export interface TestDatabase extends Database {
  /** Closes the connection and drops the test's database (PostgreSQL). */
  destroy(): Promise<void>;
}

/** A migrated, empty database; `seeded` has the stand-in's workspace and catalog already (SEEDED_WORKSPACE). */
export async function createTestDatabase(template: TemplateName = 'migrated'): Promise<TestDatabase> {
  const templates = providedTemplates();
  if (templates.kind === 'pglite') {
    const db = await openDatabase({ kind: 'pglite', fromDump: templates.dumps[template] });
    return { ...db, destroy: () => db.close() };
  }
  const name = `${templates.prefix}_${randomBytes(6).toString('hex')}`;
  await runAdminStatement(templates.url, `CREATE DATABASE "${name}" TEMPLATE "${templates.databases[template]}"`);
  const db = await openDatabase({ kind: 'postgres', url: databaseUrl(templates.url, name), poolSize: 4 });
  return {
    ...db,
    async destroy() {
      await db.close();
      await runAdminStatement(templates.url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

function providedTemplates(): DatabaseTemplates {
  const templates = inject('databaseTemplates');
  // Only the database, e2e and isolated projects have templates: a file elsewhere that opens a database would run on
  // PGlite only, never in CI's PostgreSQL pass.
  if (!templates) {
    throw new Error(
      'This test file opens a database: name it *.db.test.ts (or put it under test/e2e) so that it runs in the ' +
        'database project, on PGlite and on PostgreSQL.',
    );
  }
  return templates;
}

/**
 * For the tests of PGlite itself (the isolated project, PGlite only): the template's dump, for `openDatabase({ kind:
 * 'pglite', fromDump })` or PGlite's own `loadDataDir`.
 */
export function pgliteTemplateDump(template: TemplateName): string {
  return pgliteTemplates().dumps[template];
}

/** Makes `dataDir` a copy of the empty template: a folder PGlite opens without running initdb. */
export async function copyEmptyPgliteDataDir(dataDir: string): Promise<void> {
  await cp(pgliteTemplates().emptyDataDir, dataDir, { recursive: true });
}

function pgliteTemplates(): Extract<DatabaseTemplates, { kind: 'pglite' }> {
  const templates = providedTemplates();
  if (templates.kind !== 'pglite')
    throw new Error('PGlite templates are for the isolated project, which runs on PGlite');
  return templates;
}
