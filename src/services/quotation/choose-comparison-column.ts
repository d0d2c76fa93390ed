// The buyer picks a supplier's column on a comparison sheet: saved (and audited) before the click is acknowledged,
// and the quotation goes back to `received` so the file is read again with that column as the price. A reader that
// dies meanwhile leaves it `received`, where the recovery sweep reads it again with the same pick. A second click,
// or a pick from someone else at the same moment, changes nothing.
import { writeAudit } from '../../db/audit.js';
import { supplierColumnsSchema } from '../../quotation/document-kind.js';
import { enqueueStatus } from '../../thread/status-card.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { gateQuotation } from './review-quotation.js';

export interface ChooseComparisonColumnOptions {
  quotationId: string;
  by: string;
  /** The column's index among the suppliers the choice offered. */
  column: number;
}

/** `fileId` is the Slack file to read again when this call made the pick (`changed`). */
export async function chooseComparisonColumn(
  ctx: ServiceContext,
  options: ChooseComparisonColumnOptions,
): Promise<ServiceResult<{ fileId: string; supplier: string }>> {
  const quotation = await ctx.db.quotation.findUnique({
    where: { id: options.quotationId },
    select: { chosenColumn: true, comparisonColumns: true, slackFileId: true },
  });
  if (!quotation) return refused('not_found', 'This quotation no longer exists.');
  const gate = await gateQuotation(ctx, options.quotationId, options.by);
  // Picked already: being read again with that column (not 'review' meanwhile), or read. A double click is a no-op.
  const picked = quotation.chosenColumn !== null;
  if (!gate.ok && !(picked && gate.error === 'not_ready')) return gate;
  const suppliers = supplierColumnsSchema.parse(quotation.comparisonColumns);
  const chosen = suppliers[options.column];
  if (picked) {
    const name = suppliers[quotation.chosenColumn ?? 0]?.name ?? '';
    return done({ fileId: quotation.slackFileId, supplier: name }, false);
  }
  if (!chosen) return refused('invalid_input', 'That supplier column is not one this comparison offered.');

  const changed = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.quotation.updateMany({
      where: { id: options.quotationId, status: 'review', chosenColumn: null },
      data: { chosenColumn: options.column, status: 'received', readLeaseOwner: null, readLeaseExpiresAt: null },
    });
    if (count === 0) return false;
    await writeAudit(tx, options.by, {
      action: 'quotation.comparison_column_chosen',
      entityType: 'quotation',
      entityId: options.quotationId,
      data: { column: options.column, sheet: chosen.sheet, sheetColumn: chosen.column, supplier: chosen.name },
    });
    await enqueueStatus(tx, options.quotationId, { stage: 'reading' }, `column:${options.column}`);
    return true;
  });
  return done({ fileId: quotation.slackFileId, supplier: chosen.name }, changed);
}
