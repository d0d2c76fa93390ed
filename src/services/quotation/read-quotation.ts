// Reads a claimed quotation: downloads the file, parses and matches it (src/quotation), and records the lines with
// their matches in one transaction together with what the thread shows next — the review, or straight to "ready"
// when nothing needs a human. A file Parley cannot read gets a clear reply and a failed status card; nothing else is
// written. Safe to run twice: only a quotation still `received` or `parsing` is read, by the process holding its read
// lease — and it writes only while it still holds that lease. The lease's expiry as this reader last wrote it is its
// token: a second reader (a job's retry, after the first attempt died or its lease ran out) writes a new one, so the first
// reader's late result is refused rather than replacing the lines the buyer has started reviewing. A long read (a
// slow download, a Claude re-read) renews the lease while it works, so it is not overtaken in the first place.
import { randomUUID } from 'node:crypto';
import type { CatalogIndex } from '../../catalog/catalog-index.js';
import { activeCatalogProducts, catalogKey, loadCatalogIndex } from '../../db/stores/catalog-store.js';
import { toJsonColumn } from '../../db/json.js';
import { QUOTATION_ITEM_SCALE, storedNumeric } from '../../db/numeric.js';
import { log } from '../../log.js';
import { QuotationError } from '../../quotation/errors.js';
import {
  type ParsedItem,
  type ParsedQuotation,
  parseQuotation,
  type RankLines,
} from '../../quotation/parse-quotation.js';
import type { WorkspaceTx } from '../../db/scoped.js';
import { supplierColumnsSchema } from '../../quotation/document-kind.js';
import { withUsageScope } from '../../llm/usage-scope.js';
import { type SlackFiles, sharedFileDownload } from './download-shared-file.js';
import type { ServiceContext } from '../service-context.js';
import {
  enqueueQuotationFailed,
  enqueueQuotationRead,
  enqueueReviewWorkbookApplied,
  prepareQuotationRead,
  type WrittenLine,
} from '../../thread/review.js';
import type { SharedReviewWorkbook } from '../../quotation/review-workbook.js';
import { applyReviewWorkbook, sharedReviewWorkbook } from './review-workbook.js';
import { JOB_LEASE_PREFIX, jobLeaseTakeover } from '../../jobs/job-lease.js';
import { enqueueSupplierChannelCalls } from '../../thread/supplier-channel.js';
import { readSupplierOfferFile, type SupplierOfferFileRead } from '../negotiation/supplier-offer-file.js';

/** How long a reader holds a quotation; a reader that died is replaced after it (or at once by its own restart). */
export const READ_LEASE_MS = 5 * 60_000;
/** How often a reader renews its lease: well inside it, so a renewal delayed by a slow database still lands in time. */
export const READ_HEARTBEAT_MS = READ_LEASE_MS / 5;
/** The transaction recording a read file: long enough for the largest file the read limits let through. */
const RECORD_TRANSACTION = { timeout: 60_000, maxWait: 15_000 };

export interface ReadQuotationOptions {
  quotationId: string;
  /** This process, for the read lease. */
  owner: string;
  /** The file's bytes from Slack (the Slack layer enforces the size limit while downloading). */
  download: () => Promise<Buffer>;
  /** How often the read lease is renewed while the file is read (tests); by default READ_HEARTBEAT_MS. */
  heartbeatMs?: number;
}

/** `lease_lost`: another reader took the quotation while this one worked; this one wrote nothing. */
export type ReadQuotationOutcome =
  'review' | 'ready' | 'failed' | 'already_read' | 'lease_lost' | 'review_workbook' | 'offer_file';

/** A held read lease: the expiry this reader last wrote is its fencing token. */
interface ReadLease {
  quotationId: string;
  owner: string;
  expiresAt: Date;
}

/** The lease went to another reader (or the quotation moved on): this reader's write was refused. */
class ReadLeaseLost extends Error {
  override name = 'ReadLeaseLost';
}

export function readQuotation(ctx: ServiceContext, options: ReadQuotationOptions): Promise<ReadQuotationOutcome> {
  return withUsageScope({ workspaceId: ctx.workspace.id, quotationId: options.quotationId }, () => read(ctx, options));
}

/**
 * What reading a file needs that a start can prepare: the workspace's catalog index (10,000 products: a query and
 * ~0.3 s of CPU to build), kept per catalog version, so the first file after a start does not wait for it.
 */
export async function warmUpReading(ctx: ServiceContext): Promise<void> {
  const ranker = ctx.catalogRanker;
  if (ranker) await ranker.load(await catalogKey(ctx.db), await activeCatalogProducts(ctx.db));
  else await loadCatalogIndex(ctx.db);
}

/**
 * The catalog to match against: in the server, the index the reader's worker keeps (built there from this
 * workspace's products the first time its key is asked for), so neither building it nor matching 3,000 lines runs on
 * the event loop that acknowledges Slack; elsewhere (CLIs, tests) the index in this thread.
 */
async function catalogFor(ctx: ServiceContext): Promise<CatalogIndex | RankLines> {
  const ranker = ctx.catalogRanker;
  if (!ranker) return loadCatalogIndex(ctx.db);
  const key = await catalogKey(ctx.db);
  return async (queries, options) => {
    const ranked = await ranker.rank(key, queries, options);
    if (ranked) return ranked;
    await ranker.load(key, await activeCatalogProducts(ctx.db));
    const again = await ranker.rank(key, queries, options);
    if (!again) throw new Error(`the catalog index ${key} was not kept by the reader's worker`);
    return again;
  };
}

/**
 * A quotation left `received`/`parsing` by a process that died, to be read again (its read job retried, or
 * queued by queue-unqueued-work): its Slack file and the download, as for a new upload; null when the quotation is gone.
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
  // it stuck for the next retry.
  return { fileId, download: sharedFileDownload(ctx, { files: options.files, fileId }) };
}

async function read(ctx: ServiceContext, options: ReadQuotationOptions): Promise<ReadQuotationOutcome> {
  const lease = await claimReadLease(ctx, options);
  if (!lease) return 'already_read';
  const heartbeat = keepReadLease(ctx, lease, options.heartbeatMs ?? READ_HEARTBEAT_MS);
  try {
    return await readHeld(ctx, options, lease, heartbeat);
  } catch (error) {
    if (!(error instanceof ReadLeaseLost)) throw error;
    log.warn('a quotation reader lost its read lease; it wrote nothing', {
      quotationId: lease.quotationId,
      owner: lease.owner,
    });
    return 'lease_lost';
  } finally {
    await heartbeat.stop();
  }
}

async function readHeld(
  ctx: ServiceContext,
  options: ReadQuotationOptions,
  lease: ReadLease,
  heartbeat: ReadHeartbeat,
): Promise<ReadQuotationOutcome> {
  let parsed: ParsedQuotation;
  try {
    const data = await options.download();
    // Lost while downloading: the Claude re-read of the sheets would be paid for nothing.
    if (heartbeat.lost()) throw new ReadLeaseLost();
    const picked = await ctx.db.quotation.findUniqueOrThrow({
      where: { id: lease.quotationId },
      select: { comparisonColumns: true, chosenColumn: true, offerForId: true },
    });
    // A connected supplier's revised quotation in its negotiation's thread: read as the offer it proposes — first,
    // so that nothing else a file can be (a review workbook of the brand's) is done for someone outside the brand.
    if (picked.offerForId !== null) {
      const proposal = await readSupplierOfferFile(ctx, { quotationId: lease.quotationId, data, catalog: catalogFor });
      await heartbeat.stop();
      return await recordSupplierOfferFile(ctx, lease, proposal);
    }
    // Parley's own review workbook shared back in a thread: applied to the quotation it names, not read as a quote.
    const workbook = await sharedReviewWorkbook(data, ctx.limits);
    if (workbook) {
      await heartbeat.stop();
      return await recordReviewWorkbook(ctx, lease, workbook);
    }
    // A comparison sheet whose supplier the buyer picked is read with that supplier's price column.
    const priceColumn =
      picked.chosenColumn === null
        ? undefined
        : supplierColumnsSchema.parse(picked.comparisonColumns)[picked.chosenColumn];
    const suppliers = await ctx.db.supplier.findMany({
      where: { isSimulated: false },
      select: { id: true, code: true, name: true },
    });
    parsed = await parseQuotation({
      data,
      catalog: await catalogFor(ctx),
      suppliers,
      limits: ctx.limits,
      llm: ctx.llm,
      readSheets: ctx.readSheets,
      priceColumn,
    });
  } catch (error) {
    if (error instanceof ReadLeaseLost) throw error;
    const known = error instanceof QuotationError;
    if (!known) log.error('reading a quotation failed', { error, quotationId: options.quotationId });
    // A renewal in flight would change the token under the write: the heartbeat ends before any write.
    await heartbeat.stop();
    await failQuotation(ctx, lease, {
      code: known ? error.code : 'internal',
      message: known ? error.userMessage : INTERNAL_ERROR,
    });
    return 'failed';
  }
  await heartbeat.stop();
  try {
    return await recordParsedQuotation(ctx, lease, parsed);
  } catch (error) {
    if (error instanceof ReadLeaseLost) throw error;
    log.error('recording a read quotation failed', { error, quotationId: options.quotationId });
    await failQuotation(ctx, lease, { code: 'internal', message: INTERNAL_ERROR });
    return 'failed';
  }
}

/**
 * Takes the quotation for this reader: free, expired, already this reader's, or an earlier read job attempt's, which
 * pg-boss has already given up on (src/jobs/job-lease.ts).
 */
async function claimReadLease(ctx: ServiceContext, options: ReadQuotationOptions): Promise<ReadLease | null> {
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + READ_LEASE_MS);
  const { count } = await ctx.db.quotation.updateMany({
    where: {
      id: options.quotationId,
      status: { in: ['received', 'parsing'] },
      OR: [
        { readLeaseOwner: null },
        { readLeaseOwner: options.owner },
        { readLeaseExpiresAt: { lt: now } },
        ...jobLeaseTakeover('readLeaseOwner', options.owner),
      ],
    },
    data: { status: 'parsing', readLeaseOwner: options.owner, readLeaseExpiresAt: expiresAt },
  });
  return count === 0 ? null : { quotationId: options.quotationId, owner: options.owner, expiresAt };
}

/** The rows this reader may still write: still being read, and under the lease exactly as this reader left it. */
function heldBy(lease: ReadLease) {
  return {
    id: lease.quotationId,
    status: 'parsing' as const,
    readLeaseOwner: lease.owner,
    readLeaseExpiresAt: lease.expiresAt,
  };
}

interface ReadHeartbeat {
  /** Whether a renewal found the lease gone. */
  lost(): boolean;
  /** No more renewals; resolves once one in flight has landed (so the token a write uses is the last one written). */
  stop(): Promise<void>;
}

/** Renews the lease every `everyMs` until stopped or lost; a renewal that fails on a database error is tried again. */
function keepReadLease(ctx: ServiceContext, lease: ReadLease, everyMs: number): ReadHeartbeat {
  let lost = false;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const renew = async () => {
    const expiresAt = new Date(ctx.now().getTime() + READ_LEASE_MS);
    try {
      const { count } = await ctx.db.quotation.updateMany({
        where: heldBy(lease),
        data: { readLeaseExpiresAt: expiresAt },
      });
      if (count === 1) lease.expiresAt = expiresAt;
      else lost = true;
    } catch (error) {
      log.warn('renewing a read lease failed; trying again', { error, quotationId: lease.quotationId });
    }
  };
  const schedule = () => {
    timer = setTimeout(() => {
      inFlight = renew().then(() => {
        if (!stopped && !lost) schedule();
      });
    }, everyMs);
    // A read that hangs must not keep the process alive on its own.
    timer.unref();
  };
  schedule();
  return {
    lost: () => lost,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}

const INTERNAL_ERROR =
  'Parley could not read this file because of an internal error; it has been logged. Try sharing it again.';

async function failQuotation(ctx: ServiceContext, lease: ReadLease, error: { code: string; message: string }) {
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.quotation.updateMany({
      where: heldBy(lease),
      data: { status: 'failed', errorCode: error.code, errorMessage: error.message },
    });
    if (count === 0) throw new ReadLeaseLost();
    await enqueueQuotationFailed(tx, lease.quotationId);
  });
}

/**
 * A supplier's offer file read: its row done (it is no quotation of the brand's), the offer it proposes kept with it
 * for its people's confirmation, and its status card turned into that proposal — under the reader's lease.
 */
async function recordSupplierOfferFile(
  ctx: ServiceContext,
  lease: ReadLease,
  proposal: SupplierOfferFileRead,
): Promise<'offer_file'> {
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.quotation.updateMany({
      where: heldBy(lease),
      data: { status: 'completed', proposedOffer: toJsonColumn(proposal.read.offer) },
    });
    if (count === 0) throw new ReadLeaseLost();
    await enqueueSupplierChannelCalls(tx, proposal.calls);
  });
  return 'offer_file';
}

/**
 * A review workbook shared back: applied to the quotation it was made for, in one transaction with this file's row
 * (done: it is not a quotation) and its status card turned into the summary. Written only under the reader's lease.
 */
async function recordReviewWorkbook(
  ctx: ServiceContext,
  lease: ReadLease,
  workbook: SharedReviewWorkbook,
): Promise<'review_workbook'> {
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.quotation.updateMany({
      where: heldBy(lease),
      data: { status: 'completed', notes: `Parley review workbook for quotation ${workbook.quotationId}` },
    });
    if (count === 0) throw new ReadLeaseLost();
    const file = await tx.quotation.findUniqueOrThrow({
      where: { id: lease.quotationId },
      select: { fileName: true, uploadedBySlackUserId: true },
    });
    const summary = await applyReviewWorkbook(tx, ctx, {
      fileName: file.fileName,
      sharedBy: file.uploadedBySlackUserId,
      workbook,
    });
    await enqueueReviewWorkbookApplied(tx, lease.quotationId, summary);
  });
  return 'review_workbook';
}

/**
 * The parse result becomes the quotation's lines; the supplier is linked when it is certainly one of ours. Written
 * only under the reader's lease (ReadLeaseLost otherwise, and nothing is written): the fenced update comes first, so
 * its row lock also holds off a second reader's claim until these lines are committed. Everything that is not a write
 * is done before the transaction — the lines' ids, the review and the status card (prepareQuotationRead) — so on
 * PGlite, whose one connection every click and the outbox wait for, it holds only its writes.
 */
async function recordParsedQuotation(
  ctx: ServiceContext,
  lease: ReadLease,
  parsed: ParsedQuotation,
): Promise<'review' | 'ready'> {
  const { quotationId } = lease;
  if (parsed.comparison.length > 0) return recordComparison(ctx, lease, parsed);
  const identified = parsed.supplier.identification;
  const status = parsed.needsReview ? 'review' : 'ready';
  const supplierMatch = toJsonColumn(identified);
  const written = {
    status,
    supplierId: identified.status === 'existing' ? (identified.supplier?.id ?? null) : null,
    supplierNameRaw: parsed.supplier.name,
    supplierMatch,
    paymentTerms: parsed.terms.paymentTerms,
    leadTimeDays: parsed.terms.leadTimeDays,
    currency: parsed.terms.currency,
    incoterm: parsed.terms.incoterm,
  } as const;
  const lines = itemRows(parsed.items);
  const prepared = await prepareQuotationRead(ctx.db, { quotationId, quotation: written, lines });
  // 3,000 rows are ~1.5 MB of JSON: made before the transaction too.
  const rows = lines.length === 0 ? null : JSON.stringify(lines);
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.quotation.updateMany({
      where: heldBy(lease),
      data: {
        ...written,
        moq: parsed.terms.moq,
        validityDays: parsed.terms.validityDays,
        notes: parsed.notes.join('\n') || null,
        sheetCount: parsed.sheets.length,
        charges: toJsonColumn(parsed.charges),
        warnings: toJsonColumn(parsed.warnings),
      },
    });
    if (count === 0) throw new ReadLeaseLost();
    await tx.quotationItem.deleteMany({ where: { quotationId } });
    if (rows !== null) await insertItems(tx, quotationId, rows);
    await enqueueQuotationRead(tx, prepared);
    // Prisma's default of 5 s is too short for the largest files on a busy machine, and the read would fail after all
    // the parsing was done. The lease check above still fences a reader that waited this long.
  }, RECORD_TRANSACTION);
  return status;
}

/** A line's row as it is written, and as the review built before the write shows it. */
type ItemRow = WrittenLine & {
  position: number;
  rawQuantity: string | null;
  rawUnitPrice: string | null;
  rawNotes: string | null;
  description: string | null;
  tiers: unknown;
  matchMethod: string;
};

/**
 * The lines' rows, made before the transaction: their ids (random UUIDs, as the catalog's products are made; lines
 * are ordered by `position`, never by id) and their prices as the numeric columns will hold them, so the review built
 * from these rows is the one the database would give back.
 */
function itemRows(items: readonly ParsedItem[]): ItemRow[] {
  return items.map((item, position) => ({
    id: randomUUID(),
    position,
    sheet: item.sheet,
    rowNumber: item.row,
    rawSku: item.rawSku,
    rawDescription: item.description,
    rawQuantity: item.quantity === null ? null : String(item.quantity),
    rawUnitPrice: item.unitPrice === null ? null : String(item.unitPrice),
    rawNotes: item.notes,
    description: item.description,
    color: item.color,
    size: item.size,
    quantity: item.quantity === null ? null : Math.round(item.quantity),
    unitPrice: item.unitPrice === null ? null : storedNumeric(item.unitPrice, QUOTATION_ITEM_SCALE.unitPrice),
    totalPrice: item.totalPrice === null ? null : storedNumeric(item.totalPrice, QUOTATION_ITEM_SCALE.totalPrice),
    tiers: item.tiers,
    productId: item.match.productId,
    matchConfidence: item.match.confidence,
    matchMethod: item.match.method,
    candidates: item.match.candidates,
    flags: item.flags,
    reviewState: item.reviewState,
  }));
}

/**
 * The lines in one statement: the rows (ItemRow, as JSON) travel as one text parameter and PostgreSQL unpacks them
 * (jsonb_to_recordset). Through Prisma's createMany a 3,000-line file was ~72,000 bind values compiled one by one by
 * its query compiler and sent as several chunked INSERTs, seconds of CPU on the event loop that acks Slack. Runs
 * inside the reader's fenced transaction, after the update that checked its lease.
 */
async function insertItems(tx: WorkspaceTx, quotationId: string, rows: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO "QuotationItem" ("id", "workspaceId", "quotationId", "position", "sheet", "rowNumber", "rawSku",
      "rawDescription", "rawQuantity", "rawUnitPrice", "rawNotes", "description", "color", "size", "quantity",
      "unitPrice", "totalPrice", "tiers", "productId", "matchConfidence", "matchMethod", "candidates", "flags",
      "reviewState", "createdAt", "updatedAt")
    SELECT r."id", ${tx.$workspaceId}, ${quotationId}, r."position", r."sheet", r."rowNumber",
      r."rawSku", r."rawDescription", r."rawQuantity", r."rawUnitPrice", r."rawNotes", r."description", r."color",
      r."size", r."quantity", r."unitPrice", r."totalPrice", COALESCE(r."tiers", '[]'), r."productId",
      r."matchConfidence", r."matchMethod"::"MatchMethod", COALESCE(r."candidates", '[]'), COALESCE(r."flags", '[]'),
      r."reviewState"::"ReviewState", CURRENT_TIMESTAMP, CURRENT_TIMESTAMP
    FROM jsonb_to_recordset(${rows}::jsonb) AS r(
      "id" text, "position" integer, "sheet" text, "rowNumber" integer, "rawSku" text, "rawDescription" text,
      "rawQuantity" text, "rawUnitPrice" text, "rawNotes" text, "description" text, "color" text, "size" text,
      "quantity" integer, "unitPrice" numeric, "totalPrice" numeric, "tiers" jsonb, "productId" text,
      "matchConfidence" double precision, "matchMethod" text, "candidates" jsonb, "flags" jsonb, "reviewState" text)`;
}

/**
 * A comparison sheet read before the buyer picked a supplier: no lines yet (the leftmost offer's would start a wrong
 * negotiation), the suppliers offered as one button each. The pick re-reads the file (chooseComparisonColumn).
 */
async function recordComparison(ctx: ServiceContext, lease: ReadLease, parsed: ParsedQuotation): Promise<'review'> {
  const written = {
    status: 'review',
    comparisonColumns: toJsonColumn(parsed.comparison),
    currency: parsed.terms.currency,
  } as const;
  // No lines are written: a comparison has none before its pick.
  const prepared = await prepareQuotationRead(ctx.db, {
    quotationId: lease.quotationId,
    quotation: written,
    lines: [],
  });
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.quotation.updateMany({
      where: heldBy(lease),
      data: { ...written, sheetCount: parsed.sheets.length, warnings: toJsonColumn(parsed.warnings) },
    });
    if (count === 0) throw new ReadLeaseLost();
    await enqueueQuotationRead(tx, prepared);
  });
  return 'review';
}

/** What the thread says when a file's read failed for good (the error itself is in the log). */
export const READ_GAVE_UP =
  'Parley could not read this file: reading it failed again and again, and the errors have been logged. Try sharing it again.';

/**
 * A quotation whose pg-boss read used up its retries (the dead-letter queue): failed with a reply in its thread, like
 * a file Parley cannot read, so queue-unqueued-work does not queue it for ever. Returns false when it had been read
 * meanwhile.
 */
export async function giveUpReading(ctx: ServiceContext, quotationId: string): Promise<boolean> {
  return ctx.db.$transaction(async (tx) => {
    const { count } = await tx.quotation.updateMany({
      where: {
        id: quotationId,
        status: { in: ['received', 'parsing'] },
        // A reader outside the jobs whose lease is live is still reading (what the job kept waiting for); a job
        // attempt's lease is a dead one's.
        OR: [
          { readLeaseOwner: null },
          { readLeaseExpiresAt: { lt: ctx.now() } },
          { readLeaseOwner: { startsWith: JOB_LEASE_PREFIX } },
        ],
      },
      data: {
        status: 'failed',
        errorCode: 'internal',
        errorMessage: READ_GAVE_UP,
        readLeaseOwner: null,
        readLeaseExpiresAt: null,
      },
    });
    if (count === 0) return false;
    await enqueueQuotationFailed(tx, quotationId);
    return true;
  });
}
