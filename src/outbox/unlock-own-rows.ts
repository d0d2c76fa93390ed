// After a restart under a fixed instance name: the rows the previous process of that name had locked for sending are
// handed back to the poster at once, rather than when their lock times out.
import type { PrismaClient } from '../db/client.js';
import { OUTBOX_LOCK_MS } from './outbox-poster.js';

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
