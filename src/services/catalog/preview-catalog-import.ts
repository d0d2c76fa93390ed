// `/parley catalog`, after the upload: the file is downloaded, read and checked, compared with the workspace's catalog,
// and stored as a preview (a CatalogImport row holding the rows to import). Nothing in the catalog changes here; the
// person's click on Merge or Replace does that (import-catalog.ts).
import type { CatalogPreview, PreviewCatalogInput } from '../../app-types.js';
import { CatalogFileError, countChanges, readCatalogFile } from '../../catalog/catalog-file.js';
import { countActiveProducts, existingProducts, storeCatalogPreview } from '../../db/stores/catalog-store.js';
import { QuotationError } from '../../quotation/errors.js';
import { megabytes } from '../../quotation/xlsx-errors.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import { type SlackFiles, sharedFileDownload } from '../quotation/download-shared-file.js';
import type { ServiceContext } from '../service-context.js';
import { mayChangeSettings } from '../workspace/workspace-settings.js';

/** Rows of the file shown in the preview. */
export const PREVIEW_SAMPLE_ROWS = 5;

export const CATALOG_NOT_ALLOWED = 'Only the approvers and workspace admins can change Parley’s catalog.';

export interface PreviewCatalogImportOptions extends PreviewCatalogInput {
  files: SlackFiles;
}

/** Who may import a catalog: whoever may change Parley's settings (approvers, workspace admins). */
export function mayChangeCatalog(ctx: ServiceContext, by: string): Promise<boolean> {
  return mayChangeSettings(ctx.workspace, by, ctx.directory);
}

export async function previewCatalogImport(
  ctx: ServiceContext,
  options: PreviewCatalogImportOptions,
): Promise<ServiceResult<CatalogPreview>> {
  if (!(await mayChangeCatalog(ctx, options.by))) return refused('not_allowed', CATALOG_NOT_ALLOWED);

  const info = await options.files.info(ctx.workspace.id, options.fileId);
  let file;
  try {
    const data = await sharedFileDownload(ctx, { files: options.files, fileId: options.fileId, info })();
    file = await readCatalogFile({
      data,
      fileName: info.name,
      defaultBrand: ctx.workspace.brandName,
      maxBytes: ctx.limits.maxBytes,
      readGrid: ctx.readGrid,
    });
  } catch (error) {
    if (error instanceof CatalogFileError) return refused('invalid_input', error.userMessage);
    if (error instanceof QuotationError && error.code === 'too_large') {
      return refused(
        'invalid_input',
        `This file is larger than ${megabytes(ctx.limits.maxBytes)}, the most Parley reads. Split it and import the parts with Merge.`,
      );
    }
    if (error instanceof QuotationError) return refused('invalid_input', error.userMessage);
    throw error;
  }

  const existing = await existingProducts(ctx.db);
  const merge = { ...countChanges(file.rows, existing, file.skippedSkus), removed: 0, retired: 0 };
  const replace = countChanges(file.rows, existing, file.skippedSkus);
  const catalogSize = await countActiveProducts(ctx.db);
  const preview = {
    fileName: info.name,
    sheet: file.sheet,
    rowsRead: file.rowsRead,
    importable: file.rows.length,
    merge,
    replace,
    sample: file.rows
      .slice(0, PREVIEW_SAMPLE_ROWS)
      .map(({ sku, name, color, size, category }) => ({ sku, name, color, size, category })),
    problems: file.problems,
    problemCount: file.problemCount,
    catalogSize,
  };
  const importId = await storeCatalogPreview(ctx.db, {
    requestedBySlackUserId: options.by,
    slackFileId: options.fileId,
    fileName: info.name,
    rows: file.rows,
    skippedSkus: file.skippedSkus,
    preview,
  });
  return done({ importId, ...preview });
}
