// A small negotiation for tests and examples: three real catalog lines, the seed's three suppliers.
import { QUOTED_SUPPLIER_DEFAULTS, SIMULATED_SUPPLIERS } from '../../src/config/business-rules.js';
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
