// One run of a job at a time across every instance on the database.
//
// PostgreSQL: a transaction-level advisory lock (`pg_try_advisory_xact_lock`) taken on a connection of its own and
// held, transaction open, while the job runs on the pool's other connections. A run that finds it taken is skipped
// (the other instance is doing the work); a process that dies drops its connection, and the lock with it. The key
// includes the schema, so test files (one schema each, one database) never skip each other's runs.
//
// PGlite is embedded: one process owns the database, and it has one connection, which an open transaction would take
// from everyone else. There, the lock is held in this process, per database client.
//
// The lock only saves duplicated work. Correctness does not rest on it: every reminder, expiry and resume is claimed
// by a conditional update (or a unique outbox key) of its own.
import type { Database, PrismaClient } from '../db/client.js';
import { log } from '../log.js';

export type LockedRun<T> = { locked: true; value: T } | { locked: false };

export interface JobLock {
  /** Runs `work` if no other run of `name` holds the lock; otherwise returns `{ locked: false }` at once. */
  run<T>(name: string, work: () => Promise<T>): Promise<LockedRun<T>>;
}

const heldInProcess = new WeakMap<PrismaClient, Set<string>>();

export function createJobLock(db: Pick<Database, 'kind' | 'prisma' | 'withScriptConnection'>): JobLock {
  return db.kind === 'postgres' ? advisoryLock(db) : inProcessLock(db.prisma);
}

function inProcessLock(prisma: PrismaClient): JobLock {
  let held = heldInProcess.get(prisma);
  if (!held) {
    held = new Set();
    heldInProcess.set(prisma, held);
  }
  const names = held;
  return {
    async run(name, work) {
      if (names.has(name)) return { locked: false };
      names.add(name);
      try {
        return { locked: true, value: await work() };
      } finally {
        names.delete(name);
      }
    },
  };
}

function advisoryLock(db: Pick<Database, 'withScriptConnection'>): JobLock {
  return {
    run: (name, work) =>
      db.withScriptConnection(async (connection) => {
        await connection.exec('BEGIN');
        try {
          const [row] = await connection.query<{ locked: boolean }>(
            'SELECT pg_try_advisory_xact_lock(' +
              "hashtext('parley-jobs'), hashtext(current_schema() || ':' || $1)) AS locked",
            [name],
          );
          if (!row?.locked) return { locked: false };
          return { locked: true, value: await work() };
        } finally {
          // Ends the transaction, which releases the lock; a dead connection has released it already.
          await connection
            .exec('COMMIT')
            .catch((error: unknown) => log.warn('job lock release failed', { name, error }));
        }
      }),
  };
}
