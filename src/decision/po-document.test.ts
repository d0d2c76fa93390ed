// The PO document from a stored PO (what an approver approved) and from a decision, and the basis-of-award note.
import { describe, expect, it } from 'vitest';
import { decide } from './decide.js';
import { basisOfAward, purchaseOrderDocument, storedPurchaseOrderDocument } from './po-document.js';
import { buildPurchaseOrderWorkbook } from './po-workbook.js';
import { curveballInput, numbersOf } from '../../test/support/decide-fixtures.js';
import { purchaseOrderViewOf } from '../../test/support/purchase-order-view.js';

const split = numbersOf(decide(curveballInput()));

describe('the stored PO as a document', () => {
  it('says exactly what the stored rows say: suppliers, lines, amounts, approvals and the drafted basis', async () => {
    const po = purchaseOrderViewOf({
      status: 'approved',
      version: 2,
      approvedAt: new Date('2026-05-06T08:00:00Z'),
      approvals: [
        { approverSlackUserId: 'UALICE', approvedAt: new Date('2026-05-05T09:00:00Z') },
        { approverSlackUserId: 'UBOB', approvedAt: new Date('2026-05-06T08:00:00Z') },
      ],
    });
    const document = storedPurchaseOrderDocument(po, { date: '2026-05-06', buyerName: 'Valden' });
    expect(document).toMatchObject({
      number: 'PO-2026-0007',
      date: '2026-05-06',
      status: 'approved',
      buyer: { name: 'Valden' },
      currency: 'USD',
      incoterm: 'FOB Ningbo',
      totals: { fobCost: 17_500, cashFlowCost: 0, splitOverhead: 875, effectiveLandedCost: 18_375 },
      approvals: [
        { by: 'UALICE', at: '2026-05-05T09:00:00.000Z' },
        { by: 'UBOB', at: '2026-05-06T08:00:00.000Z' },
      ],
      notes: ['Basis of award (cost mode): cheapest.'],
    });
    expect(document.allocations.map((a) => [a.supplier.code, a.supplier.name, a.share, a.fobCost])).toEqual([
      ['SUP-004', 'Ningbo Everbright', 0.5143, 9_000],
      ['SUP-002', 'Alpine Premium', 0.4857, 8_500],
    ]);
    expect(document.allocations[0]?.lines).toEqual([
      { sku: 'A', description: 'Item A', quantity: 100, unitPrice: 90, lineTotal: 9_000, tiers: [] },
    ]);
    // Its amounts add up, so the workbook can be built from it.
    await expect(buildPurchaseOrderWorkbook(document)).resolves.toBeInstanceOf(Buffer);
  });

  it('has no basis note for a PO drafted before the basis was stored', () => {
    const document = storedPurchaseOrderDocument(purchaseOrderViewOf({ basisOfAward: null }), {
      date: '2026-05-06',
      buyerName: 'Valden',
      notes: ['Extra'],
    });
    expect(document.notes).toEqual(['Extra']);
  });

  it('and the document from the decision agree on every figure for the same award', () => {
    const fromDecision = purchaseOrderDocument(split, {
      number: 'PO-2026-0007',
      date: '2026-05-06',
      status: 'draft',
      buyerName: 'Valden',
    });
    const fromStore = storedPurchaseOrderDocument(purchaseOrderViewOf(), { date: '2026-05-06', buyerName: 'Valden' });
    expect(fromStore.totals).toEqual(fromDecision.totals);
    const figures = (d: typeof fromStore) =>
      d.allocations.map((a) => [a.share, a.paymentTerms, a.fobCost, a.cashFlowCost, a.effectiveLandedCost, a.lines]);
    expect(figures(fromStore)).toEqual(figures(fromDecision));
  });
});

describe('the basis of award', () => {
  it('names each supplier with its code on first mention and by name after it', () => {
    expect(basisOfAward(split)).toMatch(
      /^Basis of award \(cost mode\): Split Ningbo Everbright \(SUP-001\) \+ Alpine Premium \(SUP-002\): .*\(Ningbo Everbright: \$18,600\.00/,
    );
  });

  it("shows the workspace's codes in one pass: a code written in is never replaced again", () => {
    // The quoting supplier is SUP-002 in this workspace, while the engine's SUP-002 is Alpine Premium.
    const text = basisOfAward(split, (code) => ({ 'SUP-001': 'SUP-002', 'SUP-002': 'SUP-007' })[code] ?? null);
    expect(text).toContain('Split Ningbo Everbright (SUP-002) + Alpine Premium (SUP-007):');
    expect(basisOfAward(split, () => null)).toContain('Split Ningbo Everbright + Alpine Premium:');
  });
});
