// A comparison sheet read with the supplier column the buyer picked (StructureOptions.priceColumn): that supplier's
// prices and amounts are the lines', never a neighbour's, a target's or the leftmost supplier's.
import { describe, expect, it } from 'vitest';
import { sheetGrid, workbookGrid } from '../../test/support/grid-fixture.js';
import { structureSheet, structureWorkbook } from './structurer.js';

const MERGED = sheetGrid('Comparison', [
  ['Price comparison — fleece programme'],
  ['', '', '', '', 'Acme Textiles Ltd', 'Acme Textiles Ltd', 'Brightstar Co., Ltd', 'Brightstar Co., Ltd'],
  ['SKU', 'Description', 'Qty', 'Target Price', 'Unit Price', 'Amount', 'Unit Price', 'Amount'],
  ['KF001-FRG-M', 'Fleece jacket', '100', '9', '10', '1000', '11', '1100'],
  ['KF002-NVY-L', 'Rain shell', '50', '18', '20', '1000', '19.5', '975'],
]);

const pick = (column: number, name: string) => ({ priceColumn: { sheet: 'Comparison', column, name } });
const prices = (options: ReturnType<typeof pick>) =>
  structureSheet(MERGED, options).extraction.lines.map((l) => [l.rawSku, l.quantity, l.unitPrice, l.totalPrice]);

describe('structureSheet with a chosen price column', () => {
  it('reads the picked supplier’s price and its own amount', () => {
    expect(prices(pick(6, 'Brightstar Co., Ltd'))).toEqual([
      ['KF001-FRG-M', 100, 11, 1100],
      ['KF002-NVY-L', 50, 19.5, 975],
    ]);
    expect(prices(pick(4, 'Acme Textiles Ltd'))).toEqual([
      ['KF001-FRG-M', 100, 10, 1000],
      ['KF002-NVY-L', 50, 20, 1000],
    ]);
  });

  it('a chosen column with no amount beside it leaves the total to qty × price, not a neighbour’s amount', () => {
    const sheet = sheetGrid('Comparison', [
      ['SKU', 'Qty', 'Supplier A Price', 'Supplier B Price', 'Supplier C Price', 'Amount (A)'],
      ['KF001-FRG-M', '100', '10', '11', '10.5', '1000'],
    ]);
    const lines = structureSheet(sheet, pick(3, 'Supplier B')).extraction.lines;
    expect(lines.map((l) => [l.unitPrice, l.totalPrice])).toEqual([[11, null]]);
  });

  it('leaves other sheets alone', () => {
    const other = sheetGrid('Other', [
      ['SKU', 'Qty', 'Unit Price', 'Amount'],
      ['KF001-FRG-M', '10', '5', '50'],
    ]);
    expect(structureSheet(other, pick(2, 'Supplier B')).extraction.lines[0]?.unitPrice).toBe(5);
  });

  it('makes the workbook that supplier’s quotation: its name, no comparison left to pick', () => {
    const workbook = workbookGrid(MERGED);
    const pending = structureWorkbook(workbook);
    expect(pending.comparison).toEqual([
      { sheet: 'Comparison', column: 4, name: 'Acme Textiles Ltd' },
      { sheet: 'Comparison', column: 6, name: 'Brightstar Co., Ltd' },
    ]);
    expect(pending.warnings[0]).toMatch(/^This is a comparison of 2 suppliers/);
    const picked = structureWorkbook(workbook, pick(6, 'Brightstar Co., Ltd'));
    expect(picked.supplierName).toBe('Brightstar Co., Ltd');
    expect(picked.comparison).toBeUndefined();
    expect(picked.warnings.some((w) => w.startsWith('This is a comparison'))).toBe(false);
  });
});
