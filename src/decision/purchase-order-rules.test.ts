// The PO's rules without a database: transitions, how many approvals and from whom, rejections, what a draft holds,
// numbering, and the digest of what an approver was shown.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decide } from './decide.js';
import { curveballInput, numbersOf } from '../../test/support/decide-fixtures.js';
import { purchaseOrderViewOf as poOf } from '../../test/support/purchase-order-view.js';
import {
  approvalAfterLostRace,
  approvalsRequired,
  approvalStep,
  approverRefusal,
  canonicalJson,
  canTransition,
  checkRejectReason,
  nextPurchaseOrderNumber,
  planPurchaseOrder,
  purchaseOrderDigest,
  rejectionAfterLostRace,
  rejectionStep,
  resolveSupplierRoles,
  samePurchaseOrder,
  shownPurchaseOrder,
  statusesLeadingTo,
  statusSentence,
  whyCannotApprove,
} from './purchase-order-rules.js';

const ALICE = 'UALICE';
const BOB = 'UBOB';
const APPROVERS = [ALICE, BOB];
const split = numbersOf(decide(curveballInput()));
const single = numbersOf(decide(curveballInput({ capacityCaps: {} })));

const approved = (by: string, at = '2026-05-05T09:00:00Z') => ({ approverSlackUserId: by, approvedAt: new Date(at) });

describe('transitions', () => {
  it('lets a draft be approved, rejected or superseded, an approved PO only superseded, and nothing leave the rest', () => {
    expect(canTransition('draft', 'approved')).toBe(true);
    expect(canTransition('draft', 'rejected')).toBe(true);
    expect(canTransition('draft', 'superseded')).toBe(true);
    expect(canTransition('approved', 'superseded')).toBe(true);
    expect(canTransition('approved', 'rejected')).toBe(false);
    expect(canTransition('approved', 'draft')).toBe(false);
    for (const to of ['draft', 'approved', 'rejected', 'superseded'] as const) {
      expect(canTransition('rejected', to)).toBe(false);
      expect(canTransition('superseded', to)).toBe(false);
    }
    expect(statusesLeadingTo('approved')).toEqual(['draft']);
    expect(statusesLeadingTo('rejected')).toEqual(['draft']);
    expect(statusesLeadingTo('superseded')).toEqual(['draft', 'approved']);
    expect(statusesLeadingTo('draft')).toEqual([]);
  });
});

describe('approvals', () => {
  it('needs two above the workspace amount (never at it), and always two for another currency', () => {
    expect(approvalsRequired({ currency: 'USD', effectiveLandedCost: 50_000 }, 50_000)).toBe(1);
    expect(approvalsRequired({ currency: 'USD', effectiveLandedCost: 50_000.01 }, 50_000)).toBe(2);
    expect(approvalsRequired({ currency: 'EUR', effectiveLandedCost: 10 }, 50_000)).toBe(2);
  });

  it('lets only configured approvers act; with none configured, nobody', () => {
    expect(approverRefusal(ALICE, APPROVERS, 'approve')).toBeNull();
    expect(approverRefusal('USOMEONE', APPROVERS, 'approve')).toEqual({
      error: 'not_allowed',
      message: 'Only the configured approvers can approve purchase orders.',
    });
    expect(approverRefusal('  ', [...APPROVERS, '  '], 'reject')).toMatchObject({ error: 'not_allowed' });
    expect(approverRefusal(ALICE, [], 'reject')?.message).toBe(
      'No PO approvers are configured, so nobody can reject purchase orders yet. Ask an admin to set them.',
    );
  });

  it('says why a viewer cannot approve from the modal', () => {
    expect(whyCannotApprove(poOf(), ALICE, APPROVERS)).toBeNull();
    expect(whyCannotApprove(poOf(), 'USOMEONE', APPROVERS)).toBe('Only the configured approvers can approve.');
    expect(whyCannotApprove(poOf({ approvals: [approved(ALICE)] }), ALICE, APPROVERS)).toBe(
      'You already approved this purchase order.',
    );
    expect(whyCannotApprove(poOf({ status: 'superseded' }), ALICE, APPROVERS)).toBe(
      'This purchase order is superseded.',
    );
  });

  it('approves with one approval at or below the amount', () => {
    expect(approvalStep(poOf(), ALICE, { expectedVersion: 0, dualApprovalAboveUsd: 50_000 })).toEqual({
      kind: 'record',
      approvals: 1,
      required: 1,
      complete: true,
      message: 'PO-2026-0007 is approved (1 of 1 approval).',
    });
  });

  it('above the amount records the first approval and waits for a second, different approver', () => {
    const rules = { expectedVersion: 0, dualApprovalAboveUsd: 10_000 };
    expect(approvalStep(poOf(), ALICE, rules)).toEqual({
      kind: 'record',
      approvals: 1,
      required: 2,
      complete: false,
      message:
        'Your approval of PO-2026-0007 is recorded: 1 of 2 approvals. A second approver is needed because its ' +
        'effective landed cost ($18,375.00) is above $10,000.00.',
    });
    const once = poOf({ version: 1, approvals: [approved(ALICE)] });
    // The same person again does not count twice, whatever version their click carries.
    expect(approvalStep(once, ALICE, { ...rules, expectedVersion: 1 })).toEqual({
      kind: 'unchanged',
      message: 'You have already approved PO-2026-0007. It has 1 of 2 approvals.',
    });
    expect(approvalStep(once, ALICE, rules)).toMatchObject({ kind: 'unchanged' });
    expect(approvalStep(once, BOB, { ...rules, expectedVersion: 1 })).toMatchObject({
      kind: 'record',
      approvals: 2,
      complete: true,
      message: 'PO-2026-0007 is approved (2 of 2 approvals).',
    });
    const eur = approvalStep(poOf({ currency: 'EUR' }), ALICE, rules);
    expect(eur.kind === 'record' && eur.message).toMatch(
      /because it is in EUR and the approval limit is set in USD\.$/,
    );
  });

  it('refuses a stale version, and any PO that is no longer a draft', () => {
    const rules = { expectedVersion: 0, dualApprovalAboveUsd: 10_000 };
    expect(approvalStep(poOf({ version: 1, approvals: [approved(BOB)] }), ALICE, rules)).toEqual({
      kind: 'refuse',
      refusal: {
        error: 'conflict',
        message:
          'PO-2026-0007 changed since you opened it (it now has 1 of 2 approvals). Open it again to see the latest version.',
      },
    });
    const done = poOf({ status: 'approved', approvedAt: new Date('2026-05-05T09:00:00Z'), approvals: [approved(BOB)] });
    expect(approvalStep(done, ALICE, rules)).toEqual({
      kind: 'refuse',
      refusal: {
        error: 'already_final',
        message: 'PO-2026-0007 was already approved on 2026-05-05, so it cannot be approved now.',
      },
    });
    expect(approvalStep(poOf({ status: 'superseded' }), ALICE, rules)).toMatchObject({
      refusal: {
        error: 'already_final',
        message: 'PO-2026-0007 was replaced by a newer draft, so it cannot be approved now.',
      },
    });
  });

  it('after a lost race: done when it was this approver, else a conflict or the final state', () => {
    expect(approvalAfterLostRace(poOf({ approvals: [approved(ALICE)] }), ALICE, 1)).toMatchObject({
      kind: 'unchanged',
    });
    expect(approvalAfterLostRace(poOf({ approvals: [approved(BOB)] }), ALICE, 1)).toMatchObject({
      refusal: { error: 'conflict' },
    });
    expect(approvalAfterLostRace(poOf({ status: 'rejected' }), ALICE, 1)).toMatchObject({
      refusal: { error: 'already_final' },
    });
  });

  it('says where a PO stands', () => {
    expect(statusSentence(poOf({ approvals: [approved(ALICE)] }), 10_000)).toBe(
      'PO-2026-0007: draft, 1 of 2 approvals.',
    );
    expect(statusSentence(poOf(), 50_000)).toBe('PO-2026-0007: draft, 0 of 1 approval.');
    expect(statusSentence(poOf({ status: 'approved' }), 50_000)).toBe('PO-2026-0007: approved.');
  });
});

describe('rejections', () => {
  it('needs a reason of at most 500 characters, trimmed', () => {
    expect(checkRejectReason('  Late ship date. ')).toEqual({ ok: true, reason: 'Late ship date.' });
    const message = 'Say why the purchase order is rejected: the buyer will read it.';
    expect(checkRejectReason('   ')).toEqual({
      ok: false,
      error: 'invalid_input',
      message,
      fieldErrors: { reason: message },
    });
    expect(checkRejectReason('x'.repeat(501))).toMatchObject({
      fieldErrors: { reason: 'Keep the reason to 500 characters (it has 501).' },
    });
    expect(checkRejectReason(` ${'x'.repeat(500)} `)).toMatchObject({ ok: true });
  });

  it('rejects a draft at its version once; a rejected PO stays as it was; an approved one cannot be', () => {
    expect(rejectionStep(poOf(), 0, 'Too dear')).toEqual({
      kind: 'record',
      message: 'PO-2026-0007 is rejected. Reason: Too dear',
    });
    expect(rejectionStep(poOf(), 1, 'Too dear')).toMatchObject({ refusal: { error: 'conflict' } });
    const rejected = poOf({
      status: 'rejected',
      rejectedReason: 'Too dear',
      rejectedAt: new Date('2026-05-06T08:00:00Z'),
    });
    expect(rejectionStep(rejected, 0, 'Another')).toEqual({
      kind: 'unchanged',
      message: 'PO-2026-0007 was already rejected on 2026-05-06. Reason: Too dear',
    });
    expect(rejectionStep(poOf({ status: 'approved' }), 0, 'Too late')).toMatchObject({
      refusal: { error: 'already_final', message: 'PO-2026-0007 was already approved, so it cannot be rejected now.' },
    });
    expect(rejectionAfterLostRace(poOf())).toMatchObject({ refusal: { error: 'conflict' } });
    expect(rejectionAfterLostRace(rejected)).toMatchObject({ kind: 'unchanged' });
  });
});

describe('drafting', () => {
  const records = new Map([
    ['SUP-001', { id: 's4', code: 'SUP-004' }],
    ['SUP-002', { id: 's2', code: 'SUP-002' }],
    ['SUP-003', { id: 's3', code: 'SUP-003' }],
  ]);

  it("plans the award's allocations and lines, with the basis of award naming the workspace's suppliers", () => {
    const planned = planPurchaseOrder(split, records);
    expect(planned).toMatchObject({
      currency: 'USD',
      fobCost: 17_500,
      splitOverhead: 875,
      effectiveLandedCost: 18_375,
    });
    expect(planned.allocations.map((a) => [a.supplierId, a.fobCost, a.incoterm, a.items.map((i) => i.sku)])).toEqual([
      ['s4', 9_000, 'FOB Ningbo', ['A']],
      ['s2', 8_500, 'FOB Ningbo', ['B']],
    ]);
    expect(planned.basisOfAward).toBe(
      'Basis of award (cost mode): Split Ningbo Everbright (SUP-004) + Alpine Premium (SUP-002): $18,375.00 effective ' +
        'landed cost, incl. $875.00 split overhead (5% of $17,500.00 FOB): $225.00 less than the best single supplier ' +
        '(Ningbo Everbright: $18,600.00 effective landed cost), even after the overhead.',
    );
    expect(planPurchaseOrder(split, records, { incoterm: 'FOB Shanghai', currency: 'EUR' })).toMatchObject({
      currency: 'EUR',
      allocations: [{ incoterm: 'FOB Shanghai' }, { incoterm: 'FOB Shanghai' }],
    });
  });

  it('knows a repeated draft from a changed one', () => {
    const planned = planPurchaseOrder(split, records);
    expect(samePurchaseOrder(planned, planPurchaseOrder(split, records))).toBe(true);
    expect(samePurchaseOrder(poOf(), planned)).toBe(true);
    expect(samePurchaseOrder(planPurchaseOrder(single, records), planned)).toBe(false);
    // A sub-cent difference the database would not keep is no change.
    const [first, second] = planned.allocations;
    if (!first || !second) throw new Error('fixture');
    expect(samePurchaseOrder({ ...planned, allocations: [{ ...first, fobCost: 9_000.001 }, second] }, planned)).toBe(
      true,
    );
    expect(samePurchaseOrder({ ...planned, allocations: [{ ...first, paymentTerms: '30/70' }, second] }, planned)).toBe(
      false,
    );
  });

  it("pairs the engine's roles with the negotiation's suppliers: by code, then the one left over", () => {
    const rows = [
      { id: 's2', code: 'SUP-002' },
      { id: 's3', code: 'SUP-003' },
      { id: 's9', code: 'SUP-009' },
    ];
    const resolved = resolveSupplierRoles(split, { negotiationSuppliers: rows });
    expect(resolved.ok && Object.fromEntries(resolved.suppliers)).toEqual({
      'SUP-001': { id: 's9', code: 'SUP-009' },
      'SUP-002': { id: 's2', code: 'SUP-002' },
      'SUP-003': { id: 's3', code: 'SUP-003' },
    });
    expect(resolveSupplierRoles(split, { negotiationSuppliers: rows.slice(0, 2) })).toEqual({
      ok: false,
      message: "SUP-001 is not one of this negotiation's suppliers.",
    });
    expect(resolveSupplierRoles(split, { given: { 'SUP-001': { id: 's9', code: null } } })).toEqual({
      ok: false,
      message: 'No supplier record for SUP-002.',
    });
  });

  it('numbers POs per year: the highest of the year + 1', () => {
    const now = new Date('2026-05-04T10:00:00Z');
    expect(nextPurchaseOrderNumber(now, [])).toBe('PO-2026-0001');
    expect(nextPurchaseOrderNumber(now, ['PO-2026-0002', 'PO-2026-0010', 'PO-2025-0099', 'PO-2026-x'])).toBe(
      'PO-2026-0011',
    );
    expect(nextPurchaseOrderNumber(now, ['PO-2026-9999'])).toBe('PO-2026-10000');
  });
});

describe('what the approver saw', () => {
  it('is the sha256 of the canonical JSON of the PO as shown', () => {
    const po = poOf();
    const expected = createHash('sha256')
      .update(canonicalJson(shownPurchaseOrder(po)))
      .digest('hex');
    expect(purchaseOrderDigest(po)).toBe(expected);
    expect(purchaseOrderDigest(po)).toMatch(/^[0-9a-f]{64}$/);
    const shown = shownPurchaseOrder(po);
    expect(shown).toMatchObject({ number: 'PO-2026-0007', version: 0, effectiveLandedCost: '18375.00' });
    expect(shown.allocations[0]).toMatchObject({
      supplier: { code: 'SUP-004', name: 'Ningbo Everbright' },
      lines: [{ sku: 'A', quantity: 100, unitPrice: '90.0000', lineTotal: '9000.00' }],
    });
  });

  it('changes with the version, a price, a supplier or a line, and not with who approved or the words around it', () => {
    const po = poOf();
    const digest = purchaseOrderDigest(po);
    const [first, second] = po.allocations;
    if (!first || !second) throw new Error('fixture');
    const item = first.items[0];
    if (!item) throw new Error('fixture');
    const changed = [
      poOf({ version: 1 }),
      poOf({ number: 'PO-2026-0008' }),
      poOf({ effectiveLandedCost: 18_375.01 }),
      poOf({ allocations: [{ ...first, supplierName: 'Someone Else' }, second] }),
      poOf({ allocations: [{ ...first, items: [{ ...item, unitPrice: 90.0001 }] }, second] }),
      poOf({ allocations: [{ ...first, items: [item, { ...item, sku: 'C' }] }, second] }),
      poOf({ allocations: [second, first] }),
    ];
    for (const other of changed) expect(purchaseOrderDigest(other)).not.toBe(digest);
    expect(purchaseOrderDigest(poOf({ approvals: [approved(ALICE)], decisionSummary: 'Other words.' }))).toBe(digest);
    // Float noise below what the PO holds is no change.
    expect(purchaseOrderDigest(poOf({ fobCost: 17_500.000_000_1 }))).toBe(digest);
  });

  it('writes JSON canonically: keys sorted at every depth, arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });
});
