// The buyer decides what reaches a connected supplier. Each message Alex writes for one is a draft in the buyer's
// thread (negotiation-events.ts); Send posts it in the negotiation's thread in the supplier's channel with Submit offer
// (supplier-channel.ts), Skip sends nothing and closes the round for that supplier. Either is decided once: a second
// Send changes nothing, a Skip after a Send (or a Send after a Skip) is refused. Audited with who decided.
import type { DecideDraftInput } from '../../app-types.js';
import { writeAudit } from '../../db/audit.js';
import { engineRoleOf, loadCheckpoint } from '../../db/stores/negotiation-store.js';
import { latestBrandMessage, type NegotiationState } from '../../negotiation/engine.js';
import { isEnqueued } from '../../outbox/index.js';
import { enqueueDraftSent, enqueueDraftSkipped } from '../../thread/supplier-channel.js';
import { questionAddressee, supplierMessageKey, supplierName, threadOf } from '../../thread/thread.js';
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

export async function decideDraft(
  ctx: ServiceContext,
  input: DecideDraftInput,
): Promise<ServiceResult<{ negotiationId: string; resume: boolean }>> {
  const { negotiationId, sequence, by } = input;
  const negotiation = await ctx.db.negotiation.findUnique({
    where: { id: negotiationId },
    select: {
      status: true,
      quotationId: true,
      startedBySlackUserId: true,
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
  const { supplierCode, supplier, draft, current } = found;
  const sent = await isEnqueued(ctx.db, supplierMessageKey(negotiationId, sequence));
  const thread = await threadOf(ctx.db, negotiation.quotationId);
  const decided = { negotiationId, supplierCode, sequence, round: draft.round, text: draft.text, by };

  if (!input.send) {
    if (sent) return refused('conflict', 'This message was sent already: the supplier has it.');
    if (!current) return refused('conflict', 'This draft is from a round that is over.');
    if (!supplier.awaitingReply)
      return refused('not_ready', 'Alex is still writing this round: try again in a moment.');
    const result = await applyBuyerStep(ctx, negotiationId, { kind: 'no_reply', supplierCode, by }, (tx) =>
      enqueueDraftSkipped(tx, { state, thread, draft: decided }),
    );
    return result.ok ? done({ negotiationId, ...result.value }, result.changed) : result;
  }

  if (sent) return done({ negotiationId, resume: false }, false);
  if (!current || !supplier.awaitingReply) {
    return refused('conflict', 'This draft’s round is closed for the supplier: it was not sent.');
  }
  const rows = await ctx.db.negotiationSupplier.findMany({
    where: { negotiationId },
    select: { id: true, supplier: { select: { code: true, slackChannelId: true, connectionLostAt: true } } },
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
  await ctx.db.$transaction(async (tx) => {
    await enqueueDraftSent(tx, { place, state, thread, draft: decided });
    await writeAudit(tx, by, {
      action: 'negotiation.draft_sent',
      entityType: 'negotiation',
      entityId: negotiationId,
      data: { supplierCode, sequence, round: draft.round, channelId },
    });
  });
  return done({ negotiationId, resume: false });
}
