// A connected supplier's reply-by time, as it comes (src/jobs/remind-suppliers.ts finds the rows): a day before it,
// the supplier is reminded once in its thread; at it, the round closes without the supplier's answer — the same step
// as the buyer's Close the round, with nobody as its author — and both threads say so. A row whose round is over
// (the supplier answered, the buyer closed it, the negotiation ended) is cleared and does nothing.
import { engineRoleOf, loadCheckpoint } from '../../db/stores/negotiation-store.js';
import { latestBrandMessage } from '../../negotiation/engine.js';
import { replyReminderCalls, roundClosedCalls, enqueueSupplierChannelCalls } from '../../thread/supplier-channel.js';
import { questionAddressee, threadOf } from '../../thread/thread.js';
import { DAY_MS } from '../../time.js';
import { applyBuyerStep, ENDED } from '../negotiation/answer-question.js';
import { currentSentDraft } from '../negotiation/supplier-drafts.js';
import type { ServiceContext } from '../service-context.js';

/** How long before its reply-by time a supplier is reminded. */
export const SUPPLIER_REMINDER_BEFORE_MS = DAY_MS;

export type SupplierReplyOutcome = 'reminded' | 'closed' | 'nothing';

export async function supplierReplyDue(
  ctx: ServiceContext,
  input: { negotiationSupplierId: string; now: Date },
): Promise<{ outcome: SupplierReplyOutcome; negotiationId: string | null; resume: boolean }> {
  const nothing = { outcome: 'nothing' as const, negotiationId: null, resume: false };
  const row = await ctx.db.negotiationSupplier.findUnique({
    where: { id: input.negotiationSupplierId },
    select: {
      negotiationId: true,
      replyBy: true,
      replyRound: true,
      replyRemindedAt: true,
      supplier: { select: { code: true, slackChannelId: true, connectionLostAt: true } },
      negotiation: { select: { status: true, quotationId: true, startedBySlackUserId: true } },
    },
  });
  if (!row?.replyBy || row.replyRound === null) return nothing;
  const { negotiationId, replyBy, replyRound, supplier, negotiation } = row;
  const { state } = await loadCheckpoint(ctx.db, negotiationId);
  const supplierCode = engineRoleOf(state, supplier.code);
  const waiting = state.suppliers[supplierCode];
  const draft = waiting && latestBrandMessage(state, waiting);
  const channelId = supplier.connectionLostAt === null ? supplier.slackChannelId : null;
  // Conditional on the reply-by time read: a Send, an extension or another run in between leaves the row to them.
  const unchanged = { id: input.negotiationSupplierId, replyBy, replyRound };
  if (ENDED[negotiation.status] || state.round !== replyRound || !waiting?.awaitingReply || !draft || !channelId) {
    await ctx.db.negotiationSupplier.updateMany({ where: unchanged, data: { replyBy: null, replyRound: null } });
    return nothing;
  }
  const place = { negotiationId, supplierCode, channelId, buyerId: questionAddressee(negotiation) };

  if (input.now >= replyBy) {
    const thread = await threadOf(ctx.db, negotiation.quotationId);
    const decided = await currentSentDraft(ctx, { negotiationId, state, supplierCode, buyerId: place.buyerId });
    if (!decided) return nothing;
    const result = await applyBuyerStep(
      ctx,
      negotiationId,
      { kind: 'no_reply', supplierCode, by: null },
      async (tx) => {
        await tx.negotiationSupplier.updateMany({ where: unchanged, data: { replyBy: null, replyRound: null } });
        await enqueueSupplierChannelCalls(
          tx,
          roundClosedCalls(place, { state, thread, draft: decided, closedBy: null }),
        );
      },
    );
    if (!result.ok || !result.changed) return nothing;
    return { outcome: 'closed', negotiationId, resume: result.value.resume };
  }

  if (row.replyRemindedAt !== null || input.now.getTime() < replyBy.getTime() - SUPPLIER_REMINDER_BEFORE_MS) {
    return nothing;
  }
  const calls = replyReminderCalls(place, { state, sequence: draft.sequence ?? 0, round: draft.round, replyBy });
  const reminded = await ctx.db.$transaction(async (tx) => {
    const claimed = await tx.negotiationSupplier.updateMany({
      where: { ...unchanged, replyRemindedAt: null },
      data: { replyRemindedAt: input.now },
    });
    if (claimed.count === 0) return false;
    await enqueueSupplierChannelCalls(tx, calls);
    return true;
  });
  return reminded ? { outcome: 'reminded', negotiationId, resume: false } : nothing;
}
