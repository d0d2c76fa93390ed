// The PO store on a real database (PGlite, or PostgreSQL with DATABASE_URL): rows written and read back as they were
// (amounts in cents, unit prices to four decimals, lines in order), conditional status changes that write nothing
// when the PO moved on, the year's numbers, and nothing of another workspace. The rules that decide what to write
// are tested in src/decision/purchase-order-rules.test.ts, the use cases in src/services/purchase-order/.
import { writeAudit } from '../audit.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeToWorkspace, type WorkspaceDb } from '../scoped.js';
import { seedWorkspace } from '../seed.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { seedNegotiationSuppliers } from '../../../test/support/negotiation-workspace.js';
import { startNegotiation } from './negotiation-store.js';
import { decide } from '../../decision/decide.js';
import { planPurchaseOrder } from '../../decision/purchase-order-rules.js';
import { writeDeterministic } from '../../decision/write-decision.js';
import { curveballInput, numbersOf, PROFILES } from '../../../test/support/decide-fixtures.js';
import {
  insertDraftPurchaseOrder,
  listPurchaseOrdersOf,
  loadLatestPurchaseOrder,
  loadNegotiationSuppliers,
  loadPurchaseOrder,
  loadSupplierCodes,
  lockAndListPurchaseOrderNumbers,
  lockNegotiation,
  markSuperseded,
  recordApproval,
  recordRejection,
  saveDecision,
} from './purchase-orders.js';

const split = numbersOf(decide(curveballInput()));
const single = numbersOf(decide(curveballInput({ capacityCaps: {} })));

describe('the purchase-order store', () => {
  let db: TestDatabase;
  let ws: WorkspaceDb;
  let suppliers: Map<string, { id: string; code: string }>;
  let files = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { workspaceId } = await seedWorkspace(db.prisma, { slackTeamId: 'TPOS', brandName: 'Valden', catalog: [] });
    ws = scopeToWorkspace(db.prisma, workspaceId);
    // By the codes the negotiation names them (the quoted supplier is SUP-001 there), with their own codes.
    const ids = await seedNegotiationSuppliers(ws);
    const codes = new Map((await ws.supplier.findMany()).map((s) => [s.id, s.code]));
    suppliers = new Map(Object.entries(ids).map(([role, id]) => [role, { id, code: codes.get(id) ?? role }]));
    await ws.product.create({
      data: {
        workspaceId,
        brand: 'Valden',
        sku: 'A',
        name: 'Item A',
        color: 'Bone',
        size: 'M',
        category: 'Tops',
        skuPrefix: 'A',
        colorCode: 'BON',
        sizeCode: 'M',
      },
    });
  });
  afterAll(async () => {
    await db.destroy();
  });

  async function newNegotiation(): Promise<string> {
    const quotation = await ws.quotation.create({
      data: {
        workspaceId: ws.$workspaceId,
        slackFileId: `F${++files}`,
        slackChannelId: 'C1',
        uploadedBySlackUserId: 'UBUYER',
        fileName: 'quote.xlsx',
      },
    });
    const { negotiationId } = await startNegotiation(ws, {
      quotationId: quotation.id,
      startedBySlackUserId: 'UBUYER',
      setup: {
        seed: 1,
        brandName: 'Valden',
        mode: 'cost',
        maxRounds: 4,
        mandate: { targetTotal: null, walkAwayTotal: null },
        buyerNotes: null,
        baseline: curveballInput().baseline,
        profiles: [...PROFILES],
      },
      supplierIds: Object.fromEntries([...suppliers].map(([role, s]) => [role, s.id])),
      questionBudget: 3,
    });
    return negotiationId;
  }

  /** A draft written straight through the store. */
  async function insert(negotiationId: string, number: string, numbers = split) {
    return ws.$transaction(async (tx) => {
      const decision = await saveDecision(tx, negotiationId, numbers, writeDeterministic(numbers));
      return insertDraftPurchaseOrder(tx, {
        negotiationId,
        decisionId: decision.id,
        number,
        planned: planPurchaseOrder(numbers, suppliers),
      });
    });
  }

  it('writes a draft and reads it back as written', async () => {
    const negotiationId = await newNegotiation();
    const planned = planPurchaseOrder(split, suppliers);
    const id = await insert(negotiationId, 'PO-2026-0101');
    const po = await loadPurchaseOrder(ws, id);
    expect(po).toMatchObject({
      number: 'PO-2026-0101',
      status: 'draft',
      version: 0,
      negotiationId,
      currency: 'USD',
      fobCost: 17_500,
      splitOverhead: 875,
      effectiveLandedCost: 18_375,
      basisOfAward: planned.basisOfAward,
      decisionSummary: writeDeterministic(split).summary,
      approvals: [],
    });
    expect(po?.allocations.map((a) => [a.supplierCode, a.supplierName, a.share, a.incoterm])).toEqual([
      ['SUP-004', 'Ningbo Everbright', 0.5143, 'FOB Ningbo'],
      ['SUP-002', 'Alpine Premium', 0.4857, 'FOB Ningbo'],
    ]);
    // The line's SKU is a catalog product: the line names it.
    expect(po?.allocations[0]?.items[0]).toMatchObject({ sku: 'A', productId: expect.any(String), unitPrice: 90 });
    expect(po?.allocations[1]?.items[0]).toMatchObject({ sku: 'B', productId: null });
    expect(await ws.$transaction((tx) => loadLatestPurchaseOrder(tx, negotiationId))).toEqual(po);
  });

  it('keeps cents and four-decimal unit prices, and nothing finer', async () => {
    const negotiationId = await newNegotiation();
    const planned = planPurchaseOrder(split, suppliers);
    const [first, second] = planned.allocations;
    const line = first?.items[0];
    if (!first || !second || !line) throw new Error('fixture');
    const id = await ws.$transaction(async (tx) => {
      const decision = await saveDecision(tx, negotiationId, split, writeDeterministic(split));
      return insertDraftPurchaseOrder(tx, {
        negotiationId,
        decisionId: decision.id,
        number: 'PO-2026-0102',
        planned: {
          ...planned,
          cashFlowCost: 0.004,
          allocations: [{ ...first, items: [{ ...line, unitPrice: 89.123_456, lineTotal: 8_912.345_6 }] }, second],
        },
      });
    });
    const po = await loadPurchaseOrder(ws, id);
    expect(po?.cashFlowCost).toBe(0);
    expect(po?.allocations[0]?.items[0]).toMatchObject({ unitPrice: 89.1235, lineTotal: 8_912.35 });
  });

  it('writes the decision once per negotiation and revises it after', async () => {
    const negotiationId = await newNegotiation();
    const first = await ws.$transaction((tx) => saveDecision(tx, negotiationId, split, writeDeterministic(split)));
    const second = await ws.$transaction((tx) => saveDecision(tx, negotiationId, single, writeDeterministic(single)));
    expect(first.revised).toBe(false);
    expect(second).toEqual({ id: first.id, revised: true });
    expect(await ws.decision.count({ where: { negotiationId } })).toBe(1);
  });

  it('changes a status only from the version and statuses asked, and writes nothing otherwise', async () => {
    const negotiationId = await newNegotiation();
    const id = await insert(negotiationId, 'PO-2026-0103');
    const now = new Date('2026-05-04T10:00:00Z');
    const approval = {
      purchaseOrderId: id,
      from: ['draft' as const],
      approverSlackUserId: 'UAPPROVER1',
      complete: false,
      shownDigest: 'a'.repeat(64),
      now,
    };
    expect(await ws.$transaction((tx) => recordApproval(tx, { ...approval, expectedVersion: 3 }))).toBe(false);
    expect(await ws.purchaseOrderApproval.count({ where: { purchaseOrderId: id } })).toBe(0);
    expect(await ws.$transaction((tx) => recordApproval(tx, { ...approval, expectedVersion: 0 }))).toBe(true);
    const after = await loadPurchaseOrder(ws, id);
    expect(after).toMatchObject({ status: 'draft', version: 1, approvals: [{ approverSlackUserId: 'UAPPROVER1' }] });
    const row = await ws.purchaseOrderApproval.findFirstOrThrow({ where: { purchaseOrderId: id } });
    expect(row.shownDigest).toBe('a'.repeat(64));

    const final = { ...approval, approverSlackUserId: 'UAPPROVER2', complete: true, expectedVersion: 1 };
    expect(await ws.$transaction((tx) => recordApproval(tx, { ...final, from: ['approved'] }))).toBe(false);
    expect(await ws.$transaction((tx) => recordApproval(tx, final))).toBe(true);
    expect(await loadPurchaseOrder(ws, id)).toMatchObject({ status: 'approved', version: 2, approvedAt: now });

    const rejection = {
      purchaseOrderId: id,
      expectedVersion: 2,
      from: ['draft' as const],
      by: 'U1',
      reason: 'No',
      now,
    };
    expect(await ws.$transaction((tx) => recordRejection(tx, rejection))).toBe(false);
    await ws.$transaction((tx) => markSuperseded(tx, [id], ['draft']));
    expect(await loadPurchaseOrder(ws, id)).toMatchObject({ status: 'approved', version: 2 });
    await ws.$transaction((tx) => markSuperseded(tx, [id], ['draft', 'approved']));
    expect(await loadPurchaseOrder(ws, id)).toMatchObject({ status: 'superseded', version: 3 });
    expect(await ws.$transaction((tx) => listPurchaseOrdersOf(tx, negotiationId, ['draft', 'approved']))).toEqual([]);
    expect(await ws.$transaction((tx) => loadLatestPurchaseOrder(tx, negotiationId))).toBeNull();
  });

  it('rejects a draft at its version', async () => {
    const id = await insert(await newNegotiation(), 'PO-2026-0104');
    const now = new Date('2026-05-04T10:00:00Z');
    const rejection = {
      purchaseOrderId: id,
      expectedVersion: 0,
      from: ['draft' as const],
      by: 'U1',
      reason: 'No',
      now,
    };
    expect(await ws.$transaction((tx) => recordRejection(tx, rejection))).toBe(true);
    expect(await loadPurchaseOrder(ws, id)).toMatchObject({
      status: 'rejected',
      version: 1,
      rejectedReason: 'No',
      rejectedBySlackUserId: 'U1',
      rejectedAt: now,
    });
  });

  it("lists the year's numbers, the negotiation's suppliers and codes, and locks the negotiation", async () => {
    const negotiationId = await newNegotiation();
    await insert(negotiationId, 'PO-2040-0007');
    await insert(await newNegotiation(), 'PO-2041-0001');
    const numbers = await ws.$transaction((tx) =>
      lockAndListPurchaseOrderNumbers(tx, new Date('2040-12-31T23:00:00Z')),
    );
    expect(numbers).toEqual(['PO-2040-0007']);
    const rows = await ws.$transaction((tx) => loadNegotiationSuppliers(tx, negotiationId));
    expect(rows.map((r) => r.code).sort()).toEqual(['SUP-002', 'SUP-003', 'SUP-004']);
    const quoted = suppliers.get('SUP-001');
    const codes = await ws.$transaction((tx) => loadSupplierCodes(tx, [quoted?.id ?? '', 'nobody']));
    expect([...codes.values()]).toEqual(['SUP-004']);
    expect(await ws.$transaction((tx) => lockNegotiation(tx, negotiationId, new Date()))).toBe(true);
    expect(await ws.$transaction((tx) => lockNegotiation(tx, 'no-such-negotiation', new Date()))).toBe(false);
  });

  it('writes audit rows for a person or the system', async () => {
    await ws.$transaction(async (tx) => {
      await writeAudit(tx, null, { action: 'x.system', entityType: 'x', entityId: 'audit-1', data: { a: 1 } });
      await writeAudit(tx, 'U1', { action: 'x.user', entityType: 'x', entityId: 'audit-1', data: {} });
    });
    const rows = await ws.auditLog.findMany({ where: { entityId: 'audit-1' }, orderBy: { action: 'asc' } });
    expect(rows.map((r) => [r.action, r.actorKind, r.actorSlackUserId])).toEqual([
      ['x.system', 'system', null],
      ['x.user', 'user', 'U1'],
    ]);
  });

  it("finds nothing of another workspace's", async () => {
    const id = await insert(await newNegotiation(), 'PO-2026-0105');
    const other = await db.prisma.workspace.create({ data: { slackTeamId: 'TOTHERS', name: 'O', brandName: 'O' } });
    const foreign = scopeToWorkspace(db.prisma, other.id);
    expect(await loadPurchaseOrder(foreign, id)).toBeNull();
    const approval = {
      purchaseOrderId: id,
      expectedVersion: 0,
      from: ['draft' as const],
      approverSlackUserId: 'U1',
      complete: true,
      shownDigest: 'b'.repeat(64),
      now: new Date(),
    };
    expect(await foreign.$transaction((tx) => recordApproval(tx, approval))).toBe(false);
    expect(await loadPurchaseOrder(ws, id)).toMatchObject({ status: 'draft', version: 0 });
  });
});
