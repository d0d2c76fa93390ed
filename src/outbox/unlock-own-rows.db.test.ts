// Handing back, on start-up, the rows the previous process of the same instance name had locked for sending (the
// recovery on start calls it; src/jobs/jobs.sandbox.db.test.ts shows it end to end after a crash).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { unlockOwnOutboxRows } from './unlock-own-rows.js';

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe('recovery on start', () => {
  let db: TestDatabase;
  let workspaceId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    ({ id: workspaceId } = await db.prisma.workspace.create({
      data: { slackTeamId: 'T0UNLOCK01', name: 'Unlock', brandName: 'Brand' },
    }));
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('hands back the outbox rows its previous process had locked, and only those', async () => {
    const now = new Date();
    const startedAt = at(now, -5_000);
    const row = (dedupeKey: string, lockedBy: string, lockedUntil: Date) =>
      db.prisma.slackOutbox.create({
        data: {
          workspaceId,
          dedupeKey,
          method: 'chat.postMessage',
          channelId: 'C0JOBS0001',
          payload: { text: 'hi' },
          status: 'sending',
          attempts: 1,
          lockedBy,
          lockedUntil,
        },
      });
    const previous = await row('recover:previous', 'restarted#7', at(now, 30_000));
    const other = await row('recover:other', 'another#1', at(now, 30_000));
    const mine = await row('recover:mine', 'restarted#1', at(now, 60_000));
    expect(await unlockOwnOutboxRows(db.prisma, 'restarted', now, { startedAt })).toBe(1);
    const until = async (id: string) =>
      (await db.prisma.slackOutbox.findUniqueOrThrow({ where: { id } })).lockedUntil?.getTime();
    expect(await until(previous.id)).toBe(now.getTime());
    expect(await until(other.id)).toBe(at(now, 30_000).getTime());
    expect(await until(mine.id)).toBe(at(now, 60_000).getTime());
  });
});
