// What a dead process leaves behind, picked up by any live one:
//
// - a negotiation whose lease expired mid-run (or that was never driven: started, or answered, and then the process
//   died before taking the lease), or one that completed but whose decision and PO were not posted yet;
// - a quotation claimed (`received`) or half-read (`parsing`) for longer than a read can take.
//
// Each is claimed by a conditional update of exactly what the sweep saw (the lease columns; the quotation's
// `updatedAt`), so with two instances one resumes it. The negotiation is then driven from its checkpoint by the
// facade (`parley.resume`): every step was saved with its thread messages, so nothing is said twice. The quotation is
// read again (`parley.rereadQuotation`: files.info and the download, as for a new upload).
import { READ_LEASE_MS } from '../services/quotation/read-quotation.js';
import { log } from '../log.js';
import { LEASE_MS } from '../db/stores/negotiation-store.js';
import { DAY_MS } from '../time.js';
import { decisionFailedKey } from '../thread/decision.js';
import { JOB_BATCH_SIZE, type JobOptions } from './job-options.js';

/** What the sweep asks of the facade (src/services/parley.ts). */
export interface RecoveringParley {
  resume(workspaceId: string, negotiationId: string): Promise<void>;
  rereadQuotation(workspaceId: string, quotationId: string): Promise<void>;
}

export interface SweepExpiredLeasesOptions extends JobOptions {
  parley: RecoveringParley;
  /** This instance: the lease it takes for a negotiation it resumes (the facade's owner). */
  owner: string;
  /**
   * Leases held under this name count as expired. On start-up, the instance's own name: a lease it holds was taken
   * by the process it replaces (a restart with a fixed INSTANCE_ID), and nothing of this process runs yet.
   */
  reclaimOwner?: string;
  /** A negotiation without a lease, or a completed one without its decision, is left to its process this long. */
  graceMs?: number;
  /** A quotation still `received`/`parsing` after this long is read again. */
  quotationStuckAfterMs?: number;
}

export interface SweepExpiredLeasesResult {
  negotiationsResumed: number;
  quotationsReread: number;
  /** Found, but another instance (or the owner, renewing) claimed it first. */
  claimedElsewhere: number;
  failed: number;
}

/** A quotation nobody holds (a process died between the claim and its read) is read again after this long. */
export const QUOTATION_STUCK_AFTER_MS = 30_000;
/** How long a completed negotiation without its decision is retried (a failing one is not retried forever). */
const CONCLUDE_WINDOW_MS = DAY_MS;

type NegotiationLease = { leaseOwner: string | null; leaseExpiresAt: Date | null };

/** Whether a negotiation's lease leaves it to be taken now (pure: the query selects the same). */
export function leaseIsFree(lease: NegotiationLease, now: Date, reclaimOwner?: string): boolean {
  if (lease.leaseOwner === null) return true;
  if (reclaimOwner !== undefined && lease.leaseOwner === reclaimOwner) return true;
  return lease.leaseExpiresAt === null || lease.leaseExpiresAt.getTime() < now.getTime();
}

export async function sweepExpiredLeases(options: SweepExpiredLeasesOptions): Promise<SweepExpiredLeasesResult> {
  const { prisma, now } = options;
  const graceCutoff = new Date(now.getTime() - (options.graceMs ?? LEASE_MS));
  const take = options.batchSize ?? JOB_BATCH_SIZE;
  const heldByDeadProcess = [
    { leaseOwner: { not: null }, leaseExpiresAt: { lt: now } },
    ...(options.reclaimOwner ? [{ leaseOwner: options.reclaimOwner }] : []),
  ];
  const negotiations = await prisma.negotiation.findMany({
    where: {
      OR: [
        // Mid-run: the engine's status is running, or waiting (resuming it then only releases the stale lease).
        { status: { in: ['negotiating', 'paused'] }, OR: heldByDeadProcess },
        // Started or answered, but nobody took the lease before the process died.
        { status: 'negotiating', leaseOwner: null, updatedAt: { lt: graceCutoff } },
        // Completed, but the decision (which marks the quotation completed) was not posted.
        // (The conclusion runs under the lease: a dead concluder's lease is taken at once; none, after the grace.)
        {
          status: 'completed',
          quotation: { status: 'negotiating' },
          completedAt: { gt: new Date(now.getTime() - CONCLUDE_WINDOW_MS) },
          OR: [{ leaseOwner: null, completedAt: { lt: graceCutoff } }, ...heldByDeadProcess],
        },
      ],
    },
    orderBy: { updatedAt: 'asc' },
    take,
    select: { id: true, workspaceId: true, status: true, leaseOwner: true, leaseExpiresAt: true },
  });

  const result: SweepExpiredLeasesResult = {
    negotiationsResumed: 0,
    quotationsReread: 0,
    claimedElsewhere: 0,
    failed: 0,
  };
  for (const negotiation of negotiations) {
    try {
      if (negotiation.status === 'completed' && (await decisionFailed(options, negotiation))) continue;
      if (!leaseIsFree(negotiation, now, options.reclaimOwner)) continue;
      // The claim: the lease as the sweep saw it becomes ours; the facade's run then holds and renews it.
      const { count } = await prisma.negotiation.updateMany({
        where: {
          id: negotiation.id,
          status: negotiation.status,
          leaseOwner: negotiation.leaseOwner,
          leaseExpiresAt: negotiation.leaseExpiresAt,
        },
        data: { leaseOwner: options.owner, leaseExpiresAt: new Date(now.getTime() + LEASE_MS) },
      });
      if (count === 0) {
        result.claimedElsewhere++;
        continue;
      }
      log.info('resuming an abandoned negotiation', {
        negotiationId: negotiation.id,
        status: negotiation.status,
        previousOwner: negotiation.leaseOwner,
      });
      await options.parley.resume(negotiation.workspaceId, negotiation.id);
      result.negotiationsResumed++;
    } catch (error) {
      result.failed++;
      log.error('resuming a negotiation failed', { error, negotiationId: negotiation.id });
    }
  }

  // Stuck: its reader's lease expired, or the reader was this instance before a restart, or nobody ever took it (a
  // process died between the claim and the read) for longer than a read takes to start.
  const stuck = await prisma.quotation.findMany({
    where: {
      status: { in: ['received', 'parsing'] },
      OR: [
        { readLeaseExpiresAt: { lt: now } },
        ...(options.reclaimOwner ? [{ readLeaseOwner: options.reclaimOwner }] : []),
        {
          readLeaseOwner: null,
          updatedAt: { lt: new Date(now.getTime() - (options.quotationStuckAfterMs ?? QUOTATION_STUCK_AFTER_MS)) },
        },
      ],
    },
    orderBy: { updatedAt: 'asc' },
    take,
    select: { id: true, workspaceId: true, status: true, updatedAt: true },
  });
  for (const quotation of stuck) {
    try {
      // The claim: this instance's read lease moves it out of the next sweeps' reach while it is read.
      const { count } = await prisma.quotation.updateMany({
        where: { id: quotation.id, status: quotation.status, updatedAt: quotation.updatedAt },
        data: {
          updatedAt: now,
          readLeaseOwner: options.owner,
          readLeaseExpiresAt: new Date(now.getTime() + READ_LEASE_MS),
        },
      });
      if (count === 0) {
        result.claimedElsewhere++;
        continue;
      }
      log.info('reading a stuck quotation again', { quotationId: quotation.id, status: quotation.status });
      await options.parley.rereadQuotation(quotation.workspaceId, quotation.id);
      result.quotationsReread++;
    } catch (error) {
      result.failed++;
      log.error('reading a stuck quotation again failed', { error, quotationId: quotation.id });
    }
  }
  return result;
}

/** A conclusion that found no allocation said so in the thread; resuming it would only say it again. */
async function decisionFailed(options: SweepExpiredLeasesOptions, negotiation: { id: string; workspaceId: string }) {
  const row = await options.prisma.slackOutbox.findFirst({
    where: { workspaceId: negotiation.workspaceId, dedupeKey: decisionFailedKey(negotiation.id) },
    select: { id: true },
  });
  return row !== null;
}
