import { describe, expect, it } from 'vitest';
import { assembleSku, tierPriceAt } from './size-matrix.js';

describe('assembleSku', () => {
  it('joins style, colour and size as written', () => {
    expect(assembleSku('KF001', 'FRG', 'M')).toBe('KF001-FRG-M');
    expect(assembleSku('MS005', 'Ember Red', 'XS')).toBe('MS005-Ember Red-XS');
    expect(assembleSku('WP002', null, '32')).toBe('WP002-32');
  });

  it('does not repeat what the style code already carries', () => {
    expect(assembleSku('KF001-FRG', 'FRG', 'M')).toBe('KF001-FRG-M');
    expect(assembleSku('KF001-FRG-M', 'FRG', 'M')).toBe('KF001-FRG-M');
  });
});

describe('tierPriceAt', () => {
  const tiers = [
    { minQty: 1, unitPrice: 7.1 },
    { minQty: 300, unitPrice: 6.55 },
    { minQty: 1000, unitPrice: 6.05 },
  ];

  it('takes the largest break not above the quantity', () => {
    expect(tierPriceAt(tiers, 250)).toEqual({ unitPrice: 7.1, belowSmallest: false });
    expect(tierPriceAt(tiers, 300)).toEqual({ unitPrice: 6.55, belowSmallest: false });
    expect(tierPriceAt(tiers, 999)).toEqual({ unitPrice: 6.55, belowSmallest: false });
    expect(tierPriceAt(tiers, 5000)).toEqual({ unitPrice: 6.05, belowSmallest: false });
  });

  it('falls back to the smallest break without a quantity or below it', () => {
    const fromMoq = [
      { minQty: 500, unitPrice: 4 },
      { minQty: 1000, unitPrice: 3.5 },
    ];
    expect(tierPriceAt(fromMoq, null)).toEqual({ unitPrice: 4, belowSmallest: true });
    expect(tierPriceAt(fromMoq, 100)).toEqual({ unitPrice: 4, belowSmallest: true });
    expect(tierPriceAt([], 100)).toBeNull();
  });
});
