// What an instance does once, right after it starts: the sweep (negotiations whose lease expired, quotations left
// mid-read), counting its own name's leases as expired, and the Slack outbox rows its previous incarnation had locked
// for sending, unlocked now rather than when their lock times out. Rows written but never sent need nothing here:
// the poster's first pass, as it starts, claims every due row; a row whose earlier attempt may have reached Slack is
// looked up in the channel before it is posted again, so it is sent once.
import type { PrismaClient } from '../db/client.js';
import { log } from '../log.js';
import { releaseOutboxLocks } from '../services/recovery/release-outbox-locks.js';
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
  /** The outbox poster's `lockMs` (OUTBOX_LOCK_MS in the environment). */
  outboxLockMs?: number;
}

export interface RecoverOnStartResult extends SweepExpiredLeasesResult {
  /** Outbox rows this instance's name had locked, handed back to the poster. */
  outboxRowsUnlocked: number;
}

export async function recoverOnStart(options: RecoverOnStartOptions): Promise<RecoverOnStartResult> {
  const swept = await sweepExpiredLeases({ ...options, reclaimOwner: options.owner });
  const outboxRowsUnlocked = await releaseOutboxLocks({
    prisma: options.prisma,
    owner: options.owner,
    now: options.now,
    startedAt: options.startedAt,
    lockMs: options.outboxLockMs,
  });
  const result = { ...swept, outboxRowsUnlocked };
  log.info('recovery on start', { owner: options.owner, ...result });
  return result;
}
