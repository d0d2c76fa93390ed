// Seeds the demo's workspace: the brand, its two simulated competitors (SUP-002, SUP-003) and the generated 10K
// Valden Outdoor catalog — for `npm run seed`, the demo, the CLI and tests. A real install gets the competitors but
// no catalog (src/services/workspace/set-up-workspace.ts); its brand imports its own. Idempotent: every write is an
// upsert or an insert that skips existing keys, so a second run changes nothing. SUP-001 is not seeded; it is created
// when a quotation names its supplier.
import { randomUUID } from 'node:crypto';
import type { CatalogProduct } from '../catalog/products-csv.js';
import { CATALOG_CSV, readCatalogCsv } from '../catalog/products-csv.js';
import { parseSku } from '../catalog/sku.js';
import { SIMULATED_SUPPLIERS, type SupplierProfile } from '../config/business-rules.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { PrismaClient } from './client.js';

/** Rows per INSERT statement. */
const PRODUCT_BATCH = 2_500;

export interface SeedOptions {
  slackTeamId: string;
  brandName: string;
  /** The catalog to load; defaults to data/products.csv. */
  catalog?: CatalogProduct[];
  /** Approvers a newly created workspace starts with (tests); an existing workspace's settings are left alone. */
  approvers?: string[];
}

export interface SeedReport {
  workspaceId: string;
  productsInserted: number;
  suppliersUpserted: number;
}

export interface DatabaseCounts {
  products: number;
  suppliers: number;
  workspaces: number;
}

export async function seedWorkspace(prisma: PrismaClient, options: SeedOptions): Promise<SeedReport> {
  const workspace = await prisma.workspace.upsert({
    where: { slackTeamId: options.slackTeamId },
    create: {
      slackTeamId: options.slackTeamId,
      name: options.brandName,
      brandName: options.brandName,
      ...(options.approvers ? { settings: { approvers: options.approvers } } : {}),
    },
    update: {},
  });
  await addSimulatedSuppliers(prisma, workspace.id);

  const catalog = options.catalog ?? (await readCatalogCsv(CATALOG_CSV));
  const existing = await prisma.product.count({ where: { workspaceId: workspace.id } });
  // Re-running against a fully seeded catalog must be cheap: it is done on every start.
  const productsInserted = existing < catalog.length ? await insertProducts(prisma, workspace.id, catalog) : 0;
  return { workspaceId: workspace.id, productsInserted, suppliersUpserted: SIMULATED_SUPPLIERS.length };
}

export async function countSeededData(prisma: PrismaClient): Promise<DatabaseCounts> {
  const [products, suppliers, workspaces] = await Promise.all([
    prisma.product.count(),
    prisma.supplier.count(),
    prisma.workspace.count(),
  ]);
  return { products, suppliers, workspaces };
}

/** The simulated competitors every workspace negotiates with (SUP-002, SUP-003); existing ones are left as they are. */
export async function addSimulatedSuppliers(
  db: Pick<Prisma.TransactionClient, 'supplier'>,
  workspaceId: string,
): Promise<void> {
  for (const profile of SIMULATED_SUPPLIERS) {
    await db.supplier.upsert({
      where: { workspaceId_code: { workspaceId, code: profile.code } },
      create: { workspaceId, ...supplierColumns(profile) },
      update: {},
    });
  }
}

export function supplierColumns(profile: SupplierProfile) {
  return {
    code: profile.code,
    name: profile.name,
    qualityRating: profile.qualityRating,
    priceLevel: profile.priceLevel,
    leadTimeDays: profile.leadTimeDays,
    paymentTerms: profile.paymentTerms,
    onTimeDeliveryRate: profile.onTimeDeliveryRate,
    defectRate: profile.defectRate,
    responseTimeDays: profile.responseTimeDays,
    totalOrdersCount: profile.totalOrdersCount,
    isSimulated: profile.isSimulated,
    personality: { ...profile.personality },
  };
}

/**
 * Inserts the catalog in one statement per batch, the rows travelling as a single JSON parameter: on PGlite this is
 * ~10× faster than `createMany`, whose per-row bind parameters dominate the seed's time. Existing SKUs are skipped.
 */
async function insertProducts(prisma: PrismaClient, workspaceId: string, catalog: CatalogProduct[]): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < catalog.length; start += PRODUCT_BATCH) {
    const rows = catalog.slice(start, start + PRODUCT_BATCH).map((product) => {
      const parts = parseSku(product.sku);
      if (!parts) throw new Error(`Catalog SKU ${product.sku} is not STYLE-COLOR-SIZE`);
      return { id: randomUUID(), ...product, ...parts };
    });
    inserted += await prisma.$executeRaw`
      INSERT INTO "Product" ("id", "workspaceId", "brand", "sku", "name", "color", "size", "category",
                             "skuPrefix", "colorCode", "sizeCode")
      SELECT r."id", ${workspaceId}, r."brand", r."sku", r."name", r."color", r."size", r."category",
             r."skuPrefix", r."colorCode", r."sizeCode"
      FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(
        "id" text, "brand" text, "sku" text, "name" text, "color" text, "size" text, "category" text,
        "skuPrefix" text, "colorCode" text, "sizeCode" text)
      ON CONFLICT ("workspaceId", "sku") DO NOTHING`;
  }
  return inserted;
}
