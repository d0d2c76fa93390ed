// The committed migrations must build exactly the database that prisma/schema.prisma describes: a schema edit
// without its migration fails here, not in production.
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './client.js';
import { applyMigrations } from './migrate.js';
import { diffSchemas } from './prisma-cli.js';
import { pgliteTemplateDump } from '../../test/support/test-database.js';

/** Tables, columns, constraints, indexes and enums, as comparable text. */
async function describeSchema(db: Database): Promise<string[]> {
  return db.withScriptConnection(async (connection) => {
    const rows = await connection.query<{ line: string }>(`
      SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' ||
             coalesce(column_default, '') AS line
        FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> '_prisma_migrations'
      UNION ALL
      SELECT 'index ' || indexname || ' ' || indexdef FROM pg_indexes
        WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'
      UNION ALL
      SELECT 'constraint ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
        WHERE connamespace = current_schema()::regnamespace
          AND conrelid <> coalesce(to_regclass('_prisma_migrations'), 0)::oid
      UNION ALL
      SELECT 'enum ' || t.typname || ' ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder)
        FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
        WHERE t.typnamespace = current_schema()::regnamespace GROUP BY t.typname`);
    return rows.map((row) => row.line).sort();
  });
}

describe('schema drift', () => {
  const opened: Database[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
  });

  it('the migrations and schema.prisma describe the same database', async () => {
    const [fromMigrations, fromSchema] = await Promise.all([
      openDatabase({ kind: 'pglite', fromDump: pgliteTemplateDump('empty') }),
      openDatabase({ kind: 'pglite', fromDump: pgliteTemplateDump('empty') }),
    ]);
    opened.push(fromMigrations, fromSchema);
    const [, schemaSql] = await Promise.all([
      applyMigrations(fromMigrations),
      diffSchemas('empty', 'prisma/schema.prisma'),
    ]);
    await fromSchema.withScriptConnection((connection) => connection.exec(schemaSql));

    const expected = await describeSchema(fromSchema);
    expect(expected.length).toBeGreaterThan(100);
    expect(await describeSchema(fromMigrations)).toEqual(expected);
  }, 120_000); // the Prisma CLI runs as a subprocess: slow on a busy two-core machine, not a timed check
});
