// The status card at the top of the thread: posted once when the file arrives, then edited as the work moves on.
import { nextOpenQuestion } from '../negotiation/ask-info.js';
import type { NegotiationState } from '../negotiation/engine.js';
import type { WorkspaceTx } from '../db/scoped.js';
import { enqueueSlackCall } from '../outbox/index.js';
import { buildStatusCard, type StatusStage, type StatusSupplierRow } from '../slack/views/index.js';
import { askerName, statusKey, threadOf, message, edit, supplierName } from './thread.js';

/** Edits the status card to `stage` (posted by enqueueReadingCard). `change` names the change, for the dedupe key. */
export async function enqueueStatus(tx: WorkspaceTx, quotationId: string, stage: StatusStage, change: string) {
  const thread = await threadOf(tx, quotationId);
  const card = buildStatusCard({
    fileName: thread.fileName,
    sharedBy: thread.uploadedBySlackUserId,
    currency: thread.currency ?? 'USD',
    state: stage,
  });
  await enqueueSlackCall(tx, edit(thread, `${statusKey(quotationId)}:${change}`, statusKey(quotationId), card));
}

/** The first words in the thread: 👀 on the file's message and the status card, "reading". */
export async function enqueueReadingCard(tx: WorkspaceTx, quotationId: string) {
  const thread = await threadOf(tx, quotationId);
  await enqueueSlackCall(tx, {
    dedupeKey: `q:${quotationId}:eyes`,
    method: 'reactions.add',
    channelId: thread.slackChannelId,
    // On the file's own message: a reply, when the file was shared inside a thread.
    payload: { name: 'eyes', timestamp: thread.slackMessageTs ?? thread.slackThreadTs },
  });
  const card = buildStatusCard({
    fileName: thread.fileName,
    sharedBy: thread.uploadedBySlackUserId,
    currency: 'USD',
    state: { stage: 'reading' },
  });
  await enqueueSlackCall(tx, message(thread, statusKey(quotationId), card));
}

function statusRows(state: NegotiationState): StatusSupplierRow[] {
  return state.profiles.map((profile) => {
    const supplier = state.suppliers[profile.code];
    const latest = supplier?.offers.at(-1) ?? null;
    const status = supplier?.status ?? 'active';
    return {
      name: profile.name,
      status: status === 'completed' ? 'done' : status,
      reason: supplier?.impasse ? `${supplier.impasse.reason.replace('_', ' ')}: ${supplier.impasse.details}` : null,
      latestTotal: latest?.total ?? null,
      leadTimeDays: latest?.leadTimeDays ?? null,
      paymentTerms: latest?.paymentTerms ?? null,
    };
  });
}

export function negotiationStage(state: NegotiationState, buyerId: string): StatusStage {
  const round = Math.max(1, state.round);
  if (state.status === 'completed') return { stage: 'deciding' };
  if (state.status === 'awaiting_answer' || state.status === 'awaiting_early_termination') {
    const asking = nextOpenQuestion(state.askInfo);
    return {
      stage: 'waiting',
      buyerId,
      askedBy: askerName(asking && supplierName(state, asking.supplierCode)),
      round,
      maxRounds: state.maxRounds,
      suppliers: statusRows(state),
    };
  }
  return {
    stage: 'negotiating',
    round,
    maxRounds: state.maxRounds,
    postCurveball: state.phase === 'post_curveball',
    suppliers: statusRows(state),
  };
}
