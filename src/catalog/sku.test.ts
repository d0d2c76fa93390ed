import { describe, expect, it } from 'vitest';
import { parseSku, SKU_PATTERN } from './sku.js';

describe('parseSku', () => {
  it.each([
    ['MC001-GLW-XL', { skuPrefix: 'MC001', colorCode: 'GLW', sizeCode: 'XL' }],
    ['MB013-0BS-XL', { skuPrefix: 'MB013', colorCode: '0BS', sizeCode: 'XL' }],
    ['WP120-SAG-32', { skuPrefix: 'WP120', colorCode: 'SAG', sizeCode: '32' }],
    ['MW004-1RN-12H', { skuPrefix: 'MW004', colorCode: '1RN', sizeCode: '12H' }],
    ['UH007-FOG-S', { skuPrefix: 'UH007', colorCode: 'FOG', sizeCode: 'S' }],
  ])('splits %s into style, colour and size', (sku, parts) => {
    expect(parseSku(sku)).toEqual(parts);
    expect(SKU_PATTERN.test(sku)).toBe(true);
  });

  it.each([
    '',
    'MC001',
    'MC001-GLW',
    'MC001-GLW-XL-2',
    'mc001-glw-xl',
    'M001-GLW-XL',
    'MC01-GLW-XL',
    'MC0001-GLW-XL',
    'MC001-GL-XL',
    'MC001-GLWW-XL',
    'MC001-GLW-',
    'MC001-GLW-XXXL',
    ' MC001-GLW-XL',
    'MC001_GLW_XL',
    'MC001-GLW-7.5',
  ])('rejects %j', (sku) => {
    expect(parseSku(sku)).toBeNull();
  });
});
