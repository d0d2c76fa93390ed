// PGlite's one connection, served in two lanes: what Slack waits on goes before background work queued ahead of it —
// on a real PGlite through Prisma, as the app uses it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileSlackWaits } from '../ack-path.js';
import { type Database, openDatabase } from './client.js';
import { LaneLock, type Turn } from './connection-lanes.js';
import { pgliteTemplateDump } from '../../test/support/test-database.js';

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('LaneLock', () => {
  it('hands the connection to a waiting acknowledgement before older background waiters', async () => {
    const lock = new LaneLock(0);
    const order: string[] = [];
    await lock.acquire('background');
    const waiters = [
      lock.acquire('background').then(() => order.push('background 1')),
      lock.acquire('background').then(() => order.push('background 2')),
      lock.acquire('ack').then(() => order.push('ack')),
    ];
    for (let i = 0; i < 3; i++) {
      lock.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(waiters);
    expect(order).toEqual(['ack', 'background 1', 'background 2']);
  });

  it('keeps the connection a moment for the next statement of an acknowledgement that continues', async () => {
    const lock = new LaneLock(50);
    const order: string[] = [];
    await lock.acquire('ack');
    const background = lock.acquire('background').then(() => order.push('background'));
    lock.release(true);
    // The acknowledgement's next statement, issued a moment after the first returned.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await lock.acquire('ack');
    order.push('ack again');
    lock.release(false);
    await background;
    lock.release();
    expect(order).toEqual(['ack again', 'background']);
  });
});

describe('PGlite served in lanes (real PGlite, through Prisma)', () => {
  let db: Database;
  const turns: Turn[] = [];
  beforeAll(async () => {
    db = await openDatabase({
      kind: 'pglite',
      fromDump: pgliteTemplateDump('empty'),
      onTurn: (turn) => turns.push(turn),
    });
  });
  afterAll(async () => {
    await db.close();
  });

  it('runs a save Slack waits on before the background statements queued while a long transaction held the connection', async () => {
    const started = deferred();
    const release = deferred();
    // A background transaction holding the connection (a big checkpoint, a quotation's items), as a job would.
    const holding = db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        started.resolve();
        await release.promise;
      },
      { timeout: 60_000, maxWait: 60_000 },
    );
    await started.promise;
    const finished: string[] = [];
    const background = Array.from({ length: 10 }, (_, i) =>
      db.prisma.$queryRaw`SELECT count(*) FROM generate_series(1, 20000)`.then(() => finished.push(`background ${i}`)),
    );
    // A listener's save: a read, then a write, each a statement, all before Slack is answered.
    const save = whileSlackWaits('block_actions:test', async () => {
      await db.prisma.$queryRaw`SELECT 1`;
      await db.prisma.$executeRaw`SELECT 2`;
      finished.push('save');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release.resolve();
    await Promise.all([holding, save, ...background]);

    // First come, first served (PGlite's own lock) would put the save last, behind all ten.
    expect(finished.indexOf('save')).toBeLessThanOrEqual(1);
    expect(finished).toHaveLength(11);
    const acks = turns.filter((turn) => turn.lane === 'ack');
    expect(acks.map((turn) => turn.label)).toEqual(['SELECT 1', 'SELECT 2']);
    expect(turns.find((turn) => turn.label.startsWith('tx: '))?.statements).toBeGreaterThanOrEqual(1);
  });

  it('queues what a listener leaves running after Slack was answered as background work', async () => {
    turns.length = 0;
    let later: Promise<unknown> = Promise.resolve();
    const afterAnswer = deferred();
    await whileSlackWaits('event_callback:app_home_opened', async () => {
      later = afterAnswer.promise.then(() => db.prisma.$queryRaw`SELECT 3`);
    });
    afterAnswer.resolve();
    await later;
    expect(turns.map((turn) => turn.lane)).toEqual(['background']);
  });
});
