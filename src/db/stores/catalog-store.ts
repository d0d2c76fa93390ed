// A workspace's catalog in the database: the matcher's index built from it (once, reused until the catalog changes),
// and the bulk writes of a catalog import. Everything that reads or writes `Product` rows in bulk lives here.
//
// The index is built once per catalog version and reused (seed 002 §6.2): building it costs ~a second for 10K
// products, matching a line a fraction of a millisecond. The version is read from the database on every load (the
// active products' count and the last applied import), so an import on any instance — even one that changes no count
// — is seen by every instance's next quotation.
import { randomUUID } from 'node:crypto';
import { Prisma } from '../../generated/prisma/client.js';
import type { WorkspaceDb, WorkspaceTx } from '../scoped.js';
import { type CatalogEntry, CatalogIndex } from '../../catalog/catalog-index.js';
import type { CatalogFileRow, ExistingProduct } from '../../catalog/catalog-file.js';

const cache = new Map<string, { version: string; index: Promise<CatalogIndex> }>();

/** What identifies the catalog's content: it changes with every seed, import and retirement. */
async function catalogVersion(db: WorkspaceDb): Promise<string> {
  const [products, lastImport] = await Promise.all([
    db.product.count({ where: { retiredAt: null } }),
    db.catalogImport.findFirst({
      where: { status: 'applied' },
      orderBy: { appliedAt: 'desc' },
      select: { id: true },
    }),
  ]);
  return `${products}:${lastImport?.id ?? '-'}`;
}

export async function loadCatalogIndex(db: WorkspaceDb): Promise<CatalogIndex> {
  const version = await catalogVersion(db);
  const cached = cache.get(db.$workspaceId);
  if (cached && cached.version === version) return cached.index;
  const index = activeCatalogProducts(db).then((rows) => CatalogIndex.build(rows));
  cache.set(db.$workspaceId, { version, index });
  // A failed build must not be served from the cache forever.
  index.catch(() => cache.delete(db.$workspaceId));
  return index;
}

/** The workspace's catalog as it is now, as a key: an index built under it is the current one while the key holds. */
export async function catalogKey(db: WorkspaceDb): Promise<string> {
  return `${db.$workspaceId}:${await catalogVersion(db)}`;
}

/** The products a new quotation can match, as the index is built from them. */
export function activeCatalogProducts(db: WorkspaceDb): Promise<CatalogEntry[]> {
  return db.product.findMany({
    // Retired products stay for the quotations and POs that name them; a new quotation never matches them.
    where: { retiredAt: null },
    select: {
      id: true,
      sku: true,
      name: true,
      color: true,
      size: true,
      category: true,
      skuPrefix: true,
      colorCode: true,
      sizeCode: true,
    },
  });
}

/** Products a new quotation can match. */
export function countActiveProducts(db: Pick<WorkspaceDb, 'product'>): Promise<number> {
  return db.product.count({ where: { retiredAt: null } });
}

/** Whether a new quotation could match anything: one row, not a count of the whole catalog (a review re-render). */
export async function hasActiveProducts(db: Pick<WorkspaceDb, 'product'>): Promise<boolean> {
  return (await db.product.findFirst({ where: { retiredAt: null }, select: { id: true } })) !== null;
}

/**
 * Ids of the products something still names: a quotation line's match, a PO line, or a candidate offered to a person
 * on a line still waiting for review (confirming it must find the product). An import retires these, never deletes.
 */
function referencedProductIds(workspaceId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT "productId" AS id FROM "QuotationItem" WHERE "workspaceId" = ${workspaceId} AND "productId" IS NOT NULL
    UNION
    SELECT "productId" FROM "PurchaseOrderItem" WHERE "workspaceId" = ${workspaceId} AND "productId" IS NOT NULL
    UNION
    SELECT candidate->>'productId' FROM "QuotationItem" qi
      CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN jsonb_typeof(qi."candidates") = 'array' THEN qi."candidates" ELSE '[]'::jsonb END) AS candidate
      WHERE qi."workspaceId" = ${workspaceId} AND qi."reviewState" = 'needs_review'`;
}

/** The whole catalog as a preview compares it (100K products read in about a second). */
export async function existingProducts(db: WorkspaceDb): Promise<ExistingProduct[]> {
  const rows = await db.$queryRaw<
    (Omit<ExistingProduct, 'retired' | 'referenced'> & { retired: boolean; referenced: boolean })[]
  >`
    SELECT p."sku", p."brand", p."name", p."color", p."size", p."category",
           p."retiredAt" IS NOT NULL AS retired, (kept.id IS NOT NULL) AS referenced
    FROM "Product" p
    LEFT JOIN (${referencedProductIds(db.$workspaceId)}) kept ON kept.id = p."id"
    WHERE p."workspaceId" = ${db.$workspaceId}`;
  return rows;
}

export interface AppliedCounts {
  added: number;
  changed: number;
  removed: number;
  retired: number;
}

/**
 * Writes an import's rows (stored on its CatalogImport row) into the catalog, inside the caller's transaction: SKUs
 * with other details are updated (and un-retired), new ones inserted; with `replace`, products neither in the file
 * nor among `keepSkus` are deleted, or retired when something names them. Runs in SQL over the stored JSON, so 100K
 * rows never travel through JavaScript again. The counts must agree with countChanges (catalog-file.ts).
 */
export async function applyCatalogRows(
  tx: WorkspaceTx,
  options: { workspaceId: string; importId: string; replace: boolean; keepSkus: readonly string[]; now: Date },
): Promise<AppliedCounts> {
  const { workspaceId, importId, now } = options;
  // One import at a time per workspace: two replaces interleaved would each delete what the other inserted.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`catalog:${workspaceId}`}))`;
  await tx.$executeRaw`
    CREATE TEMP TABLE catalog_rows ON COMMIT DROP AS
    SELECT r.* FROM "CatalogImport" ci
    CROSS JOIN LATERAL jsonb_to_recordset(ci."rows") AS r(
      "sku" text, "brand" text, "name" text, "color" text, "size" text, "category" text,
      "skuPrefix" text, "colorCode" text, "sizeCode" text)
    WHERE ci."id" = ${importId} AND ci."workspaceId" = ${workspaceId}`;
  await tx.$executeRaw`CREATE UNIQUE INDEX ON catalog_rows ("sku")`;
  await tx.$executeRaw`ANALYZE catalog_rows`;

  const changed = await tx.$executeRaw`
    UPDATE "Product" p SET "brand" = r."brand", "name" = r."name", "color" = r."color", "size" = r."size",
      "category" = r."category", "skuPrefix" = r."skuPrefix", "colorCode" = r."colorCode", "sizeCode" = r."sizeCode",
      "retiredAt" = NULL
    FROM catalog_rows r
    WHERE p."workspaceId" = ${workspaceId} AND p."sku" = r."sku"
      AND (p."retiredAt" IS NOT NULL
        OR (p."brand", p."name", p."color", p."size", p."category")
           IS DISTINCT FROM (r."brand", r."name", r."color", r."size", r."category"))`;
  const added = await tx.$executeRaw`
    INSERT INTO "Product" ("id", "workspaceId", "brand", "sku", "name", "color", "size", "category",
                           "skuPrefix", "colorCode", "sizeCode")
    SELECT gen_random_uuid()::text, ${workspaceId}, r."brand", r."sku", r."name", r."color", r."size", r."category",
           r."skuPrefix", r."colorCode", r."sizeCode"
    FROM catalog_rows r
    ON CONFLICT ("workspaceId", "sku") DO NOTHING`;
  if (!options.replace) return { added, changed, removed: 0, retired: 0 };

  const keep = [...options.keepSkus];
  await tx.$executeRaw`
    CREATE TEMP TABLE catalog_kept ON COMMIT DROP AS ${referencedProductIds(workspaceId)}`;
  const gone = Prisma.sql`p."workspaceId" = ${workspaceId}
      AND NOT EXISTS (SELECT 1 FROM catalog_rows r WHERE r."sku" = p."sku")
      AND NOT (p."sku" = ANY(${keep}::text[]))`;
  const retired = await tx.$executeRaw`
    UPDATE "Product" p SET "retiredAt" = ${now}
    WHERE ${gone} AND p."retiredAt" IS NULL AND EXISTS (SELECT 1 FROM catalog_kept k WHERE k.id = p."id")`;
  const removed = await tx.$executeRaw`
    DELETE FROM "Product" p
    WHERE ${gone} AND NOT EXISTS (SELECT 1 FROM catalog_kept k WHERE k.id = p."id")`;
  return { added, changed, removed, retired };
}

export interface CatalogPreviewRecord {
  requestedBySlackUserId: string;
  slackFileId: string;
  fileName: string;
  rows: readonly CatalogFileRow[];
  skippedSkus: readonly string[];
  preview: unknown;
}

/**
 * Stores a preview (a CatalogImport row holding the rows applyCatalogRows reads back), its JSON travelling as one text
 * parameter: through Prisma's JSON input a 100K-row column is compiled value by value, ~3× slower on PGlite.
 */
export async function storeCatalogPreview(db: WorkspaceDb, record: CatalogPreviewRecord): Promise<string> {
  const id = randomUUID();
  const rows = record.rows.map(({ sku, brand, name, color, size, category, skuPrefix, colorCode, sizeCode }) => ({
    sku,
    brand,
    name,
    color,
    size,
    category,
    skuPrefix,
    colorCode,
    sizeCode,
  }));
  await db.$executeRaw`
    INSERT INTO "CatalogImport" ("id", "workspaceId", "requestedBySlackUserId", "slackFileId", "fileName", "rows",
                                 "skippedSkus", "preview", "updatedAt")
    VALUES (${id}, ${db.$workspaceId}, ${record.requestedBySlackUserId}, ${record.slackFileId}, ${record.fileName},
            ${JSON.stringify(rows)}::jsonb, ${JSON.stringify(record.skippedSkus)}::jsonb,
            ${JSON.stringify(record.preview)}::jsonb, CURRENT_TIMESTAMP)`;
  return id;
}
