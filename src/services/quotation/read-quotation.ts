// Reads a claimed quotation: downloads the file, parses and matches it (src/quotation), and records the lines with
// their matches in one transaction together with what the thread shows next — the review, or straight to "ready"
// when nothing needs a human. A file Parley cannot read gets a clear reply and a failed status card; nothing else is
// written. Safe to run twice: only a quotation still `received` or `parsing` is read, by the process holding its read
// lease.
import { loadCatalogIndex } from '../../db/stores/catalog-store.js';
import { toJsonColumn } from '../../db/json.js';
import { log } from '../../log.js';
import { QuotationError } from '../../quotation/errors.js';
import { type ParsedQuotation, parseQuotation } from '../../quotation/parse-quotation.js';
import { withUsageScope } from '../../llm/usage-scope.js';
import { type SlackFiles, sharedFileDownload } from './download-shared-file.js';
import type { ServiceContext } from '../service-context.js';
import { enqueueQuotationFailed, enqueueQuotationRead } from '../../thread/review.js';

/** How long a reader holds a quotation; a reader that died is replaced after it (or at once by its own restart). */
export const READ_LEASE_MS = 5 * 60_000;

export interface ReadQuotationOptions {
  quotationId: string;
  /** This process, for the read lease. */
  owner: string;
  /** The file's bytes from Slack (the Slack layer enforces the size limit while downloading). */
  download: () => Promise<Buffer>;
}

export type ReadQuotationOutcome = 'review' | 'ready' | 'failed' | 'already_read';

export function readQuotation(ctx: ServiceContext, options: ReadQuotationOptions): Promise<ReadQuotationOutcome> {
  return withUsageScope({ workspaceId: ctx.workspace.id, quotationId: options.quotationId }, () => read(ctx, options));
}

/**
 * A quotation left `received`/`parsing` by a process that died, to be read again (the recovery sweep claimed it
 * first): its Slack file and the download, as for a new upload; null when the quotation is gone.
 */
export async function quotationToReread(
  ctx: ServiceContext,
  options: { quotationId: string; files: SlackFiles },
): Promise<{ fileId: string; download: () => Promise<Buffer> } | null> {
  const quotation = await ctx.db.quotation.findUnique({
    where: { id: options.quotationId },
    select: { slackFileId: true },
  });
  if (!quotation) return null;
  const fileId = quotation.slackFileId;
  // files.info inside the download: a file Slack no longer has fails the quotation (with a reply) rather than leaving
  // it stuck for the next sweep.
  return { fileId, download: sharedFileDownload(ctx, { files: options.files, fileId }) };
}

async function read(ctx: ServiceContext, options: ReadQuotationOptions): Promise<ReadQuotationOutcome> {
  const now = ctx.now();
  const { count } = await ctx.db.quotation.updateMany({
    where: {
      id: options.quotationId,
      status: { in: ['received', 'parsing'] },
      OR: [{ readLeaseOwner: null }, { readLeaseOwner: options.owner }, { readLeaseExpiresAt: { lt: now } }],
    },
    data: {
      status: 'parsing',
      readLeaseOwner: options.owner,
      readLeaseExpiresAt: new Date(now.getTime() + READ_LEASE_MS),
    },
  });
  if (count === 0) return 'already_read';

  let parsed: ParsedQuotation;
  try {
    const suppliers = await ctx.db.supplier.findMany({
      where: { isSimulated: false },
      select: { id: true, code: true, name: true },
    });
    parsed = await parseQuotation({
      data: await options.download(),
      catalog: await loadCatalogIndex(ctx.db),
      suppliers,
      limits: ctx.limits,
      llm: ctx.llm,
    });
  } catch (error) {
    const known = error instanceof QuotationError;
    if (!known) log.error('reading a quotation failed', { error, quotationId: options.quotationId });
    await failQuotation(ctx, options.quotationId, {
      code: known ? error.code : 'internal',
      message: known ? error.userMessage : INTERNAL_ERROR,
    });
    return 'failed';
  }
  try {
    return await recordParsedQuotation(ctx, options.quotationId, parsed);
  } catch (error) {
    log.error('recording a read quotation failed', { error, quotationId: options.quotationId });
    await failQuotation(ctx, options.quotationId, { code: 'internal', message: INTERNAL_ERROR });
    return 'failed';
  }
}

const INTERNAL_ERROR =
  'Parley could not read this file because of an internal error; it has been logged. Try sharing it again.';

async function failQuotation(ctx: ServiceContext, quotationId: string, error: { code: string; message: string }) {
  await ctx.db.$transaction(async (tx) => {
    await tx.quotation.update({
      where: { id: quotationId },
      data: { status: 'failed', errorCode: error.code, errorMessage: error.message },
    });
    await enqueueQuotationFailed(tx, quotationId);
  });
}

/** The parse result becomes the quotation's lines; the supplier is linked when it is certainly one of ours. */
export async function recordParsedQuotation(
  ctx: ServiceContext,
  quotationId: string,
  parsed: ParsedQuotation,
): Promise<'review' | 'ready'> {
  const identified = parsed.supplier.identification;
  const status = parsed.needsReview ? 'review' : 'ready';
  await ctx.db.$transaction(async (tx) => {
    await tx.quotationItem.deleteMany({ where: { quotationId } });
    await tx.quotationItem.createMany({
      data: parsed.items.map((item, position) => ({
        workspaceId: ctx.workspace.id,
        quotationId,
        position,
        sheet: item.sheet,
        rowNumber: item.row,
        rawSku: item.rawSku,
        rawDescription: item.description,
        rawQuantity: item.quantity === null ? null : String(item.quantity),
        rawUnitPrice: item.unitPrice === null ? null : String(item.unitPrice),
        rawNotes: item.notes,
        description: item.description,
        quantity: item.quantity === null ? null : Math.round(item.quantity),
        unitPrice: item.unitPrice,
        totalPrice: item.totalPrice,
        tiers: toJsonColumn(item.tiers),
        productId: item.match.productId,
        matchConfidence: item.match.confidence,
        matchMethod: item.match.method,
        candidates: toJsonColumn(item.match.candidates),
        flags: toJsonColumn(item.flags),
        reviewState: item.reviewState,
      })),
    });
    await tx.quotation.update({
      where: { id: quotationId },
      data: {
        status,
        supplierId: identified.status === 'existing' ? (identified.supplier?.id ?? null) : null,
        supplierNameRaw: parsed.supplier.name,
        supplierMatch: toJsonColumn(identified),
        paymentTerms: parsed.terms.paymentTerms,
        leadTimeDays: parsed.terms.leadTimeDays,
        currency: parsed.terms.currency,
        incoterm: parsed.terms.incoterm,
        moq: parsed.terms.moq,
        validityDays: parsed.terms.validityDays,
        notes: parsed.notes.join('\n') || null,
        sheetCount: parsed.sheets.length,
        charges: toJsonColumn(parsed.charges),
        warnings: toJsonColumn(parsed.warnings),
      },
    });
    await enqueueQuotationRead(tx, quotationId);
  });
  return status;
}
