import { describe, expect, it } from 'vitest';
import { isChargeLabel, isCodeLike, totalKind } from './row-kinds.js';

describe('totalKind', () => {
  it.each([
    ['TOTAL', 'plain'],
    ['Total:', 'plain'],
    ['Sheet total', 'plain'],
    ['Total jackets', 'plain'],
    ['TOTAL (pcs / USD)', 'plain'],
    ['合计 Total', 'plain'],
    ['Total líquido / Net total', 'plain'],
    ['Grand Total', 'grand'],
    ['GRAND TOTAL', 'grand'],
    ['Total (USD)', 'grand'],
    ['Total Amount', 'grand'],
    ['总计', 'grand'],
    ['Subtotal', 'sub'],
    ['Sub-total', 'sub'],
    ['小计', 'sub'],
    ['Zwischensumme', 'sub'],
    ['Base imponible', 'sub'],
    ['Gesamtbetrag', 'grand'],
    ['Endbetrag', 'grand'],
    ['Importe total', 'grand'],
    ['Tổng cộng / Total', 'grand'],
  ])('%j is a %s total', (text, kind) => {
    expect(totalKind(text)).toBe(kind);
  });

  it.each([
    'Ridgeline Fleece',
    'Payment terms',
    'Total Protection Shell',
    'A total protection shell jacket for alpine and hut-to-hut use',
  ])('%j is no total', (text) => {
    expect(totalKind(text)).toBeNull();
  });
});

describe('isChargeLabel', () => {
  it.each([
    'Sea freight to Rotterdam',
    'Air freight',
    'Courier (DHL)',
    'Shipping',
    'Pre-production samples, 2 per style',
    'Sample charge',
    'Tooling',
    'Mould charge',
    'Mold',
    'Screen set-up',
    'Export carton packaging, 5-ply',
    'Handling fee',
    'Bank charges',
    'Insurance',
    '运费',
    '样品费',
    '模具费',
  ])('%j is a charge', (text) => {
    expect(isChargeLabel(text)).toBe(true);
  });

  it.each(['Ridgeline Quarter-Zip Fleece', 'Packable Rain Jacket', 'Custom woven label 50x15mm'])(
    '%j is a product',
    (text) => {
      expect(isChargeLabel(text)).toBe(false);
    },
  );
});

describe('isCodeLike', () => {
  it('tells product codes from words', () => {
    expect(isCodeLike('KF001-FRG-M')).toBe(true);
    expect(isCodeLike('WL-5015')).toBe(true);
    expect(isCodeLike('Sea freight')).toBe(false);
    expect(isCodeLike('FREIGHT')).toBe(false);
  });
});
