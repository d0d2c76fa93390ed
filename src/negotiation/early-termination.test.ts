import { describe, expect, it } from 'vitest';
import { EARLY_TERMINATION_CONFIDENCE, IMPASSE } from '../config/business-rules.js';
import {
  averageRoundCostUsd,
  convergenceConfidence,
  EARLY_TERMINATION_MIN_ROUND,
  type EarlyTerminationCheck,
  estimateSavedCost,
  shouldOfferEarlyTermination,
} from './early-termination.js';
import type { OfferSource, TrackedOffer } from './offers.js';
import type { MandateTotals as Mandate } from './types.js';

const entry = (round: number, total: number, source: OfferSource = 'supplier'): TrackedOffer => ({
  round,
  source,
  offer: {
    supplierCode: 'SUP-001',
    round,
    lines: [{ sku: 'MC001-BON-XL', quantity: 1, unitPrice: total, tiers: [] }],
    total,
    leadTimeDays: 30,
    paymentTerms: '30/70',
    incoterm: null,
    currency: 'USD',
    concessions: [],
    conditions: [],
    capacityShare: 1,
  },
});
const history = (...totals: number[]) => totals.map((total, round) => entry(round, total));
const target = (targetTotal: number | null, walkAwayTotal: number | null = null): Mandate => ({
  targetTotal,
  walkAwayTotal,
});

describe('convergenceConfidence', () => {
  it('is 1 when the last two offers are within 1% and at or under the target', () => {
    expect(convergenceConfidence(history(11_000, 10_000, 9_950), target(10_000))).toBe(1);
    expect(convergenceConfidence(history(10_000, 9_000), target(9_500))).toBe(0);
    expect(convergenceConfidence(history(9_000, 9_000), target(9_500))).toBe(1);
  });

  it('falls to 0 as the last move approaches 5%', () => {
    const none = target(null);
    expect(convergenceConfidence(history(10_000, 9_700), none)).toBeCloseTo(0.5, 10);
    expect(convergenceConfidence(history(10_000, 9_500), none)).toBe(0);
    expect(convergenceConfidence(history(10_000, 10_400), none)).toBeCloseTo(0.25, 10);
  });

  it('falls to 0 as a stable offer sits further above the target, reaching 0 at the impasse gap', () => {
    const gap = IMPASSE.priceGapThreshold;
    expect(convergenceConfidence(history(10_500, 10_500), target(10_000))).toBeCloseTo(1 - 0.05 / gap, 10);
    expect(convergenceConfidence(history(12_500, 12_500), target(10_000))).toBe(0);
  });

  it('uses the walk-away when there is no target, and stability alone without either', () => {
    expect(convergenceConfidence(history(10_500, 10_500), target(null, 10_000))).toBeCloseTo(1 - 0.05 / 0.25, 10);
    expect(convergenceConfidence(history(50_000, 50_000), target(null))).toBe(1);
  });

  it("is 0 with fewer than two supplier offers; the brand's counter-offers do not count", () => {
    expect(convergenceConfidence([], target(10_000))).toBe(0);
    expect(convergenceConfidence(history(9_000), target(10_000))).toBe(0);
    expect(convergenceConfidence([entry(1, 9_000), entry(1, 9_000, 'brand')], target(10_000))).toBe(0);
    expect(
      convergenceConfidence([entry(0, 9_000, 'quotation'), entry(1, 8_000, 'brand'), entry(1, 9_000)], target(10_000)),
    ).toBe(1);
  });
});

describe('shouldOfferEarlyTermination', () => {
  const check = (overrides: Partial<EarlyTerminationCheck> = {}): EarlyTerminationCheck => ({
    round: 2,
    maxRounds: 4,
    activeSuppliers: [
      { supplierCode: 'SUP-001', confidence: 0.95 },
      { supplierCode: 'SUP-002', confidence: 0.92 },
      { supplierCode: 'SUP-003', confidence: 1 },
    ],
    perRoundCostUsd: 0.045,
    ...overrides,
  });

  it('offers to stop when every active supplier is confident after round 2, and records the savings', () => {
    expect(shouldOfferEarlyTermination(check())).toEqual({
      offer: true,
      record: {
        confidence: 0.92,
        reason: 'high_confidence_convergence',
        roundsSkipped: 2,
        estimatedCostSavedUsd: 0.09,
      },
    });
  });

  it('does not offer when one supplier is below the threshold, and says which', () => {
    const decision = shouldOfferEarlyTermination(
      check({
        activeSuppliers: [
          { supplierCode: 'SUP-001', confidence: 0.95 },
          { supplierCode: 'SUP-002', confidence: 0.89 },
        ],
      }),
    );
    expect(decision).toEqual({ offer: false, why: 'not_converged', unconverged: ['SUP-002'] });
  });

  it('takes the threshold as inclusive, defaulting to the business rule', () => {
    const exactly = check({ activeSuppliers: [{ supplierCode: 'SUP-001', confidence: EARLY_TERMINATION_CONFIDENCE }] });
    expect(shouldOfferEarlyTermination(exactly).offer).toBe(true);
    const custom = check({ activeSuppliers: [{ supplierCode: 'SUP-001', confidence: 0.86 }] });
    expect(shouldOfferEarlyTermination(custom).offer).toBe(false);
    expect(shouldOfferEarlyTermination(custom, 0.85).offer).toBe(true);
  });

  it('never offers before round 2', () => {
    expect(EARLY_TERMINATION_MIN_ROUND).toBe(2);
    expect(shouldOfferEarlyTermination(check({ round: 1 }))).toEqual({
      offer: false,
      why: 'before_min_round',
      unconverged: [],
    });
  });

  it('never offers when no round is left to skip', () => {
    expect(shouldOfferEarlyTermination(check({ round: 4 })).offer).toBe(false);
    expect(shouldOfferEarlyTermination(check({ round: 2, maxRounds: 2 }))).toMatchObject({ why: 'no_rounds_left' });
    expect(shouldOfferEarlyTermination(check({ round: 3 }))).toMatchObject({
      offer: true,
      record: { roundsSkipped: 1 },
    });
  });

  it('never offers when no supplier is still negotiating', () => {
    expect(shouldOfferEarlyTermination(check({ activeSuppliers: [] }))).toMatchObject({ why: 'no_active_suppliers' });
  });

  it('treats a NaN confidence as not converged', () => {
    const decision = shouldOfferEarlyTermination(
      check({ activeSuppliers: [{ supplierCode: 'SUP-001', confidence: Number.NaN }] }),
    );
    expect(decision).toMatchObject({ offer: false, unconverged: ['SUP-001'] });
  });

  it('rejects a threshold outside 0–1', () => {
    expect(() => shouldOfferEarlyTermination(check(), 1.5)).toThrow(RangeError);
    expect(() => shouldOfferEarlyTermination(check(), -0.1)).toThrow(RangeError);
  });

  it('saves nothing offline, where a round costs nothing', () => {
    expect(shouldOfferEarlyTermination(check({ perRoundCostUsd: 0 }))).toMatchObject({
      record: { estimatedCostSavedUsd: 0 },
    });
  });

  it('feeds on convergenceConfidence end to end', () => {
    const mandate = target(10_000);
    const activeSuppliers = [
      { supplierCode: 'SUP-001', confidence: convergenceConfidence(history(10_400, 9_900, 9_880), mandate) },
      { supplierCode: 'SUP-003', confidence: convergenceConfidence(history(10_050, 10_000), mandate) },
    ];
    expect(shouldOfferEarlyTermination(check({ round: 3, maxRounds: 5, activeSuppliers }))).toMatchObject({
      offer: true,
      record: { confidence: 1, roundsSkipped: 2 },
    });
  });
});

describe('estimateSavedCost', () => {
  it('is rounds skipped × cost per round, to the micro-dollar', () => {
    expect(estimateSavedCost(2, 0.09)).toBe(0.18);
    expect(estimateSavedCost(3, 0.1234567)).toBe(0.37037);
    expect(estimateSavedCost(0, 0.5)).toBe(0);
  });

  it('rejects negative or non-integer rounds and negative or infinite costs', () => {
    expect(() => estimateSavedCost(-1, 0.1)).toThrow(RangeError);
    expect(() => estimateSavedCost(1.5, 0.1)).toThrow(RangeError);
    expect(() => estimateSavedCost(1, -0.1)).toThrow(RangeError);
    expect(() => estimateSavedCost(1, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('averageRoundCostUsd', () => {
  it('averages the cost of the rounds run, 0 before any', () => {
    expect(averageRoundCostUsd(0.3, 2)).toBe(0.15);
    expect(averageRoundCostUsd(0.3, 0)).toBe(0);
  });
});
