import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, loadMigrations, MigrationError } from './migrate.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';

const EXPECTED_TABLES = [
  'AiUsage',
  'AuditLog',
  'CatalogImport',
  'Decision',
  'Message',
  'Negotiation',
  'NegotiationCheckpointDelta',
  'NegotiationLineSet',
  'NegotiationRound',
  'NegotiationSupplier',
  'PendingQuestion',
  'Product',
  'PurchaseOrder',
  'PurchaseOrderAllocation',
  'PurchaseOrderApproval',
  'PurchaseOrderItem',
  'Quotation',
  'QuotationItem',
  'RecommendationFeedback',
  'SlackInbox',
  'SlackInstallation',
  'SlackOutbox',
  'Supplier',
  'ThreadReply',
  'User',
  'Workspace',
  '_prisma_migrations',
];

describe('migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('build the whole schema on an empty database', async () => {
    const tables = await db.withScriptConnection((connection) =>
      connection.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
      ),
    );
    expect(tables.map((row) => row.table_name)).toEqual(EXPECTED_TABLES);
  });

  it('record every migration in Prisma’s own table, and apply nothing the second time', async () => {
    const migrations = await loadMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    const rows = await db.withScriptConnection((connection) =>
      connection.query<{ migration_name: string; checksum: string }>(
        'SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name',
      ),
    );
    expect(rows).toEqual(migrations.map(({ name, checksum }) => ({ migration_name: name, checksum })));

    const again = await applyMigrations(db);
    expect(again).toEqual({ applied: [], alreadyApplied: migrations.length });
  });

  it('refuse a migration that was edited after it was applied', async () => {
    const migrations = await loadMigrations();
    const edited = migrations.map((migration, index) =>
      index === 0 ? { ...migration, checksum: 'f'.repeat(64) } : migration,
    );
    await expect(applyMigrations(db, edited)).rejects.toThrow(MigrationError);
  });

  it('roll back a failing migration completely', async () => {
    const scratch = await createTestDatabase('empty');
    try {
      const broken = [
        {
          name: '00000000000000_broken',
          sql: 'CREATE TABLE "Half" (id int); SELECT * FROM "NoSuchTable";',
          checksum: 'x',
        },
      ];
      await expect(applyMigrations(scratch, broken)).rejects.toThrow(/00000000000000_broken failed/);
      const half = await scratch.withScriptConnection((connection) =>
        connection.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'Half'`),
      );
      expect(half).toEqual([]);
    } finally {
      await scratch.destroy();
    }
  });
});
