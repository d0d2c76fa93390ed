import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogCsv } from '../catalog/products-csv.js';
import { SIMULATED_SUPPLIERS } from '../config/business-rules.js';
import { CATALOG_CSV } from '../catalog/products-csv.js';
import { countSeededData, seedWorkspace } from './seed.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';

describe('seedWorkspace', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('loads the brand, the two simulated suppliers and the whole catalog, then changes nothing the second time', async () => {
    const catalog = await readCatalogCsv(CATALOG_CSV);
    expect(catalog).toHaveLength(10_052);
    const options = { slackTeamId: 'T0SEED', brandName: 'Valden Outdoor', catalog };

    const first = await seedWorkspace(db.prisma, options);
    expect(first.productsInserted).toBe(10_052);
    expect(await countSeededData(db.prisma)).toEqual({ products: 10_052, suppliers: 2, workspaces: 1 });

    const snapshot = await db.prisma.product.findMany({ orderBy: { sku: 'asc' }, select: { id: true, sku: true } });
    const second = await seedWorkspace(db.prisma, options);
    expect(second).toEqual({ ...first, productsInserted: 0 });
    expect(await countSeededData(db.prisma)).toEqual({ products: 10_052, suppliers: 2, workspaces: 1 });
    expect(await db.prisma.product.findMany({ orderBy: { sku: 'asc' }, select: { id: true, sku: true } })).toEqual(
      snapshot,
    );
  });

  it('stores the SKU’s parts and the suppliers’ seed profiles', async () => {
    const product = await db.prisma.product.findFirstOrThrow({
      where: { sku: { contains: '-' } },
      orderBy: { sku: 'asc' },
    });
    expect(`${product.skuPrefix}-${product.colorCode}-${product.sizeCode}`).toBe(product.sku);

    const suppliers = await db.prisma.supplier.findMany({ orderBy: { code: 'asc' } });
    expect(suppliers.map((s) => [s.code, s.name, s.priceLevel, s.leadTimeDays, s.paymentTerms, s.isSimulated])).toEqual(
      [
        ['SUP-002', 'Alpine Premium', 'expensive', 25, '40/60', true],
        ['SUP-003', 'RapidGear Co', 'mid', 15, '100', true],
      ],
    );
    expect(suppliers[0]?.qualityRating).toBe(4.7);
    expect(suppliers.map((s) => s.personality)).toEqual(SIMULATED_SUPPLIERS.map((p) => p.personality));
  });

  it('completes a partly loaded catalog without duplicating what is there', async () => {
    const catalog = (await readCatalogCsv(CATALOG_CSV)).slice(0, 300);
    const options = { slackTeamId: 'T0PARTIAL', brandName: 'Partial', catalog: catalog.slice(0, 100) };
    await seedWorkspace(db.prisma, options);
    const report = await seedWorkspace(db.prisma, { ...options, catalog });
    expect(report.productsInserted).toBe(200);
    expect(await db.prisma.product.count({ where: { workspaceId: report.workspaceId } })).toBe(300);
  });
});
