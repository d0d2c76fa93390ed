import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseClock, databaseNow } from './database-now.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';

// Two instances whose local clocks are 5 s apart.
const skewed = (offsetMs: number) => () => new Date(Date.now() + offsetMs);

describe('database clock under skewed local clocks', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('reads clock_timestamp(), which advances inside one transaction', async () => {
    const [first, second] = await db.prisma.$transaction(async (tx) => {
      const a = await databaseNow(tx);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return [a, await databaseNow(tx)];
    });
    expect(second.getTime() - first.getTime()).toBeGreaterThanOrEqual(15);
  });

  it('gives two instances 5 s apart the same time, so a later write never sorts ahead of an earlier one', async () => {
    const behind = await createDatabaseClock(db.prisma, skewed(-5_000));
    const ahead = await createDatabaseClock(db.prisma, skewed(0));
    expect(Math.abs(behind.offsetMs() - ahead.offsetMs() - 5_000)).toBeLessThan(200);

    // The "ahead" instance posts, then the "behind" one edits that post: local clocks would order the edit 5 s first.
    const post = ahead.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const edit = behind.now();
    expect(skewed(-5_000)().getTime()).toBeLessThan(post.getTime());
    expect(edit.getTime()).toBeGreaterThan(post.getTime() - 100);
    expect(Math.abs(edit.getTime() - (await databaseNow(db.prisma)).getTime())).toBeLessThan(200);
  });

  it('keeps a 1 s pacing gap measured on one instance honest on the other', async () => {
    const behind = await createDatabaseClock(db.prisma, skewed(-5_000));
    const ahead = await createDatabaseClock(db.prisma, skewed(1_500));
    const sentAt = ahead.now();
    // The other instance's reading of "1 s after the last post" is within the sync error of 1 s on the database clock.
    const earliestNext = new Date(sentAt.getTime() + 1_000);
    expect(Math.abs(earliestNext.getTime() - behind.now().getTime() - 1_000)).toBeLessThan(200);
  });
});
