import { describe, expect, it } from 'vitest';
import {
  NEGOTIATION_MODES,
  QUOTED_SUPPLIER_DEFAULTS,
  SCORING_FACTORS,
  SCORING_WEIGHTS,
  SIMULATED_SUPPLIERS,
  type PresetMode,
  type SupplierProfile,
} from '../config/business-rules.js';
import type { Offer } from '../negotiation/types.js';
import {
  describeWeights,
  LEAD_TIME_ZERO_DAYS,
  leadTimeZeroDays,
  scoreOffers,
  validateCustomWeights,
  weightsFor,
  type ScoredInput,
  type SupplierScore,
} from './scoring.js';

const PROFILES: readonly SupplierProfile[] = [QUOTED_SUPPLIER_DEFAULTS, ...SIMULATED_SUPPLIERS];

function profile(code: string): SupplierProfile {
  const found = PROFILES.find((p) => p.code === code);
  if (!found) throw new Error(`no profile ${code}`);
  return found;
}

function offer(supplierCode: string, total: number, leadTimeDays: number, paymentTerms: string): Offer {
  return {
    supplierCode,
    round: 3,
    lines: [{ sku: 'SKU-1', quantity: 100, unitPrice: total / 100, tiers: [] }],
    total,
    leadTimeDays,
    paymentTerms,
    incoterm: 'FOB',
    currency: 'USD',
    concessions: [],
    conditions: [],
    capacityShare: 1,
  };
}

/** The seed's §10 example: each supplier at its profile's terms and lead time. */
const SEED: readonly ScoredInput[] = [
  { offer: offer('SUP-001', 42_000, 50, '33/33/33'), profile: profile('SUP-001') },
  { offer: offer('SUP-002', 52_000, 25, '40/60'), profile: profile('SUP-002') },
  { offer: offer('SUP-003', 46_000, 15, '100'), profile: profile('SUP-003') },
];

function byCode(scores: readonly SupplierScore[], code: string): SupplierScore {
  const found = scores.find((s) => s.supplierCode === code);
  if (!found) throw new Error(`no score for ${code}`);
  return found;
}

describe('weights', () => {
  it.each(NEGOTIATION_MODES.filter((m): m is PresetMode => m !== 'custom'))('the %s table sums to 1', (mode) => {
    const weights = weightsFor(mode);
    expect(SCORING_FACTORS.reduce((sum, f) => sum + weights[f], 0)).toBeCloseTo(1, 12);
    expect(weights).toBe(SCORING_WEIGHTS[mode]);
  });

  it('normalises custom weights to sum to 1, whatever scale the buyer used', () => {
    const percent = weightsFor('custom', { price: 50, quality: 30, leadTime: 20 });
    expect(percent).toEqual({ price: 0.5, quality: 0.3, leadTime: 0.2, terms: 0, reliability: 0 });
    const thirds = weightsFor('custom', { price: 1, terms: 1, reliability: 1 });
    expect(SCORING_FACTORS.reduce((sum, f) => sum + thirds[f], 0)).toBeCloseTo(1, 12);
  });

  it.each([
    ['all zero', { price: 0, quality: 0 }, /above zero/],
    ['nothing', {}, /above zero/],
    ['negative', { price: 1, quality: -0.5 }, /non-negative/],
    ['not a number', { price: '40' }, /non-negative/],
    ['infinite', { price: Infinity }, /non-negative|finite/],
    ['an unknown factor', { price: 1, colour: 1 }, /non-negative/],
  ])('refuses custom weights that are %s', (_what, input, message) => {
    const result = validateCustomWeights(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('needs custom weights in custom mode, and ignores them in the others', () => {
    expect(() => weightsFor('custom')).toThrow(/custom weights/);
    expect(() => weightsFor('custom', { price: 0 })).toThrow(RangeError);
    expect(weightsFor('cost', { quality: 1 })).toBe(SCORING_WEIGHTS.cost);
  });

  it('describes weights in percent', () => {
    expect(describeWeights(SCORING_WEIGHTS.cost)).toBe(
      'Price 40%, Quality 15%, Lead time 15%, Terms 20%, Reliability 10%',
    );
  });
});

describe('scoreOffers on the seed’s three offers', () => {
  const scores = scoreOffers(SEED, 'cost');

  it('scores each factor on the documented lines', () => {
    // Price: 100 at the lowest ($42,000), 0 at +50%. $46,000 is 9.52% above → 81.0; $52,000 is 23.81% above → 52.4.
    // Quality: rating / 5. Lead time: fastest (15 days) 100, 0 at 90 days: 25 → 86.7, 50 → 53.3.
    // Terms: 100 × (1 − weighted days paid early / 90): thirds over 50 days = 25 days → 72.2; 40% × 25 = 10 → 88.9;
    // 100% × 15 → 83.3. Reliability: on-time × (1 − defects).
    expect(byCode(scores, 'SUP-001').factors).toEqual({
      price: 100,
      quality: 80,
      leadTime: 53.3,
      terms: 72.2,
      reliability: 87.3,
    });
    expect(byCode(scores, 'SUP-002').factors).toEqual({
      price: 52.4,
      quality: 94,
      leadTime: 86.7,
      terms: 88.9,
      reliability: 96.2,
    });
    expect(byCode(scores, 'SUP-003').factors).toEqual({
      price: 81,
      quality: 80,
      leadTime: 100,
      terms: 83.3,
      reliability: 91.1,
    });
  });

  it('totals Σ weight × sub-score, which a reader can redo from the displayed numbers', () => {
    for (const score of scores) {
      const redone = SCORING_FACTORS.reduce((sum, f) => sum + SCORING_WEIGHTS.cost[f] * score.factors[f], 0);
      expect(score.total).toBeCloseTo(redone, 1);
      const weighted = SCORING_FACTORS.reduce((sum, f) => sum + score.weighted[f], 0);
      expect(Math.abs(weighted - score.total)).toBeLessThan(0.06);
    }
    expect(scores.map((s) => [s.supplierCode, s.total, s.rank])).toEqual([
      ['SUP-003', 85.2, 1],
      ['SUP-001', 83.2, 2],
      ['SUP-002', 75.5, 3],
    ]);
  });

  it('explains each sub-score in one line a finance person can check', () => {
    const sup1 = byCode(scores, 'SUP-001').explanations;
    const sup2 = byCode(scores, 'SUP-002').explanations;
    expect(sup1.price).toBe('Price: $42,000.00 is the lowest of 3 offers → 100');
    expect(sup2.price).toBe(
      'Price: $52,000.00 is 23.8% above the lowest ($42,000.00) → 52.4 (−2 points per 1% above; 0 at +50%)',
    );
    expect(sup1.quality).toBe('Quality: rated 4 of 5 → 80');
    expect(sup1.leadTime).toBe("Lead time: 50 days; the fastest offer's 15 days → 100, 90 days → 0 → 53.3");
    expect(byCode(scores, 'SUP-003').explanations.leadTime).toBe('Lead time: 15 days is the fastest of 3 offers → 100');
    expect(sup1.terms).toBe(
      'Terms: 33/33/33 over 50 days ties up capital costing $230.14 at 8.0%/yr (0.55% of the order) → 72.2 ' +
        '(0% → 100; 1.97%, all paid 90 days ahead → 0)',
    );
    // "100" is said as the decision's summary says it (it used to read "Terms: 100 over 15 days" here).
    expect(byCode(scores, 'SUP-003').explanations.terms).toMatch(
      /^Terms: 100% upfront, 15 days before delivery ties up capital costing \$151\.23 /,
    );
    expect(sup2.reliability).toBe('Reliability: 97.0% on time × 99.2% defect-free → 96.2');
    for (const score of scores) {
      for (const f of SCORING_FACTORS) expect(score.explanations[f]).not.toContain('\n');
    }
  });

  it('reports each offer’s cash-flow cost (the seed’s figures)', () => {
    expect(scores.map((s) => [s.supplierCode, s.cashFlowCost])).toEqual([
      ['SUP-003', 151.23],
      ['SUP-001', 230.14],
      ['SUP-002', 113.97],
    ]);
  });

  it.each(NEGOTIATION_MODES)('keeps every score within 0–100 in %s mode', (mode) => {
    const custom = mode === 'custom' ? { price: 2, quality: 1 } : undefined;
    const result = scoreOffers(SEED, mode, custom);
    expect(result.map((s) => s.rank)).toEqual([1, 2, 3]);
    for (const s of result) {
      expect(s.total).toBeGreaterThanOrEqual(0);
      expect(s.total).toBeLessThanOrEqual(100);
      for (const f of SCORING_FACTORS) {
        expect(s.factors[f]).toBeGreaterThanOrEqual(0);
        expect(s.factors[f]).toBeLessThanOrEqual(100);
      }
      expect(SCORING_FACTORS.reduce((sum, f) => sum + s.weights[f], 0)).toBeCloseTo(1, 12);
    }
  });

  it('changes the winner with the mode: quality mode prefers the premium supplier', () => {
    expect(scoreOffers(SEED, 'quality')[0]?.supplierCode).toBe('SUP-002');
    expect(scoreOffers(SEED, 'custom', { price: 1 })[0]?.supplierCode).toBe('SUP-001');
  });

  it('is deterministic and independent of input order', () => {
    expect(scoreOffers([...SEED].reverse(), 'balanced')).toEqual(scoreOffers(SEED, 'balanced'));
  });
});

describe('scoreOffers edge cases', () => {
  const plain = { qualityRating: 4, onTimeDeliveryRate: 0.9, defectRate: 0.02 };

  it('breaks a tie on the total by supplier code', () => {
    const result = scoreOffers(
      [
        { offer: offer('SUP-B', 10_000, 20, '30/70'), profile: plain },
        { offer: offer('SUP-A', 10_000, 20, '30/70'), profile: plain },
      ],
      'balanced',
    );
    expect(result.map((s) => [s.supplierCode, s.rank])).toEqual([
      ['SUP-A', 1],
      ['SUP-B', 2],
    ]);
    expect(result[0]?.total).toBe(result[1]?.total);
    expect(result[0]?.explanations.price).toBe('Price: $10,000.00 ties for the lowest of 2 offers → 100');
    expect(result[0]?.explanations.leadTime).toBe('Lead time: 20 days ties for the fastest of 2 offers → 100');
  });

  it('gives price 0 at 50% above the lowest and beyond', () => {
    const result = scoreOffers(
      [
        { offer: offer('A', 10_000, 20, '100'), profile: plain },
        { offer: offer('B', 15_000, 20, '100'), profile: plain },
        { offer: offer('C', 25_000, 20, '100'), profile: plain },
        { offer: offer('D', 12_500, 20, '100'), profile: plain },
      ],
      'cost',
    );
    expect(result.map((s) => [s.supplierCode, s.factors.price])).toEqual([
      ['A', 100],
      ['D', 50],
      ['B', 0],
      ['C', 0],
    ]);
  });

  it('stretches the lead-time line when even the fastest offer is slow', () => {
    expect(leadTimeZeroDays(15)).toBe(LEAD_TIME_ZERO_DAYS);
    expect(leadTimeZeroDays(60)).toBe(120);
    const result = scoreOffers(
      [
        { offer: offer('A', 10_000, 60, '100'), profile: plain },
        { offer: offer('B', 10_000, 90, '100'), profile: plain },
        { offer: offer('C', 10_000, 150, '100'), profile: plain },
      ],
      'speed',
    );
    expect(result.map((s) => s.factors.leadTime)).toEqual([100, 50, 0]);
  });

  it('scores terms that pay nothing before delivery 100, whatever the rate', () => {
    const inputs = [
      { offer: offer('A', 10_000, 30, '0/100'), profile: plain },
      { offer: offer('B', 10_000, 30, '100'), profile: plain },
    ];
    const at8 = scoreOffers(inputs, 'cashflow');
    const at12 = scoreOffers(inputs, 'cashflow', undefined, { annualRate: 0.12 });
    expect(at8.map((s) => s.factors.terms)).toEqual([100, 66.7]);
    expect(at12.map((s) => s.factors.terms)).toEqual([100, 66.7]);
    expect(at12[1]?.cashFlowCost).toBeCloseTo(10_000 * 0.12 * (30 / 365), 2);
  });

  it('within the lead time the buyer accepted, waiting costs no points on terms either', () => {
    // Same terms, 50 against 12 days: the 50-day offer ties money up longer only because it is slower.
    const inputs = [
      { offer: offer('A', 10_000, 50, '50/50'), profile: plain },
      { offer: offer('B', 10_500, 12, '50/50'), profile: plain },
      { offer: offer('C', 10_500, 60, '50/50'), profile: plain },
    ];
    const before = scoreOffers(inputs, 'balanced');
    expect(byCode(before, 'A').factors.terms).toBeLessThan(byCode(before, 'B').factors.terms);
    const accepted = scoreOffers(inputs, 'balanced', undefined, { acceptedLeadTimeDays: 50 });
    const [a, b, c] = ['A', 'B', 'C'].map((code) => byCode(accepted, code));
    expect(a?.factors.terms).toBe(b?.factors.terms);
    // Slower than accepted still counts its own days; the money it costs stays its own.
    expect(c?.factors.terms).toBeLessThan(a?.factors.terms ?? 0);
    expect(b?.cashFlowCost).toBeCloseTo(10_500 * 0.5 * 0.08 * (12 / 365), 2);
    expect(a?.explanations.terms).toMatch(/over the 50 days the buyer accepted/);
    expect(a?.rank).toBe(1);
  });

  it('scores a lone offer 100 on price and lead time', () => {
    const [only] = scoreOffers([{ offer: offer('A', 10_000, 30, '100'), profile: plain }], 'balanced');
    expect(only?.factors.price).toBe(100);
    expect(only?.explanations.price).toBe('Price: $10,000.00 is the only offer → 100');
    expect(only?.explanations.leadTime).toBe('Lead time: 30 days is the only offer → 100');
  });

  it('returns nothing for no offers and refuses two offers from one supplier', () => {
    expect(scoreOffers([], 'cost')).toEqual([]);
    const twice = [
      { offer: offer('A', 10_000, 30, '100'), profile: plain },
      { offer: offer('A', 11_000, 30, '100'), profile: plain },
    ];
    expect(() => scoreOffers(twice, 'cost')).toThrow(/two offers from A/);
  });
});
