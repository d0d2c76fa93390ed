import { describe, expect, it } from 'vitest';
import { formatItemList, formatMoney, formatPercent, formatSkuRef } from './format.js';

describe('formatSkuRef', () => {
  it('writes sku(description) with no space before the parenthesis (seed 002 §12)', () => {
    expect(formatSkuRef('MB013-0BS-XL', 'Insulated Winter Jacket')).toBe('MB013-0BS-XL(Insulated Winter Jacket)');
    expect(formatSkuRef(' MB015-RED-M ', ' Fleece Pullover ')).toBe('MB015-RED-M(Fleece Pullover)');
  });

  it('falls back to the bare SKU without a description', () => {
    expect(formatSkuRef('MB015-RED-M', null)).toBe('MB015-RED-M');
    expect(formatSkuRef('MB015-RED-M', '  ')).toBe('MB015-RED-M');
  });
});

describe('formatItemList', () => {
  const items = [
    { sku: 'MB013-0BS-XL', description: 'Insulated Winter Jacket', quantity: 50, unitPrice: 41.5 },
    { sku: 'MB015-RED-M', description: 'Fleece Pullover', quantity: 1200 },
  ];

  it('lists one item a line with its quantity', () => {
    expect(formatItemList(items)).toBe(
      '- MB013-0BS-XL(Insulated Winter Jacket) — Qty 50\n- MB015-RED-M(Fleece Pullover) — Qty 1,200',
    );
  });

  it('adds the unit price when asked and known', () => {
    expect(formatItemList(items, true)).toBe(
      '- MB013-0BS-XL(Insulated Winter Jacket) — Qty 50 @ $41.50\n- MB015-RED-M(Fleece Pullover) — Qty 1,200',
    );
    expect(formatItemList(items.slice(0, 1), true, 'EUR')).toBe(
      '- MB013-0BS-XL(Insulated Winter Jacket) — Qty 50 @ EUR 41.50',
    );
  });

  it('is empty for no items', () => {
    expect(formatItemList([])).toBe('');
  });
});

describe('formatMoney', () => {
  it('writes US dollars with $ and en-US grouping', () => {
    expect(formatMoney(41650)).toBe('$41,650.00');
    expect(formatMoney(0.5, 'usd')).toBe('$0.50');
    expect(formatMoney(1234567.891, 'USD')).toBe('$1,234,567.89');
  });

  it('prefixes other currencies with their ISO code, still en-US style', () => {
    expect(formatMoney(1234.5, 'EUR')).toBe('EUR 1,234.50');
    expect(formatMoney(85, 'cny')).toBe('CNY 85.00');
  });

  it('puts the sign in front and never shows minus zero', () => {
    expect(formatMoney(-1234.5)).toBe('-$1,234.50');
    expect(formatMoney(-1234.5, 'EUR')).toBe('-EUR 1,234.50');
    expect(formatMoney(-0.004)).toBe('$0.00');
  });

  it('rounds to the cent', () => {
    expect(formatMoney(10.005)).toBe('$10.01');
    expect(formatMoney(2.675)).toBe('$2.68');
  });
});

describe('formatPercent', () => {
  it('writes a ratio as a percentage', () => {
    expect(formatPercent(0.256)).toBe('26%');
    expect(formatPercent(0.25, 1)).toBe('25.0%');
  });
});
