// The status card at the top of the thread: posted once when the file arrives, then edited as the work moves on.
import { nextOpenQuestion } from '../negotiation/ask-info.js';
import type { NegotiationState } from '../negotiation/engine.js';
import type { WorkspaceTx } from '../db/scoped.js';
import {
  enqueueSlackCall,
  enqueueSlackCalls,
  isEnqueued,
  type OutboxCall,
  type OutboxWriter,
} from '../outbox/index.js';
import {
  buildStatusCard,
  isFinalStage,
  planChunks,
  planTasks,
  type StatusStage,
  type StatusSupplierRow,
} from '../slack/views/index.js';
import { askerName, statusKey, threadOf, message, edit, supplierName, planKey, type Thread } from './thread.js';

/**
 * Shows `stage`: by editing the status card (posted by enqueueReadingCard), or — from the negotiation's first round on —
 * in the plan streamed under it, whose every call carries the card's edit as its fallback (the outbox sends that
 * instead where the workspace refuses streaming, or once the stream has ended). `change` names the change, for the
 * dedupe key.
 */
export async function enqueueStatus(tx: WorkspaceTx, quotationId: string, stage: StatusStage, change: string) {
  await enqueueSlackCalls(tx, await statusCalls(tx, quotationId, stage, change));
}

/**
 * The outbox calls that show `stage` (see enqueueStatus), read without writing: a caller whose transaction must stay
 * short (an acknowledgement's) reads them before it and enqueues them inside it. Their dedupe keys make a call that
 * another writer enqueued meanwhile a no-op.
 */
export async function statusCalls(
  reader: OutboxWriter,
  quotationId: string,
  stage: StatusStage,
  change: string,
  /** The quotation's thread when the caller has read it already. */
  known?: Thread,
): Promise<OutboxCall[]> {
  const thread = known ?? (await threadOf(reader, quotationId));
  const currency = thread.currency ?? 'USD';
  const cardOf = (state: StatusStage) =>
    buildStatusCard({ fileName: thread.fileName, sharedBy: thread.uploadedBySlackUserId, currency, state });
  const card = cardOf(stage);
  const cardEdit = edit(thread, `${statusKey(quotationId)}:${change}`, statusKey(quotationId), card);
  const plan = planKey(quotationId);
  const tasks = planTasks(stage, currency);
  // No plan to show (a review, a read): the card alone, without asking whether a plan was started — a statement less
  // in every review click's transaction, which the click's acknowledgement waits for.
  if (tasks.length === 0) return [cardEdit];
  const started = await isEnqueued(reader, plan);
  const stopped = started && (await isEnqueued(reader, `${plan}:stop`));
  const starts = !started && (stage.stage === 'negotiating' || stage.stage === 'waiting');
  if (stopped || (!started && !starts)) {
    return [cardEdit];
  }
  const streamed = {
    channelId: thread.slackChannelId,
    fallbackOf: statusKey(quotationId),
    fallback: { text: card.text, blocks: card.blocks },
  };
  if (starts) {
    const team = await reader.workspace.findUniqueOrThrow({
      where: { id: reader.$workspaceId },
      select: { slackTeamId: true },
    });
    return [
      // First, so that where streaming is refused the start's fallback (the full card) is the edit that stays.
      edit(thread, `${statusKey(quotationId)}:live`, statusKey(quotationId), cardOf({ stage: 'live' })),
      {
        dedupeKey: plan,
        method: 'chat.startStream',
        channelId: streamed.channelId,
        threadTs: thread.slackThreadTs,
        fallbackOf: streamed.fallbackOf,
        payload: {
          // In a channel the stream names its reader (chat.startStream: "Required when streaming to channels").
          recipient_user_id: thread.uploadedBySlackUserId,
          recipient_team_id: team.slackTeamId,
          task_display_mode: 'plan',
          chunks: planChunks(tasks, { withTitle: true }),
          fallback: streamed.fallback,
        },
      },
    ];
  }
  const final = isFinalStage(stage);
  return [
    {
      dedupeKey: final ? `${plan}:stop` : `${plan}:${change}`,
      method: final ? 'chat.stopStream' : 'chat.appendStream',
      channelId: streamed.channelId,
      updateOf: plan,
      fallbackOf: streamed.fallbackOf,
      payload: { chunks: planChunks(tasks), fallback: streamed.fallback },
    },
    // The outcome also goes on the card at the top, which said "follow the plan below" while the plan ran.
    ...(final ? [cardEdit] : []),
  ];
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
      status: supplier?.awaitingReply ? 'awaiting' : status === 'completed' ? 'done' : status,
      reason: supplier?.impasse ? `${supplier.impasse.reason.replace('_', ' ')}: ${supplier.impasse.details}` : null,
      latestTotal: latest?.total ?? null,
      leadTimeDays: latest?.leadTimeDays ?? null,
      paymentTerms: latest?.paymentTerms ?? null,
    };
  });
}

export function negotiationStage(state: NegotiationState, buyerId: string): StatusStage {
  const round = Math.max(1, state.round);
  if (state.status === 'completed') {
    return { stage: 'deciding', suppliers: statusRows(state), postCurveball: state.phase === 'post_curveball' };
  }
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
