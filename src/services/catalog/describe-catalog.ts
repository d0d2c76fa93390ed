// What the catalog upload modal says before a file is chosen: how many products quotations match against now, and
// the last import. Only for the people who may import (the settings permission).
import { countActiveProducts } from '../../db/stores/catalog-store.js';
import type { CatalogModalModel } from '../../slack/views/index.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { CATALOG_NOT_ALLOWED, mayChangeCatalog } from './preview-catalog-import.js';

export async function describeCatalog(
  ctx: ServiceContext,
  options: { by: string },
): Promise<ServiceResult<CatalogModalModel>> {
  if (!(await mayChangeCatalog(ctx, options.by))) return refused('not_allowed', CATALOG_NOT_ALLOWED);
  const [catalogSize, last] = await Promise.all([
    countActiveProducts(ctx.db),
    ctx.db.catalogImport.findFirst({
      where: { status: 'applied' },
      orderBy: { appliedAt: 'desc' },
      select: { fileName: true, mode: true, decidedBySlackUserId: true, appliedAt: true },
    }),
  ]);
  const lastImport =
    last?.mode && last.appliedAt
      ? { fileName: last.fileName, mode: last.mode, by: last.decidedBySlackUserId, at: last.appliedAt }
      : null;
  return done({ catalogSize, lastImport });
}
