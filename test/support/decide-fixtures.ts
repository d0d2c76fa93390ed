// Decision fixtures shared by the decision tests: seed-like offers whose outcomes are worked out by hand below.
import {
  QUOTED_SUPPLIER_DEFAULTS,
  SIMULATED_SUPPLIERS,
  type SupplierProfile,
} from '../../src/config/business-rules.js';
import type { Baseline, Offer } from '../../src/negotiation/types.js';
import type { DecideOutcome, DecisionInput, DecisionNumbers } from '../../src/decision/decide.js';
import type { IncotermCosts } from '../../src/decision/landed-cost.js';
import { INCOTERM_COSTS } from '../../src/config/business-rules.js';

/** Every Incoterm with no freight or duty: the hand-worked examples count price, cash flow and overhead only. */
export const NO_FREIGHT_OR_DUTY = Object.fromEntries(
  Object.keys(INCOTERM_COSTS).map((term) => [term, { freight: 0, duty: 0 }]),
) as IncotermCosts;

export const PROFILES: readonly SupplierProfile[] = [
  { ...QUOTED_SUPPLIER_DEFAULTS, name: 'Ningbo Everbright' },
  ...SIMULATED_SUPPLIERS,
];

/** A baseline of 100 units per SKU at the given unit prices. */
export function baselineOf(prices: Record<string, number>, extra: Partial<Baseline> = {}): Baseline {
  const lines = Object.entries(prices).map(([sku, unitPrice]) => ({
    sku,
    description: `Item ${sku}`,
    quantity: 100,
    unitPrice,
    tiers: [],
    notes: null,
  }));
  return {
    supplierName: 'Ningbo Everbright',
    currency: 'USD',
    lines,
    total: lines.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0),
    paymentTerms: '0/100',
    leadTimeDays: 30,
    incoterm: 'FOB Ningbo',
    moq: null,
    notes: [],
    ...extra,
  };
}

/** An offer of 100 units per SKU at the given unit prices, paid on delivery (no cash-flow cost) unless told. */
export function offerOf(supplierCode: string, prices: Record<string, number>, extra: Partial<Offer> = {}): Offer {
  const lines = Object.entries(prices).map(([sku, unitPrice]) => ({ sku, quantity: 100, unitPrice, tiers: [] }));
  return {
    supplierCode,
    round: 4,
    lines,
    total: lines.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0),
    leadTimeDays: 30,
    paymentTerms: '0/100',
    incoterm: 'FOB Ningbo',
    currency: 'USD',
    concessions: [],
    conditions: [],
    capacityShare: 1,
    ...extra,
  };
}

export function numbersOf(outcome: DecideOutcome): DecisionNumbers {
  if (!outcome.ok) throw new Error(`expected a decision, got ${outcome.message}`);
  return outcome.numbers;
}

/**
 * The curveball case, worked by hand. Quoted: A and B at $100 × 100 units = $20,000. Final offers (paid on delivery,
 * so no cash-flow cost): SUP-001 A $90, B $96 = $18,600; SUP-002 A $80, B $85 = $16,500 but capped at 60%; SUP-003
 * A $93, B $96 = $18,900. SUP-002 cannot take the order alone. Best split: SUP-001 A ($9,000) + SUP-002 B ($8,500) =
 * $17,500 FOB, SUP-002 at 48.6% ≤ 60%, + 5% overhead $875 = $18,375, below the best single supplier (SUP-001,
 * $18,600): the split wins.
 */
export function curveballInput(overrides: Partial<DecisionInput> = {}): DecisionInput {
  return {
    mode: 'cost',
    baseline: baselineOf({ A: 100, B: 100 }),
    profiles: PROFILES,
    // Worked by hand on FOB + cash-flow cost (+ overhead): freight and duty are tested on their own (decide.test.ts).
    incotermCosts: NO_FREIGHT_OR_DUTY,
    finalOffers: [
      offerOf('SUP-001', { A: 90, B: 96 }),
      offerOf('SUP-002', { A: 80, B: 85 }),
      offerOf('SUP-003', { A: 93, B: 96 }),
    ],
    openingOffers: [
      offerOf('SUP-001', { A: 100, B: 100 }),
      offerOf('SUP-002', { A: 88, B: 90 }),
      offerOf('SUP-003', { A: 99, B: 99 }),
    ],
    capacityCaps: { 'SUP-002': 0.6 },
    ...overrides,
  };
}

/**
 * Seed §10's suppliers on one line of 1,000 units, cost mode. SUP-001 is cheapest at $42,000 but pays 100% upfront
 * 50 days ahead: 42,000 × 8% × 50/365 = $460.27 of cash-flow cost, $42,460.27 landed. SUP-003 at $42,300 pays 40/60
 * over 25 days: 42,300 × 40% × 8% × 25/365 = $92.71, $42,392.71 landed: cheaper once money's timing counts.
 */
export function landedCostInput(): DecisionInput {
  const line = (code: string, unitPrice: number, extra: Partial<Offer>): Offer => ({
    ...offerOf(code, { 'MC001-BON-XL': unitPrice }, extra),
    lines: [{ sku: 'MC001-BON-XL', quantity: 1_000, unitPrice, tiers: [] }],
    total: 1_000 * unitPrice,
  });
  const baseline = baselineOf({ 'MC001-BON-XL': 45 }, { paymentTerms: '33/33/33', leadTimeDays: 50 });
  const quoted = baseline.lines[0];
  if (!quoted) throw new Error('fixture');
  return {
    mode: 'cost',
    baseline: { ...baseline, lines: [{ ...quoted, quantity: 1_000 }], total: 45_000 },
    profiles: PROFILES,
    // Worked by hand on FOB + cash-flow cost (+ overhead): freight and duty are tested on their own (decide.test.ts).
    incotermCosts: NO_FREIGHT_OR_DUTY,
    finalOffers: [
      line('SUP-001', 42, { paymentTerms: '100', leadTimeDays: 50 }),
      line('SUP-002', 52, { paymentTerms: '40/60', leadTimeDays: 25, capacityShare: 0.6 }),
      line('SUP-003', 42.3, { paymentTerms: '40/60', leadTimeDays: 25 }),
    ],
  };
}

/** A four-line order: unit price and quantity per SKU as quoted, $56,600 in all. */
const FOUR_LINES: Readonly<Record<string, readonly [number, number]>> = {
  'MC001-BON-XL': [45, 400],
  'KT004-EMR-M': [9, 1_500],
  'PT002-OLV-32': [31, 500],
  'AC010-CAP-OS': [12, 800],
};

/** An offer for the four-line order at `level` × the quoted prices, each line nudged by its factor in `nudges`. */
function fourLineOffer(code: string, level: number, nudges: readonly number[], extra: Partial<Offer>): Offer {
  const lines = Object.entries(FOUR_LINES).map(([sku, [price, quantity]], i) => ({
    sku,
    quantity,
    unitPrice: Math.round(price * level * (nudges[i] ?? 1) * 100) / 100,
    tiers: [],
  }));
  const cents = lines.reduce((sum, l) => sum + Math.round(l.quantity * l.unitPrice * 100), 0);
  return { ...offerOf(code, {}, extra), lines, total: cents / 100, ...extra };
}

/**
 * The seed's three suppliers with their own terms and lead times, on a four-line order, priced like seed §10's
 * $42K / $52K / $46K: SUP-001 (Ningbo Everbright: quality 4.0, 33/33/33 over 50 days) $52,603; SUP-002 (Alpine
 * Premium: 4.7, 40/60 over 25 days) $65,295, 24% more; SUP-003 (RapidGear: 4.0, 100% upfront, 15 days) $57,620, 9.5%
 * more. `termsConceded`: SUP-002 instead concedes to pay-on-delivery terms and $57,346 (9% more), as its personality
 * (non-price concessions first) might.
 */
export function seedSuppliersInput(
  mode: DecisionInput['mode'],
  options: { termsConceded?: boolean; curveball?: boolean } = {},
): DecisionInput {
  const baseLines = Object.entries(FOUR_LINES).map(([sku, [unitPrice, quantity]]) => ({
    sku,
    description: `Item ${sku}`,
    quantity,
    unitPrice,
    tiers: [],
    notes: null,
  }));
  const baseline = baselineOf({}, { paymentTerms: '33/33/33', leadTimeDays: 50 });
  return {
    mode,
    baseline: { ...baseline, lines: baseLines, total: baseLines.reduce((s, l) => s + l.quantity * l.unitPrice, 0) },
    profiles: PROFILES,
    // Worked by hand on FOB + cash-flow cost (+ overhead): freight and duty are tested on their own (decide.test.ts).
    incotermCosts: NO_FREIGHT_OR_DUTY,
    finalOffers: [
      fourLineOffer('SUP-001', 0.93, [1, 1.02, 0.98, 1], { paymentTerms: '33/33/33', leadTimeDays: 50 }),
      options.termsConceded
        ? fourLineOffer('SUP-002', 1.01, [1, 0.99, 1.02, 1], { paymentTerms: '0/100', leadTimeDays: 25 })
        : fourLineOffer('SUP-002', 1.15, [1, 0.99, 1.02, 1], { paymentTerms: '40/60', leadTimeDays: 25 }),
      fourLineOffer('SUP-003', 1.02, [1.01, 1, 1, 0.97], { paymentTerms: '100', leadTimeDays: 15 }),
    ],
    capacityCaps: options.curveball ? { 'SUP-002': 0.6 } : {},
  };
}

/** The rate table of the landed-cost example: a euro is $1.08; pounds are not in it. */
export const EUR_ONLY_RATES = { asOf: '2026-01-02', usdPerUnit: { USD: 1, EUR: 1.08 } } as const;

/**
 * Landed cost beyond price, worked by hand. Quoted: 100 × $100 = $10,000 ex works, paid on delivery, with $300 of
 * export packing and a tooling charge of no stated amount (not counted). Ex works, the buyer pays 8% freight and 12%
 * duty: the quote lands at 10,000 + 300 + 800 + 1,200 = $12,300. Final offers: SUP-001 (the quoting supplier, who
 * carries the charges) $9,700 EXW → 9,700 + 300 + 776 + 1,164 = $11,940; SUP-003 €100 a unit delivered duty paid →
 * $108 × 100 = $10,800 with nothing to add; SUP-002 quotes in pounds, which the table cannot convert: left out. The
 * award (cost mode) is SUP-003: $800 dearer than the quote on price, $1,500 cheaper landed.
 */
export function freightInput(overrides: Partial<DecisionInput> = {}): DecisionInput {
  return {
    mode: 'cost',
    baseline: baselineOf(
      { A: 100 },
      {
        incoterm: 'EXW Porto',
        charges: [
          { description: 'Export packing', amount: 300 },
          { description: 'Tooling', amount: null },
        ],
      },
    ),
    profiles: PROFILES,
    quotation: offerOf('SUP-001', { A: 100 }, { incoterm: 'EXW Porto' }),
    incotermCosts: { ...NO_FREIGHT_OR_DUTY, EXW: { freight: 0.08, duty: 0.12 } },
    fxTable: EUR_ONLY_RATES,
    workspaceCurrency: 'EUR',
    finalOffers: [
      offerOf('SUP-001', { A: 97 }, { incoterm: 'EXW Porto' }),
      offerOf('SUP-002', { A: 70 }, { currency: 'GBP', incoterm: 'DDP Chicago' }),
      offerOf('SUP-003', { A: 100 }, { currency: 'EUR', incoterm: 'DDP Chicago' }),
    ],
    ...overrides,
  };
}
