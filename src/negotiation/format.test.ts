import { describe, expect, it } from 'vitest';
import { formatItemList, formatSkuRef } from './format.js';

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
