// The buyer decides what reaches a connected supplier. Each message Alex writes for one is a draft in the buyer's
// thread (negotiation-events.ts); Send posts it in the negotiation's thread in the supplier's channel with Submit offer
// and a reply-by time (supplier-channel.ts), Skip sends nothing and closes the round for that supplier. Either is
// decided once: a second Send changes nothing, a Skip after a Send (or a Send after a Skip) is refused. Once sent, the
// round waits for the supplier until its reply-by time (src/jobs/remind-suppliers.ts closes it then); the buyer can
// close it sooner, or give the supplier more time. Every decision is audited with who made it.
import type { DecideDraftInput } from '../../app-types.js';
import { writeAudit } from '../../db/audit.js';
import type { WorkspaceTx } from '../../db/scoped.js';
import { engineRoleOf, loadCheckpoint } from '../../db/stores/negotiation-store.js';
import { latestBrandMessage, type NegotiationState } from '../../negotiation/engine.js';
import { isEnqueued } from '../../outbox/index.js';
import {
  type DecidedDraft,
  draftSentCalls,
  draftSkippedCalls,
  replyExtendedCalls,
  roundClosedCalls,
  enqueueSupplierChannelCalls,
} from '../../thread/supplier-channel.js';
import { questionAddressee, supplierMessageKey, supplierName, threadOf } from '../../thread/thread.js';
import { addBusinessDays } from '../../time.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { mayWorkOnQuotation } from '../workspace/workspace-settings.js';
import { applyBuyerStep, ENDED } from './answer-question.js';

/** The draft `sequence` names: the brand message to a connected supplier, and whether it is that supplier's current one. */
function findDraft(state: NegotiationState, sequence: number) {
  for (const profile of state.profiles) {
    if (profile.counterpart !== 'connected') continue;
    const supplier = state.suppliers[profile.code];
    const draft = supplier?.messages.find((m) => m.sequence === sequence && m.from === 'brand');
    if (!supplier || !draft) continue;
    const current = latestBrandMessage(state, supplier)?.sequence === sequence;
    return { supplierCode: profile.code, supplier, draft, current };
  }
  return null;
}

/** Who sent draft `sequence` to the supplier (its audit entry), for the card's later edits. */
async function sentBy(ctx: ServiceContext, negotiationId: string, sequence: number): Promise<string | null> {
  const sent = await ctx.db.auditLog.findFirst({
    where: {
      entityId: negotiationId,
      action: 'negotiation.draft_sent',
      data: { path: ['sequence'], equals: sequence },
    },
    select: { actorSlackUserId: true },
  });
  return sent?.actorSlackUserId ?? null;
}

/**
 * The message the round waits on the supplier for, as sent — its words and who sent it — for the draft card's later
 * edits (answered, extended, closed). Null when the supplier has no brand message this round.
 */
export async function currentSentDraft(
  ctx: ServiceContext,
  input: { negotiationId: string; state: NegotiationState; supplierCode: string; buyerId: string },
): Promise<DecidedDraft | null> {
  const supplier = input.state.suppliers[input.supplierCode];
  const draft = supplier && latestBrandMessage(input.state, supplier);
  if (!draft?.sequence) return null;
  return {
    negotiationId: input.negotiationId,
    supplierCode: input.supplierCode,
    sequence: draft.sequence,
    round: draft.round,
    text: draft.text,
    by: (await sentBy(ctx, input.negotiationId, draft.sequence)) ?? input.buyerId,
  };
}

/**
 * Whether the draft may go out without the buyer's Send (the workspace's auto-send setting): an ask at or under the
 * walk-away total, or an acceptance of the supplier's offer under it. Anything else — a walk-away, a question, a
 * message with no ask, an ask above the walk-away — waits for the buyer. With no walk-away set, an ask is within it.
 */
export function sendableWithoutAsking(state: NegotiationState, supplierCode: string, sequence: number): boolean {
  const found = findDraft(state, sequence);
  const type = found?.draft.action?.type;
  if (!found || !found.current || !type) return false;
  const limit = state.mandate.walkAwayTotal;
  const within = (total: number | null | undefined) =>
    typeof total === 'number' && (limit === null || total <= limit + 0.005);
  if (type === 'COUNTER_OFFER') {
    return within(found.supplier.brandAsks.find((ask) => ask.round === found.draft.round)?.targetTotal);
  }
  if (type === 'ACCEPT') return within(found.supplier.offers.at(-1)?.total);
  return false;
}

/**
 * With the auto-send setting on, sends each connected supplier's current draft that stays within the mandate, as the
 * buyer who started the negotiation would (audited as automatic). The rest wait in the thread for Send.
 */
export async function sendDraftsWithinMandate(ctx: ServiceContext, negotiationId: string): Promise<number> {
  if (!ctx.workspace.settings.autoSendToSuppliers) return 0;
  const negotiation = await ctx.db.negotiation.findUnique({
    where: { id: negotiationId },
    select: { startedBySlackUserId: true },
  });
  if (!negotiation) return 0;
  const { state } = await loadCheckpoint(ctx.db, negotiationId);
  let sent = 0;
  for (const profile of state.profiles) {
    const supplier = state.suppliers[profile.code];
    const draft = supplier && latestBrandMessage(state, supplier);
    if (profile.counterpart !== 'connected' || !supplier?.awaitingReply || !draft?.sequence) continue;
    if (!sendableWithoutAsking(state, profile.code, draft.sequence)) continue;
    const by = questionAddressee(negotiation);
    const result = await decideDraft(ctx, {
      negotiationId,
      sequence: draft.sequence,
      decision: 'send',
      by,
      automatic: true,
    });
    if (result.ok && result.changed) sent += 1;
  }
  return sent;
}

type DraftResult = ServiceResult<{ negotiationId: string; resume: boolean }>;

/** Another Send of the same message committed first: this one writes nothing. */
class SentMeanwhile extends Error {
  override name = 'SentMeanwhile';
}

/** The draft `sequence` of a negotiation going on, for someone who may work on its quotation; whether it was sent. */
async function openDraft(ctx: ServiceContext, input: { negotiationId: string; sequence: number; by: string }) {
  const { negotiationId, sequence, by } = input;
  const negotiation = await ctx.db.negotiation.findUnique({
    where: { id: negotiationId },
    select: {
      status: true,
      quotationId: true,
      startedBySlackUserId: true,
      supplierReplyDays: true,
      quotation: { select: { uploadedBySlackUserId: true } },
    },
  });
  if (!negotiation) return refused('not_found', 'This negotiation no longer exists.');
  const ended = ENDED[negotiation.status];
  if (ended) return refused('conflict', `This negotiation ${ended}; nothing was sent.`);
  const uploader = negotiation.quotation.uploadedBySlackUserId;
  if (!mayWorkOnQuotation(by, uploader, ctx.workspace.settings)) {
    return refused('not_allowed', `Only <@${uploader}>, who shared the quotation, and the approvers can send it.`);
  }
  const { state } = await loadCheckpoint(ctx.db, negotiationId);
  const found = findDraft(state, sequence);
  if (!found) return refused('not_found', 'This draft is not part of the negotiation.');
  const sent = await isEnqueued(ctx.db, supplierMessageKey(negotiationId, sequence));
  return done({ negotiation, state, found, sent });
}

/** The Edit modal's contents: a draft not sent yet, whose round still waits for the supplier. */
export async function draftForEditing(
  ctx: ServiceContext,
  input: { negotiationId: string; sequence: number; by: string },
): Promise<ServiceResult<{ negotiationId: string; sequence: number; supplierName: string; text: string }>> {
  const open = await openDraft(ctx, input);
  if (!open.ok) return open;
  const { state, found, sent } = open.value;
  if (sent) return refused('conflict', 'This message was sent already: the supplier has it.');
  if (!found.current || !found.supplier.awaitingReply) {
    return refused('conflict', 'This draft’s round is closed for the supplier: there is nothing to send.');
  }
  const name = supplierName(state, found.supplierCode);
  return done({
    negotiationId: input.negotiationId,
    sequence: input.sequence,
    supplierName: name,
    text: found.draft.text,
  });
}

export async function decideDraft(ctx: ServiceContext, input: DecideDraftInput): Promise<DraftResult> {
  const { negotiationId, sequence, by, decision } = input;
  const automatic = input.automatic === true;
  const open = await openDraft(ctx, input);
  if (!open.ok) return open;
  const { negotiation, state, found, sent } = open.value;
  const { supplierCode, supplier, draft, current } = found;
  const thread = await threadOf(ctx.db, negotiation.quotationId);
  const typed = decision === 'send' ? input.text?.trim() : undefined;
  const edited = typed !== undefined && typed !== '' && typed !== draft.text ? typed : null;
  const decided = { negotiationId, supplierCode, sequence, round: draft.round, text: edited ?? draft.text, by };

  if (decision === 'skip') {
    if (sent) return refused('conflict', 'This message was sent already: the supplier has it.');
    if (!current) return refused('conflict', 'This draft is from a round that is over.');
    if (!supplier.awaitingReply)
      return refused('not_ready', 'Alex is still writing this round: try again in a moment.');
    const result = await applyBuyerStep(ctx, negotiationId, { kind: 'no_reply', supplierCode, by }, (tx) =>
      enqueueSupplierChannelCalls(tx, draftSkippedCalls({ state, thread, draft: decided })),
    );
    return result.ok ? done({ negotiationId, ...result.value }, result.changed) : result;
  }
  if (decision === 'send' && sent) return done({ negotiationId, resume: false }, false);
  if (decision !== 'send' && !sent) return refused('conflict', 'This message was not sent: send it or skip it.');
  if (!current || !supplier.awaitingReply) {
    return refused(
      'conflict',
      decision === 'send'
        ? 'This draft’s round is closed for the supplier: it was not sent.'
        : `Round ${draft.round} is over for ${supplierName(state, supplierCode)}: it answered, or the round closed.`,
    );
  }
  const rows = await ctx.db.negotiationSupplier.findMany({
    where: { negotiationId },
    select: {
      id: true,
      replyBy: true,
      supplier: { select: { code: true, slackChannelId: true, connectionLostAt: true } },
    },
  });
  const row = rows.find((candidate) => engineRoleOf(state, candidate.supplier.code) === supplierCode);
  const channelId = row?.supplier.connectionLostAt === null ? row.supplier.slackChannelId : null;
  if (!row || !channelId) {
    return refused(
      'conflict',
      `${supplierName(state, supplierCode)}'s channel is no longer shared with your workspace: nothing was sent. ` +
        'Connect it again with `/parley suppliers`, or skip this message.',
    );
  }
  const place = {
    negotiationId,
    negotiationSupplierId: row.id,
    supplierCode,
    channelId,
    buyerId: questionAddressee(negotiation),
  };
  const replyDays = negotiation.supplierReplyDays;
  const audit = (action: string, data: Record<string, unknown>) => ({
    action,
    entityType: 'negotiation',
    entityId: negotiationId,
    data: { supplierCode, sequence, round: draft.round, ...data },
  });

  // The card keeps naming who sent the message when it is closed or extended by someone else.
  const sender = decision === 'send' ? decided : { ...decided, by: (await sentBy(ctx, negotiationId, sequence)) ?? by };
  if (decision === 'close') {
    const result = await applyBuyerStep(ctx, negotiationId, { kind: 'no_reply', supplierCode, by }, async (tx) => {
      await tx.negotiationSupplier.update({ where: { id: row.id }, data: { replyBy: null, replyRound: null } });
      await enqueueSupplierChannelCalls(tx, roundClosedCalls(place, { state, thread, draft: sender, closedBy: by }));
    });
    return result.ok ? done({ negotiationId, ...result.value }, result.changed) : result;
  }

  // Send or extend: the reply-by time (from now, or an extension from the one standing), its messages, its audit.
  const now = ctx.now();
  const extending = decision === 'extend';
  const replyBy = addBusinessDays(extending && row.replyBy && row.replyBy > now ? row.replyBy : now, replyDays);
  const calls = extending
    ? replyExtendedCalls(place, { state, thread, draft: sender, replyBy, replyDays })
    : draftSentCalls(place, { state, thread, draft: decided, replyBy, replyDays, automatic, edited: edited !== null });
  const entry = extending
    ? audit('negotiation.supplier_reply_extended', { replyBy: replyBy.toISOString() })
    : audit('negotiation.draft_sent', {
        channelId,
        replyBy: replyBy.toISOString(),
        ...(automatic ? { automatic } : {}),
      });
  const write = async (tx: WorkspaceTx) => {
    // Conditional for a Send: of two at once, the first records this round's reply-by time and sends; the second
    // finds it recorded and writes nothing (the outbox keys alone would still audit and time it twice).
    const recorded = await tx.negotiationSupplier.updateMany({
      where: extending
        ? { id: row.id }
        : { id: row.id, OR: [{ replyRound: null }, { replyRound: { not: draft.round } }] },
      data: { replyBy, replyRound: draft.round, replyRemindedAt: null },
    });
    if (recorded.count === 0) throw new SentMeanwhile();
    await enqueueSupplierChannelCalls(tx, calls);
    await writeAudit(tx, by, entry);
  };
  try {
    if (edited === null) {
      await ctx.db.$transaction(write);
      return done({ negotiationId, resume: false });
    }
    // Edited: the history takes the buyer's words in the same step that sends them, so both say the same.
    const step = await applyBuyerStep(
      ctx,
      negotiationId,
      { kind: 'edit_brand_message', supplierCode, sequence, text: edited, by },
      write,
    );
    if (!step.ok) return step;
    if (!step.changed) return refused('conflict', 'This draft changed while you edited it: nothing was sent.');
  } catch (error) {
    if (error instanceof SentMeanwhile) return done({ negotiationId, resume: false }, false);
    throw error;
  }
  return done({ negotiationId, resume: false });
}
