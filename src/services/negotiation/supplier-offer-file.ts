// A connected supplier's revised quotation (receive-supplier-file.ts claimed it): read by Parley's own ingestion as
// the offer it would submit for the round — proposed back to the supplier in its thread — and recorded only when one
// of its people clicks Submit this offer, through the same path as the Submit offer form (submit-supplier-offer.ts):
// the same checks (their organisation, the round still waiting for them), the offer stored as the file states it.
import type { CatalogIndex } from '../../catalog/catalog-index.js';
import { engineRoleOf, loadCheckpoint } from '../../db/stores/negotiation-store.js';
import type { NegotiationState } from '../../negotiation/engine.js';
import { type OfferFromFile, offerFromFile } from '../../negotiation/offer-from-file.js';
import type { OutboxCall } from '../../outbox/index.js';
import { parseQuotation, type RankLines } from '../../quotation/parse-quotation.js';
import type { OfferFileModel } from '../../slack/views/index.js';
import { offerFileCalls, type SupplierThread } from '../../thread/supplier-channel.js';
import { questionAddressee, threadColumns } from '../../thread/thread.js';
import { refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { awaitsSupplier } from './supplier-thread.js';
import { proposedOfferFigures, submitSupplierOffer, submittedOfferSchema } from './submit-supplier-offer.js';

/** What reading an offer file produced: the offer it proposes, and the status card's edit that proposes it. */
export interface SupplierOfferFileRead {
  read: OfferFromFile;
  calls: OutboxCall[];
}

/** The offer file's row, with where it stands in its negotiation. */
async function offerFileOf(ctx: ServiceContext, quotationId: string) {
  const file = await ctx.db.quotation.findUnique({
    where: { id: quotationId },
    select: {
      ...threadColumns,
      offerRound: true,
      proposedOffer: true,
      offerFor: {
        select: {
          id: true,
          negotiationId: true,
          supplier: { select: { code: true, slackChannelId: true } },
          negotiation: { select: { quotationId: true, status: true, startedBySlackUserId: true } },
        },
      },
    },
  });
  if (!file?.offerFor || file.offerRound === null || !file.offerFor.supplier.slackChannelId) return null;
  const { state } = await loadCheckpoint(ctx.db, file.offerFor.negotiationId);
  const supplierCode = engineRoleOf(state, file.offerFor.supplier.code);
  const place: SupplierThread = {
    negotiationId: file.offerFor.negotiationId,
    supplierCode,
    channelId: file.offerFor.supplier.slackChannelId,
    buyerId: questionAddressee(file.offerFor.negotiation),
  };
  const open = state.round === file.offerRound && awaitsSupplier(file.offerFor.negotiation.status, state, supplierCode);
  return { file, round: file.offerRound, offerFor: file.offerFor, state, place, open };
}

/** Reads the file's bytes as the supplier's offer for the round it was shared in. */
export async function readSupplierOfferFile(
  ctx: ServiceContext,
  input: {
    quotationId: string;
    data: Buffer;
    catalog: (ctx: ServiceContext) => Promise<CatalogIndex | RankLines>;
  },
): Promise<SupplierOfferFileRead> {
  const found = await offerFileOf(ctx, input.quotationId);
  if (!found) throw new Error(`quotation ${input.quotationId} is no connected supplier's offer file`);
  const { state, place, round, offerFor } = found;
  // The first quotation's lines as its supplier wrote their SKUs, each with the brand's SKU the buyer settled on.
  const original = await ctx.db.quotationItem.findMany({
    where: { quotationId: offerFor.negotiation.quotationId, rawSku: { not: null }, product: { isNot: null } },
    select: { rawSku: true, product: { select: { sku: true } } },
  });
  const parsed = await parseQuotation({
    data: input.data,
    catalog: await input.catalog(ctx),
    suppliers: [],
    limits: ctx.limits,
    llm: ctx.llm,
    readSheets: ctx.readSheets,
  });
  const read = offerFromFile({
    requested: state.baseline.lines,
    currency: state.baseline.currency,
    supplierSkus: new Map(
      original.flatMap((item) => (item.rawSku && item.product ? [[item.rawSku, item.product.sku]] : [])),
    ),
    lines: parsed.items,
    terms: parsed.terms,
  });
  const model = offerFileModel(found.file.fileName, round, state, read, {
    status: found.open ? { kind: 'proposed', quotationId: input.quotationId } : { kind: 'closed' },
  });
  return { read, calls: offerFileCalls(place, state, found.file, model) };
}

function offerFileModel(
  fileName: string,
  round: number,
  state: NegotiationState,
  read: OfferFromFile,
  model: Pick<OfferFileModel, 'status'>,
): OfferFileModel {
  return {
    ...proposedOfferFigures(state, read.offer),
    fileName,
    round,
    unmatched: {
      count: read.unmatched.length,
      named: read.unmatched.slice(0, 3).flatMap((line) => (line.sku ?? line.description ?? '').trim() || []),
    },
    conflicting: read.conflicting,
    otherCurrency: read.otherCurrency,
    ...model,
  };
}

/**
 * Submit this offer, clicked by `by` of organisation `byTeamId`: the offer Parley read from the file, recorded as
 * the Submit offer form would record it — or refused as the form would be (not theirs, the round closed).
 */
export async function submitOfferFile(
  ctx: ServiceContext,
  input: { quotationId: string; by: string; byTeamId: string | null },
): Promise<ServiceResult<{ negotiationId: string; resume: boolean }>> {
  const found = await offerFileOf(ctx, input.quotationId);
  const proposed = submittedOfferSchema.safeParse(found?.file.proposedOffer);
  if (!found || !proposed.success) return refused('not_found', 'Parley has no offer read from this file.');
  const { file, state, place, round, offerFor } = found;
  const offer = { ...proposed.data, notes: `Offer submitted as a revised quotation (${file.fileName}).` };
  const read: OfferFromFile = {
    offer,
    priced: offer.unitPrices.filter((price) => price !== null).length,
    unmatched: [],
    conflicting: [],
    otherCurrency: null,
  };
  // The proposal's card says it is recorded, in the step's own transaction; what the file left out is not repeated.
  const recorded = offerFileCalls(
    place,
    state,
    file,
    offerFileModel(file.fileName, round, state, read, { status: { kind: 'submitted', by: input.by } }),
  );
  return submitSupplierOffer(
    ctx,
    { negotiationId: offerFor.negotiationId, negotiationSupplierId: offerFor.id, round, offer, ...input },
    recorded,
  );
}
