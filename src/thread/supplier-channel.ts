// What Parley posts in a supplier's own Slack Connect channel: the welcome once the channel is connected, and each
// negotiation's thread there. Read by the supplier's organisation, so it names only the brand, the people who act for
// it and the supplier's own lines.
import type { WorkspaceTx } from '../db/scoped.js';
import type { NegotiationState } from '../negotiation/engine.js';
import { confidentialFacts } from '../outbox/discretion-check.js';
import { enqueueSlackCall, enqueueSlackCalls, type OutboxCall } from '../outbox/index.js';
import {
  buildHeldBackNotice,
  buildSupplierDraftDecided,
  buildSupplierRequest,
  buildSupplierThreadStart,
  buildSupplierWelcome,
} from '../slack/views/index.js';
import { draftKey, edit, message, supplierMessageKey, supplierName, supplierThreadKey, type Thread } from './thread.js';

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
 * A message the buyer sends to a connected supplier, in the negotiation's thread in its channel (started with who is
 * writing, the first time): its words, the lines to quote and Submit offer for this round. Checked by the discretion
 * check against everything the negotiation knows that the supplier must not; held back, the buyer is told in their DM.
 */
function supplierRequestCalls(
  place: SupplierThreadPlace,
  state: NegotiationState,
  sent: { sequence: number; text: string },
): OutboxCall[] {
  const { negotiationId, supplierCode, channelId, buyerId } = place;
  const root = supplierThreadKey(negotiationId, supplierCode);
  const key = supplierMessageKey(negotiationId, sent.sequence);
  const confidential = confidentialFacts(state, supplierCode);
  const heldBackNotice = (why: string) =>
    message({ slackChannelId: buyerId, slackThreadTs: null }, `${key}:held`, buildHeldBackNotice(why));
  const channel = { slackChannelId: channelId, slackThreadTs: null };
  const start = buildSupplierThreadStart({
    brandName: state.brandName,
    supplierName: supplierName(state, supplierCode),
    buyerId,
  });
  const request = buildSupplierRequest({
    brandName: state.brandName,
    text: sent.text,
    round: state.round,
    currency: state.baseline.currency,
    lines: state.baseline.lines,
    offer: { n: negotiationId, s: place.negotiationSupplierId, r: state.round },
  });
  return [
    { ...message(channel, root, start), confidential, heldBackNotice },
    { ...message(channel, key, request), threadTs: null, threadOf: root, confidential, heldBackNotice },
  ];
}

/** A draft for a connected supplier as the buyer decided it: which one, its words, who decided. */
export interface DecidedDraft {
  negotiationId: string;
  supplierCode: string;
  sequence: number;
  round: number;
  text: string;
  by: string;
}

/** The draft in the buyer's thread, replaced by what became of it (no buttons: it is decided once). */
function draftDecidedCall(thread: Thread, state: NegotiationState, draft: DecidedDraft, channelId: string | null) {
  const key = draftKey(draft.negotiationId, draft.sequence);
  const card = { ...draft, supplierName: supplierName(state, draft.supplierCode) };
  const body = buildSupplierDraftDecided(
    channelId === null ? { ...card, decision: 'skipped' } : { ...card, decision: 'sent', channelId },
  );
  return edit(thread, `${key}:${channelId === null ? 'skipped' : 'sent'}`, key, body);
}

/** Sends the draft: the request in the negotiation's thread in the supplier's channel, and the draft marked sent. */
export async function enqueueDraftSent(
  tx: WorkspaceTx,
  input: { place: SupplierThreadPlace; state: NegotiationState; thread: Thread; draft: DecidedDraft },
): Promise<void> {
  const { place, state, thread, draft } = input;
  await enqueueSlackCalls(tx, [
    ...supplierRequestCalls(place, state, draft),
    draftDecidedCall(thread, state, draft, place.channelId),
  ]);
}

/** The draft marked skipped in the buyer's thread: nothing goes to the supplier. */
export async function enqueueDraftSkipped(
  tx: WorkspaceTx,
  input: { state: NegotiationState; thread: Thread; draft: DecidedDraft },
): Promise<void> {
  await enqueueSlackCalls(tx, [draftDecidedCall(input.thread, input.state, input.draft, null)]);
}
