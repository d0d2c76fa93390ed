// /healthz's one statement counts what the three Prisma counts it replaced counted (so `idle` means what it meant):
// unsent outbox rows, running or unconcluded negotiations, and quotations being read — on PGlite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { countUnfinishedWork } from './unfinished-work.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.destroy();
});

/** The three counts as /healthz made them before (Prisma's own queries). */
async function countedByPrisma() {
  const { prisma } = db;
  return {
    outboxUnsent: await prisma.slackOutbox.count({ where: { status: { in: ['pending', 'sending'] } } }),
    negotiating: await prisma.negotiation.count({
      where: { OR: [{ status: 'negotiating' }, { status: 'completed', quotation: { status: 'negotiating' } }] },
    }),
    reading: await prisma.quotation.count({ where: { status: { in: ['received', 'parsing'] } } }),
  };
}

describe('countUnfinishedWork', () => {
  it('is zero on an empty database', async () => {
    expect(await countUnfinishedWork(db.prisma)).toEqual({ outboxUnsent: 0, negotiating: 0, reading: 0 });
  });

  it('counts what the three Prisma counts count, over every status', async () => {
    const { prisma } = db;
    const workspace = await prisma.workspace.create({ data: { slackTeamId: 'T0UNFIN001', name: 'W', brandName: 'B' } });
    const workspaceId = workspace.id;
    const quotationStatuses = ['received', 'parsing', 'review', 'ready', 'negotiating', 'completed', 'failed'] as const;
    const negotiationStatuses = [
      'pending',
      'negotiating',
      'paused',
      'curveball',
      'deciding',
      'completed',
      'cancelled',
      'expired',
      'failed',
    ] as const;
    let n = 0;
    const quotationIn = (status: (typeof quotationStatuses)[number]) =>
      prisma.quotation.create({
        data: {
          workspaceId,
          status,
          slackFileId: `F${n++}`,
          slackChannelId: 'C1',
          uploadedBySlackUserId: 'U1',
          fileName: 'q.xlsx',
        },
      });
    for (const quotationStatus of quotationStatuses) {
      // A quotation without a negotiation, and one with each negotiation status.
      await quotationIn(quotationStatus);
      for (const status of negotiationStatuses) {
        const quotation = await quotationIn(quotationStatus);
        await prisma.negotiation.create({
          data: { workspaceId, quotationId: quotation.id, status, rngSeed: 1, startedBySlackUserId: 'U1' },
        });
      }
    }
    for (const status of ['pending', 'sending', 'sent', 'failed', 'pending'] as const) {
      await prisma.slackOutbox.create({
        data: { workspaceId, dedupeKey: `k${n++}`, method: 'chat.postMessage', channelId: 'C1', payload: {}, status },
      });
    }

    const expected = await countedByPrisma();
    expect(expected).toEqual({ outboxUnsent: 3, negotiating: 7 + 1, reading: 2 * 10 });
    expect(await countUnfinishedWork(prisma)).toEqual(expected);
  });
});
