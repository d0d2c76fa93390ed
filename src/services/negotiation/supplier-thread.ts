// Which negotiation a thread in a connected supplier's channel belongs to: the thread's first message is the one
// Parley posted under the negotiation's supplier-thread key. Shared by what a supplier's people do there — words
// (receive-supplier-words.ts) and a revised quotation shared as a file (receive-shared-file.ts).
import { engineRoleOf, loadCheckpoint } from '../../db/stores/negotiation-store.js';
import type { NegotiationStatus } from '../../generated/prisma/client.js';
import type { NegotiationState } from '../../negotiation/engine.js';
import { parseSupplierThreadKey } from '../../thread/thread.js';
import type { ServiceContext } from '../service-context.js';
import { ENDED } from './answer-question.js';

export interface SupplierThread {
  negotiationId: string;
  /** The supplier's engine role in the negotiation (engineRoleOf). */
  supplierCode: string;
  supplier: { id: string; name: string; code: string; slackTeamId: string | null };
  negotiation: { status: NegotiationStatus; startedBySlackUserId: string };
  /** The supplier's row in the negotiation (what its offer forms and files are for); null if it takes no part. */
  negotiationSupplierId: string | null;
}

/** Null when `threadTs` in `channelId` is no negotiation's thread in a connected supplier's channel. */
export async function supplierThreadAt(
  ctx: ServiceContext,
  channelId: string,
  threadTs: string,
): Promise<SupplierThread | null> {
  const root = await ctx.db.slackOutbox.findFirst({
    where: {
      channelId,
      resultTs: threadTs,
      AND: [{ dedupeKey: { startsWith: 'neg:' } }, { dedupeKey: { contains: ':supplier:' } }],
    },
    select: { dedupeKey: true },
  });
  const thread = root && parseSupplierThreadKey(root.dedupeKey);
  if (!thread) return null;
  const [supplier, negotiation] = await Promise.all([
    ctx.db.supplier.findFirst({
      where: { slackChannelId: channelId, connectionLostAt: null },
      select: { id: true, name: true, code: true, slackTeamId: true },
    }),
    ctx.db.negotiation.findUnique({
      where: { id: thread.negotiationId },
      select: { status: true, startedBySlackUserId: true },
    }),
  ]);
  if (!supplier || !negotiation) return null;
  const row = await ctx.db.negotiationSupplier.findUnique({
    where: { negotiationId_supplierId: { negotiationId: thread.negotiationId, supplierId: supplier.id } },
    select: { id: true },
  });
  return { ...thread, supplier, negotiation, negotiationSupplierId: row?.id ?? null };
}

/** Whether the negotiation (not ended) waits for this supplier's answer in its current round. */
export function awaitsSupplier(status: NegotiationStatus, state: NegotiationState, supplierCode: string): boolean {
  return !ENDED[status] && state.suppliers[supplierCode]?.awaitingReply === true;
}

/** The negotiation's checkpoint, when the thread's supplier still plays the role its thread was opened for. */
export async function supplierThreadState(
  ctx: ServiceContext,
  thread: SupplierThread,
): Promise<NegotiationState | null> {
  const { state } = await loadCheckpoint(ctx.db, thread.negotiationId);
  return engineRoleOf(state, thread.supplier.code) === thread.supplierCode ? state : null;
}
