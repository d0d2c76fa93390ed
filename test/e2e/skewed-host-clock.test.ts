// An instance whose host clock is 5 s behind or ahead of the database (issue 15, defect 5): the whole server — Bolt
// receiver, services, pg-boss jobs, outbox poster — runs a story with `Date` shifted, and every lease, outbox lock and
// send time it writes must still be measured on the database's clock (src/db/database-now.ts). Each such write is
// recorded by a trigger beside the database's own clock_timestamp() at the moment of the write, so a `Date.now()` or
// `new Date()` wired back into any of them shows up as a 5 s error, whichever instance sorts first.
//
// PostgreSQL only: PGlite runs inside this process and its clock_timestamp() is this process's `Date.now()`
// (Emscripten's clock), so shifting `Date` shifts the database with it and skew cannot be expressed. Nor can it happen
// there: one process holds a PGlite folder (src/db/pglite-lock.ts refuses a second one).
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { env } from '../../src/config/env.js';
import { LEASE_MS } from '../../src/db/stores/negotiation-store.js';
import { READ_LEASE_MS } from '../../src/services/quotation/read-quotation.js';
import { playStory } from '../../dev/slack-stand-in/play-story.js';
import { type SandboxedParley, startSandboxedParley } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { sharedWorkers } from '../support/shared-workers.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const OUTBOX_LOCK_MS = 60_000;

/**
 * How far a written time may sit from "the database's time at the write + the intended duration": the value is
 * computed just before its statement runs (a few ms, up to a second or two on a loaded machine) and the clock's offset
 * is measured with half a round trip's error. Well under the 5 s skew either way.
 */
const EARLIER_MS = 2_000;
const LATER_MS = 1_000;

/** Shifts this process's clock (`Date.now()`, `new Date()`) by `skewMs`, as a host whose clock drifted; returns the undo. */
function skewHostClock(skewMs: number): () => void {
  const RealDate = globalThis.Date;
  const realNow = RealDate.now.bind(RealDate);
  // A Proxy, not a subclass: dates made before the shift (or by code holding the real constructor) stay `instanceof
  // Date`, since the proxy's prototype is the real one.
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args: unknown[], newTarget: (...a: unknown[]) => unknown) =>
      Reflect.construct(target, args.length === 0 ? [realNow() + skewMs] : args, newTarget) as object,
    apply: () => new RealDate(realNow() + skewMs).toString(),
    get: (target, key, receiver) =>
      key === 'now' ? () => realNow() + skewMs : (Reflect.get(target, key, receiver) as unknown),
  });
  return () => {
    globalThis.Date = RealDate;
  };
}

/**
 * Records every non-null value written to the watched columns with the database's time of the write, as ms from it
 * (the test schema is first on the connection's search_path, so these land beside Parley's tables).
 */
async function recordTimedWrites(db: TestDatabase): Promise<void> {
  const watched: Array<[table: string, column: string]> = [
    ['Negotiation', 'leaseExpiresAt'],
    ['Quotation', 'readLeaseExpiresAt'],
    ['SlackOutbox', 'lockedUntil'],
    ['SlackOutbox', 'sentAt'],
  ];
  await db.prisma.$executeRawUnsafe(
    `CREATE TABLE clock_probe (tbl text NOT NULL, col text NOT NULL, ahead_ms double precision NOT NULL)`,
  );
  for (const [table, column] of watched) {
    const fn = `probe_${table}_${column}`.toLowerCase();
    // Prisma's DateTime is a UTC timestamp without time zone; clock_timestamp() is the time the statement runs.
    await db.prisma.$executeRawUnsafe(`
      CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."${column}" IS NOT NULL AND (TG_OP = 'INSERT' OR NEW."${column}" IS DISTINCT FROM OLD."${column}") THEN
          INSERT INTO clock_probe VALUES ('${table}', '${column}',
            EXTRACT(EPOCH FROM (NEW."${column}" - (clock_timestamp() AT TIME ZONE 'UTC'))) * 1000);
        END IF;
        RETURN NEW;
      END $$`);
    await db.prisma.$executeRawUnsafe(
      `CREATE TRIGGER ${fn} AFTER INSERT OR UPDATE ON "${table}" FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    );
  }
}

interface Probe {
  tbl: string;
  col: string;
  ahead_ms: number;
}

describe.skipIf(!env.DATABASE_URL)('a host clock 5 s off the database (PostgreSQL)', () => {
  let db: TestDatabase | undefined;
  let parley: SandboxedParley | undefined;
  let undoSkew: (() => void) | undefined;

  afterEach(async () => {
    await parley?.stop();
    undoSkew?.();
    await db?.destroy();
    parley = undefined;
    undoSkew = undefined;
    db = undefined;
  });

  for (const skewMs of [-5_000, 5_000]) {
    it(`writes leases, outbox locks and send times on the database's clock with the host ${skewMs / 1000} s off`, async () => {
      db = await createTestDatabase('seeded');
      await recordTimedWrites(db);
      undoSkew = skewHostClock(skewMs);
      parley = await startSandboxedParley({ ...sharedWorkers(), db, env: { OUTBOX_LOCK_MS: String(OUTBOX_LOCK_MS) } });
      const bytes = await readFile(new URL('../../data/samples/01-clean-baseline.xlsx', import.meta.url));
      await playStory(parley, { file: { name: 'skew.xlsx', bytes }, stopBeforeApproval: true });
      await parley.settle();

      const probes = await db.prisma.$queryRawUnsafe<Probe[]>(`SELECT tbl, col, ahead_ms FROM clock_probe`);
      const intended: Record<string, number> = {
        'Negotiation.leaseExpiresAt': LEASE_MS,
        'Quotation.readLeaseExpiresAt': READ_LEASE_MS,
        'SlackOutbox.lockedUntil': OUTBOX_LOCK_MS,
        'SlackOutbox.sentAt': 0,
      };
      for (const [what, ms] of Object.entries(intended)) {
        const seen = probes.filter((p) => `${p.tbl}.${p.col}` === what).map((p) => Math.round(p.ahead_ms - ms));
        // Each kind was written (a story takes leases, locks rows and sends), and every write was on database time.
        expect(seen.length, what).toBeGreaterThan(0);
        const off = seen.filter((error) => error < -EARLIER_MS || error > LATER_MS);
        expect({ what, off: off.slice(0, 5), of: seen.length }).toEqual({ what, off: [], of: seen.length });
      }
    }, 300_000);
  }
});
