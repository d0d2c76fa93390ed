import { describe, expect, it } from 'vitest';
import { sheetGrid } from '../../test/support/grid-fixture.js';
import { isClosingDiscountLabel, isTaxLabel, percentInLabel } from './row-kinds.js';
import { structureSheet } from './structurer.js';
import { validateExtraction } from './validator.js';
import { EMPTY_TERMS } from './types.js';

const HEADER = ['SKU', 'Description', 'Qty', 'Unit Price', 'Amount'];
const ITEMS = [
  ['KF001-FRG-M', 'Fleece jacket', '100', '10', '1000'],
  ['KF002-NVY-L', 'Rain shell', '50', '20', '1000'],
];

describe('summary rows under the table', () => {
  it.each([
    ['IVA 21%'],
    ['GST 9%'],
    ['CGST @ 2.5%'],
    ['SGST 2.5%'],
    ['MwSt. 19%'],
    ['VAT'],
    ['Add: IGST 18%'],
    ['增值税'],
  ])('%j is a tax, never an item', (label) => {
    expect(isTaxLabel(label)).toBe(true);
    const sheet = sheetGrid('Q', [HEADER, ...ITEMS, ['', label, '', '', '180'], ['', 'Grand Total', '', '', '2180']]);
    const { extraction } = structureSheet(sheet);
    expect(extraction.lines).toHaveLength(2);
    expect(extraction.charges).toEqual([{ sheet: 'Q', row: 4, description: label, amount: 180 }]);
    expect(extraction.statedTotal?.amount).toBe(2180);
  });

  it('does not take a product named after a tax word for a tax', () => {
    expect(isTaxLabel('Taxi driver jacket')).toBe(false);
    expect(isTaxLabel('Vatican blue tee')).toBe(false);
  });

  it('reads a TOTAL merged across A:D as a total, not an item', () => {
    const sheet = sheetGrid('Q', [HEADER, ...ITEMS, ['TOTAL', 'TOTAL', 'TOTAL', 'TOTAL', '2000']]);
    const { extraction } = structureSheet(sheet);
    expect(extraction.lines).toHaveLength(2);
    expect(extraction.statedTotal?.amount).toBe(2000);
  });

  it('applies "Less 5% discount" to every line\'s unit price and says so', () => {
    const sheet = sheetGrid('Q', [
      HEADER,
      ...ITEMS,
      ['', 'Subtotal', '', '', '2000'],
      ['', 'Less 5% discount', '', '', '-100'],
      ['', 'Total', '', '', '1900'],
    ]);
    const { extraction, warnings } = structureSheet(sheet);
    expect(extraction.lines.map((l) => [l.unitPrice, l.discount])).toEqual([
      [9.5, 0.05],
      [19, 0.05],
    ]);
    expect(extraction.lines[0]?.notes).toContain('closing 5% discount');
    expect(warnings.join(' ')).toContain('closing 5% discount');
    const result = validateExtraction({
      sheets: [extraction],
      supplierName: null,
      terms: EMPTY_TERMS,
      notes: [],
      warnings,
    });
    expect(result.sheetFlags).toEqual([]);
    expect(result.lineFlags.flat()).toEqual([]);
  });

  it('works out a discount stated as an amount only', () => {
    const sheet = sheetGrid('Q', [HEADER, ...ITEMS, ['', 'Special discount', '', '', '-200']]);
    expect(structureSheet(sheet).extraction.lines.map((l) => l.unitPrice)).toEqual([9, 18]);
  });

  it.each([
    ['Less 5% discount', true, 0.05],
    ['Discount 3%', true, 0.03],
    ['Rabatt 2,5%', true, 0.025],
    ['Discount jacket', false, null],
  ])('%j: closing discount %s, rate %s', (label, closing, rate) => {
    expect(isClosingDiscountLabel(label)).toBe(closing);
    expect(percentInLabel(label)).toBe(rate);
  });
});
