import { describe, expect, it } from 'vitest';
import { COST_OF_CAPITAL_ANNUAL } from '../config/business-rules.js';
import { cashFlowCost, cashFlowCostRate } from './cash-flow.js';
import { isValidSplit, paymentSchedule } from './payment-terms.js';

describe('cashFlowCost: the seed’s three figures (§10)', () => {
  it('$42K at 33/33/33 with a 50-day lead ≈ $229', () => {
    // Thirds at order (50 days before delivery), midway (25 days) and delivery (0 days):
    // 42000 × 0.08 × (⅓×50 + ⅓×25 + ⅓×0) / 365 = 3360 × 25 / 365 = 230.14. Read literally as 33% + 33% + 33% it is
    // 42000 × 0.08 × (0.33×50 + 0.33×25) / 365 = 227.84; the seed's ~229 sits between. 33/33/33 means thirds.
    const cost = cashFlowCost({ amount: 42_000, paymentTerms: '33/33/33', leadTimeDays: 50 });
    expect(cost).toBe(230.14);
    expect(Math.abs(cost - 229)).toBeLessThanOrEqual(2);
  });

  it('$52K at 40/60 with 25 days ≈ $114', () => {
    // 40% at order, 25 days before delivery; 60% at delivery costs nothing: 52000 × 0.4 × 0.08 × 25 / 365 = 113.97.
    const cost = cashFlowCost({ amount: 52_000, paymentTerms: '40/60', leadTimeDays: 25 });
    expect(cost).toBe(113.97);
    expect(Math.abs(cost - 114)).toBeLessThanOrEqual(2);
  });

  it('$46K at 100% upfront with 15 days ≈ $152', () => {
    // Everything at order, 15 days before delivery: 46000 × 0.08 × 15 / 365 = 151.23.
    const cost = cashFlowCost({ amount: 46_000, paymentTerms: '100', leadTimeDays: 15 });
    expect(cost).toBe(151.23);
    expect(Math.abs(cost - 152)).toBeLessThanOrEqual(2);
  });
});

describe('cashFlowCost', () => {
  it('uses the configured cost of capital by default and takes another rate', () => {
    const base = { amount: 10_000, paymentTerms: '100', leadTimeDays: 365 } as const;
    expect(cashFlowCost(base)).toBe(10_000 * COST_OF_CAPITAL_ANNUAL);
    expect(cashFlowCost({ ...base, annualRate: 0.12 })).toBe(1_200);
    expect(cashFlowCost({ ...base, annualRate: 0 })).toBe(0);
  });

  it('spaces n instalments evenly from order to delivery', () => {
    expect(paymentSchedule([100], 40)).toEqual([{ share: 1, paidOnDay: 0, daysBeforeDelivery: 40 }]);
    expect(paymentSchedule([30, 70], 40).map((p) => p.paidOnDay)).toEqual([0, 40]);
    expect(paymentSchedule([30, 40, 30], 40).map((p) => p.paidOnDay)).toEqual([0, 20, 40]);
    expect(paymentSchedule([25, 25, 25, 25], 60).map((p) => p.daysBeforeDelivery)).toEqual([60, 40, 20, 0]);
  });

  it('accepts the percentages themselves and text the parser reads', () => {
    const fromText = cashFlowCost({ amount: 52_000, paymentTerms: '40% deposit, 60% on delivery', leadTimeDays: 25 });
    expect(fromText).toBe(cashFlowCost({ amount: 52_000, paymentTerms: [40, 60], leadTimeDays: 25 }));
  });

  it('costs nothing when nothing is paid before delivery, or when there is no lead time', () => {
    expect(cashFlowCost({ amount: 50_000, paymentTerms: 'Net 30', leadTimeDays: 45 })).toBe(0);
    expect(cashFlowCost({ amount: 50_000, paymentTerms: '0/100', leadTimeDays: 45 })).toBe(0);
    expect(cashFlowCost({ amount: 50_000, paymentTerms: '100', leadTimeDays: 0 })).toBe(0);
  });

  it('normalises rounding (33/33/33 = thirds) but refuses splits that do not add up', () => {
    expect(cashFlowCostRate('33/33/33', 50)).toBeCloseTo(cashFlowCostRate([100 / 3, 100 / 3, 100 / 3], 50), 12);
    expect(isValidSplit([33, 33, 33])).toBe(true);
    expect(isValidSplit([33, 33, 34])).toBe(true);
    expect(isValidSplit([30, 60])).toBe(false);
    expect(isValidSplit([60, 50])).toBe(false);
    expect(isValidSplit([99])).toBe(false);
    expect(isValidSplit([-10, 110])).toBe(false);
    expect(isValidSplit([])).toBe(false);
    expect(() => cashFlowCost({ amount: 1_000, paymentTerms: '30/60', leadTimeDays: 10 })).toThrow(RangeError);
    expect(() => cashFlowCost({ amount: 1_000, paymentTerms: 'whenever', leadTimeDays: 10 })).toThrow(/unreadable/);
  });

  it('refuses a negative amount, lead time or rate', () => {
    expect(() => cashFlowCost({ amount: -1, paymentTerms: '100', leadTimeDays: 10 })).toThrow(RangeError);
    expect(() => cashFlowCost({ amount: 1, paymentTerms: '100', leadTimeDays: -1 })).toThrow(RangeError);
    expect(() => cashFlowCost({ amount: 1, paymentTerms: '100', leadTimeDays: 1, annualRate: -0.1 })).toThrow(
      RangeError,
    );
  });
});

describe('cashFlowCost on terms as written', () => {
  it('prices "30% deposit, balance before shipment" like 30/70', () => {
    const written = cashFlowCost({
      amount: 20_000,
      paymentTerms: '30% T/T deposit, balance before shipment',
      leadTimeDays: 40,
    });
    expect(written).toBe(cashFlowCost({ amount: 20_000, paymentTerms: '30/70', leadTimeDays: 40 }));
  });

  it('refuses, never rescales, a split that does not add up to 100%', () => {
    // Read in proportion, 30/60 would be thirds at order: a cost the supplier never quoted.
    expect(() => cashFlowCostRate('30/60', 40)).toThrow(RangeError);
    expect(() => cashFlowCostRate([30, 60], 40)).toThrow(/do not add up to 100/);
    expect(() => cashFlowCostRate('50/51', 40)).toThrow(RangeError);
  });
});
