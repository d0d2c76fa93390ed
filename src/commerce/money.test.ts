import { describe, expect, it } from 'vitest';
import {
  formatMoney,
  formatPercent,
  fromCents,
  fromMinorUnits,
  isSafeAmount,
  minorUnitDigits,
  toCents,
  toMinorUnits,
} from './money.js';

describe('minorUnitDigits', () => {
  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['JPY', 0],
    ['KWD', 3],
    ['jpy', 0],
    [' kwd ', 3],
    ['XYZ', 2],
    ['US$', 2],
    ['', 2],
  ])('%j has %i', (currency, digits) => {
    expect(minorUnitDigits(currency)).toBe(digits);
  });
});

describe('toMinorUnits / toCents', () => {
  it.each([
    // The decision's old copy multiplied by 100 and gave 100 and 1000 here: 1.005 is 1.00499999… as a float.
    [1.005, 101],
    [10.005, 1001],
    [2.675, 268],
    [41650, 4_165_000],
    [0.1 + 0.2, 30],
    [-1.005, -101],
    [-2.5, -250],
    [-0.004, 0],
    [-0, 0],
    [1e-7, 0],
  ])('toCents(%d) = %d', (amount, cents) => {
    expect(Object.is(toCents(amount), cents)).toBe(true);
  });

  it('rounds half away from zero, the same on both sides', () => {
    expect(toCents(0.125)).toBe(13);
    expect(toCents(-0.125)).toBe(-13);
    expect(toMinorUnits(-0.0049, 'USD')).toBe(0);
    expect(Object.is(toMinorUnits(-0.0049, 'USD'), -0)).toBe(false);
  });

  it("uses the currency's minor digits", () => {
    expect(toMinorUnits(1234.5, 'JPY')).toBe(1235);
    expect(toMinorUnits(-1234.5, 'JPY')).toBe(-1235);
    expect(toMinorUnits(1.0005, 'KWD')).toBe(1001);
    expect(toMinorUnits(12.5, 'EUR')).toBe(1250);
    expect(toMinorUnits(12.345, 'XYZ')).toBe(1235);
  });

  it('refuses amounts it cannot hold exactly', () => {
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
    expect(() => toCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => toCents(1e14)).toThrow(/not a safe amount/);
    expect(toMinorUnits(1e14, 'JPY')).toBe(1e14);
  });

  it('says beforehand which amounts it can hold', () => {
    expect(isSafeAmount(41650.5)).toBe(true);
    expect(isSafeAmount(-41650.5, 'EUR')).toBe(true);
    expect(isSafeAmount(1e14)).toBe(false);
    expect(isSafeAmount(1e14, 'JPY')).toBe(true);
    expect(isSafeAmount(Number.NaN)).toBe(false);
    expect(isSafeAmount(Number.NEGATIVE_INFINITY)).toBe(false);
  });
});

describe('fromMinorUnits / fromCents', () => {
  it('gives currency units, rounding to a whole minor unit first and never -0', () => {
    expect(fromCents(4_165_000)).toBe(41650);
    expect(fromCents(12_345.6)).toBe(123.46);
    expect(Object.is(fromCents(-0.3), 0)).toBe(true);
    expect(fromMinorUnits(1235, 'JPY')).toBe(1235);
    expect(fromMinorUnits(1001, 'KWD')).toBe(1.001);
  });

  it('round-trips what toMinorUnits gives', () => {
    for (const [amount, currency] of [
      [19.99, 'USD'],
      [-0.01, 'EUR'],
      [1500, 'JPY'],
      [0.125, 'KWD'],
    ] as const) {
      expect(fromMinorUnits(toMinorUnits(amount, currency), currency)).toBe(amount);
    }
  });

  it('refuses what is not a number of minor units', () => {
    expect(() => fromCents(Number.NaN)).toThrow(RangeError);
    expect(() => fromCents(2 ** 60)).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  it.each([
    [41650, 'USD', '$41,650.00'],
    [0.5, 'usd', '$0.50'],
    [1234567.891, 'USD', '$1,234,567.89'],
    // The decision's old copy wrote "€1,234.50" where the negotiation wrote "EUR 1,234.50", in the same thread.
    [1234.5, 'EUR', 'EUR 1,234.50'],
    [85, 'cny', 'CNY 85.00'],
    [2094500, 'CNY', 'CNY 2,094,500.00'],
    [1234.5, 'JPY', 'JPY 1,235'],
    [1.2345, 'KWD', 'KWD 1.235'],
    [-1234.5, 'USD', '-$1,234.50'],
    [-1234.5, 'EUR', '-EUR 1,234.50'],
    [-0.004, 'USD', '$0.00'],
    [-0, 'EUR', 'EUR 0.00'],
    [10.005, 'USD', '$10.01'],
    [2.675, 'USD', '$2.68'],
  ])('formatMoney(%d, %j) = %j', (amount, currency, expected) => {
    expect(formatMoney(amount, currency)).toBe(expected);
  });

  it('defaults to US dollars', () => {
    expect(formatMoney(12.5)).toBe('$12.50');
  });

  it('never throws on a code Intl does not know, and shows it as written', () => {
    expect(formatMoney(1234.5, 'XYZ')).toBe('XYZ 1,234.50');
    expect(formatMoney(1234.5, 'US$')).toBe('US$ 1,234.50');
    expect(formatMoney(1234.5, 'dollars')).toBe('DOLLARS 1,234.50');
    expect(formatMoney(1234.5, '')).toBe('1,234.50');
  });

  it('writes amounts too large for exact cents, and non-numbers, without throwing', () => {
    expect(formatMoney(1e15)).toBe('$1,000,000,000,000,000.00');
    expect(formatMoney(Number.NaN, 'EUR')).toBe('EUR NaN');
  });
});

describe('formatPercent', () => {
  it.each([
    [0.123, undefined, undefined, '12.3%'],
    [0.05, undefined, undefined, '5.0%'],
    [0.256, 0, undefined, '26%'],
    [0.25, 1, undefined, '25.0%'],
    [0.0055, 2, undefined, '0.55%'],
    // Trailing zeros dropped, as a message says it.
    [0.045, 1, 0, '4.5%'],
    [0.05, 1, 0, '5%'],
    [0.1, 2, 1, '10.0%'],
    [-0.0001, 1, undefined, '0.0%'],
    [-0.001, 0, undefined, '0%'],
    [-0.05, 1, 0, '-5%'],
  ])('formatPercent(%d, %s, %s) = %j', (fraction, digits, minimumDigits, expected) => {
    expect(formatPercent(fraction, digits, minimumDigits)).toBe(expected);
  });
});
