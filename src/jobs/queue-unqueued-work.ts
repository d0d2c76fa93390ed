// The one thing about durable work that pg-boss cannot do: know about work whose job was never stored. A listener
// commits its rows (a negotiation started or answered, a file claimed) and then sends the pg-boss job, on pg-boss's
// own connection; a process that dies between the two leaves work that no job will ever run. This scheduled job finds
// such rows and sends their jobs. It claims nothing and runs nothing itself — no lease taken here, no work queued in
// this process behind its slots: a row whose job is waiting, retrying or running is left alone, and
// the queues are `stately` per key, so two instances sending the same job send it once.
//
// A job whose worker died is not this job's concern: pg-boss retries it once its heartbeat stops (on the database's
// clock), and the retry takes the dead attempt's lease over at once (src/jobs/job-lease.ts).
//
// Work without a job:
// - a negotiation running (`negotiating`) or completed but not concluded (its decision and PO not posted: the
//   quotation is still `negotiating`), whose lease expired — its runner is gone — or that nobody leased for longer
//   than a listener takes to send its job;
// - a quotation claimed (`received`) or half-read (`parsing`), under the same two conditions;
// - an approved PO (approved within a day) whose workbook is not in the outbox: the approval's listener died between
//   its commit and queueing the `send-po-workbook` job (one whose job failed for good, its thread told so, is not
//   queued again);
// - Slack outbox rows unsent (pending, or locked by a sender that died) in a lane that has no `send-outbox` job: the
//   listener or job that wrote them died before queueing one. A lane whose job waits or runs is left to it.
import { LEASE_MS } from '../db/stores/negotiation-store.js';
import { unsentOutboxLanes } from '../db/stores/outbox-lanes.js';
import { log } from '../log.js';
import { DAY_MS } from '../time.js';
import { decisionFailedKey } from '../thread/decision.js';
import { poWorkbookFailedKey, poWorkbookKey } from '../thread/po-outcome.js';
import type { BackgroundWork } from './background-work.js';
import { JOB_BATCH_SIZE, type JobOptions } from './job-options.js';

/** Unscoped: it finds rows in every workspace, and writes none. */
export interface QueueUnqueuedWorkOptions extends Pick<JobOptions, 'prisma' | 'now' | 'batchSize'> {
  work: Pick<
    BackgroundWork,
    'driveUnqueued' | 'readUnqueued' | 'sendPurchaseOrderWorkbookUnqueued' | 'sendOutboxUnqueued'
  >;
  /** A negotiation nobody leased is left to the listener that wrote it this long (it sends its job right after). */
  graceMs?: number;
  /** The same for a quotation nobody is reading. */
  quotationStuckAfterMs?: number;
  /** The same for an approved PO without its workbook (its listener queues the job right after the commit). */
  workbookGraceMs?: number;
}

export interface QueueUnqueuedWorkResult {
  negotiationsQueued: number;
  quotationsQueued: number;
  workbooksQueued: number;
  outboxLanesQueued: number;
}

/** A quotation nobody holds (a process died between the claim and sending its read) is queued after this long. */
export const QUOTATION_STUCK_AFTER_MS = 30_000;
/** An approved PO without its workbook job is queued after this long. */
export const WORKBOOK_GRACE_MS = 30_000;
/**
 * How long a completed negotiation without its decision, or an approved PO without its workbook, is tried again (a
 * failing one is not tried forever: its dead job told the logs).
 */
const CONCLUDE_WINDOW_MS = DAY_MS;

export async function queueUnqueuedWork(options: QueueUnqueuedWorkOptions): Promise<QueueUnqueuedWorkResult> {
  const { prisma, now } = options;
  const take = options.batchSize ?? JOB_BATCH_SIZE;
  const graceCutoff = new Date(now.getTime() - (options.graceMs ?? LEASE_MS));
  const runnerGone = { leaseOwner: { not: null }, leaseExpiresAt: { lt: now } };
  const negotiations = await prisma.negotiation.findMany({
    where: {
      OR: [
        { status: 'negotiating', OR: [runnerGone, { leaseOwner: null, updatedAt: { lt: graceCutoff } }] },
        {
          status: 'completed',
          quotation: { status: 'negotiating' },
          completedAt: { gt: new Date(now.getTime() - CONCLUDE_WINDOW_MS) },
          OR: [runnerGone, { leaseOwner: null, completedAt: { lt: graceCutoff } }],
        },
      ],
    },
    orderBy: { updatedAt: 'asc' },
    take,
    select: { id: true, workspaceId: true, status: true },
  });
  // A conclusion that found no allocation said so in the thread; concluding again would only say it again.
  const failed = new Set(
    (
      await prisma.slackOutbox.findMany({
        where: {
          dedupeKey: { in: negotiations.filter((n) => n.status === 'completed').map((n) => decisionFailedKey(n.id)) },
        },
        select: { dedupeKey: true },
      })
    ).map((row) => row.dedupeKey),
  );
  const negotiationsQueued = await options.work.driveUnqueued(
    negotiations
      .filter((n) => !failed.has(decisionFailedKey(n.id)))
      .map((n) => ({ workspaceId: n.workspaceId, negotiationId: n.id })),
  );

  const stuckCutoff = new Date(now.getTime() - (options.quotationStuckAfterMs ?? QUOTATION_STUCK_AFTER_MS));
  const quotations = await prisma.quotation.findMany({
    where: {
      status: { in: ['received', 'parsing'] },
      OR: [
        { readLeaseOwner: { not: null }, readLeaseExpiresAt: { lt: now } },
        { readLeaseOwner: null, updatedAt: { lt: stuckCutoff } },
      ],
    },
    orderBy: { updatedAt: 'asc' },
    take,
    select: { id: true, workspaceId: true, slackFileId: true },
  });
  const quotationsQueued = await options.work.readUnqueued(
    quotations.map((q) => ({ workspaceId: q.workspaceId, quotationId: q.id, fileId: q.slackFileId })),
  );

  const workbooksQueued = await queueWorkbooks(options, take);

  // No grace needed: a lane's job is sent right after the commit, and a second one sent meanwhile is the same job.
  const outboxLanesQueued = await options.work.sendOutboxUnqueued(await unsentOutboxLanes(prisma, take));

  const result = { negotiationsQueued, quotationsQueued, workbooksQueued, outboxLanesQueued };
  if (negotiationsQueued + quotationsQueued + workbooksQueued + outboxLanesQueued > 0) {
    log.info('queued work that had no job', result);
  }
  return result;
}

/**
 * Approved POs, past the grace and within the window, whose workbook is not in the outbox: their jobs. Not one whose
 * thread was told the workbook could not be made (its job's dead letter): queued again, it would fail again.
 */
async function queueWorkbooks(options: QueueUnqueuedWorkOptions, take: number): Promise<number> {
  const { prisma, now } = options;
  const approved = await prisma.purchaseOrder.findMany({
    where: {
      status: 'approved',
      approvedAt: {
        lt: new Date(now.getTime() - (options.workbookGraceMs ?? WORKBOOK_GRACE_MS)),
        gt: new Date(now.getTime() - CONCLUDE_WINDOW_MS),
      },
    },
    orderBy: { approvedAt: 'asc' },
    take,
    select: { id: true, workspaceId: true },
  });
  if (approved.length === 0) return 0;
  const queued = new Set(
    (
      await prisma.slackOutbox.findMany({
        where: { dedupeKey: { in: approved.flatMap((po) => [poWorkbookKey(po.id), poWorkbookFailedKey(po.id)]) } },
        select: { dedupeKey: true },
      })
    ).map((row) => row.dedupeKey),
  );
  return options.work.sendPurchaseOrderWorkbookUnqueued(
    approved
      .filter((po) => !queued.has(poWorkbookKey(po.id)) && !queued.has(poWorkbookFailedKey(po.id)))
      .map((po) => ({ workspaceId: po.workspaceId, purchaseOrderId: po.id })),
  );
}
