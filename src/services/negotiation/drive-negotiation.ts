// Runs a negotiation as far as it can go — until it waits for the buyer or completes — one saved step at a time under
// the lease, every step's thread messages written with it. When it completes: the decision (numbers from code, words
// from the writer), the draft PO and the decision message, then the price chart. Any instance may call this at any
// time (its pg-boss job after a click, a retry of it, queue-unqueued-work): without the lease it does nothing, and every write is
// idempotent, so a conclusion interrupted by a crash is simply done again.
import { decisionInputFromState } from '../../decision/decide.js';
import type { TrajectoryPoint } from '../../decision/price-chart.js';
import { writeDecision } from '../../decision/write-decision.js';
import type { EngineAgents, NegotiationState } from '../../negotiation/engine.js';
import { acquireLease, loadCheckpoint, releaseLease, runNegotiation } from '../../db/stores/negotiation-store.js';
import { writeAudit } from '../../db/audit.js';
import { JOB_LEASE_PREFIX } from '../../jobs/job-lease.js';
import { withUsageScope } from '../../llm/usage-scope.js';
import type { ServiceContext } from '../service-context.js';
import {
  enqueueDecision,
  enqueueDecisionFailed,
  enqueueNoAward,
  enqueuePremiumNotApplied,
  enqueuePriceChart,
  prepareDecision,
  priceChartKey,
} from '../../thread/decision.js';
import { isEnqueued } from '../../outbox/index.js';
import { enqueueNegotiationEvents } from '../../thread/negotiation-events.js';
import { sendDraftsWithinMandate } from './supplier-drafts.js';
import { type ActivityListener, withActivity } from '../../negotiation/agents/with-activity.js';
import type { ThreadActivity } from '../thread-activity.js';
import { draftPurchaseOrder } from '../purchase-order/draft-purchase-order.js';

export interface DriveNegotiationOptions {
  negotiationId: string;
  agents: EngineAgents;
  /** This process, for the lease. */
  owner: string;
  /** Where the thread shows what runs now (an agent's or Claude's call); silent when not given. */
  activity?: ThreadActivity;
}

export type DriveOutcome = 'waiting_for_buyer' | 'completed' | 'busy';

export function driveNegotiation(ctx: ServiceContext, options: DriveNegotiationOptions): Promise<DriveOutcome> {
  const scope = { workspaceId: ctx.workspace.id, negotiationId: options.negotiationId };
  return withUsageScope(scope, () => drive(ctx, options));
}

async function drive(ctx: ServiceContext, options: DriveNegotiationOptions): Promise<DriveOutcome> {
  const { negotiationId } = options;
  const show = await threadActivity(ctx, negotiationId, options.activity);
  const agents = show ? withActivity(options.agents, show) : options.agents;
  const state = await runNegotiation(
    ctx.db,
    negotiationId,
    agents,
    options.owner,
    (tx, events, next) => enqueueNegotiationEvents(tx, { negotiationId, events, state: next }),
    ctx.now,
  );
  if (state === null) return 'busy';
  if (state.status === 'awaiting_suppliers') await sendDraftsWithinMandate(ctx, negotiationId);
  if (state.status !== 'completed') return 'waiting_for_buyer';
  // The conclusion runs under the lease too, so a process that dies while concluding is replaced at once by its own
  // restart (or by another instance when the lease expires) — and two instances never conclude at the same time.
  if (!(await acquireLease(ctx.db, negotiationId, options.owner, ctx.now()))) return 'busy';
  try {
    // Concluded already (the quotation left `negotiating` with the decision's post): a drive queued again meanwhile —
    // a click during the run's last round — would only pay for the decision's memo a second time.
    if (await awaitsConclusion(ctx, negotiationId)) await commitConclusion(ctx, negotiationId, show);
  } finally {
    await releaseLease(ctx.db, negotiationId, options.owner);
  }
  // The recommendation is committed (its post queued) before the chart is drawn, so the buyer does not wait for it.
  // The chart needs no lease (it is queued once, by its key), but this job is not done until it is queued: a process
  // that dies in between has its job retried (pg-boss), and the retry, finding the conclusion done, draws the chart.
  await sendPriceChart(ctx, negotiationId);
  return 'completed';
}

/** The listener that shows activity in the negotiation's thread, or undefined when nothing is to be shown. */
async function threadActivity(
  ctx: ServiceContext,
  negotiationId: string,
  activity: ThreadActivity | undefined,
): Promise<ActivityListener | undefined> {
  if (activity === undefined) return undefined;
  const negotiation = await ctx.db.negotiation.findFirst({
    where: { id: negotiationId },
    select: { quotation: { select: { slackChannelId: true, slackThreadTs: true, slackMessageTs: true } } },
  });
  const quotation = negotiation?.quotation;
  const threadTs = quotation?.slackThreadTs ?? quotation?.slackMessageTs;
  if (!quotation || !threadTs) return undefined;
  const thread = { channelId: quotation.slackChannelId, threadTs };
  return (shown) => activity.show(ctx.workspace.id, thread, shown);
}

/** The same test as queue-unqueued-work's: a completed negotiation whose quotation is still `negotiating`. */
async function awaitsConclusion(ctx: ServiceContext, negotiationId: string): Promise<boolean> {
  const open = await ctx.db.quotation.count({ where: { negotiation: { id: negotiationId }, status: 'negotiating' } });
  return open > 0;
}

/**
 * Decides, drafts the PO and posts both, then the price chart. Repeating it changes nothing (same decision → same PO,
 * same outbox keys). Nothing within the mandate is an outcome, not a failure: the thread says so and lists the closest
 * options, and the negotiation stays concluded, without a PO, where the buyer's consent to a premium can still lead
 * to an award.
 */
export async function concludeNegotiation(
  ctx: ServiceContext,
  negotiationId: string,
  show: ActivityListener = async () => {},
): Promise<void> {
  await commitConclusion(ctx, negotiationId, show);
  await sendPriceChart(ctx, negotiationId);
}

/** The conclusion up to the recommendation's post (or the no-award or failure message): what the lease guards. */
async function commitConclusion(
  ctx: ServiceContext,
  negotiationId: string,
  show: ActivityListener = async () => {},
): Promise<void> {
  const { state } = await loadCheckpoint(ctx.db, negotiationId);
  // Off the event loop (ctx.compute): at 3,000 lines the allocation is over a second of CPU in one stretch.
  const decided = await ctx.compute.decide(decisionInputFromState(state));
  if (!decided.ok && decided.error === 'no_feasible_award' && decided.infeasible !== null) {
    const infeasible = decided.infeasible;
    await ctx.db.$transaction(async (tx) => {
      await tx.quotation.updateMany({
        where: { negotiation: { id: negotiationId }, status: 'negotiating' },
        data: { status: 'completed' },
      });
      await enqueueNoAward(tx, {
        negotiationId,
        infeasible,
        message: decided.message,
        currency: state.baseline.currency,
      });
    });
    return;
  }
  if (!decided.ok) {
    await ctx.db.$transaction(async (tx) => {
      await tx.quotation.updateMany({
        where: { negotiation: { id: negotiationId }, status: 'negotiating' },
        data: { status: 'failed', errorCode: 'no_decision', errorMessage: decided.message },
      });
      await enqueueDecisionFailed(tx, { negotiationId, message: decided.message });
    });
    return;
  }
  // Approval is final: a premium accepted while an approver approved the current PO does not replace it.
  const approved = await ctx.db.purchaseOrder.findFirst({
    where: { negotiationId, status: 'approved' },
    select: { number: true },
  });
  if (approved !== null) {
    await ctx.db.$transaction(async (tx) => {
      await tx.quotation.updateMany({
        where: { negotiation: { id: negotiationId }, status: 'negotiating' },
        data: { status: 'completed' },
      });
      if (state.mandate.premiumConsents.length > 0) {
        await enqueuePremiumNotApplied(tx, { negotiationId, poNumber: approved.number });
      }
    });
    return;
  }
  await show({ kind: 'decision' });
  let text: Awaited<ReturnType<typeof writeDecision>>;
  try {
    text = await writeDecision(decided.numbers, { llm: ctx.llm });
  } finally {
    await show(null);
  }
  // What the AI calls behind this recommendation cost, shown with it. Usage rows are written beside the calls, so a
  // call that has just returned may not be counted yet: the figure is what is recorded at this point.
  const usage = await ctx.db.aiUsage.aggregate({
    where: { negotiationId },
    _sum: { costUsd: true },
    _count: { _all: true },
  });
  const aiCost = { usd: Number(usage._sum.costUsd ?? 0), calls: usage._count._all };
  const drafted = await draftPurchaseOrder(ctx, { negotiationId, numbers: decided.numbers, text });
  if (!drafted.ok) throw new Error(`Drafting the PO of ${negotiationId} failed: ${drafted.message}`);
  // Built before BEGIN: the transaction holds the connection (on PGlite the only one, every ack waiting behind it).
  const prepared = await prepareDecision(ctx.db, {
    negotiationId,
    numbers: decided.numbers,
    text,
    po: drafted.value.po,
    aiCost,
    approvers: ctx.workspace.settings.approvers,
    finalOffers: state.profiles.map((profile) => ({
      name: profile.name,
      lines: state.suppliers[profile.code]?.offers.at(-1)?.lines ?? [],
    })),
  });
  await ctx.db.$transaction(async (tx) => {
    await tx.quotation.updateMany({
      where: { negotiation: { id: negotiationId }, status: 'negotiating' },
      data: { status: 'completed' },
    });
    await enqueueDecision(tx, prepared);
  });
}

/**
 * Draws the price chart of a recommended award and queues its upload under the recommendation — once per negotiation
 * (a conclusion after a premium's consent keeps the first chart: the rounds it plots are the same).
 */
async function sendPriceChart(ctx: ServiceContext, negotiationId: string): Promise<void> {
  if (await isEnqueued(ctx.db, priceChartKey(negotiationId))) return;
  // Only under a recommendation: a negotiation without a PO ended with no award, a failure or nothing yet.
  if ((await ctx.db.purchaseOrder.count({ where: { negotiationId } })) === 0) return;
  // This process saved or loaded that checkpoint moments ago: it is remembered, not decoded again.
  const { state } = await loadCheckpoint(ctx.db, negotiationId);
  const chart = await ctx.compute.priceChart({
    suppliers: state.profiles.map(({ code, name }) => ({ code, name })),
    points: trajectoryPoints(state),
    curveballAfterRound: state.curveball?.afterRound ?? null,
    curveballSupplierCode: state.curveball?.supplierCode,
    curveballCapacityShare: state.curveball?.capacityShare,
    currency: state.baseline.currency,
    title: `Offer totals by round — ${state.baseline.supplierName}`,
  });
  await ctx.db.$transaction((tx) => enqueuePriceChart(tx, { negotiationId, chart }));
}

/** Each supplier's offer totals by round (round 0: the quotation itself), for the price chart. */
function trajectoryPoints(state: NegotiationState): TrajectoryPoint[] {
  return state.profiles.flatMap(({ code }) =>
    (state.suppliers[code]?.offers ?? []).map((offer) => ({
      supplierCode: code,
      round: offer.round,
      total: offer.total,
    })),
  );
}

/** What the thread says when a negotiation's job failed for good (the error itself is in the log). */
export const NEGOTIATION_GAVE_UP =
  'the negotiation stopped after repeated errors and will not go on by itself; they have been logged. Start it again from the quotation, or ask your admin to look at the log.';

/**
 * A negotiation whose pg-boss job used up its retries (the dead-letter queue): marked failed — so queue-unqueued-work
 * does not queue it for ever — and the thread told, once. Returns false when it had moved on meanwhile (a later run
 * finished it, the buyer cancelled it): then there is nothing to tell.
 */
export async function giveUpNegotiation(ctx: ServiceContext, negotiationId: string): Promise<boolean> {
  // A run outside the jobs (a CLI on the same database) whose lease is live is what the job kept waiting for: it is
  // going on, so nothing has failed. A job attempt's lease is a dead one's (pg-boss has given up on every attempt).
  const noLiveRun = {
    OR: [{ leaseOwner: null }, { leaseExpiresAt: { lt: ctx.now() } }, { leaseOwner: { startsWith: JOB_LEASE_PREFIX } }],
  };
  return ctx.db.$transaction(async (tx) => {
    if ((await tx.negotiation.count({ where: { id: negotiationId, ...noLiveRun } })) === 0) return false;
    const running = await tx.negotiation.updateMany({
      where: { id: negotiationId, status: 'negotiating', ...noLiveRun },
      data: { status: 'failed', leaseOwner: null, leaseExpiresAt: null },
    });
    // Completed but never concluded: the decision is what failed.
    const concluding = await tx.quotation.updateMany({
      where: { negotiation: { id: negotiationId }, status: 'negotiating' },
      data: { status: 'failed', errorCode: 'internal', errorMessage: NEGOTIATION_GAVE_UP },
    });
    if (running.count + concluding.count === 0) return false;
    await enqueueDecisionFailed(tx, { negotiationId, message: NEGOTIATION_GAVE_UP });
    await writeAudit(tx, null, {
      action: 'negotiation.gave_up',
      entityType: 'negotiation',
      entityId: negotiationId,
    });
    return true;
  });
}
