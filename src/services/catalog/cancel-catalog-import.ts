// Cancel on a catalog preview: the preview can no longer be imported. Nothing in the catalog changed, so nothing is
// undone; the cancellation is audited like the import would have been.
import { writeAudit } from '../../db/audit.js';
import type { CancelCatalogImportInput } from '../../app-types.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { CATALOG_NOT_ALLOWED, mayChangeCatalog } from './preview-catalog-import.js';

export async function cancelCatalogImport(
  ctx: ServiceContext,
  input: CancelCatalogImportInput,
): Promise<ServiceResult> {
  if (!(await mayChangeCatalog(ctx, input.by))) return refused('not_allowed', CATALOG_NOT_ALLOWED);
  return ctx.db.$transaction(async (tx) => {
    const { count } = await tx.catalogImport.updateMany({
      where: { id: input.importId, status: 'previewed' },
      data: { status: 'cancelled', decidedBySlackUserId: input.by },
    });
    if (count === 0) {
      const row = await tx.catalogImport.findUnique({ where: { id: input.importId }, select: { status: true } });
      if (row?.status === 'cancelled') return done(undefined, false);
      if (!row) return refused('not_found', 'This catalog preview no longer exists.');
      return refused(
        'already_final',
        'This catalog is already being imported (or was); it can no longer be cancelled.',
      );
    }
    await writeAudit(tx, input.by, { action: 'catalog.cancel', entityType: 'CatalogImport', entityId: input.importId });
    return done(undefined);
  });
}
