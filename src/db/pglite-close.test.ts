// Closing PGlite while work that will never finish holds a transaction open (a background build still running when
// the process stops): PGlite's own close waits for an open transaction, so the database's close must end it first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './client.js';
import { copyEmptyPgliteDataDir } from '../../test/support/test-database.js';

const scratch = mkdtempSync(join(tmpdir(), 'parley-pglite-close-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A transaction that has run a statement and then waits for ever. */
async function leaveTransactionOpen(db: Database): Promise<void> {
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  void db.prisma
    .$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        started();
        await new Promise(() => {});
      },
      { timeout: 10 * 60_000 },
    )
    .catch(() => {});
  await running;
}

describe('closing PGlite', () => {
  it('ends at once when a transaction was left open, and releases the folder', async () => {
    const dataDir = join(scratch, 'left-open');
    await copyEmptyPgliteDataDir(dataDir);
    const db = await openDatabase({ kind: 'pglite', dataDir });
    await leaveTransactionOpen(db);
    const started = performance.now();
    await db.close();
    // Seconds would mean it waited for the transaction: it never ends.
    expect(performance.now() - started).toBeLessThan(2_000);
    const again = await openDatabase({ kind: 'pglite', dataDir });
    try {
      expect(await again.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    } finally {
      await again.close();
    }
  }, 60_000);

  it('releases the folder at once when nothing is left open', async () => {
    const dataDir = join(scratch, 'idle');
    await copyEmptyPgliteDataDir(dataDir);
    const db = await openDatabase({ kind: 'pglite', dataDir });
    await db.prisma.$queryRaw`SELECT 1`;
    await db.close();
    const again = await openDatabase({ kind: 'pglite', dataDir });
    await again.close();
  }, 60_000);
});
