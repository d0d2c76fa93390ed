import { describe, expect, it } from 'vitest';
import * as prismaEnums from '../generated/prisma/enums.js';
import {
  NEGOTIATION_MODES,
  PRICE_LEVELS,
  PRICE_RANGES,
  QUOTED_SUPPLIER_DEFAULTS,
  SCORING_FACTORS,
  SCORING_WEIGHTS,
  SIMULATED_SUPPLIERS,
} from './business-rules.js';

describe('business rules', () => {
  it.each(Object.entries(SCORING_WEIGHTS))('the %s weights cover every factor and sum to 100%%', (_mode, weights) => {
    expect(Object.keys(weights).sort()).toEqual([...SCORING_FACTORS].sort());
    expect(Object.values(weights).reduce((sum, weight) => sum + weight, 0)).toBeCloseTo(1, 10);
  });

  it('keeps the seed table’s four factors and gives Reliability the missing 10% outside Balanced', () => {
    expect(SCORING_WEIGHTS.cost).toMatchObject({ price: 0.4, quality: 0.15, leadTime: 0.15, terms: 0.2 });
    expect(SCORING_WEIGHTS.balanced).toMatchObject({ price: 0.3, quality: 0.25, leadTime: 0.25, terms: 0.2 });
    expect(SCORING_WEIGHTS.balanced.reliability).toBe(0);
    for (const mode of ['cost', 'quality', 'speed', 'cashflow'] as const) {
      expect(SCORING_WEIGHTS[mode].reliability).toBe(0.1);
    }
  });

  it('agrees with the database enums, so a value the domain produces can always be stored', () => {
    expect(Object.values(prismaEnums.NegotiationMode)).toEqual([...NEGOTIATION_MODES]);
    expect(Object.values(prismaEnums.PriceLevel)).toEqual([...PRICE_LEVELS]);
  });

  it('describes the three suppliers of the seed', () => {
    expect(PRICE_RANGES.expensive).toEqual({ min: 1.15, max: 1.4 });
    const profiles = [QUOTED_SUPPLIER_DEFAULTS, ...SIMULATED_SUPPLIERS].map((s) => [
      s.code,
      s.priceLevel,
      s.leadTimeDays,
      s.paymentTerms,
      s.qualityRating,
    ]);
    expect(profiles).toEqual([
      ['SUP-001', 'cheapest', 50, '33/33/33', 4.0],
      ['SUP-002', 'expensive', 25, '40/60', 4.7],
      ['SUP-003', 'mid', 15, '100', 4.0],
    ]);
  });
});
