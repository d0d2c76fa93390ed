// What an instance does once, right after it starts: the sweep (negotiations whose lease expired, quotations left
// mid-read), counting its own name's leases as expired, and the Slack outbox rows its previous incarnation had locked
// for sending, unlocked now rather than when their lock times out. Rows written but never sent need nothing here:
// the poster's first pass, as it starts, claims every due row; a row whose earlier attempt may have reached Slack is
// looked up in the channel before it is posted again, so it is sent once.
import type { PrismaClient } from '../db/client.js';
import { log } from '../log.js';
import type { ContextFactory } from '../services/service-context.js';
import { type RecoveringParley, sweepExpiredLeases, type SweepExpiredLeasesResult } from './sweep-expired-leases.js';

export interface RecoverOnStartOptions {
  prisma: PrismaClient;
  contexts: ContextFactory;
  parley: RecoveringParley;
  /** This instance (the facade's lease owner and the outbox poster's). */
  owner: string;
  now: Date;
  graceMs?: number;
  quotationStuckAfterMs?: number;
  /** When this instance started, before its outbox poster did: bounds which outbox locks were its predecessor's. */
  startedAt: Date;
  /** The outbox poster's `lockMs` (OUTBOX_LOCK_MS). */
  outboxLockMs?: number;
}

export interface RecoverOnStartResult extends SweepExpiredLeasesResult {
  /** Outbox rows this instance's name had locked, handed back to the poster. */
  outboxRowsUnlocked: number;
}

export async function recoverOnStart(options: RecoverOnStartOptions): Promise<RecoverOnStartResult> {
  const swept = await sweepExpiredLeases({ ...options, reclaimOwner: options.owner });
  const outboxRowsUnlocked = await unlockOwnOutboxRows(options.prisma, options.owner, options.now, {
    startedAt: options.startedAt,
    lockMs: options.outboxLockMs,
  });
  const result = { ...swept, outboxRowsUnlocked };
  log.info('recovery on start', { owner: options.owner, ...result });
  return result;
}

/** The outbox poster's default lock (createOutboxPoster's `lockMs`). */
export const OUTBOX_LOCK_MS = 60_000;

/**
 * The poster locks a row as `<owner>#<n>` while it sends it, until `lockedUntil` (claim time + its lock). A lock under
 * this instance's name that ends before `startedAt` + the lock was taken before this instance started: by the
 * previous process of the same name. Expiring it now lets the poster take the row at once (it counts the attempt and
 * looks for an earlier delivery before posting again). Locks this instance's poster has taken end later and are left
 * alone.
 */
export async function unlockOwnOutboxRows(
  prisma: PrismaClient,
  owner: string,
  now: Date,
  options: { startedAt: Date; lockMs?: number },
): Promise<number> {
  const { count } = await prisma.slackOutbox.updateMany({
    where: {
      status: 'sending',
      lockedBy: { startsWith: `${owner}#` },
      lockedUntil: { gt: now, lt: new Date(options.startedAt.getTime() + (options.lockMs ?? OUTBOX_LOCK_MS)) },
    },
    data: { lockedUntil: now },
  });
  return count;
}
