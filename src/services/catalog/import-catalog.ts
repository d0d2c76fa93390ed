// Merge or Replace on a catalog preview. The click claims the import (committed before Slack is acknowledged, so a
// second click — or a second person — finds it taken); the catalog is written after the acknowledgement, in one
// transaction with the import's status and its audit entry: a crash leaves the catalog as it was, and the import
// claimable again once its claim is older than IMPORT_CLAIM_MS (the person clicks again). Idempotent: an import
// already applied answers with what it did.
import { writeAudit } from '../../db/audit.js';
import { z } from 'zod';
import type { CatalogImportMode, CatalogImportReport, ImportCatalogInput } from '../../app-types.js';
import { toJsonColumn } from '../../db/json.js';
import { applyCatalogRows, countActiveProducts } from '../../db/stores/catalog-store.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { CATALOG_NOT_ALLOWED, mayChangeCatalog } from './preview-catalog-import.js';

/** Longer than any import takes (100K rows: seconds); a claim older than this belongs to a process that died. */
export const IMPORT_CLAIM_MS = 10 * 60_000;

const appliedSchema = z.object({
  added: z.number(),
  changed: z.number(),
  removed: z.number(),
  retired: z.number(),
  catalogSize: z.number(),
});

export type CatalogImportClaim =
  | { kind: 'claimed'; importId: string; fileName: string }
  /** Already imported (a second click): what it did then. */
  | { kind: 'applied'; report: CatalogImportReport };

export async function claimCatalogImport(
  ctx: ServiceContext,
  input: ImportCatalogInput,
): Promise<ServiceResult<CatalogImportClaim>> {
  // The settings permission (approvers, workspace admins): the catalog decides what every quotation matches.
  if (!(await mayChangeCatalog(ctx, input.by))) return refused('not_allowed', CATALOG_NOT_ALLOWED);
  const now = ctx.now();
  const { count } = await ctx.db.catalogImport.updateMany({
    where: {
      id: input.importId,
      OR: [
        { status: 'previewed' },
        { status: 'importing', claimedAt: { lt: new Date(now.getTime() - IMPORT_CLAIM_MS) } },
      ],
    },
    data: { status: 'importing', mode: input.mode, decidedBySlackUserId: input.by, claimedAt: now },
  });
  const row = await ctx.db.catalogImport.findUnique({
    where: { id: input.importId },
    select: { status: true, mode: true, fileName: true, result: true },
  });
  if (row && count === 1) return done({ kind: 'claimed', importId: input.importId, fileName: row.fileName });
  if (!row) return refused('not_found', 'This catalog preview no longer exists. Run `/parley catalog` again.');
  if (row.status === 'cancelled') {
    return refused(
      'already_final',
      'This catalog preview was cancelled. Run `/parley catalog` to import the file again.',
    );
  }
  if (row.status === 'importing') {
    return refused('conflict', 'This catalog is being imported already; it takes up to a minute for a large file.');
  }
  const result = appliedSchema.safeParse(row.result);
  if (row.status !== 'applied' || !result.success || !row.mode) {
    return refused('conflict', 'This catalog preview cannot be imported now. Run `/parley catalog` again.');
  }
  const report = { importId: input.importId, fileName: row.fileName, mode: row.mode, ...result.data, repeated: true };
  return done({ kind: 'applied', report }, false);
}

/** Writes a claimed import into the catalog; null when it is no longer this claim's to apply (nothing changed). */
export async function applyCatalogImport(
  ctx: ServiceContext,
  options: { importId: string },
): Promise<CatalogImportReport | null> {
  const now = ctx.now();
  return ctx.db.$transaction(
    async (tx) => {
      const row = await tx.catalogImport.findUnique({
        where: { id: options.importId },
        select: { status: true, mode: true, fileName: true, skippedSkus: true, decidedBySlackUserId: true },
      });
      if (!row || row.status !== 'importing' || !row.mode) return null;
      const mode: CatalogImportMode = row.mode;
      const keepSkus = z.array(z.string()).catch([]).parse(row.skippedSkus);
      const counts = await applyCatalogRows(tx, {
        workspaceId: ctx.workspace.id,
        importId: options.importId,
        replace: mode === 'replace',
        keepSkus,
        now,
      });
      const catalogSize = await countActiveProducts(tx);
      const result = { ...counts, catalogSize };
      await tx.catalogImport.update({
        where: { id: options.importId },
        data: { status: 'applied', appliedAt: now, result: toJsonColumn(result) },
      });
      await writeAudit(tx, row.decidedBySlackUserId, {
        action: `catalog.${mode}`,
        entityType: 'CatalogImport',
        entityId: options.importId,
        data: { fileName: row.fileName, ...result },
      });
      return { importId: options.importId, fileName: row.fileName, mode, ...result, repeated: false };
    },
    // 100K rows take seconds on PGlite; Prisma's default 5 s transaction timeout would cut a large import short.
    { timeout: 120_000, maxWait: 30_000 },
  );
}
