// A small negotiation for tests and examples: three real catalog lines, the seed's three suppliers.
import { QUOTED_SUPPLIER_DEFAULTS, SIMULATED_SUPPLIERS } from '../../src/config/business-rules.js';
import type { NegotiationRequest } from '../../src/app-types.js';
import type { NegotiationSetup } from '../../src/negotiation/engine.js';

export const exampleLines = [
  {
    sku: 'MC001-BON-XL',
    description: 'Kestrel Insulated Parka',
    quantity: 300,
    unitPrice: 42.5,
    tiers: [],
    notes: null,
  },
  { sku: 'KT004-EMR-M', description: 'Glacier Wool Blend Tee', quantity: 500, unitPrice: 8.2, tiers: [], notes: null },
  { sku: 'MS005-EMR-XS', description: 'Boulder Flannel Shirt', quantity: 120, unitPrice: 17.3, tiers: [], notes: null },
];
export const exampleBaselineTotal = exampleLines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);

export const exampleSetup = (seed: number, overrides: Partial<NegotiationSetup> = {}): NegotiationSetup => ({
  seed,
  brandName: 'Valden Outdoor',
  mode: 'balanced',
  maxRounds: 4,
  mandate: { targetTotal: null, walkAwayTotal: null },
  buyerNotes: null,
  baseline: {
    supplierName: 'Ningbo Everbright',
    currency: 'USD',
    lines: exampleLines,
    total: exampleBaselineTotal,
    paymentTerms: '33/33/33',
    leadTimeDays: 50,
    incoterm: 'FOB Ningbo',
    moq: null,
    notes: [],
  },
  profiles: [{ ...QUOTED_SUPPLIER_DEFAULTS, name: 'Ningbo Everbright' }, ...SIMULATED_SUPPLIERS],
  ...overrides,
});

/**
 * The example negotiation on a quotation of `count` lines, as a large file would give (sizes of a few styles, some
 * with volume tiers): for the checkpoint's storage, whose long arrays are stored by content.
 */
export const manyLinesSetup = (seed: number, count: number): NegotiationSetup => {
  const sizes = ['XS', 'S', 'M', 'L', 'XL'];
  const lines = Array.from({ length: count }, (_, index) => {
    const style = Math.floor(index / sizes.length);
    const unitPrice = Math.round((6 + ((style * 37) % 90) + (index % sizes.length) * 0.25) * 100) / 100;
    return {
      sku: `ST${String(style).padStart(4, '0')}-BLK-${sizes[index % sizes.length] ?? 'M'}`,
      description: `Style ${style} ${['parka', 'tee', 'shirt', 'fleece'][style % 4] ?? 'tee'}`,
      quantity: 50 + ((index * 13) % 400),
      unitPrice,
      tiers: index % 7 === 0 ? [{ minQty: 1000, unitPrice: Math.round(unitPrice * 90) / 100 }] : [],
      notes: index % 11 === 0 ? 'carton of 20' : null,
    };
  });
  const total = Math.round(lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0) * 100) / 100;
  const example = exampleSetup(seed);
  return { ...example, baseline: { ...example.baseline, lines, total } };
};

/** The start modal's defaults as a request: balanced, 3 rounds, 2 questions, no mandate. */
export const startRequest: NegotiationRequest = {
  mode: 'balanced',
  maxRounds: 3,
  questionBudget: 2,
  targetTotal: null,
  walkAwayTotal: null,
  requiredBy: null,
  maxLeadTimeDays: null,
  sourcing: 'any',
  invitedSuppliers: null,
  notes: null,
};
