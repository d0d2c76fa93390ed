// A purchase order as the store reads it (PurchaseOrderView) for pure tests: PO-2026-0007, the curveball's split of
// $17,500 FOB between the quoting supplier (the workspace's SUP-004) and SUP-002, with $875 of split overhead.
import type { PurchaseOrderView } from '../../src/decision/purchase-order-rules.js';

/** A draft at version 0 with no approvals, and whatever `overrides` say. */
export function purchaseOrderViewOf(overrides: Partial<PurchaseOrderView> = {}): PurchaseOrderView {
  return {
    id: 'po1',
    number: 'PO-2026-0007',
    status: 'draft',
    version: 0,
    negotiationId: 'n1',
    decisionId: 'd1',
    decisionSummary: 'Split the order.',
    basisOfAward: 'Basis of award (cost mode): cheapest.',
    currency: 'USD',
    fobCost: 17_500,
    cashFlowCost: 0,
    splitOverhead: 875,
    effectiveLandedCost: 18_375,
    approvals: [],
    approvedAt: null,
    rejectedReason: null,
    rejectedBySlackUserId: null,
    rejectedAt: null,
    createdAt: new Date('2026-05-04T10:00:00Z'),
    allocations: [
      {
        supplierId: 's4',
        supplierCode: 'SUP-004',
        supplierName: 'Ningbo Everbright',
        share: 0.5143,
        paymentTerms: '0/100',
        leadTimeDays: 30,
        incoterm: 'FOB Ningbo',
        fobCost: 9_000,
        cashFlowCost: 0,
        effectiveLandedCost: 9_000,
        items: [
          {
            sku: 'A',
            description: 'Item A',
            productId: 'p1',
            quantity: 100,
            unitPrice: 90,
            lineTotal: 9_000,
            tiers: [],
          },
        ],
      },
      {
        supplierId: 's2',
        supplierCode: 'SUP-002',
        supplierName: 'Alpine Premium',
        share: 0.4857,
        paymentTerms: '0/100',
        leadTimeDays: 30,
        incoterm: 'FOB Ningbo',
        fobCost: 8_500,
        cashFlowCost: 0,
        effectiveLandedCost: 8_500,
        items: [
          {
            sku: 'B',
            description: 'Item B',
            productId: null,
            quantity: 100,
            unitPrice: 85,
            lineTotal: 8_500,
            tiers: [],
          },
        ],
      },
    ],
    ...overrides,
  };
}
