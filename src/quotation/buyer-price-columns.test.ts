// Issue 16, class 6: a column of the buyer's own figures (target, budget, last price paid, benchmark) is never read as
// the supplier's price, in every language the header vocabulary reads — one test per word, and the structurer reading
// the supplier's column beside each of them.
import { describe, expect, it } from 'vitest';
import { sheetGrid } from '../../test/support/grid-fixture.js';
import { classifyHeader } from './header-detection.js';
import { structureSheet } from './structurer.js';

const BUYER_HEADERS = [
  'Target',
  'Target Price',
  'Target Price (USD)',
  'Target Rate',
  'Budget',
  'Budget Price',
  'Budgeted Cost',
  'Our Price',
  'Our Rate',
  'Last PO Price',
  'Last Price',
  'Last Purchase Price',
  'LPP',
  'L.P.P.',
  'Previous Price',
  'Previous Rate',
  'Prev. Price',
  'Old Price',
  'Benchmark',
  'Benchmark Price',
  'Zielpreis',
  'Ziel-Preis',
  'Unser Preis',
  'Letzter Preis',
  'Letzter EK-Preis',
  'Vorpreis',
  'Precio objetivo',
  'Precio anterior',
  'Precio de referencia',
  'Nuestro precio',
  'Último precio',
  '目标价',
  '预算',
  '上次价格',
  '历史价格',
  '参考价',
  'Giá mục tiêu',
  'Ngân sách',
  'Giá cũ',
];

describe('buyer price columns', () => {
  it.each(BUYER_HEADERS)('"%s" is not a supplier price column', (header) => {
    expect(classifyHeader(header)?.kind).toBe('ignore');
  });

  it.each(['Unit Price', 'Your Price', 'Price', 'Rate', 'Precio unitario', '单价', 'Einzelpreis'])(
    '"%s" is still a price',
    (header) => {
      expect(classifyHeader(header)?.kind).toBe('unitPrice');
    },
  );

  it.each(BUYER_HEADERS)('reads the supplier price, not a "%s" column left of it', (header) => {
    const sheet = sheetGrid('Reply', [
      ['SKU', 'Description', 'Qty', header, 'Price', 'Amount'],
      ['KF001-FRG-M', 'Fleece jacket', '100', '10.00', '12.50', '1250.00'],
      ['KF001-FRG-L', 'Fleece jacket', '200', '10.00', '12.50', '2500.00'],
    ]);
    const { extraction } = structureSheet(sheet);
    expect(extraction.lines.map((line) => line.unitPrice)).toEqual([12.5, 12.5]);
  });
});
