import { describe, expect, it } from 'vitest';
import { formatEuro, formatDiscount, formatPrefixed, formatQuantity, lineAmountCents, netUnitPrice } from './money.js';

describe('money', () => {
  it('nets a discount to 4 dp and rounds a line amount once, to the cent', () => {
    expect(netUnitPrice(1250, 50)).toBe(11.875);
    expect(netUnitPrice(1125, 75)).toBe(10.4063);
    expect(lineAmountCents(50, 1125, 50)).toBe(53_438);
    expect(lineAmountCents(300, 1235)).toBe(370_500);
  });

  it('writes numbers as suppliers type them', () => {
    expect(formatPrefixed('US$ ', 123_400)).toBe('US$ 1,234.00');
    expect(formatPrefixed('$', 1250)).toBe('$12.50');
    expect(formatPrefixed('¥', 8500)).toBe('¥85.00');
    expect(formatEuro(123_450)).toBe('1.234,50 €');
    expect(formatEuro(1250)).toBe('12,50 €');
    expect(formatQuantity(1200, 'pcs')).toBe('1,200 pcs');
    expect(formatQuantity(1200, 'un.', true)).toBe('1.200 un.');
    expect(formatDiscount(75, true)).toBe('7,5%');
    expect(formatDiscount(50)).toBe('5%');
  });
});
