// The database's time, so instances whose own clocks disagree still agree on leases, outbox order and pacing
//. clock_timestamp() rather than now(): now() is frozen at the start of a transaction.
import type { PrismaClient } from './client.js';

type Queryable = Pick<PrismaClient, '$queryRaw'>;

export async function databaseNow(prisma: Queryable): Promise<Date> {
  const rows = await prisma.$queryRaw<{ at: Date }[]>`SELECT clock_timestamp() AS at`;
  const at = rows[0]?.at;
  if (!(at instanceof Date)) throw new Error('clock_timestamp() returned no time');
  return at;
}

export interface DatabaseClock {
  /** The database's time, estimated from the local clock plus the offset measured at the last sync. */
  now(): Date;
  /** Measures the offset again (half the round trip is taken as the query's one-way delay). */
  sync(): Promise<void>;
  /** The last measured offset, database minus local, in ms. */
  offsetMs(): number;
}

/**
 * A synchronous clock on database time, for code that takes a `now: () => Date` (service contexts, the outbox poster):
 * one query per sync instead of one per reading, so hot loops stay cheap while every instance reads the same time.
 */
export async function createDatabaseClock(
  prisma: Queryable,
  localNow: () => Date = () => new Date(),
): Promise<DatabaseClock> {
  let offset = 0;
  const clock: DatabaseClock = {
    now: () => new Date(localNow().getTime() + offset),
    offsetMs: () => offset,
    async sync() {
      const before = localNow().getTime();
      const at = (await databaseNow(prisma)).getTime();
      const after = localNow().getTime();
      offset = at - (before + after) / 2;
    },
  };
  await clock.sync();
  return clock;
}
