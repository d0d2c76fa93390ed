// A connected supplier's Accept and Query on the approved PO, on a real database: the quoting supplier is connected
// (its organisation T0NINGBO01, the engine's SUP-001) and an approved PO orders its lines. Only its own people answer,
// only while the PO stands; an acceptance is recorded once — two clicks at once included — and audited; a query reaches
// the buyer's thread as the supplier wrote it, once per submission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobsFixture, BUYER } from '../../../test/support/jobs.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import type { ServiceContext } from '../service-context.js';
import { supplierPoKey } from '../../thread/supplier-channel.js';
import { acceptSupplierPurchaseOrder, querySupplierPurchaseOrder } from './supplier-answer.js';

const BRAND_TEAM = 'T0POANSWER';
const SUPPLIER_TEAM = 'T0NINGBO01';
const WEI = 'U0NINGBO01';

let db: TestDatabase;
let fixture: Awaited<ReturnType<typeof createJobsFixture>>;
let ctx: ServiceContext;

beforeAll(async () => {
  db = await createTestDatabase();
  fixture = await createJobsFixture(db.prisma, BRAND_TEAM);
  const context = await fixture.contexts.forWorkspace(fixture.workspaceId);
  if (!context) throw new Error('the fixture seeds the workspace');
  ctx = context;
}, 60_000);
afterAll(async () => {
  await db?.destroy();
});

let numbers = 0;

/** An approved PO ordering two of the quotation's lines from the connected supplier (and one from a simulated one). */
async function approvedPo(seed: number) {
  const { negotiationId, state } = await fixture.waitingForConnectedSupplier(seed, SUPPLIER_TEAM);
  const ningbo = fixture.supplierIds['SUP-001'];
  const other = fixture.supplierIds['SUP-002'];
  if (!ningbo || !other) throw new Error('the fixture seeds the suppliers');
  const [first, second] = state.baseline.lines;
  if (!first || !second) throw new Error('the example has lines');
  numbers += 1;
  const po = await fixture.ws.purchaseOrder.create({
    data: {
      workspaceId: fixture.workspaceId,
      negotiationId,
      number: `PO-2026-${String(numbers).padStart(4, '0')}`,
      status: 'approved',
      approvedAt: new Date(),
      fobCost: 1000,
      cashFlowCost: 0,
      effectiveLandedCost: 1100,
    },
  });
  const part = (supplierId: string, lines: typeof state.baseline.lines) =>
    fixture.ws.purchaseOrderAllocation.create({
      data: {
        workspaceId: fixture.workspaceId,
        purchaseOrderId: po.id,
        supplierId,
        share: 0.5,
        paymentTerms: '30/70',
        leadTimeDays: 40,
        incoterm: 'FOB Ningbo',
        fobCost: 500,
        cashFlowCost: 0,
        effectiveLandedCost: 550,
        items: {
          create: lines.map((line) => ({
            workspaceId: fixture.workspaceId,
            sku: line.sku,
            description: line.description,
            quantity: line.quantity,
            unitPrice: line.unitPrice,
            lineTotal: Math.round(line.quantity * line.unitPrice * 100) / 100,
          })),
        },
      },
    });
  await part(ningbo, [first, second]);
  await part(other, state.baseline.lines.slice(2, 3));
  return { po, negotiationId, ningbo, other };
}

const allocationOf = (purchaseOrderId: string, supplierId: string) =>
  fixture.ws.purchaseOrderAllocation.findUniqueOrThrow({
    where: { purchaseOrderId_supplierId: { purchaseOrderId, supplierId } },
  });
const audits = (entityId: string, action: string) => fixture.ws.auditLog.findMany({ where: { entityId, action } });
const outboxKeys = async (prefix: string) =>
  (await fixture.ws.slackOutbox.findMany({ where: { dedupeKey: { startsWith: prefix } } })).map((row) => row.dedupeKey);

describe('a connected supplier accepts its part of the approved PO', () => {
  it('records who and when once, audits it, edits its PO message and tells the buyer’s thread', async () => {
    const { po, ningbo } = await approvedPo(1);
    const accept = () =>
      acceptSupplierPurchaseOrder(ctx, {
        purchaseOrderId: po.id,
        supplierId: ningbo,
        by: WEI,
        byTeamId: SUPPLIER_TEAM,
      });
    expect(await accept()).toMatchObject({ ok: true, changed: true });
    const recorded = await allocationOf(po.id, ningbo);
    expect(recorded.acceptedBySlackUserId).toBe(WEI);
    expect(recorded.acceptedAt).toBeInstanceOf(Date);
    expect(await audits(po.id, 'purchase_order.accepted_by_supplier')).toMatchObject([{ actorSlackUserId: WEI }]);
    const key = supplierPoKey(po.id, ningbo);
    expect((await outboxKeys(key)).sort()).toEqual([`${key}:accepted`, `${key}:accepted:told`]);
    const edit = await fixture.ws.slackOutbox.findFirstOrThrow({ where: { dedupeKey: `${key}:accepted` } });
    expect(edit).toMatchObject({ method: 'chat.update', channelId: 'C0SHARED01' });
    // The supplier's edited message names only its own lines: not the simulated supplier's part.
    expect(JSON.stringify(edit.payload)).not.toMatch(/Alpine|Coastal|landed/i);

    // Again (a double click, a retry): nothing new.
    expect(await accept()).toMatchObject({ ok: true, changed: false });
    expect(await audits(po.id, 'purchase_order.accepted_by_supplier')).toHaveLength(1);
    expect((await allocationOf(po.id, ningbo)).acceptedAt).toEqual(recorded.acceptedAt);
  });

  it('takes one of two clicks at once', async () => {
    const { po, ningbo } = await approvedPo(2);
    const who = { purchaseOrderId: po.id, supplierId: ningbo, byTeamId: SUPPLIER_TEAM };
    const results = await Promise.all([
      acceptSupplierPurchaseOrder(ctx, { ...who, by: WEI }),
      acceptSupplierPurchaseOrder(ctx, { ...who, by: 'U0NINGBO02' }),
    ]);
    expect(results.filter((result) => result.ok && result.changed)).toHaveLength(1);
    expect(await audits(po.id, 'purchase_order.accepted_by_supplier')).toHaveLength(1);
  });

  it('is the supplier organisation’s alone, on its own part of a PO that stands', async () => {
    const { po, ningbo, other } = await approvedPo(3);
    const base = { purchaseOrderId: po.id, supplierId: ningbo, by: WEI };
    for (const byTeamId of [BRAND_TEAM, 'T0ELSEWHR1', null]) {
      expect(await acceptSupplierPurchaseOrder(ctx, { ...base, byTeamId, by: BUYER })).toMatchObject({
        ok: false,
        error: 'not_allowed',
      });
    }
    // The simulated supplier's part: nobody outside answers for it, Ningbo's people included.
    expect(
      await acceptSupplierPurchaseOrder(ctx, { ...base, supplierId: other, byTeamId: SUPPLIER_TEAM }),
    ).toMatchObject({ ok: false, error: 'not_allowed' });
    // A PO replaced by another is no longer accepted.
    await fixture.ws.purchaseOrder.update({ where: { id: po.id }, data: { status: 'superseded' } });
    expect(await acceptSupplierPurchaseOrder(ctx, { ...base, byTeamId: SUPPLIER_TEAM })).toMatchObject({
      ok: false,
      error: 'conflict',
    });
    expect((await allocationOf(po.id, ningbo)).acceptedAt).toBeNull();
    expect(await audits(po.id, 'purchase_order.accepted_by_supplier')).toEqual([]);
  });

  it('sends a query to the buyer as written, once per submission', async () => {
    const { po, ningbo } = await approvedPo(4);
    const text = 'Can line 2 ship two weeks later? <!channel> *bold*';
    const query = (submissionId: string) =>
      querySupplierPurchaseOrder(ctx, {
        purchaseOrderId: po.id,
        supplierId: ningbo,
        by: WEI,
        byTeamId: SUPPLIER_TEAM,
        text,
        submissionId,
      });
    expect(await query('V0QUERY001')).toMatchObject({ ok: true, changed: true });
    expect(await query('V0QUERY001')).toMatchObject({ ok: true, changed: false });
    const key = `${supplierPoKey(po.id, ningbo)}:query:V0QUERY001`;
    expect((await outboxKeys(key)).sort()).toEqual([key, `${key}:told`]);
    const told = await fixture.ws.slackOutbox.findFirstOrThrow({ where: { dedupeKey: `${key}:told` } });
    const shown = JSON.stringify(told.payload);
    expect(shown).toContain('Can line 2 ship two weeks later?');
    expect(shown).not.toContain('<!channel>');
    expect(await audits(po.id, 'purchase_order.queried_by_supplier')).toMatchObject([
      { actorSlackUserId: WEI, data: expect.objectContaining({ text }) },
    ]);
    expect(
      await querySupplierPurchaseOrder(ctx, {
        purchaseOrderId: po.id,
        supplierId: ningbo,
        by: BUYER,
        byTeamId: BRAND_TEAM,
        text,
        submissionId: 'V0QUERY002',
      }),
    ).toMatchObject({ ok: false, error: 'not_allowed' });
  });
});
