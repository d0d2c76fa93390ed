// Purchase orders on a real database (PGlite, or PostgreSQL with DATABASE_URL): drafting in one transaction,
// numbering under concurrency, the approval rules and every refusal, audit rows, superseding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTED_SUPPLIER_DEFAULTS } from '../../config/business-rules.js';
import { scopeToWorkspace, type WorkspaceDb } from '../scoped.js';
import { seedWorkspace, supplierColumns } from '../seed.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { startNegotiation } from './negotiation-store.js';
import { decide, type DecisionNumbers } from '../../decision/decide.js';
import {
  baselineOf,
  curveballInput,
  landedCostInput,
  numbersOf,
  offerOf,
  PROFILES,
} from '../../../test/support/decide-fixtures.js';
import {
  approvePurchaseOrder,
  createDraftPurchaseOrder,
  loadPurchaseOrder,
  type PurchaseOrderResult,
  type PurchaseOrderView,
  rejectPurchaseOrder,
} from './purchase-orders.js';
import { writeDeterministic } from '../../decision/write-decision.js';

const APPROVERS = ['UAPPROVER1', 'UAPPROVER2'];
const [ALICE = '', BOB = ''] = APPROVERS;
const split = numbersOf(decide(curveballInput()));
const single = numbersOf(decide(curveballInput({ capacityCaps: {} })));

function poOf(result: PurchaseOrderResult): PurchaseOrderView {
  if (!result.ok) throw new Error(`expected a PO, got ${result.error}: ${result.message}`);
  return result.po;
}

describe('purchase orders on the database', () => {
  let db: TestDatabase;
  let ws: WorkspaceDb;
  let supplierIds: Record<string, string>;
  let files = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { workspaceId } = await seedWorkspace(db.prisma, { slackTeamId: 'TPO', brandName: 'Valden', catalog: [] });
    ws = scopeToWorkspace(db.prisma, workspaceId);
    // The quoting supplier keeps its own code; the engine calls it SUP-001.
    const quoted = await ws.supplier.create({
      data: {
        workspaceId,
        ...supplierColumns({ ...QUOTED_SUPPLIER_DEFAULTS, code: 'SUP-004', name: 'Ningbo Everbright' }),
      },
    });
    const simulated = await ws.supplier.findMany({ where: { isSimulated: true } });
    supplierIds = { 'SUP-001': quoted.id, ...Object.fromEntries(simulated.map((s) => [s.code, s.id])) };
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
    const input = curveballInput();
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
        baseline: input.baseline,
        profiles: [...PROFILES],
      },
      supplierIds,
      questionBudget: 3,
    });
    return negotiationId;
  }

  async function draft(negotiationId: string, numbers: DecisionNumbers = split, year = 2026) {
    return createDraftPurchaseOrder(ws, {
      negotiationId,
      numbers,
      text: writeDeterministic(numbers),
      now: () => new Date(`${year}-05-04T10:00:00Z`),
    });
  }

  const approve = (po: PurchaseOrderView, approver: string, extra: { threshold?: number; version?: number } = {}) =>
    approvePurchaseOrder(ws, {
      purchaseOrderId: po.id,
      approverSlackUserId: approver,
      expectedVersion: extra.version ?? po.version,
      approvers: APPROVERS,
      dualApprovalAboveUsd: extra.threshold ?? 50_000,
    });

  const reject = (po: PurchaseOrderView, by: string, reason: string, version = po.version) =>
    rejectPurchaseOrder(ws, { purchaseOrderId: po.id, by, reason, expectedVersion: version, approvers: APPROVERS });

  const auditOf = async (entityId: string) =>
    (await ws.auditLog.findMany({ where: { entityId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).map((a) => ({
      action: a.action,
      actor: a.actorSlackUserId,
      kind: a.actorKind,
    }));

  it('drafts the decision and its PO with allocations, lines and totals that add up', async () => {
    const negotiationId = await newNegotiation();
    const result = await draft(negotiationId);
    expect(result).toMatchObject({ ok: true, changed: true });
    const po = poOf(result);
    expect(po).toMatchObject({
      status: 'draft',
      version: 0,
      currency: 'USD',
      fobCost: 17_500,
      cashFlowCost: 0,
      splitOverhead: 875,
      effectiveLandedCost: 18_375,
      approvals: [],
      approvedAt: null,
    });
    expect(po.number).toMatch(/^PO-2026-\d{4}$/);
    expect(
      po.allocations.map((a) => [a.supplierCode, a.supplierName, a.share, a.fobCost, a.effectiveLandedCost]),
    ).toEqual([
      ['SUP-004', 'Ningbo Everbright', 0.5143, 9_000, 9_000],
      ['SUP-002', 'Alpine Premium', 0.4857, 8_500, 8_500],
    ]);
    expect(po.allocations[0]?.supplierId).toBe(supplierIds['SUP-001']);
    expect(po.allocations[0]?.items).toEqual([
      {
        sku: 'A',
        description: 'Item A',
        productId: expect.any(String),
        quantity: 100,
        unitPrice: 90,
        lineTotal: 9_000,
        tiers: [],
      },
    ]);
    expect(po.allocations[1]?.items[0]).toMatchObject({ sku: 'B', productId: null, unitPrice: 85, lineTotal: 8_500 });
    const cents = (x: number) => Math.round(x * 100);
    expect(po.allocations.reduce((sum, a) => sum + cents(a.fobCost), 0)).toBe(cents(po.fobCost));
    for (const a of po.allocations) {
      expect(a.items.reduce((sum, i) => sum + cents(i.lineTotal), 0)).toBe(cents(a.fobCost));
    }

    const decision = await ws.decision.findUniqueOrThrow({ where: { negotiationId } });
    expect(po.decisionId).toBe(decision.id);
    expect(decision).toMatchObject({
      mode: 'cost',
      writer: 'deterministic',
      summary: writeDeterministic(split).summary,
    });
    expect(decision.cheapestNotChosenReason).toMatch(/^Alpine Premium's final offer/);
    expect(decision.savings).toMatchObject({ identified: { amount: 3_500 }, awarded: { amount: 2_500 } });
    expect(await auditOf(po.id)).toEqual([{ action: 'purchase_order.drafted', actor: null, kind: 'system' }]);
    expect(await auditOf(decision.id)).toEqual([{ action: 'decision.recorded', actor: null, kind: 'system' }]);
  });

  it('writes nothing when any part of the draft fails (one transaction)', async () => {
    const negotiationId = await newNegotiation();
    const broken = createDraftPurchaseOrder(ws, {
      negotiationId,
      numbers: split,
      text: writeDeterministic(split),
      // SUP-002's allocation points at a supplier that does not exist: its insert fails after the others.
      supplierIds: { ...supplierIds, 'SUP-002': 'no-such-supplier' },
    });
    await expect(broken).rejects.toThrow();
    expect(await ws.purchaseOrder.count({ where: { negotiationId } })).toBe(0);
    expect(await ws.decision.count({ where: { negotiationId } })).toBe(0);
    expect(await ws.purchaseOrderAllocation.count({ where: { purchaseOrder: { negotiationId } } })).toBe(0);
  });

  it('is idempotent per negotiation, and a changed decision supersedes the earlier draft', async () => {
    const negotiationId = await newNegotiation();
    const first = poOf(await draft(negotiationId));
    const again = await draft(negotiationId);
    expect(again).toMatchObject({ ok: true, changed: false });
    expect(poOf(again).id).toBe(first.id);
    // Two drafts of one negotiation at once: the second waits for the first and finds it.
    const racing = await Promise.all([draft(negotiationId), draft(negotiationId)]);
    expect(racing.map((r) => poOf(r).id)).toEqual([first.id, first.id]);
    expect(await ws.purchaseOrder.count({ where: { negotiationId } })).toBe(1);

    const revised = poOf(await draft(negotiationId, single));
    expect(revised.id).not.toBe(first.id);
    expect(revised.allocations.map((a) => a.supplierCode)).toEqual(['SUP-002']);
    expect(revised.number).not.toBe(first.number);
    const old = await loadPurchaseOrder(ws, first.id);
    expect(old).toMatchObject({ status: 'superseded', version: 1 });
    expect(await auditOf(first.id)).toEqual([
      { action: 'purchase_order.drafted', actor: null, kind: 'system' },
      { action: 'purchase_order.superseded', actor: null, kind: 'system' },
    ]);
    const decision = await ws.decision.findUniqueOrThrow({ where: { negotiationId } });
    expect(decision.id).toBe(revised.decisionId);
    expect(decision.cheapestNotChosenReason).toBeNull();
    // Approving a superseded PO is refused.
    const late = await approve(first, ALICE, { version: 1 });
    expect(late).toMatchObject({ ok: false, error: 'already_final' });

    // An approved PO is superseded too when the decision changes again (it was never sent).
    const approved = poOf(await approve(revised, ALICE));
    expect(approved.status).toBe('approved');
    const third = poOf(await draft(negotiationId, split));
    expect(third.status).toBe('draft');
    expect(await loadPurchaseOrder(ws, revised.id)).toMatchObject({ status: 'superseded' });
    expect(await ws.purchaseOrder.count({ where: { negotiationId, status: { in: ['draft', 'approved'] } } })).toBe(1);
  });

  it('numbers POs uniquely per workspace under concurrent creation', async () => {
    // More drafts at once than a retry-on-conflict loop survives (the load benchmark concludes dozens together).
    const negotiations = await Promise.all(Array.from({ length: 16 }, () => newNegotiation()));
    const results = await Promise.all(negotiations.map((id) => draft(id, split, 2031)));
    const numbers = results.map((r) => poOf(r).number).sort();
    expect(numbers).toEqual(Array.from({ length: 16 }, (_, i) => `PO-2031-${String(i + 1).padStart(4, '0')}`));
    // Another year starts again at 0001.
    expect(poOf(await draft(await newNegotiation(), split, 2032)).number).toBe('PO-2032-0001');
  });

  it('lets only approvers approve; anyone else changes nothing', async () => {
    const po = poOf(await draft(await newNegotiation()));
    const refused = await approve(po, 'USOMEONE');
    expect(refused).toEqual({
      ok: false,
      error: 'not_allowed',
      message: 'Only the configured approvers can approve purchase orders.',
    });
    expect(await approve(po, '')).toMatchObject({ ok: false, error: 'not_allowed' });
    const none = await approvePurchaseOrder(ws, {
      purchaseOrderId: po.id,
      approverSlackUserId: ALICE,
      expectedVersion: po.version,
      approvers: [],
      dualApprovalAboveUsd: 50_000,
    });
    expect(none).toMatchObject({ ok: false, error: 'not_allowed' });
    expect(await loadPurchaseOrder(ws, po.id)).toEqual(po);
    expect(await auditOf(po.id)).toEqual([{ action: 'purchase_order.drafted', actor: null, kind: 'system' }]);
  });

  it('approves below the threshold with one approver; a second click is the same approval', async () => {
    const po = poOf(await draft(await newNegotiation()));
    const first = await approve(po, ALICE);
    expect(first).toMatchObject({ ok: true, changed: true });
    const approved = poOf(first);
    expect(approved).toMatchObject({ status: 'approved', version: 1 });
    expect(approved.approvedAt).toBeInstanceOf(Date);
    expect(first.message).toBe(`${po.number} is approved (1 of 1 approval).`);

    // The same button again (the old version), and both at once: one approval row, nothing else changes.
    const second = await approve(po, ALICE);
    expect(second).toMatchObject({ ok: true, changed: false });
    expect(poOf(second)).toEqual(approved);
    expect(await ws.purchaseOrderApproval.count({ where: { purchaseOrderId: po.id } })).toBe(1);
    expect(await auditOf(po.id)).toEqual([
      { action: 'purchase_order.drafted', actor: null, kind: 'system' },
      { action: 'purchase_order.approval_recorded', actor: ALICE, kind: 'user' },
      { action: 'purchase_order.approved', actor: ALICE, kind: 'user' },
    ]);

    // Approving or rejecting an approved PO is refused.
    expect(await approve(approved, BOB)).toMatchObject({ ok: false, error: 'already_final' });
    const rejected = await reject(approved, BOB, 'Too late');
    expect(rejected).toMatchObject({ ok: false, error: 'already_final' });
    if (!rejected.ok)
      expect(rejected.message).toBe(
        `${po.number} was already approved on ${day(approved)}, so it cannot be rejected now.`,
      );
  });

  it('a double click at the same moment records one approval', async () => {
    const po = poOf(await draft(await newNegotiation()));
    const both = await Promise.all([approve(po, ALICE), approve(po, ALICE)]);
    expect(both.every((r) => r.ok)).toBe(true);
    expect(both.map((r) => r.ok && r.changed).sort()).toEqual([false, true]);
    expect(await ws.purchaseOrderApproval.count({ where: { purchaseOrderId: po.id } })).toBe(1);
    expect(await loadPurchaseOrder(ws, po.id)).toMatchObject({ status: 'approved', version: 1 });
  });

  it('above the threshold needs two different approvers', async () => {
    const po = poOf(await draft(await newNegotiation()));
    const threshold = 10_000; // the PO's $18,375 is above it
    const first = await approve(po, ALICE, { threshold });
    expect(first).toMatchObject({ ok: true, changed: true });
    expect(poOf(first)).toMatchObject({ status: 'draft', version: 1, approvedAt: null });
    expect(first.message).toBe(
      `Your approval of ${po.number} is recorded: 1 of 2 approvals. A second approver is needed because its ` +
        'effective landed cost ($18,375.00) is above $10,000.00.',
    );

    // The same approver again does not count twice.
    const same = await approve(poOf(first), ALICE, { threshold });
    expect(same).toMatchObject({ ok: true, changed: false });
    expect(poOf(same).status).toBe('draft');
    expect(same.message).toBe(`You have already approved ${po.number}. It has 1 of 2 approvals.`);

    const second = await approve(poOf(first), BOB, { threshold });
    expect(poOf(second)).toMatchObject({ status: 'approved', version: 2 });
    expect(poOf(second).approvals.map((a) => a.approverSlackUserId)).toEqual([ALICE, BOB]);
    expect(second.message).toBe(`${po.number} is approved (2 of 2 approvals).`);
  });

  it('two approvers at once on a two-approver PO: one wins, the other sees the change and approves again', async () => {
    const po = poOf(await draft(await newNegotiation()));
    const results = await Promise.all([approve(po, ALICE, { threshold: 1 }), approve(po, BOB, { threshold: 1 })]);
    const winner = results.find((r) => r.ok);
    const loser = results.find((r) => !r.ok);
    expect(winner).toBeDefined();
    expect(loser).toMatchObject({ ok: false, error: 'conflict' });
    expect(loser?.message).toBe(
      `${po.number} changed since you opened it (it now has 1 of 2 approvals). Open it again to see the latest version.`,
    );
    const current = await loadPurchaseOrder(ws, po.id);
    if (current === null) throw new Error('PO gone');
    expect(current).toMatchObject({ status: 'draft', version: 1 });
    const other = current.approvals[0]?.approverSlackUserId === ALICE ? BOB : ALICE;
    expect(poOf(await approve(current, other, { threshold: 1 })).status).toBe('approved');
  });

  it('refuses a stale version with a conflict and changes nothing', async () => {
    const po = poOf(await draft(await newNegotiation()));
    const stale = await approve(po, ALICE, { version: po.version + 3 });
    expect(stale).toMatchObject({ ok: false, error: 'conflict' });
    expect(await reject(po, ALICE, 'Wrong supplier', po.version + 1)).toMatchObject({ ok: false, error: 'conflict' });
    expect(await loadPurchaseOrder(ws, po.id)).toEqual(po);
    expect(await ws.purchaseOrderApproval.count({ where: { purchaseOrderId: po.id } })).toBe(0);
  });

  it('rejects only with a reason, once, and then refuses approval', async () => {
    const po = poOf(await draft(await newNegotiation()));
    expect(await reject(po, 'USOMEONE', 'No')).toMatchObject({ ok: false, error: 'not_allowed' });
    for (const reason of ['', '   ']) {
      expect(await reject(po, ALICE, reason)).toEqual({
        ok: false,
        error: 'invalid_input',
        message: 'Say why the purchase order is rejected: the buyer will read it.',
        fieldErrors: { reason: 'Say why the purchase order is rejected: the buyer will read it.' },
      });
    }
    expect(await reject(po, ALICE, 'x'.repeat(501))).toMatchObject({
      ok: false,
      error: 'invalid_input',
      fieldErrors: { reason: 'Keep the reason to 500 characters (it has 501).' },
    });
    expect(await loadPurchaseOrder(ws, po.id)).toEqual(po);

    const result = await reject(po, ALICE, '  Alpine Premium cannot confirm the ship date.  ');
    const rejected = poOf(result);
    expect(rejected).toMatchObject({
      status: 'rejected',
      version: 1,
      rejectedReason: 'Alpine Premium cannot confirm the ship date.',
      rejectedBySlackUserId: ALICE,
    });
    expect(rejected.rejectedAt).toBeInstanceOf(Date);

    // Rejecting again (a double click) changes nothing; approving a rejected PO is refused.
    const again = await reject(po, BOB, 'Another reason');
    expect(again).toMatchObject({ ok: true, changed: false });
    expect(poOf(again)).toEqual(rejected);
    const approveAfter = await approve(rejected, BOB);
    expect(approveAfter).toMatchObject({ ok: false, error: 'already_final' });
    expect(await auditOf(po.id)).toEqual([
      { action: 'purchase_order.drafted', actor: null, kind: 'system' },
      { action: 'purchase_order.rejected', actor: ALICE, kind: 'user' },
    ]);
    const row = await ws.auditLog.findFirstOrThrow({ where: { entityId: po.id, action: 'purchase_order.rejected' } });
    expect(row.data).toMatchObject({ reason: 'Alpine Premium cannot confirm the ship date.' });

    // The same decision drafted again does not put the rejected award back in front of the approvers.
    const redraft = await draft(po.negotiationId);
    expect(redraft).toMatchObject({ ok: true, changed: false });
    expect(poOf(redraft).id).toBe(po.id);
  });

  it('keeps the award line order (the quotation order), not an alphabetical one', async () => {
    const prices = { Z: 10, A: 20, M: 30 };
    const numbers = numbersOf(
      decide({
        ...curveballInput({ capacityCaps: {} }),
        baseline: baselineOf(prices),
        finalOffers: [offerOf('SUP-001', prices), offerOf('SUP-002', { Z: 9, A: 19, M: 29 })],
        openingOffers: undefined,
      }),
    );
    const po = poOf(
      await createDraftPurchaseOrder(ws, {
        negotiationId: await newNegotiation(),
        numbers,
        text: writeDeterministic(numbers),
      }),
    );
    expect(po.allocations[0]?.items.map((i) => i.sku)).toEqual(['Z', 'A', 'M']);
  });

  it('stores cash-flow cost, 4-decimal unit prices and the offer incoterm; another workspace finds nothing', async () => {
    const negotiationId = await newNegotiation();
    const numbers = numbersOf(decide(landedCostInput()));
    const po = poOf(
      await createDraftPurchaseOrder(ws, {
        negotiationId,
        numbers,
        text: writeDeterministic(numbers),
        incoterm: 'FOB Shanghai',
      }),
    );
    expect(po).toMatchObject({ fobCost: 42_300, cashFlowCost: 92.71, effectiveLandedCost: 42_392.71 });
    expect(po.allocations[0]).toMatchObject({
      supplierCode: 'SUP-003',
      paymentTerms: '40/60',
      leadTimeDays: 25,
      incoterm: 'FOB Shanghai',
      cashFlowCost: 92.71,
    });
    expect(po.allocations[0]?.items[0]).toMatchObject({ quantity: 1_000, unitPrice: 42.3, lineTotal: 42_300 });

    const other = await db.prisma.workspace.create({ data: { slackTeamId: 'TOTHER', name: 'O', brandName: 'O' } });
    const foreign = scopeToWorkspace(db.prisma, other.id);
    expect(await loadPurchaseOrder(foreign, po.id)).toBeNull();
    const attempt = await approvePurchaseOrder(foreign, {
      purchaseOrderId: po.id,
      approverSlackUserId: ALICE,
      expectedVersion: 0,
      approvers: APPROVERS,
      dualApprovalAboveUsd: 50_000,
    });
    expect(attempt).toMatchObject({ ok: false, error: 'not_found' });
  });
});

function day(po: PurchaseOrderView): string {
  return po.approvedAt?.toISOString().slice(0, 10) ?? '';
}
