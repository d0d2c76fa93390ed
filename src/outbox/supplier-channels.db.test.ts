// The discretion gate in front of the outbox: a call to a connected supplier's channel that carries anything internal
// is never written (audited, and the buyer told where the caller said); every other call is written as before.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scopeToWorkspace, type WorkspaceDb } from '../db/scoped.js';
import { seedWorkspace } from '../db/seed.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { supplierChannelFacts } from './discretion-check.js';
import { enqueueSlackCall, enqueueSlackCalls } from './enqueue-slack-call.js';
import type { OutboxCall } from './outbox-call.js';

const SUPPLIER_CHANNEL = 'C0NINGBO01';
const BUYER_DM = 'U0APPROVE1';

const post = (dedupeKey: string, channelId: string, text: string, extra: Partial<OutboxCall> = {}): OutboxCall => ({
  dedupeKey,
  method: 'chat.postMessage',
  channelId,
  payload: { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] },
  ...extra,
});

const notice = (key: string) => (why: string) => post(`${key}:held`, BUYER_DM, why);

let db: TestDatabase;
let ws: WorkspaceDb;

beforeAll(async () => {
  db = await createTestDatabase();
  const { workspaceId } = await seedWorkspace(db.prisma, {
    slackTeamId: 'T0BRAND001',
    brandName: 'Valden',
    catalog: [],
  });
  ws = scopeToWorkspace(db.prisma, workspaceId);
  await ws.supplier.create({
    data: {
      workspaceId,
      code: 'SUP-004',
      name: 'Ningbo Everbright Garments',
      qualityRating: 4,
      priceLevel: 'cheapest',
      leadTimeDays: 50,
      paymentTerms: '30/70',
      onTimeDeliveryRate: 0.9,
      defectRate: 0.03,
      responseTimeDays: 2,
      slackChannelId: SUPPLIER_CHANNEL,
      slackTeamId: 'T0NINGBO01',
    },
  });
});

afterAll(async () => {
  await db.destroy();
});

beforeEach(async () => {
  await db.prisma.slackOutbox.deleteMany();
  await db.prisma.auditLog.deleteMany();
});

async function keys(): Promise<string[]> {
  const rows = await ws.slackOutbox.findMany({ orderBy: { createdAt: 'asc' }, select: { dedupeKey: true } });
  return rows.map((row) => row.dedupeKey);
}

describe('the discretion gate', () => {
  it('writes a clean message to the supplier’s channel, and anything to an internal one', async () => {
    const written = await enqueueSlackCalls(ws, [
      post('hello', SUPPLIER_CHANNEL, 'Thanks for your quotation, Ningbo Everbright: could you do 45 days?'),
      post('internal', 'C0SOURCING', 'Alpine Premium offers $41,200.00, 8% below Ningbo.'),
    ]);
    expect(written).toBe(2);
    expect(await keys()).toEqual(['hello', 'internal']);
  });

  it('holds back a message naming another supplier, audits it, and tells the buyer instead', async () => {
    const written = await enqueueSlackCall(
      ws,
      post('leak', SUPPLIER_CHANNEL, 'Alpine Premium already offered a better price.', {
        heldBackNotice: notice('leak'),
      }),
    );
    expect(written).toBe(true);
    expect(await keys()).toEqual(['leak:held']);
    const told = await ws.slackOutbox.findFirstOrThrow({ where: { dedupeKey: 'leak:held' } });
    expect(told.channelId).toBe(BUYER_DM);
    expect(JSON.stringify(told.payload)).toContain('Alpine Premium');
    const audit = await ws.auditLog.findFirstOrThrow({ where: { action: 'outbox.held_back' } });
    expect(audit).toMatchObject({ entityId: 'leak', data: { channelId: SUPPLIER_CHANNEL, supplierCode: 'SUP-004' } });
  });

  it('checks a negotiation’s own facts when the call carries them (the buyer’s walk-away here)', async () => {
    const confidential = {
      ...supplierChannelFacts({ code: 'SUP-004', name: 'Ningbo Everbright Garments' }, []),
      amounts: [{ kind: 'mandate_figure' as const, what: "the buyer's walk-away total", value: 4_500_000 }],
    };
    await enqueueSlackCalls(ws, [
      post('walk-away', SUPPLIER_CHANNEL, 'We cannot go above USD 45,000.00 for the order.', { confidential }),
      post('fine', SUPPLIER_CHANNEL, 'Could you do USD 44,000 for the order?', { confidential }),
    ]);
    expect(await keys()).toEqual(['fine']);
  });

  it('drops a notice aimed at a supplier’s channel rather than send it unchecked', async () => {
    await enqueueSlackCall(
      ws,
      post('leak-2', SUPPLIER_CHANNEL, 'RapidGear Co ships in 15 days.', {
        heldBackNotice: (why) => post('leak-2:held', SUPPLIER_CHANNEL, why),
      }),
    );
    expect(await keys()).toEqual([]);
    expect(await ws.auditLog.count({ where: { action: 'outbox.held_back' } })).toBe(1);
  });
});
