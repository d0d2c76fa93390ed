// On start-up under a fixed instance name (INSTANCE_ID): the Slack outbox rows the previous process of that name had
// locked for sending go back to the poster now, rather than when their lock times out (OUTBOX_LOCK_MS later). The
// poster then counts the attempt and looks for an earlier delivery before posting again, so each is still sent once.
import type { PrismaClient } from '../../db/client.js';
import { unlockOwnOutboxRows } from '../../outbox/index.js';

export interface ReleaseOutboxLocksOptions {
  /** Unscoped: the previous process's locks are in every workspace. */
  prisma: PrismaClient;
  /** This instance's name, which the previous process had too. */
  owner: string;
  now: Date;
  /** When this instance started, before its poster did: locks ending later are this poster's own. */
  startedAt: Date;
  /** The poster's `lockMs`. */
  lockMs?: number;
}

/** Returns how many rows were handed back. */
export function releaseOutboxLocks(options: ReleaseOutboxLocksOptions): Promise<number> {
  return unlockOwnOutboxRows(options.prisma, options.owner, options.now, {
    startedAt: options.startedAt,
    lockMs: options.lockMs,
  });
}
