import { describe, expect, it } from 'vitest';
import { sheetGrid } from '../../test/support/grid-fixture.js';
import { isCatalogCode, leadingCode, profileColumn, skuScore } from './column-roles.js';
import { structureSheet } from './structurer.js';
import type { ExtractedLine, SheetGrid } from './types.js';

const read = (sheet: SheetGrid) => structureSheet(sheet).extraction;
const brief = (line: ExtractedLine) => ({
  rawSku: line.rawSku,
  description: line.description,
  quantity: line.quantity,
  unitPrice: line.unitPrice,
});

describe('column roles by content', () => {
  it.each([['Item'], ['Ref'], ['PO Ref']])(
    'a 1..n %j column left of the code column is line numbering',
    (numbering) => {
      const sheet = sheetGrid('Quote', [
        [numbering, 'Product Code', 'Description', 'Qty', 'Unit Price', 'Amount'],
        ['1', 'KF001-FRG-M', 'Fleece jacket', '100', '12.50', '1250'],
        ['2', 'KF002-NVY-L', 'Rain shell', '50', '30', '1500'],
        ['3', 'KF003-BLK-S', 'Down vest', '20', '45', '900'],
      ]);
      const lines = read(sheet).lines.map(brief);
      expect(lines.map((l) => l.rawSku)).toEqual(['KF001-FRG-M', 'KF002-NVY-L', 'KF003-BLK-S']);
      expect(lines[0]).toMatchObject({ description: 'Fleece jacket', quantity: 100, unitPrice: 12.5 });
    },
  );

  it('an `Item` column of unique codes is the SKU when another column holds the words', () => {
    const sheet = sheetGrid('Quote', [
      ['Item', 'Particulars', 'Qty', 'Rate', 'Amount'],
      ['WP009-GLW-28', 'Waterproof pant glow 28', '10', '20', '200'],
      ['WP010-GLW-30', 'Waterproof pant glow 30', '12', '21', '252'],
    ]);
    expect(read(sheet).lines.map(brief)).toEqual([
      { rawSku: 'WP009-GLW-28', description: 'Waterproof pant glow 28', quantity: 10, unitPrice: 20 },
      { rawSku: 'WP010-GLW-30', description: 'Waterproof pant glow 30', quantity: 12, unitPrice: 21 },
    ]);
  });

  it('reads `Unit` under a merged `Price (USD)` as the unit price, not the unit of measure', () => {
    const sheet = sheetGrid('Quote', [
      ['SKU', 'Description', 'Qty', 'Price (USD)', 'Price (USD)'],
      ['', '', '', 'Unit', 'Total'],
      ['KF001-FRG-M', 'Fleece jacket', '100', '12.50', '1250'],
      ['KF002-NVY-L', 'Rain shell', '50', '30.25', '1512.5'],
    ]);
    const result = read(sheet);
    expect(result.lines.map((l) => [l.unitPrice, l.totalPrice])).toEqual([
      [12.5, 1250],
      [30.25, 1512.5],
    ]);
  });

  it('names the quantity and price columns by arithmetic when the headers do not', () => {
    const sheet = sheetGrid('Quote', [
      ['SKU', 'Description', 'Pack', 'Ordered', 'Each', 'Amount'],
      ['KF001-FRG-M', 'Fleece jacket', 'poly', '120', '12.5', '1500'],
      ['KF002-NVY-L', 'Rain shell', 'box', '40', '30.25', '1210'],
      ['KF003-BLK-S', 'Down vest', 'box', '7', '45.1', '315.7'],
    ]);
    expect(read(sheet).lines.map((l) => [l.quantity, l.unitPrice])).toEqual([
      [120, 12.5],
      [40, 30.25],
      [7, 45.1],
    ]);
  });

  it('never takes an HSN code for the SKU', () => {
    const sheet = sheetGrid('Quote', [
      ['Sl. No.', 'Particulars', 'HSN Code', 'Qty', 'Rate', 'Amount'],
      ['1', 'Cotton T-shirt crew neck', '61091000', '500', '180.00', '90000.00'],
      ['2', 'Polo shirt pique', '61051000', '300', '320.00', '96000.00'],
    ]);
    const lines = read(sheet).lines.map(brief);
    expect(lines.map((l) => l.rawSku)).toEqual([null, null]);
    expect(lines.map((l) => l.unitPrice)).toEqual([180, 320]);
  });

  it('tries the code at the start of a combined "SKU + name" cell as the SKU', () => {
    const sheet = sheetGrid('Quote', [
      ['Description of Goods', 'Qty', 'USD/pc', 'Amount'],
      ['KF001-FRG-M Fleece jacket', '100', '12.5', '1250'],
      ['Custom woven label', '1000', '0.1', '100'],
    ]);
    expect(read(sheet).lines.map(brief)).toEqual([
      { rawSku: 'KF001-FRG-M', description: 'Fleece jacket', quantity: 100, unitPrice: 12.5 },
      { rawSku: null, description: 'Custom woven label', quantity: 1000, unitPrice: 0.1 },
    ]);
  });

  it('profiles columns: numbering, codes, uniqueness', () => {
    const sheet = sheetGrid('S', [
      ['1', 'A-100'],
      ['2', 'A-101'],
      ['3', 'A-101'],
      ['4', 'B-7'],
    ]);
    const numbering = profileColumn(sheet, 0, [0, 1, 2, 3]);
    const codes = profileColumn(sheet, 1, [0, 1, 2, 3]);
    expect(numbering.lineNumbering).toBe(true);
    expect(skuScore(numbering)).toBe(0);
    expect(codes.codes).toBe(1);
    expect(codes.unique).toBe(0.75);
    expect(skuScore(codes)).toBeGreaterThan(0.8);
  });

  it.each([
    ['KF001-FRG-M Fleece jacket', { code: 'KF001-FRG-M', rest: 'Fleece jacket' }],
    ['WB018 - Wind breaker', { code: 'WB018', rest: 'Wind breaker' }],
    ['Fleece jacket KF001', null],
    ['100% cotton tee', null],
    ['2XL jacket', null],
  ])('leadingCode(%j)', (text, expected) => {
    expect(leadingCode(text)).toEqual(expected);
  });

  it('knows a catalog code', () => {
    expect(isCatalogCode('KF001-FRG-M')).toBe(true);
    expect(isCatalogCode('12')).toBe(false);
    expect(isCatalogCode('Jacket')).toBe(false);
  });
});
