// PGlite in its worker thread: a long statement no longer stops this thread's event loop (Bolt answers Slack on it),
// and transactions commit and roll back as PGlite's own do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGLITE_CLOSE_WAIT_MS, PGliteThread } from './pglite-thread.js';
import { pgliteTemplateDump } from '../../test/support/test-database.js';

describe('PGlite in a worker thread', () => {
  let db: PGliteThread;
  beforeAll(async () => {
    db = new PGliteThread({ fromDump: pgliteTemplateDump('empty') });
    await db.waitReady;
    await db.exec('CREATE TABLE t (id int PRIMARY KEY)');
  });
  afterAll(async () => {
    await db.close();
  });

  it('keeps the event loop turning while a long statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = performance.now();
    await db.query('SELECT count(*) FROM generate_series(1, 3000000)');
    const ms = performance.now() - started;
    clearInterval(timer);
    // On this thread, the statement would run in one piece: no tick at all until it ended.
    expect(ms).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(ms / 10 / 4));
  });

  it('commits a transaction whose work resolves and rolls back one whose work throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (1)');
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (2)');
        throw new Error('the caller failed');
      }),
    ).rejects.toThrow('the caller failed');
    await expect(db.query('INSERT INTO t VALUES (1)')).rejects.toMatchObject({ code: '23505' });
    const { rows } = await db.query<{ id: number }>('SELECT id FROM t ORDER BY id');
    expect(rows).toEqual([{ id: 1 }]);
  });
});

describe('closing PGlite in its worker thread', () => {
  it('ends even when a transaction was left open by work that never finished', async () => {
    const db = new PGliteThread({ fromDump: pgliteTemplateDump('empty') });
    await db.waitReady;
    // Work that outlived its owner (a background build still running when the process stops): never commits.
    void db
      .transaction(async (tx) => {
        await tx.query('SELECT 1');
        await new Promise(() => {});
      })
      .catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    await db.close();
    // PGlite's own close waits for the open transaction for ever: the thread is ended after a bounded wait instead.
    expect(performance.now() - started).toBeLessThan(PGLITE_CLOSE_WAIT_MS + 5_000);
  }, 60_000);
});
