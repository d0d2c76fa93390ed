import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  LINE_PRICE_SPREAD,
  PRICE_RANGES,
  QUOTED_SUPPLIER_DEFAULTS,
  SIMULATED_SUPPLIERS,
  type SupplierProfile,
} from '../config/business-rules.js';
import { BASELINE } from '../../test/support/agents.js';
import { exampleSetup } from '../../test/support/negotiation-fixtures.js';
import { sampleBaselines } from '../../test/support/sample-baselines.js';
import type { BrandTurnContext, SupplierTurnContext } from './agents/interfaces.js';
import {
  EXTRA_COST_SHARE,
  MAX_PACKAGE_CREDIT,
  packageCostShare,
  supplierEconomics,
  supplierFloor,
  supplierFloorPrices,
  type SupplierEconomics,
} from './supplier-economics.js';
import type { Baseline } from './types.js';

const PROFILES: readonly SupplierProfile[] = [QUOTED_SUPPLIER_DEFAULTS, ...SIMULATED_SUPPLIERS];
const SEEDS = Array.from({ length: 200 }, (_, index) => index + 1);
const example = exampleSetup(1).baseline;
const BASELINES: readonly Baseline[] = [BASELINE, example];
const valueOf = (baseline: Baseline) => baseline.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);

describe('a supplier’s private economics', () => {
  it('is the same for the same profile, baseline and seed, and differs by seed and by supplier', () => {
    for (const profile of PROFILES) {
      expect(supplierEconomics(profile, BASELINE, 7)).toEqual(supplierEconomics(profile, BASELINE, 7));
      expect(supplierEconomics(profile, BASELINE, 7)).not.toEqual(supplierEconomics(profile, BASELINE, 8));
    }
    const [alpine, rapid] = SIMULATED_SUPPLIERS;
    if (alpine === undefined || rapid === undefined) throw new Error('profiles missing');
    expect(supplierEconomics(alpine, BASELINE, 7).pace).not.toBe(supplierEconomics(rapid, BASELINE, 7).pace);
  });

  it('keeps its opening and floor totals inside its price range, each line inside the widened line range', () => {
    for (const baseline of BASELINES) {
      const value = valueOf(baseline);
      for (const profile of PROFILES) {
        const band = PRICE_RANGES[profile.priceLevel];
        for (const seed of SEEDS) {
          const economics = supplierEconomics(profile, baseline, seed);
          expect(economics.floorTotal / value).toBeGreaterThanOrEqual(band.min - 1e-9);
          expect(economics.openingTotal / value).toBeLessThanOrEqual(band.max + 0.001);
          expect(economics.floorTotal).toBeLessThanOrEqual(economics.openingTotal);
          // Never more room than the largest discount its personality gives.
          expect(economics.floorTotal).toBeGreaterThanOrEqual(
            economics.openingTotal * (1 - profile.personality.maxDiscount) - 0.01 * baseline.lines.length,
          );
          for (const line of economics.lines) {
            const quoted = baseline.lines.find((candidate) => candidate.sku === line.sku)?.unitPrice ?? 0;
            expect(line.floor).toBeLessThanOrEqual(line.opening);
            expect(line.floor).toBeGreaterThanOrEqual(quoted * band.min * (1 - LINE_PRICE_SPREAD.below) - 0.01);
            expect(line.opening).toBeLessThanOrEqual(quoted * band.max * (1 + LINE_PRICE_SPREAD.above) + 0.01);
          }
        }
      }
    }
  });

  it('opens the quoting supplier at its own quotation', () => {
    for (const seed of SEEDS.slice(0, 20)) {
      const economics = supplierEconomics(QUOTED_SUPPLIER_DEFAULTS, BASELINE, seed);
      expect(economics.lines.map((line) => line.opening)).toEqual(BASELINE.lines.map((line) => line.unitPrice));
      expect(economics.openingTotal).toBe(BASELINE.total);
    }
  });

  it('makes the premium house the cheapest at some lines on many seeds, though dearer on the whole order', () => {
    const [alpine] = SIMULATED_SUPPLIERS;
    if (alpine === undefined) throw new Error('no premium supplier');
    let bestSomewhere = 0;
    for (const seed of SEEDS) {
      const premium = supplierEconomics(alpine, BASELINE, seed);
      const quoting = supplierEconomics(QUOTED_SUPPLIER_DEFAULTS, BASELINE, seed);
      expect(premium.floorTotal).toBeGreaterThan(quoting.floorTotal);
      const cheaperLine = premium.lines.some(
        (line) => line.floor < (quoting.lines.find((other) => other.sku === line.sku)?.floor ?? 0),
      );
      if (cheaperLine) bestSomewhere++;
    }
    expect(bestSomewhere / SEEDS.length).toBeGreaterThan(0.3);
  });

  it('gives the premium house a real specialty on the bundled samples: most of the order, near the factory’s price', () => {
    // Whatever the order's product mix (a few big products or many small ones), the specialty it draws is one the rest
    // of the order can carry inside the line guard — so it is not clipped back up to the house's order level.
    const [alpine] = SIMULATED_SUPPLIERS;
    if (alpine === undefined) throw new Error('no premium supplier');
    const samples = sampleBaselines(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);
    expect(samples).toHaveLength(12);
    const shares: number[] = [];
    for (const { baseline, name } of samples) {
      const value = valueOf(baseline);
      for (const seed of SEEDS.slice(0, 25)) {
        const economics = supplierEconomics(alpine, baseline, seed);
        const below = economics.lines.filter((line, index) => line.opening < (baseline.lines[index]?.unitPrice ?? 0));
        const share =
          below.reduce(
            (sum, line) => sum + line.quantity * (baseline.lines.find((l) => l.sku === line.sku)?.unitPrice ?? 0),
            0,
          ) / value;
        shares.push(share);
        // Its specialty opens well under the quote as a whole, not just under it.
        const opened = below.reduce((sum, line) => sum + line.quantity * line.opening, 0);
        if (share > 0) expect(opened / (share * value), `${name} seed ${seed}`).toBeLessThan(0.97);
        // …while the order as a whole stays the premium house's.
        expect(economics.floorTotal / value, `${name} seed ${seed}`).toBeGreaterThanOrEqual(
          PRICE_RANGES.expensive.min - 0.001,
        );
      }
    }
    const sorted = [...shares].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    // Most of a typical order, on most samples and seeds: more than the curveball's 60% cap leaves it.
    expect(median).toBeGreaterThan(0.6);
    expect(shares.filter((share) => share > 0.6).length / shares.length).toBeGreaterThan(0.6);
  });

  it('exports the floor total and the per-line floors for the outcomes benchmark', () => {
    for (const profile of PROFILES) {
      const economics = supplierEconomics(profile, BASELINE, 3);
      expect(supplierFloor(profile, BASELINE, 3)).toBe(economics.floorTotal);
      const prices = supplierFloorPrices(profile, BASELINE, 3);
      expect([...prices.keys()]).toEqual(BASELINE.lines.map((line) => line.sku));
      const total = BASELINE.lines.reduce((sum, line) => sum + line.quantity * (prices.get(line.sku) ?? 0), 0);
      expect(total).toBeCloseTo(economics.floorTotal, 2);
    }
  });

  it('prices a deal shape: softer terms, speed and extras cost it; the buyer’s concessions are worth a capped credit', () => {
    const profile = QUOTED_SUPPLIER_DEFAULTS;
    const economics = supplierEconomics(profile, BASELINE, 5);
    const standard = { paymentTerms: profile.paymentTerms, leadTimeDays: profile.leadTimeDays };
    const shape = (overrides: Partial<Parameters<typeof packageCostShare>[2]>) =>
      packageCostShare(economics, standard, { ...standard, extras: 0, volumeCommitted: false, ...overrides });
    expect(shape({})).toBe(0);
    expect(shape({ paymentTerms: '30/70' })).toBeGreaterThan(0);
    // Overtime, and its deposits are held for fewer days.
    expect(shape({ leadTimeDays: profile.leadTimeDays - 10 })).toBeGreaterThan(10 * economics.leadDayCost);
    expect(shape({ extras: 2 })).toBeCloseTo(2 * EXTRA_COST_SHARE, 10);
    expect(shape({ paymentTerms: '100' })).toBeLessThan(0);
    expect(shape({ volumeCommitted: true })).toBeCloseTo(-economics.volumeCredit, 10);
    expect(shape({ paymentTerms: '100', leadTimeDays: 200, volumeCommitted: true })).toBe(-MAX_PACKAGE_CREDIT);
  });
});

describe('the floor is the supplier’s secret', () => {
  it('is part of the supplier’s context and of no part of the brand’s', () => {
    expectTypeOf<SupplierTurnContext>().toHaveProperty('economics').toEqualTypeOf<SupplierEconomics>();
    expectTypeOf<BrandTurnContext>().not.toHaveProperty('economics');
    // Nor the negotiation's seed it is derived from.
    expectTypeOf<BrandTurnContext>().not.toHaveProperty('seed');
  });
});
