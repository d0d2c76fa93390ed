// What Parley posts in a supplier's own Slack Connect channel: the welcome once the channel is connected, and each
// negotiation's thread there. Read by the supplier's organisation, so it names only the brand, the people who act for
// it and the supplier's own lines.
import type { PurchaseOrderAllocationView, PurchaseOrderView } from '../decision/purchase-order-rules.js';
import type { WorkspaceTx } from '../db/scoped.js';
import { engineRoleOf } from '../db/stores/negotiation-store.js';
import type { NegotiationState } from '../negotiation/engine.js';
import { confidentialFacts } from '../outbox/discretion-check.js';
import { enqueueSlackCall, enqueueSlackCalls, type OutboxCall, type OutboxWriter } from '../outbox/index.js';
import {
  buildHeldBackNotice,
  buildPoQuerySent,
  buildSupplierAnswer,
  buildSupplierDraftDecided,
  buildSupplierPurchaseOrder,
  buildSupplierRequest,
  buildSupplierThreadStart,
  buildSupplierWelcome,
  buildSupplierReplyNotice,
  buildSupplierWordsNoted,
  buildOfferFileProposal,
  buildWordsOfferProposal,
  type WordsOfferModel,
  type DraftOutcome,
  LINES_FILE,
  OFFER_MODAL_LINES_MAX,
  type OfferFileModel,
  type OfferModalRef,
  type SlackMessage,
} from '../slack/views/index.js';
import { rfqLinesCsv } from '../negotiation/format.js';
import { statusCalls } from './status-card.js';
import {
  draftKey,
  edit,
  message,
  negKey,
  negotiationThread,
  supplierMessageKey,
  supplierName,
  supplierThreadKey,
  statusKey,
  type Thread,
  upload,
} from './thread.js';

export async function enqueueSupplierWelcome(
  tx: WorkspaceTx,
  welcome: { supplierId: string; supplierName: string; channelId: string; brandName: string; by: string },
): Promise<void> {
  const body = buildSupplierWelcome(welcome);
  const place = { slackChannelId: welcome.channelId, slackThreadTs: null };
  const key = `supplier:${welcome.supplierId}:welcome:${welcome.channelId}`;
  await enqueueSlackCall(tx, {
    ...message(place, key, body),
    // Held back (it named another supplier, say): the person who connected the channel is told in their DM.
    heldBackNotice: (why) =>
      message({ slackChannelId: welcome.by, slackThreadTs: null }, `${key}:held`, buildHeldBackNotice(why)),
  });
}

/** Where a negotiation meets a connected supplier: its channel, its row in the negotiation, the buyer behind it. */
export interface SupplierThreadPlace {
  negotiationId: string;
  negotiationSupplierId: string;
  supplierCode: string;
  channelId: string;
  buyerId: string;
}

/**
 * Enqueues calls this module made (read before the caller's transaction, written inside it): how many were new — a
 * call whose key is in the outbox already is a no-op.
 */
export function enqueueSupplierChannelCalls(tx: WorkspaceTx, calls: readonly OutboxCall[]): Promise<number> {
  return enqueueSlackCalls(tx, calls);
}

/** The negotiation's thread in a supplier's channel, and the buyer it writes for. */
export type SupplierThread = Pick<SupplierThreadPlace, 'negotiationId' | 'supplierCode' | 'channelId' | 'buyerId'>;

/**
 * A message in the negotiation's thread in the supplier's channel, started with who is writing if it is the first:
 * checked by the discretion check against everything the negotiation knows that the supplier must not; held back,
 * the buyer is told in their DM. The start's key dedupes, so every message can carry it.
 */
function inSupplierThread(
  place: SupplierThread,
  state: NegotiationState,
  key: string,
  body: SlackMessage,
): OutboxCall[] {
  const { negotiationId, supplierCode, channelId, buyerId } = place;
  const root = supplierThreadKey(negotiationId, supplierCode);
  const gate = gated(place, state, key);
  const channel = { slackChannelId: channelId, slackThreadTs: null };
  const start = buildSupplierThreadStart({
    brandName: state.brandName,
    supplierName: supplierName(state, supplierCode),
    buyerId,
  });
  return [
    { ...message(channel, root, start), ...gate },
    { ...message(channel, key, body), threadTs: null, threadOf: root, ...gate },
  ];
}

/**
 * What the discretion gate takes with a call to the supplier's channel (outbox/supplier-channels.ts): everything the
 * negotiation knows that the supplier must not, and the notice that tells the buyer, in their DM, of a call held back.
 */
function gated(place: Pick<SupplierThread, 'supplierCode' | 'buyerId'>, state: NegotiationState, key: string) {
  return {
    confidential: confidentialFacts(state, place.supplierCode),
    heldBackNotice: (why: string) =>
      message({ slackChannelId: place.buyerId, slackThreadTs: null }, `${key}:held`, buildHeldBackNotice(why)),
  };
}

/** A draft for a connected supplier as the buyer decided it: which one, its words, who sent or skipped it. */
export interface DecidedDraft {
  negotiationId: string;
  supplierCode: string;
  sequence: number;
  round: number;
  text: string;
  by: string;
}

/** The draft in the buyer's thread, replaced by what became of it; `change` names the edit for its dedupe key. */
function draftCardCall(
  thread: Thread,
  state: NegotiationState,
  draft: DecidedDraft,
  outcome: DraftOutcome,
  change: string,
) {
  const key = draftKey(draft.negotiationId, draft.sequence);
  const body = buildSupplierDraftDecided({ ...draft, supplierName: supplierName(state, draft.supplierCode), outcome });
  return edit(thread, `${key}:${change}`, key, body);
}

/** When the supplier answers by, and how many business days each extension gives. */
export interface ReplyBy {
  replyBy: Date;
  replyDays: number;
}

/**
 * Sends the draft: the request in the negotiation's thread in the supplier's channel — its words, the lines to quote,
 * Submit offer and when to answer by — and the draft marked sent, waiting for the supplier.
 */
export function draftSentCalls(
  place: SupplierThreadPlace,
  input: {
    state: NegotiationState;
    thread: Thread;
    draft: DecidedDraft;
    automatic?: boolean;
    edited?: boolean;
  } & ReplyBy,
): OutboxCall[] {
  const { state, thread, draft, replyBy, replyDays } = input;
  const request = buildSupplierRequest({
    brandName: state.brandName,
    text: draft.text,
    round: state.round,
    currency: state.baseline.currency,
    lines: state.baseline.lines,
    offer: { n: place.negotiationId, s: place.negotiationSupplierId, r: state.round },
    replyBy,
  });
  const outcome = {
    decision: 'sent',
    channelId: place.channelId,
    replyBy,
    replyDays,
    ...(input.automatic ? { automatic: true } : {}),
    ...(input.edited ? { edited: true } : {}),
  } as const;
  return [
    ...inSupplierThread(place, state, supplierMessageKey(place.negotiationId, draft.sequence), request),
    ...linesFileCalls(place, state),
    draftCardCall(thread, state, draft, outcome, 'sent'),
  ];
}

/**
 * A request longer than the offer form: every line to quote as a file in the supplier's thread, once per negotiation,
 * with a Unit price column for its revised quotation. The lines are the brand's (SKU, description, quantity).
 */
function linesFileCalls(place: SupplierThreadPlace, state: NegotiationState): OutboxCall[] {
  const { lines } = state.baseline;
  if (lines.length <= OFFER_MODAL_LINES_MAX) return [];
  const root = supplierThreadKey(place.negotiationId, place.supplierCode);
  const csv = rfqLinesCsv(lines, { priceColumn: true });
  const file = upload({ slackChannelId: place.channelId, slackThreadTs: null }, `${root}:lines`, {
    filename: LINES_FILE,
    title: `All ${lines.length.toLocaleString('en-US')} lines to quote: fill in Unit price and share it back here`,
    content: Buffer.from(csv),
  });
  return [{ ...file, threadTs: null, threadOf: root, confidential: confidentialFacts(state, place.supplierCode) }];
}

/** The status card of a supplier's offer file turned into what Parley read from it (or into its recorded state). */
export function offerFileCalls(
  place: SupplierThread,
  state: NegotiationState,
  file: Thread,
  model: OfferFileModel,
): OutboxCall[] {
  const key = `${statusKey(file.id)}:offer:${model.status.kind}`;
  return [{ ...edit(file, key, statusKey(file.id), buildOfferFileProposal(model)), ...gated(place, state, key) }];
}

/** The draft marked skipped in the buyer's thread: nothing goes to the supplier. */
export function draftSkippedCalls(input: { state: NegotiationState; thread: Thread; draft: DecidedDraft }) {
  return [draftCardCall(input.thread, input.state, input.draft, { decision: 'skipped' }, 'skipped')];
}

/** A notice about sent message `sequence` in the supplier's thread (`what`: extended, reminded, closed). */
const noticeKey = (place: SupplierThread, sequence: number, what: string) =>
  `${supplierMessageKey(place.negotiationId, sequence)}:${what}`;

/** More time for the supplier: the draft's card and the supplier's thread say until when. */
export function replyExtendedCalls(
  place: SupplierThread,
  input: { state: NegotiationState; thread: Thread; draft: DecidedDraft } & ReplyBy,
): OutboxCall[] {
  const { state, thread, draft, replyBy, replyDays } = input;
  const change = `extended:${replyBy.getTime()}`;
  const notice = buildSupplierReplyNotice({ kind: 'extended', replyBy, round: draft.round });
  const outcome = { decision: 'sent', channelId: place.channelId, replyBy, replyDays } as const;
  return [
    ...inSupplierThread(place, state, noticeKey(place, draft.sequence, change), notice),
    draftCardCall(thread, state, draft, outcome, change),
  ];
}

/** The supplier is reminded in its thread of its reply-by time, once. */
export function replyReminderCalls(
  place: SupplierThread,
  input: { state: NegotiationState; sequence: number; round: number; replyBy: Date },
): OutboxCall[] {
  const notice = buildSupplierReplyNotice({ kind: 'reminder', replyBy: input.replyBy, round: input.round });
  const key = noticeKey(place, input.sequence, `reminder:${input.replyBy.getTime()}`);
  return inSupplierThread(place, input.state, key, notice);
}

/** The supplier answered the draft with Submit offer: its card in the buyer's thread stops waiting. */
export function draftAnsweredCalls(input: {
  state: NegotiationState;
  thread: Thread;
  draft: DecidedDraft;
  channelId: string;
  answeredBy: string;
}): OutboxCall[] {
  const { state, thread, draft, channelId, answeredBy } = input;
  return [draftCardCall(thread, state, draft, { decision: 'answered', channelId, answeredBy }, 'answered')];
}

/** The round closed without the supplier's answer (by `closedBy`, or at its reply-by time): both threads say so. */
export function roundClosedCalls(
  place: SupplierThread,
  input: { state: NegotiationState; thread: Thread; draft: DecidedDraft; closedBy: string | null },
): OutboxCall[] {
  const { state, thread, draft, closedBy } = input;
  const notice = buildSupplierReplyNotice({ kind: 'closed', round: draft.round });
  const outcome = { decision: 'closed', channelId: place.channelId, closedBy } as const;
  return [
    ...inSupplierThread(place, state, noticeKey(place, draft.sequence, 'closed'), notice),
    draftCardCall(thread, state, draft, outcome, 'closed'),
  ];
}

// ───────────────────────────── The approved PO, and what the supplier answers ─────────────────────────────

/** The outbox key of an approved PO's part in a connected supplier's thread: its acceptance edits it. */
export const supplierPoKey = (purchaseOrderId: string, supplierId: string) =>
  `po:${purchaseOrderId}:supplier:${supplierId}`;

/** A PO's part that goes to a connected supplier: its allocation, and where its negotiation thread is. */
export interface SupplierPoPart {
  allocation: PurchaseOrderAllocationView;
  place: SupplierThread;
}

/**
 * The parts of `po` that go to connected suppliers: those whose channel is still shared and whom this negotiation
 * talked to as connected (a supplier connected after the negotiation started was simulated in it, and no part of a
 * simulated counterpart's is sent to a real channel).
 */
export async function supplierPoParts(
  reader: OutboxWriter,
  po: PurchaseOrderView,
  /** The negotiation's checkpoint state, read only when a supplier of the PO is connected. */
  stateOf: () => Promise<NegotiationState>,
): Promise<{ parts: SupplierPoPart[]; state: NegotiationState | null }> {
  const connected = await reader.supplier.findMany({
    where: {
      id: { in: po.allocations.map((a) => a.supplierId) },
      slackChannelId: { not: null },
      connectionLostAt: null,
    },
    select: { id: true, slackChannelId: true },
  });
  if (connected.length === 0) return { parts: [], state: null };
  const state = await stateOf();
  const { buyerId } = await negotiationThread(reader, po.negotiationId);
  const parts = po.allocations.flatMap((allocation) => {
    const channelId = connected.find((supplier) => supplier.id === allocation.supplierId)?.slackChannelId;
    const supplierCode = engineRoleOf(state, allocation.supplierCode);
    const profile = state.profiles.find((candidate) => candidate.code === supplierCode);
    if (!channelId || profile?.counterpart !== 'connected') return [];
    return [{ allocation, place: { negotiationId: po.negotiationId, supplierCode, channelId, buyerId } }];
  });
  return { parts, state };
}

function supplierPoBody(po: PurchaseOrderView, part: SupplierPoPart, state: NegotiationState) {
  const { allocation } = part;
  return buildSupplierPurchaseOrder({
    purchaseOrderId: po.id,
    supplierId: allocation.supplierId,
    brandName: state.brandName,
    poNumber: po.number,
    supplierName: allocation.supplierName,
    currency: po.currency,
    items: allocation.items,
    total: allocation.fobCost,
    leadTimeDays: allocation.leadTimeDays,
    paymentTerms: allocation.paymentTerms,
    incoterm: allocation.incoterm,
    accepted: allocation.accepted ?? null,
  });
}

/** The approved PO's parts, each in its connected supplier's thread with Accept and Query. */
export function supplierPurchaseOrderCalls(
  po: PurchaseOrderView,
  parts: readonly SupplierPoPart[],
  state: NegotiationState,
): OutboxCall[] {
  return parts.flatMap((part) =>
    inSupplierThread(
      part.place,
      state,
      supplierPoKey(po.id, part.allocation.supplierId),
      supplierPoBody(po, part, state),
    ),
  );
}

/**
 * A supplier's acceptance of its part (`po` as it is once recorded): its PO message without the buttons, the buyer
 * told in the thread, and the status card listing who accepted.
 */
export async function supplierPoAcceptedCalls(
  reader: OutboxWriter,
  input: { po: PurchaseOrderView; part: SupplierPoPart; state: NegotiationState },
): Promise<OutboxCall[]> {
  const { po, part, state } = input;
  const accepted = part.allocation.accepted;
  if (!accepted) return [];
  const key = supplierPoKey(po.id, part.allocation.supplierId);
  const { quotationId, thread } = await negotiationThread(reader, po.negotiationId);
  const channel = { slackChannelId: part.place.channelId };
  const confidential = confidentialFacts(state, part.place.supplierCode);
  const told = buildSupplierAnswer({
    kind: 'accepted',
    supplierName: part.allocation.supplierName,
    poNumber: po.number,
    ...accepted,
  });
  const acceptedBy = po.allocations.flatMap((a) =>
    a.accepted ? [{ supplierName: a.supplierName, by: a.accepted.by, at: a.accepted.at }] : [],
  );
  const status = await statusCalls(
    reader,
    quotationId,
    {
      stage: 'approved',
      poNumber: po.number,
      approvedBy: po.approvals.map((a) => a.approverSlackUserId),
      approvedAt: po.approvedAt ?? accepted.at,
      acceptedBy,
    },
    `${key}:accepted`,
    thread,
  );
  return [
    { ...edit(channel, `${key}:accepted`, key, supplierPoBody(po, part, state)), confidential },
    message(thread, `${key}:accepted:told`, told),
    ...status,
  ];
}

/** A supplier's query on its part: the question to the buyer in the thread, and in the supplier's thread that it went. */
export async function supplierPoQueryCalls(
  reader: OutboxWriter,
  input: { po: PurchaseOrderView; part: SupplierPoPart; state: NegotiationState; by: string; text: string; id: string },
): Promise<OutboxCall[]> {
  const { po, part, state, by, text } = input;
  const key = `${supplierPoKey(po.id, part.allocation.supplierId)}:query:${input.id}`;
  const { thread, buyerId } = await negotiationThread(reader, po.negotiationId);
  const told = buildSupplierAnswer({
    kind: 'query',
    supplierName: part.allocation.supplierName,
    poNumber: po.number,
    by,
    text,
    buyerId,
  });
  const sent = buildPoQuerySent({ poNumber: po.number, by, buyerId, text });
  return [message(thread, `${key}:told`, told), ...inSupplierThread(part.place, state, key, sent)];
}

/**
 * A supplier's words in its thread: passed to the buyer in the negotiation's thread, and answered in the supplier's
 * thread — with Submit offer while the round waits for its offer (`offer`).
 */
/** The answer to a supplier's words (supplierWordsCalls) turned into the offer Claude read in them, or its outcome. */
export function wordsOfferCalls(
  place: SupplierThread,
  state: NegotiationState,
  messageTs: string,
  model: WordsOfferModel,
) {
  const key = negKey(place.negotiationId, `words:${place.supplierCode}:${messageTs}`);
  const change = `${key}:offer:${model.status.kind}`;
  const body = buildWordsOfferProposal(model);
  return [{ ...edit({ slackChannelId: place.channelId }, change, key, body), ...gated(place, state, change) }];
}

export async function supplierWordsCalls(
  reader: OutboxWriter,
  input: {
    place: SupplierThread;
    state: NegotiationState;
    messageTs: string;
    by: string;
    text: string;
    offer: OfferModalRef | null;
  },
): Promise<OutboxCall[]> {
  const { place, state } = input;
  const key = negKey(place.negotiationId, `words:${place.supplierCode}:${input.messageTs}`);
  const { thread } = await negotiationThread(reader, place.negotiationId);
  const told = buildSupplierAnswer({
    kind: 'words',
    supplierName: supplierName(state, place.supplierCode),
    by: input.by,
    text: input.text,
  });
  const noted = buildSupplierWordsNoted({ buyerId: place.buyerId, offer: input.offer });
  return [message(thread, `${key}:told`, told), ...inSupplierThread(place, state, key, noted)];
}
