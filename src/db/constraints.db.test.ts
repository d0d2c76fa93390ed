// The unique keys that later make Slack retries and replays harmless: each is a test that the second write of the
// same thing is refused (or, through upsert, leaves one row).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../generated/prisma/client.js';
import { scopeToWorkspace, type WorkspaceDb } from './scoped.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

describe('idempotency keys', () => {
  let db: TestDatabase;
  let ws: WorkspaceDb;
  let otherWs: WorkspaceDb;

  beforeAll(async () => {
    db = await createTestDatabase();
    const workspace = await db.prisma.workspace.create({ data: { slackTeamId: 'T1', name: 'A', brandName: 'A' } });
    const other = await db.prisma.workspace.create({ data: { slackTeamId: 'T2', name: 'B', brandName: 'B' } });
    ws = scopeToWorkspace(db.prisma, workspace.id);
    otherWs = scopeToWorkspace(db.prisma, other.id);
  });
  afterAll(async () => {
    await db.destroy();
  });

  const quotationFor = (slackFileId: string, scope: WorkspaceDb = ws) => ({
    workspaceId: scope.$workspaceId,
    slackFileId,
    slackChannelId: 'C1',
    uploadedBySlackUserId: 'U1',
    fileName: 'quote.xlsx',
  });

  it('the same Slack file twice is one quotation', async () => {
    await ws.quotation.create({ data: quotationFor('F1') });
    const second = ws.quotation.create({ data: quotationFor('F1') });
    await expect(second).rejects.toSatisfy(isUniqueViolation);

    // The way the upload listener records a file: an upsert on the key, so two deliveries of one event agree.
    const [one, two] = await Promise.all([
      ws.quotation.upsert({
        where: { workspaceId_slackFileId: { workspaceId: ws.$workspaceId, slackFileId: 'F2' } },
        create: quotationFor('F2'),
        update: {},
      }),
      ws.quotation.upsert({
        where: { workspaceId_slackFileId: { workspaceId: ws.$workspaceId, slackFileId: 'F2' } },
        create: quotationFor('F2'),
        update: {},
      }),
    ]).catch(async () =>
      // Two concurrent upserts may race to the insert; the loser's retry must then find the winner's row.
      Promise.all([
        ws.quotation.findFirstOrThrow({ where: { slackFileId: 'F2' } }),
        ws.quotation.findFirstOrThrow({ where: { slackFileId: 'F2' } }),
      ]),
    );
    expect(one.id).toBe(two.id);
    expect(await ws.quotation.count({ where: { slackFileId: { in: ['F1', 'F2'] } } })).toBe(2);
  });

  it('the same Slack file id in another workspace is another quotation', async () => {
    await otherWs.quotation.create({ data: quotationFor('F1', otherWs) });
    expect(await db.prisma.quotation.count({ where: { slackFileId: 'F1' } })).toBe(2);
  });

  it('an outbox row is enqueued once per dedupe key', async () => {
    const row = {
      workspaceId: ws.$workspaceId,
      dedupeKey: 'neg:1:msg:1',
      method: 'chat.postMessage',
      channelId: 'C1',
      payload: { text: 'hi' },
    };
    await ws.slackOutbox.create({ data: row });
    await expect(ws.slackOutbox.create({ data: row })).rejects.toSatisfy(isUniqueViolation);
    const { count } = await ws.slackOutbox.createMany({ data: [row], skipDuplicates: true });
    expect(count).toBe(0);
  });

  it('a negotiation message is written once per sequence number, and one negotiation per quotation', async () => {
    const quotation = await ws.quotation.create({ data: quotationFor('F3') });
    const negotiation = await ws.negotiation.create({
      data: { workspaceId: ws.$workspaceId, quotationId: quotation.id, rngSeed: 7, startedBySlackUserId: 'U1' },
    });
    await expect(
      ws.negotiation.create({
        data: { workspaceId: ws.$workspaceId, quotationId: quotation.id, rngSeed: 8, startedBySlackUserId: 'U1' },
      }),
    ).rejects.toSatisfy(isUniqueViolation);

    const message = {
      workspaceId: ws.$workspaceId,
      negotiationId: negotiation.id,
      sequence: 1,
      role: 'system' as const,
      speakerName: 'Parley',
      text: 'x',
    };
    await ws.message.create({ data: message });
    await expect(ws.message.create({ data: message })).rejects.toSatisfy(isUniqueViolation);
  });

  it('one approval per approver per purchase order', async () => {
    const quotation = await ws.quotation.create({ data: quotationFor('F4') });
    const negotiation = await ws.negotiation.create({
      data: { workspaceId: ws.$workspaceId, quotationId: quotation.id, rngSeed: 1, startedBySlackUserId: 'U1' },
    });
    const po = await ws.purchaseOrder.create({
      data: {
        workspaceId: ws.$workspaceId,
        negotiationId: negotiation.id,
        number: 'PO-2026-0001',
        fobCost: '1000.00',
        cashFlowCost: '5.00',
        effectiveLandedCost: '1005.00',
      },
    });
    const approval = { workspaceId: ws.$workspaceId, purchaseOrderId: po.id, approverSlackUserId: 'UAPPROVER' };
    await ws.purchaseOrderApproval.create({ data: approval });
    await expect(ws.purchaseOrderApproval.create({ data: approval })).rejects.toSatisfy(isUniqueViolation);

    // Optimistic version: a transition only applies to the version it read.
    const first = await ws.purchaseOrder.updateMany({
      where: { id: po.id, version: 0, status: 'draft' },
      data: { status: 'approved', version: { increment: 1 } },
    });
    const replay = await ws.purchaseOrder.updateMany({
      where: { id: po.id, version: 0, status: 'draft' },
      data: { status: 'approved', version: { increment: 1 } },
    });
    expect([first.count, replay.count]).toEqual([1, 0]);
  });
});
