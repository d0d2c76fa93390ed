// What an instance does once, right after it starts. A job its previous process was running needs nothing here:
// pg-boss retries it once its heartbeat stops, under a lease that takes the dead attempt's over (src/jobs/job-lease.ts).
// What is left is what pg-boss does not know about:
//
// - work whose job was never stored (the process died between its commit and the job's send): queued now rather than
//   at the next JOB_SWEEP_CRON tick (src/jobs/queue-unqueued-work.ts);
//   — outbox lanes included: rows written but whose `send-outbox` job was never sent;
// - Slack outbox rows locked under this instance's own name (`<INSTANCE_ID>#n`: by a sender outside the jobs, as
//   versions before the outbox ran on pg-boss did) by its previous incarnation: unlocked now rather than when their
//   lock times out; the sender looks for an earlier delivery before posting again. A lock of a job's attempt needs
//   nothing: the job's retry takes it over (src/outbox/outbox-poster.ts).
import type { PrismaClient } from '../db/client.js';
import { log } from '../log.js';
import { releaseOutboxLocks } from '../services/recovery/release-outbox-locks.js';
import type { BackgroundWork } from './background-work.js';
import { queueUnqueuedWork, type QueueUnqueuedWorkResult } from './queue-unqueued-work.js';

export interface RecoverOnStartOptions {
  prisma: PrismaClient;
  work: Pick<
    BackgroundWork,
    'driveUnqueued' | 'readUnqueued' | 'sendPurchaseOrderWorkbookUnqueued' | 'sendOutboxUnqueued'
  >;
  /** This instance (the outbox poster's lock owner). */
  owner: string;
  now: Date;
  graceMs?: number;
  quotationStuckAfterMs?: number;
  /** When this instance started, before its outbox poster did: bounds which outbox locks were its predecessor's. */
  startedAt: Date;
  /** The outbox poster's `lockMs` (OUTBOX_LOCK_MS in the environment). */
  outboxLockMs?: number;
}

export interface RecoverOnStartResult extends QueueUnqueuedWorkResult {
  /** Outbox rows this instance's name had locked, handed back to the poster. */
  outboxRowsUnlocked: number;
}

export async function recoverOnStart(options: RecoverOnStartOptions): Promise<RecoverOnStartResult> {
  const queued = await queueUnqueuedWork(options);
  const outboxRowsUnlocked = await releaseOutboxLocks({
    prisma: options.prisma,
    owner: options.owner,
    now: options.now,
    startedAt: options.startedAt,
    lockMs: options.outboxLockMs,
  });
  const result = { ...queued, outboxRowsUnlocked };
  log.info('recovery on start', { owner: options.owner, ...result });
  return result;
}
