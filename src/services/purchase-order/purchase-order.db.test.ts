// The purchase-order use cases on a real database (PGlite, or PostgreSQL with DATABASE_URL): drafting in one
// transaction, numbering under concurrency, the approval rules and every refusal, audit rows, superseding, what the
// thread is told, the approved workbook rendered from the stored PO, and the digest of what each approver saw.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { scopeToWorkspace, type WorkspaceDb, type WorkspaceTx } from '../../db/scoped.js';
import { seedWorkspace } from '../../db/seed.js';
import { loadCheckpoint, startNegotiation } from '../../db/stores/negotiation-store.js';
import { loadPurchaseOrder } from '../../db/stores/purchase-orders.js';
import { decide, decisionInputFromState, type DecisionNumbers } from '../../decision/decide.js';
import { purchaseOrderDigest, type PurchaseOrderView } from '../../decision/purchase-order-rules.js';
import { writeDeterministic } from '../../decision/write-decision.js';
import { readStoredPayload } from '../../outbox/outbox-call.js';
import {
  baselineOf,
  curveballInput,
  landedCostInput,
  numbersOf,
  offerOf,
  PROFILES,
} from '../../../test/support/decide-fixtures.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { seedNegotiationSuppliers } from '../../../test/support/negotiation-workspace.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import { approvePurchaseOrder } from './approve-purchase-order.js';
import { draftPurchaseOrder, type DraftPurchaseOrderOptions } from './draft-purchase-order.js';
import { getPurchaseOrder } from './get-purchase-order.js';
import type { PurchaseOrderResult } from './purchase-order-result.js';
import { rejectPurchaseOrder } from './reject-purchase-order.js';
import { sendPurchaseOrderWorkbook } from './send-purchase-order-workbook.js';

const APPROVERS = ['UAPPROVER1', 'UAPPROVER2'];
const [ALICE = '', BOB = ''] = APPROVERS;
const split = numbersOf(decide(curveballInput()));
const single = numbersOf(decide(curveballInput({ capacityCaps: {} })));

function poOf(result: PurchaseOrderResult): PurchaseOrderView {
  if (!result.ok) throw new Error(`expected a PO, got ${result.error}: ${result.message}`);
  return result.value.po;
}

function messageOf(result: PurchaseOrderResult): string {
  return result.ok ? result.value.message : result.message;
}

describe('purchase orders: draft, approve, reject, get', () => {
  let db: TestDatabase;
  let ws: WorkspaceDb;
  let base: ServiceContext;
  let supplierIds: Record<string, string>;
  let files = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { workspaceId } = await seedWorkspace(db.prisma, {
      slackTeamId: 'TPO',
      brandName: 'Valden',
      catalog: [],
      approvers: APPROVERS,
    });
    ws = scopeToWorkspace(db.prisma, workspaceId);
    const env = loadEnv({ PO_DUAL_APPROVAL_ABOVE_USD: '50000' });
    const ctx = await createContextFactory({ prisma: db.prisma, env, llm: null }).forWorkspace(workspaceId);
    if (!ctx) throw new Error('workspace not seeded');
    base = ctx;
    // The quoting supplier keeps its own code; the engine calls it SUP-001.
    supplierIds = await seedNegotiationSuppliers(ws);
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

  /** The workspace's context with another approval amount, approvers or clock. */
  function ctxWith(extra: { threshold?: number; approvers?: string[]; year?: number } = {}): ServiceContext {
    const settings = {
      ...base.workspace.settings,
      dualApprovalAboveUsd: extra.threshold ?? 50_000,
      approvers: extra.approvers ?? APPROVERS,
    };
    const now = extra.year === undefined ? base.now : () => new Date(`${extra.year}-05-04T10:00:00Z`);
    return { ...base, workspace: { ...base.workspace, settings }, now };
  }

  async function newNegotiation(): Promise<string> {
    const quotation = await ws.quotation.create({
      data: {
        workspaceId: ws.$workspaceId,
        slackFileId: `F${++files}`,
        slackChannelId: 'C1',
        slackThreadTs: `1767000000.${String(files).padStart(6, '0')}`,
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

  function draft(
    negotiationId: string,
    numbers: DecisionNumbers = split,
    year = 2026,
    extra: Partial<DraftPurchaseOrderOptions> = {},
  ) {
    return draftPurchaseOrder(ctxWith({ year }), {
      negotiationId,
      numbers,
      text: writeDeterministic(numbers),
      ...extra,
    });
  }

  const approve = (po: PurchaseOrderView, approver: string, extra: { threshold?: number; version?: number } = {}) =>
    approvePurchaseOrder(ctxWith({ threshold: extra.threshold }), {
      purchaseOrderId: po.id,
      by: approver,
      expectedVersion: extra.version ?? po.version,
    });

  /** The job the approval that completes a PO is followed by (src/services/parley.ts, queue-unqueued-work). */
  const sendWorkbook = (po: PurchaseOrderView) => sendPurchaseOrderWorkbook(ctxWith(), { purchaseOrderId: po.id });

  const reject = (po: PurchaseOrderView, by: string, reason: string, version = po.version) =>
    rejectPurchaseOrder(ctxWith(), { purchaseOrderId: po.id, by, reason, expectedVersion: version });

  const auditOf = async (entityId: string) =>
    (await ws.auditLog.findMany({ where: { entityId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).map((a) => ({
      action: a.action,
      actor: a.actorSlackUserId,
      kind: a.actorKind,
    }));

  const outboxKeys = async (po: PurchaseOrderView) =>
    (await ws.slackOutbox.findMany({ where: { dedupeKey: { startsWith: `po:${po.id}:` } }, orderBy: { id: 'asc' } }))
      .map((row) => row.dedupeKey)
      .sort();

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
      decisionSummary: writeDeterministic(split).summary,
    });
    expect(po.number).toMatch(/^PO-2026-\d{4}$/);
    expect(messageOf(result)).toBe(`Drafted ${po.number}: $18,375.00 effective landed cost, waiting for approval.`);
    expect(
      po.allocations.map((a) => [a.supplierCode, a.supplierName, a.share, a.fobCost, a.effectiveLandedCost]),
    ).toEqual([
      ['SUP-004', 'Ningbo Everbright', 0.5143, 9_000, 9_000],
      ['SUP-002', 'Alpine Premium', 0.4857, 8_500, 8_500],
    ]);
    // What the workbook will say about the award is stored with the PO, in the workspace's supplier codes.
    expect(po.basisOfAward).toMatch(
      /^Basis of award \(cost mode\): Split Ningbo Everbright \(SUP-004\) \+ Alpine Premium \(SUP-002\): /,
    );
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
    // Awarded savings are on landed cost (the $875 split overhead counts): $20,000 − $18,375; $2,500 on price alone.
    expect(decision.savings).toMatchObject({
      identified: { amount: 3_500 },
      awarded: { amount: 1_625, priceAmount: 2_500 },
    });
    expect(await auditOf(po.id)).toEqual([{ action: 'purchase_order.drafted', actor: null, kind: 'system' }]);
    expect(await auditOf(decision.id)).toEqual([{ action: 'decision.recorded', actor: null, kind: 'system' }]);
  });

  it('writes nothing when any part of the draft fails (one transaction)', async () => {
    const negotiationId = await newNegotiation();
    // SUP-002's allocation points at a supplier that does not exist: its insert fails after the others.
    const broken = draft(negotiationId, split, 2026, {
      supplierIds: { ...supplierIds, 'SUP-002': 'no-such-supplier' },
    });
    await expect(broken).rejects.toThrow();
    expect(await ws.purchaseOrder.count({ where: { negotiationId } })).toBe(0);
    expect(await ws.decision.count({ where: { negotiationId } })).toBe(0);
    expect(await ws.purchaseOrderAllocation.count({ where: { purchaseOrder: { negotiationId } } })).toBe(0);
  });

  it('refuses a negotiation that does not exist, or whose suppliers the award does not name', async () => {
    expect(await draft('no-such-negotiation')).toEqual({
      ok: false,
      error: 'not_found',
      message: 'This negotiation no longer exists.',
    });
    const { 'SUP-002': _awarded, ...others } = supplierIds;
    expect(await draft(await newNegotiation(), split, 2026, { supplierIds: others })).toMatchObject({
      ok: false,
      error: 'not_found',
      message: 'No supplier record for SUP-002.',
    });
  });

  it('is idempotent per negotiation, and a changed decision supersedes the earlier draft', async () => {
    const negotiationId = await newNegotiation();
    const first = poOf(await draft(negotiationId));
    const again = await draft(negotiationId);
    expect(again).toMatchObject({ ok: true, changed: false });
    expect(poOf(again).id).toBe(first.id);
    expect(messageOf(again)).toBe(`${first.number} already holds this award.`);
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
    const none = await approvePurchaseOrder(ctxWith({ approvers: [] }), {
      purchaseOrderId: po.id,
      by: ALICE,
      expectedVersion: po.version,
    });
    expect(none).toMatchObject({ ok: false, error: 'not_allowed' });
    expect(await loadPurchaseOrder(ws, po.id)).toEqual(po);
    expect(await auditOf(po.id)).toEqual([{ action: 'purchase_order.drafted', actor: null, kind: 'system' }]);
    expect(await outboxKeys(po)).toEqual([]);
  });

  it('approves below the threshold with one approver; a second click is the same approval', async () => {
    const po = poOf(await draft(await newNegotiation()));
    const first = await approve(po, ALICE);
    expect(first).toMatchObject({ ok: true, changed: true });
    const approved = poOf(first);
    expect(approved).toMatchObject({ status: 'approved', version: 1 });
    expect(approved.approvedAt).toBeInstanceOf(Date);
    expect(messageOf(first)).toBe(`${po.number} is approved (1 of 1 approval).`);
    // The thread is told: the approver's message and the status card; the workbook follows as a job, which uploads it
    // once however often it runs.
    expect(await outboxKeys(po)).toEqual([`po:${po.id}:approval:${ALICE}`]);
    expect(await sendWorkbook(approved)).toEqual({ ok: true, changed: true, value: null });
    expect(await sendWorkbook(approved)).toEqual({ ok: true, changed: false, value: null });
    expect(await outboxKeys(po)).toEqual([`po:${po.id}:approval:${ALICE}`, `po:${po.id}:workbook`]);

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
    expect(await ws.slackOutbox.count({ where: { dedupeKey: { startsWith: `po:${po.id}:` } } })).toBe(2);

    // Approving or rejecting an approved PO is refused.
    expect(await approve(approved, BOB)).toMatchObject({ ok: false, error: 'already_final' });
    const rejected = await reject(approved, BOB, 'Too late');
    expect(rejected).toMatchObject({ ok: false, error: 'already_final' });
    expect(messageOf(rejected)).toBe(
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
    expect(await outboxKeys(po)).toEqual([`po:${po.id}:approval:${ALICE}`]);
  });

  it('above the threshold needs two different approvers', async () => {
    const po = poOf(await draft(await newNegotiation()));
    const threshold = 10_000; // the PO's $18,375 is above it
    const first = await approve(po, ALICE, { threshold });
    expect(first).toMatchObject({ ok: true, changed: true });
    expect(poOf(first)).toMatchObject({ status: 'draft', version: 1, approvedAt: null });
    expect(messageOf(first)).toBe(
      `Your approval of ${po.number} is recorded: 1 of 2 approvals. A second approver is needed because its ` +
        'effective landed cost ($18,375.00) is above $10,000.00.',
    );
    expect(await outboxKeys(po)).toEqual([`po:${po.id}:approval:${ALICE}`]);
    // Only an approved PO has a workbook: a job for one still short of its approvals writes none.
    expect(await sendWorkbook(po)).toMatchObject({ changed: false });
    expect(await outboxKeys(po)).toEqual([`po:${po.id}:approval:${ALICE}`]);

    // The same approver again does not count twice.
    const same = await approve(poOf(first), ALICE, { threshold });
    expect(same).toMatchObject({ ok: true, changed: false });
    expect(poOf(same).status).toBe('draft');
    expect(messageOf(same)).toBe(`You have already approved ${po.number}. It has 1 of 2 approvals.`);

    const second = await approve(poOf(first), BOB, { threshold });
    expect(poOf(second)).toMatchObject({ status: 'approved', version: 2 });
    expect(poOf(second).approvals.map((a) => a.approverSlackUserId)).toEqual([ALICE, BOB]);
    expect(messageOf(second)).toBe(`${po.number} is approved (2 of 2 approvals).`);
    expect(await outboxKeys(po)).toEqual([`po:${po.id}:approval:${ALICE}`, `po:${po.id}:approval:${BOB}`]);
    expect(await sendWorkbook(poOf(second))).toMatchObject({ changed: true });
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
    expect(await outboxKeys(po)).toEqual([]);
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
    expect(await outboxKeys(po)).toEqual([`po:${po.id}:rejection:${ALICE}`]);

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
    expect(await outboxKeys(po)).toEqual([`po:${po.id}:rejection:${ALICE}`]);

    // The same decision drafted again does not put the rejected award back in front of the approvers.
    const redraft = await draft(po.negotiationId);
    expect(redraft).toMatchObject({ ok: true, changed: false });
    expect(poOf(redraft).id).toBe(po.id);
  });

  it('writes the approval or rejection and its messages in one transaction: a failure between them leaves neither', async () => {
    // A real fault between the two writes: the approval row goes in, then the outbox table is not there.
    const outboxAway = async <T>(work: () => Promise<T>): Promise<T> => {
      await db.prisma.$executeRawUnsafe('ALTER TABLE "SlackOutbox" RENAME TO "SlackOutbox_outage"');
      try {
        return await work();
      } finally {
        await db.prisma.$executeRawUnsafe('ALTER TABLE "SlackOutbox_outage" RENAME TO "SlackOutbox"');
      }
    };
    const po = poOf(await draft(await newNegotiation()));
    const rowsBefore = await ws.slackOutbox.count();
    await expect(outboxAway(() => approve(po, ALICE))).rejects.toThrow();
    // Nothing of it at all: neither the approver's message, the workbook nor the status card.
    expect(await ws.slackOutbox.count()).toBe(rowsBefore);
    expect(await ws.purchaseOrderApproval.count({ where: { purchaseOrderId: po.id } })).toBe(0);
    expect(poOf(await getPurchaseOrder(ctxWith(), { purchaseOrderId: po.id }))).toMatchObject({
      status: 'draft',
      version: po.version,
    });
    expect(await auditOf(po.id)).not.toContainEqual(expect.objectContaining({ action: 'purchase_order.approved' }));
    expect(await outboxKeys(po)).toEqual([]);
    // The approver submits again: recorded once, told once.
    expect(poOf(await approve(po, ALICE)).status).toBe('approved');
    expect(await outboxKeys(po)).toEqual([`po:${po.id}:approval:${ALICE}`]);
    expect(await ws.purchaseOrderApproval.count({ where: { purchaseOrderId: po.id } })).toBe(1);

    const other = poOf(await draft(await newNegotiation()));
    await expect(outboxAway(() => reject(other, BOB, 'Too dear'))).rejects.toThrow();
    expect(poOf(await getPurchaseOrder(ctxWith(), { purchaseOrderId: other.id })).status).toBe('draft');
    expect(await outboxKeys(other)).toEqual([]);
    expect(poOf(await reject(other, BOB, 'Too dear')).status).toBe('rejected');
    expect(await outboxKeys(other)).toEqual([`po:${other.id}:rejection:${BOB}`]);
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
    const po = poOf(await draft(await newNegotiation(), numbers));
    expect(po.allocations[0]?.items.map((i) => i.sku)).toEqual(['Z', 'A', 'M']);
  });

  it('stores cash-flow cost, 4-decimal unit prices and the offer incoterm; another workspace finds nothing', async () => {
    const numbers = numbersOf(decide(landedCostInput()));
    const po = poOf(await draft(await newNegotiation(), numbers, 2026, { incoterm: 'FOB Shanghai' }));
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
    const foreign: ServiceContext = {
      ...ctxWith(),
      db: scopeToWorkspace(db.prisma, other.id),
      workspace: { ...ctxWith().workspace, id: other.id },
    };
    expect(await getPurchaseOrder(foreign, { purchaseOrderId: po.id })).toEqual({
      ok: false,
      error: 'not_found',
      message: 'This purchase order no longer exists.',
    });
    const attempt = await approvePurchaseOrder(foreign, { purchaseOrderId: po.id, by: ALICE, expectedVersion: 0 });
    expect(attempt).toMatchObject({ ok: false, error: 'not_found' });
    const rejection = await rejectPurchaseOrder(foreign, {
      purchaseOrderId: po.id,
      by: ALICE,
      reason: 'No',
      expectedVersion: 0,
    });
    expect(rejection).toMatchObject({ ok: false, error: 'not_found' });
    expect(await loadPurchaseOrder(ws, po.id)).toEqual(po);
  });

  it('reads a PO with where it stands', async () => {
    const po = poOf(await draft(await newNegotiation()));
    const read = await getPurchaseOrder(ctxWith({ threshold: 10_000 }), { purchaseOrderId: po.id });
    expect(read).toEqual({
      ok: true,
      changed: false,
      value: { po, message: `${po.number}: draft, 0 of 2 approvals.` },
    });
  });

  it('answers an approval after a transaction of its writes only: no reads, no workbook rendered', async () => {
    // The approver's submission is answered once this transaction commits, and on PGlite it holds the one connection
    // every other delivery waits for: the PO and the thread are read before it; the workbook is a job's, after it.
    const seen = { open: 0, statements: [] as string[], workbooks: 0, workbooksInTransaction: 0 };
    const counted = <T extends object>(target: T, path = ''): T =>
      new Proxy(target, {
        get(object, property, receiver) {
          const value: unknown = Reflect.get(object, property, receiver);
          if (typeof property !== 'string') return value;
          if (typeof value === 'function') {
            return (...args: unknown[]) => {
              seen.statements.push(`${path}${property}`);
              return (value as (...a: unknown[]) => unknown).apply(object, args);
            };
          }
          if (typeof value === 'object' && value !== null && !property.startsWith('$')) {
            return counted(value, `${property}.`);
          }
          return value;
        },
      });
    const ctx = ctxWith();
    const observed: ServiceContext = {
      ...ctx,
      db: new Proxy(ctx.db, {
        get(object, property, receiver) {
          const value: unknown = Reflect.get(object, property, receiver);
          if (property !== '$transaction') return value;
          return (work: (tx: WorkspaceTx) => Promise<unknown>, options?: object) =>
            ctx.db.$transaction(async (tx) => {
              seen.open++;
              try {
                return await work(counted(tx));
              } finally {
                seen.open--;
              }
            }, options);
        },
      }),
      compute: {
        ...ctx.compute,
        purchaseOrderWorkbook: (document) => {
          seen.workbooks++;
          if (seen.open > 0) seen.workbooksInTransaction++;
          return ctx.compute.purchaseOrderWorkbook(document);
        },
      },
    };
    const po = poOf(await draft(await newNegotiation()));
    const result = await approvePurchaseOrder(observed, { purchaseOrderId: po.id, by: ALICE, expectedVersion: 0 });
    expect(poOf(result)).toEqual(await loadPurchaseOrder(ws, po.id));
    expect(poOf(result)).toMatchObject({ status: 'approved', version: 1 });
    expect(seen).toMatchObject({ workbooks: 0, workbooksInTransaction: 0 });
    expect(seen.statements).toEqual([
      // The conditional write, the approval row, its two audit entries.
      'purchaseOrder.updateMany',
      'purchaseOrderApproval.create',
      'auditLog.create',
      'auditLog.create',
      // The outbox: the status card's last edit (an edit that repeats it is skipped) and the database's time in one
      // statement, then the rows.
      '$queryRaw',
      'slackOutbox.createMany',
    ]);
    expect(await outboxKeys(po)).toEqual([`po:${po.id}:approval:${ALICE}`]);
  });

  describe('the approved workbook', () => {
    async function workbookOf(po: PurchaseOrderView): Promise<ExcelJS.Workbook> {
      await sendWorkbook(po);
      const row = await ws.slackOutbox.findFirstOrThrow({ where: { dedupeKey: `po:${po.id}:workbook` } });
      const { args } = readStoredPayload(row.payload);
      const bytes = Buffer.from(String(args.contentBase64), 'base64');
      const copy = new ArrayBuffer(bytes.length);
      new Uint8Array(copy).set(bytes);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(copy);
      return workbook;
    }

    /** Column H (landed cost) of the Summary's allocation rows and its total, and its column A labels. */
    function summaryOf(workbook: ExcelJS.Workbook) {
      const sheet = workbook.getWorksheet('Summary');
      if (!sheet) throw new Error('no Summary sheet');
      const rows: unknown[][] = [];
      sheet.eachRow((row) => {
        const cells = [1, 2, 6, 7, 8].map((c) => {
          const value = row.getCell(c).value;
          return typeof value === 'object' && value !== null && 'result' in value ? value.result : value;
        });
        rows.push(cells);
      });
      return rows;
    }

    it('says what was drafted, even when the checkpoint now decides otherwise', async () => {
      const negotiationId = await newNegotiation();
      const drafted = poOf(await draft(negotiationId));
      // The negotiation's checkpoint is not what was drafted from (as after a rules change, or a checkpoint written
      // since): decide() run on it again awards something else. The approval must not care.
      const { state } = await loadCheckpoint(ws, negotiationId);
      const again = numbersOf(decide(decisionInputFromState(state)));
      expect(again.allocation.effectiveLandedCost).not.toBe(drafted.effectiveLandedCost);

      const approved = poOf(await approve(drafted, ALICE));
      expect(approved.status).toBe('approved');
      const summary = summaryOf(await workbookOf(approved));
      const flat = summary.flat();
      expect(flat).toContain(drafted.number);
      expect(summary).toContainEqual(['SUP-004', 'Ningbo Everbright', 9_000, 0, 9_000]);
      expect(summary).toContainEqual(['SUP-002', 'Alpine Premium', 8_500, 0, 8_500]);
      expect(summary).toContainEqual(['Effective landed cost', null, null, null, drafted.effectiveLandedCost]);
      expect(flat).toContain(drafted.basisOfAward);
      expect(flat).toContain(ALICE);
    });

    it('keeps the drafted amounts when the decision would now be different', async () => {
      const negotiationId = await newNegotiation();
      const drafted = poOf(await draft(negotiationId, split));
      // The Decision row is revised in place by any later draft; the PO keeps its own rows.
      await ws.decision.update({ where: { negotiationId }, data: { allocation: {}, summary: 'Changed.' } });
      const approved = poOf(await approve(drafted, ALICE));
      const summary = summaryOf(await workbookOf(approved));
      expect(summary).toContainEqual(['Effective landed cost', null, null, null, 18_375]);
      expect(approved).toMatchObject({
        fobCost: drafted.fobCost,
        effectiveLandedCost: drafted.effectiveLandedCost,
        allocations: drafted.allocations,
        basisOfAward: drafted.basisOfAward,
      });
    });
  });

  describe('what each approver saw', () => {
    it('is stored with the approval: the digest of the PO as its modal showed it', async () => {
      const drafted = poOf(await draft(await newNegotiation()));
      const threshold = 10_000;
      // Alice opens the modal and approves what it shows.
      const shownToAlice = poOf(await getPurchaseOrder(ctxWith({ threshold }), { purchaseOrderId: drafted.id }));
      await approve(shownToAlice, ALICE, { threshold });
      // Bob opens it after her approval (version 1) and approves that.
      const shownToBob = poOf(await getPurchaseOrder(ctxWith({ threshold }), { purchaseOrderId: drafted.id }));
      expect(shownToBob.version).toBe(1);
      await approve(shownToBob, BOB, { threshold });

      const rows = await ws.purchaseOrderApproval.findMany({
        where: { purchaseOrderId: drafted.id },
        orderBy: { approvedAt: 'asc' },
      });
      const digests = Object.fromEntries(rows.map((r) => [r.approverSlackUserId, r.shownDigest]));
      expect(digests).toEqual({ [ALICE]: purchaseOrderDigest(shownToAlice), [BOB]: purchaseOrderDigest(shownToBob) });
      expect(digests[ALICE]).not.toBe(digests[BOB]);
      const audit = await ws.auditLog.findFirstOrThrow({
        where: { entityId: drafted.id, action: 'purchase_order.approval_recorded', actorSlackUserId: BOB },
      });
      expect(audit.data).toMatchObject({ shownDigest: purchaseOrderDigest(shownToBob) });
    });

    it('refuses an approval of a PO that changed after the modal opened', async () => {
      const drafted = poOf(await draft(await newNegotiation()));
      const shown = poOf(await getPurchaseOrder(ctxWith({ threshold: 1 }), { purchaseOrderId: drafted.id }));
      await approve(shown, BOB, { threshold: 1 });
      // Alice's modal still shows version 0.
      expect(await approve(shown, ALICE, { threshold: 1 })).toMatchObject({ ok: false, error: 'conflict' });
      const rows = await ws.purchaseOrderApproval.findMany({ where: { purchaseOrderId: drafted.id } });
      expect(rows.map((r) => r.approverSlackUserId)).toEqual([BOB]);
    });
  });
});

function day(po: PurchaseOrderView): string {
  return po.approvedAt?.toISOString().slice(0, 10) ?? '';
}
