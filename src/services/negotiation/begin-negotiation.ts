// The buyer submits the start modal: the reviewed quotation becomes a baseline, the negotiation row and its engine
// checkpoint are created with the first thread messages in one transaction, and the run is handed to the runner.
// Submitting twice (a double click, a Slack retry) starts one negotiation.
// The acknowledgement waits for all of it (acknowledged means saved), so it is prepared, then written: the lines read in one statement, the baseline, the engine's first state, its checkpoint's
// encoding and the thread's reads all before the transaction, which only writes.
import type { NegotiationRequest } from '../../app-types.js';
import { fnv1a } from '../../commerce/rng.js';
import { SIMULATED_SUPPLIERS } from '../../config/business-rules.js';
import { Prisma, type Quotation } from '../../generated/prisma/client.js';
import { baselineFromQuotation, type BaselineSource, whyNotNegotiable } from '../../negotiation/baseline.js';
import { prepareNegotiationStart } from '../../db/stores/negotiation-store.js';
import { daysUntil, type MandateInput } from '../../negotiation/mandate.js';
import { priceTierSchema } from '../../negotiation/types.js';
import { z } from 'zod';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { enqueuePreparedNegotiationEvents, negotiationStatusCalls } from '../../thread/negotiation-events.js';
import { questionAddressee, threadOf } from '../../thread/thread.js';
import { mayWorkOnQuotation } from '../workspace/workspace-settings.js';
import { type InvitableConnectedSupplier, invitableConnectedSuppliers } from '../suppliers/quoted-supplier.js';

export interface BeginNegotiationOptions {
  quotationId: string;
  by: string;
  request: NegotiationRequest;
  /** The offline agents' seed; by default derived from the quotation, so a rerun of the same file is reproducible. */
  seed?: number;
}

export async function beginNegotiation(
  ctx: ServiceContext,
  options: BeginNegotiationOptions,
): Promise<ServiceResult<{ negotiationId: string }>> {
  const quotation = await ctx.db.quotation.findUnique({
    where: { id: options.quotationId },
    include: { negotiation: { select: { id: true } } },
  });
  if (!quotation) return refused('not_found', 'This quotation no longer exists.');
  if (quotation.negotiation) return done({ negotiationId: quotation.negotiation.id }, false);
  if (!mayWorkOnQuotation(options.by, quotation.uploadedBySlackUserId, ctx.workspace.settings)) {
    return refused('not_allowed', `Only <@${quotation.uploadedBySlackUserId}> and the approvers can start it.`);
  }
  if (quotation.status !== 'ready' || !quotation.supplierId) {
    return refused('not_ready', 'Finish the review first: every line needs a decision and the supplier a name.');
  }
  // The modal asks for this tick; checked here too, as nothing internal reaches outsiders without the buyer's say.
  if (quotation.slackChannelExternal && options.request.externalChannelConfirmed !== true) {
    return refused(
      'invalid_input',
      'This channel has people from outside your organisation: confirm in the start modal that the negotiation may ' +
        'be posted here, or share the quotation in an internal channel.',
    );
  }

  const { request } = options;
  const [simulated, quoting] = await Promise.all([
    ctx.db.supplier.findMany({
      where: { code: { in: SIMULATED_SUPPLIERS.map((s) => s.code) } },
      select: { id: true, code: true },
    }),
    ctx.db.supplier.findUnique({
      where: { id: quotation.supplierId },
      select: { slackChannelId: true, connectionLostAt: true },
    }),
  ]);
  // A quoting supplier connected in Slack Connect negotiates as itself: its people answer in its channel, and Alex's
  // messages reach it only as the buyer sends them (supplier-drafts.ts). Any other is played by the simulator. Only
  // beside a connected one may other connected suppliers compete (a simulated side is never awarded beside them).
  const connected = typeof quoting?.slackChannelId === 'string' && quoting.connectionLostAt === null;
  const connectedOthers = connected ? await invitableConnectedSuppliers(ctx.db, quotation.supplierId) : [];
  const mandate = mandateOf(request, ctx.now(), connectedOthers);
  if (!mandate.ok) return mandate;

  const source = await baselineSource(ctx, quotation);
  const { baseline, quotedSupplier } = baselineFromQuotation(source.quotation, source.catalogNames);
  const notNegotiable = whyNotNegotiable(baseline);
  if (notNegotiable) return refused('not_ready', notNegotiable);
  // The connected ones take part only as invited; the engine leaves out the simulated ones not invited.
  const invitedConnected = connectedOthers.filter(({ profile }) => request.invitedSuppliers?.includes(profile.code));
  const supplierIds = Object.fromEntries([
    [quotedSupplier.code, quotation.supplierId],
    ...invitedConnected.map(({ id, profile }) => [profile.code, id]),
    ...simulated.map((s) => [s.code, s.id]),
  ]);
  const start = prepareNegotiationStart(ctx.db, {
    quotationId: quotation.id,
    startedBySlackUserId: options.by,
    supplierIds,
    questionBudget: request.questionBudget,
    ...(request.supplierReplyDays === undefined ? {} : { supplierReplyDays: request.supplierReplyDays }),
    setup: {
      seed: options.seed ?? seedFrom(quotation.id),
      brandName: ctx.workspace.brandName,
      mode: request.mode,
      maxRounds: request.maxRounds,
      mandate: mandate.value,
      buyerNotes: request.notes,
      baseline,
      profiles: [
        { ...quotedSupplier, counterpart: connected ? 'connected' : 'simulated' },
        ...invitedConnected.map(({ profile }) => profile),
        ...SIMULATED_SUPPLIERS,
      ],
      // Carried into the negotiation at its start: a later change of the setting does not alter talks under way.
      discloseCompetitors: ctx.workspace.settings.discloseCompetitors,
    },
  });
  // What the thread is told is read before the transaction (the thread, the status card's plan): the transaction the
  // acknowledgement waits for only writes. A call enqueued meanwhile by another writer is a no-op (its dedupe key).
  const place = {
    quotationId: quotation.id,
    thread: await threadOf(ctx.db, quotation.id),
    buyerId: questionAddressee({ startedBySlackUserId: options.by }),
  };
  const status = await negotiationStatusCalls(ctx.db, place, start.state);
  try {
    const negotiationId = await ctx.db.$transaction(async (tx) => {
      // First, and fenced on what the start was built from: a supplier named again (or the quotation moved on) between
      // the reads above and this commit refuses the start instead of negotiating with what was read. Its row lock
      // also holds off such a change until the start commits.
      const { count } = await tx.quotation.updateMany({
        where: { id: quotation.id, status: 'ready', supplierId: quotation.supplierId },
        data: { status: 'negotiating' },
      });
      if (count === 0) throw new ReviewChangedWhileStarting();
      const id = await start.write(tx);
      const { events, state } = start;
      await enqueuePreparedNegotiationEvents(tx, place, { negotiationId: id, events, state }, status);
      return id;
    });
    start.committed(negotiationId);
    return done({ negotiationId });
  } catch (error) {
    // Two submits raced (a double click, a Slack retry): the other one started it. Its commit either took the
    // quotation first (this one's fenced update found it negotiating) or created the negotiation first (quotationId
    // is unique).
    const raced =
      error instanceof ReviewChangedWhileStarting ||
      (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002');
    if (raced) {
      const existing = await ctx.db.negotiation.findUnique({ where: { quotationId: quotation.id } });
      if (existing) return done({ negotiationId: existing.id }, false);
    }
    if (error instanceof ReviewChangedWhileStarting) {
      return refused(
        'conflict',
        'The review changed while the negotiation was starting: look at it again, then start.',
      );
    }
    throw error;
  }
}

/** The quotation's status or supplier changed after the start read them: nothing was written. */
class ReviewChangedWhileStarting extends Error {
  override name = 'ReviewChangedWhileStarting';
}

/**
 * The mandate the start modal asked for, checked again here (the modal is the first check; a request can come from
 * elsewhere): a walk-away at least the target, a delivery date still ahead (turned into the lead time it allows),
 * invited suppliers that are simulated ones or `connected` ones (those this negotiation may invite).
 */
function mandateOf(
  request: NegotiationRequest,
  now: Date,
  connected: readonly InvitableConnectedSupplier[],
): ServiceResult<MandateInput> {
  const { targetTotal, walkAwayTotal, requiredBy, invitedSuppliers } = request;
  if (targetTotal !== null && walkAwayTotal !== null && walkAwayTotal < targetTotal) {
    return refused('invalid_input', 'The walk-away total must be at least the target total.');
  }
  const today = now.toISOString().slice(0, 10);
  if (requiredBy !== null && !(requiredBy > today)) {
    return refused('invalid_input', 'The delivery date must be after today.');
  }
  const known = new Set([...SIMULATED_SUPPLIERS, ...connected.map(({ profile }) => profile)].map((s) => s.code));
  if (invitedSuppliers !== null && !invitedSuppliers.every((code) => known.has(code))) {
    return refused(
      'invalid_input',
      'Only the simulated suppliers and, beside a connected quoting supplier, the other connected ones can be ' +
        'invited: a supplier whose channel is no longer shared cannot.',
    );
  }
  return done({
    targetTotal,
    walkAwayTotal,
    requiredBy,
    // A date binds as the lead time it leaves from today; the date itself is kept for the record.
    maxLeadTimeDays: requiredBy === null ? request.maxLeadTimeDays : daysUntil(requiredBy, now),
    sourcing: request.sourcing,
    invitedSuppliers,
  });
}

/** The quotation's own columns the baseline reads, as the start's first read returned them. */
type QuotationTermsRow = Pick<
  Quotation,
  'id' | 'supplierNameRaw' | 'paymentTerms' | 'currency' | 'leadTimeDays' | 'incoterm' | 'moq' | 'notes' | 'charges'
>;

/** One reviewed line with its chosen product, as Postgres returns it (numeric as text, jsonb parsed). */
interface ReviewedLineRow {
  sheet: string;
  rowNumber: number;
  rawSku: string | null;
  description: string | null;
  quantity: number | null;
  unitPrice: string | null;
  tiers: unknown;
  rawNotes: string | null;
  sku: string | null;
  name: string | null;
}

/**
 * The reviewed lines as the baseline reads them: the buyer's chosen products, at the quoted prices. One statement for
 * the lines and their products, only the columns the baseline uses: Prisma's include (the lines, then their products
 * by 3,000 ids, every column of each decoded) was most of the start modal's acknowledgement at 3,000 lines.
 */
async function baselineSource(ctx: ServiceContext, quotation: QuotationTermsRow) {
  const lines = await ctx.db.$queryRaw<ReviewedLineRow[]>`
    SELECT i."sheet", i."rowNumber", i."rawSku", i."description", i."quantity", i."unitPrice"::text AS "unitPrice",
      i."tiers", i."rawNotes", p."sku", p."name"
    FROM "QuotationItem" i
    LEFT JOIN "Product" p ON p."id" = i."productId" AND p."workspaceId" = i."workspaceId"
    WHERE i."quotationId" = ${quotation.id} AND i."workspaceId" = ${ctx.db.$workspaceId}
      AND i."reviewState" IN ('auto_accepted', 'confirmed')
    ORDER BY i."position" ASC`;
  const tiersSchema = z.array(priceTierSchema).catch([]);
  const source: BaselineSource = {
    supplier: { name: quotation.supplierNameRaw },
    terms: {
      paymentTerms: quotation.paymentTerms,
      currency: quotation.currency,
      leadTimeDays: quotation.leadTimeDays,
      incoterm: quotation.incoterm,
      moq: quotation.moq,
    },
    notes: quotation.notes ? quotation.notes.split('\n') : [],
    charges: chargesSchema.catch([]).parse(quotation.charges),
    items: lines.map((line) => ({
      sheet: line.sheet,
      row: line.rowNumber,
      rawSku: line.rawSku,
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unitPrice === null ? null : Number(line.unitPrice),
      tiers: tiersSchema.parse(line.tiers),
      notes: line.rawNotes,
      match: { sku: line.sku },
    })),
  };
  const catalogNames = new Map(
    lines.flatMap((line) => (line.sku !== null && line.name !== null ? [[line.sku, line.name] as const] : [])),
  );
  return { quotation: source, catalogNames };
}

/** The quotation's charges column as the reader stored it (parse-quotation's ExtractedCharge). */
const chargesSchema = z.array(z.object({ description: z.string(), amount: z.number().nullable() }));

/** A stable seed per quotation, in 31 bits (the column is a signed int). */
function seedFrom(quotationId: string): number {
  return fnv1a(quotationId) >>> 1;
}
