import { describe, expect, it } from 'vitest';
import { convertMoney, fxRate } from './fx.js';

const table = { asOf: '2026-01-02', usdPerUnit: { USD: 1, EUR: 1.1, CNY: 0.14 } };

describe('fxRate', () => {
  it('is 1 within a currency and carries the table date', () => {
    expect(fxRate('usd', 'USD', table)).toEqual({ from: 'USD', to: 'USD', rate: 1, asOf: '2026-01-02' });
  });

  it('converts through USD', () => {
    expect(fxRate('EUR', 'USD', table)?.rate).toBeCloseTo(1.1);
    expect(fxRate('CNY', 'EUR', table)?.rate).toBeCloseTo(0.14 / 1.1);
  });

  it('refuses a currency the table lacks instead of guessing', () => {
    expect(fxRate('XYZ', 'USD', table)).toBeNull();
    expect(convertMoney(100, 'USD', 'XYZ', table)).toBeNull();
  });

  it('rounds converted amounts to the cent', () => {
    expect(convertMoney(1_000, 'EUR', 'USD', table)).toBe(1_100);
    expect(convertMoney(2_094_500, 'CNY', 'USD', table)).toBe(293_230);
  });
});
