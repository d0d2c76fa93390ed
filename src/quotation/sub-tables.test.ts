// Size charts and spec tables under a product line: their cells land in the quantity and price
// columns, and they must become the product's note, never items of their own.
import { describe, expect, it } from 'vitest';
import { sheetGrid } from '../../test/support/grid-fixture.js';
import { structureSheet } from './structurer.js';
import { isMeasurementLabel, isMeasurementValue, isSizeHeaderRow, isSpecLabel } from './sub-tables.js';

const HEADER = ['SKU', 'Description', 'Qty', 'Unit Price (USD)', 'Amount (USD)'];
const read = (rows: string[][]) => {
  const { extraction, warnings } = structureSheet(sheetGrid('Quote', rows));
  return { lines: extraction.lines, warnings };
};

describe('size charts under a product', () => {
  it('keeps a Size / Chest / Length / Sleeve table across S M L XL as the note of the line above', () => {
    const { lines, warnings } = read([
      HEADER,
      ['WB001-BLK-M', 'Windbreaker', '200', '12.50', '2500'],
      ['', 'Size', 'S', 'M', 'L', 'XL'],
      ['', 'Chest (cm)', '52', '54', '56', '58'],
      ['', 'Length (cm)', '70', '72', '74', '76'],
      ['', 'Sleeve (cm)', '60', '61', '62', '63'],
      ['WB002-NVY-L', 'Rain shell', '100', '20.00', '2000'],
    ]);
    expect(lines.map((l) => [l.row, l.rawSku, l.quantity, l.unitPrice])).toEqual([
      [2, 'WB001-BLK-M', 200, 12.5],
      [7, 'WB002-NVY-L', 100, 20],
    ]);
    expect(lines[0]?.notes).toContain('Chest (cm) 52 54 56 58');
    expect(lines[1]?.notes).toBeNull();
    expect(warnings).toContain(
      "1 size or spec table on 'Quote' (B3:F6) was kept as a note of the line above, not read as items.",
    );
  });

  it('reads a chart with no size row, in inches with fractions, its labels in the code column', () => {
    const { lines } = read([
      HEADER,
      ['JK010-GRN-L', 'Field jacket', '300', '18.00', '5400'],
      ['1/2 Chest (inch)', '', '21', '22', '23 1/2'],
      ['Body length from HPS', '', '27½', '28½', '29"'],
      ['JK011-BLK-M', 'Liner', '150', '9.00', '1350'],
    ]);
    expect(lines.map((l) => l.rawSku)).toEqual(['JK010-GRN-L', 'JK011-BLK-M']);
    expect(lines[0]?.notes).toContain('Body length from HPS');
  });

  it('finds the label wherever the columns put it (values before and after it)', () => {
    const { lines } = read([
      ['Qty', 'SKU', 'Unit Price (USD)', 'Description', 'Amount (USD)', 'Remarks'],
      ['200', 'WB001-BLK-M', '12.50', 'Windbreaker', '2500', 'Sample approved'],
      ['M', '', 'L', 'Size', 'S', ''],
      ['55', '', '58', 'Chest (cm)', '52', ''],
      ['72', '', '74', 'Body length (cm)', '70', ''],
      ['100', 'WB002-NVY-L', '20.00', 'Rain shell', '2000', ''],
    ]);
    expect(lines.map((l) => l.rawSku)).toEqual(['WB001-BLK-M', 'WB002-NVY-L']);
  });

  it('in a table with no code column, the next product still ends the chart', () => {
    const { lines } = read([
      ['Particulars', 'Qty', 'Rate', 'Amount'],
      ['Fleece jacket', '100', '10', '1000'],
      ['Size', 'S', 'M', 'L'],
      ['Brustweite', '50', '53', '56'],
      ['Ärmellänge', '61', '62', '63'],
      ['Rain shell', '50', '20', '1000'],
      ['胸围 (cm)', '50', '53', '56'],
    ]);
    expect(lines.map((l) => [l.description, l.quantity])).toEqual([
      ['Fleece jacket', 100],
      ['Rain shell', 50],
    ]);
  });

  it('ignores a chart with no line above it, naming the sheet and cells', () => {
    const { lines, warnings } = read([
      HEADER,
      ['JACKETS'],
      ['Size', '', 'S', 'M', 'L'],
      ['Chest', '', '52', '54', '56'],
      [],
      ['WB001-BLK-M', 'Windbreaker', '200', '12.50', '2500'],
    ]);
    expect(lines.map((l) => l.rawSku)).toEqual(['WB001-BLK-M']);
    expect(warnings).toContain("1 size or spec table on 'Quote' (A3:E4) had no line above it and was ignored.");
  });
});

describe('spec tables under a product', () => {
  it('keeps Fabric / Weight / Zipper rows under a "Specifications" heading as the note, not as items', () => {
    const { lines } = read([
      HEADER,
      ['HD001-GRY-M', 'Hoodie', '400', '8.00', '3200'],
      ['', 'Specifications'],
      ['', 'Fabric', '80% cotton 20% polyester'],
      ['', 'Weight (gsm)', '320'],
      ['', 'Zipper', 'YKK #5'],
      ['HD002-BLK-L', 'Zip hoodie', '200', '9.50', '1900'],
    ]);
    expect(lines.map((l) => [l.rawSku, l.quantity])).toEqual([
      ['HD001-GRY-M', 400],
      ['HD002-BLK-L', 200],
    ]);
    expect(lines[0]?.notes).toContain('Weight (gsm) 320');
  });

  it('a heading with sizes across opens a chart; a blank row closes it', () => {
    const { lines } = read([
      HEADER,
      ['PT001-KHK-32', 'Chino', '250', '11.00', '2750'],
      ['', 'Measurements (cm)', 'S', 'M', 'L'],
      ['', 'Waist', '76', '81', '86'],
      ['', 'Inseam', '80', '81', '82'],
      [],
      ['', 'Belt loop kit', '250', '0.40', '100'],
    ]);
    expect(lines.map((l) => l.description)).toEqual(['Chino', 'Belt loop kit']);
  });
});

describe('what is not a size chart', () => {
  it('keeps products whose names carry a measurement word, and size-run rows with a code', () => {
    const { lines } = read([
      HEADER,
      ['CR001-BLK-OS', 'Chest rig', '100', '30.00', '3000'],
      ['', 'Long sleeve tee', '200', '5.00', '1000'],
      ['SL002-NVY-M', 'Sleeve', '50', '2.00', '100'],
    ]);
    expect(lines.map((l) => l.description)).toEqual(['Chest rig', 'Long sleeve tee', 'Sleeve']);
  });

  it.each([
    ['Chest (cm)', true],
    ['1/2 chest', true],
    ['Sleeve length', true],
    ['Hüfte', true],
    ['衣长', true],
    ['Chest rig', false],
    ['Long sleeve tee', false],
    ['Waist bag', false],
  ])('isMeasurementLabel(%j) is %s', (label, expected) => {
    expect(isMeasurementLabel(label)).toBe(expected);
  });

  it('tells size rows, spec labels and measurement values', () => {
    expect(isSizeHeaderRow(['Size', 'S', 'M', 'L', 'XL'])).toBe(true);
    expect(isSizeHeaderRow(['S', 'M', 'L'])).toBe(true);
    expect(isSizeHeaderRow(['Size', '28', '30', '32'])).toBe(true);
    expect(isSizeHeaderRow(['Fleece jacket', 'M', 'L'])).toBe(false);
    expect(isSpecLabel('Fabric:')).toBe(true);
    expect(isSpecLabel('Fabric softener')).toBe(false);
    expect(['52', '27 1/2', '27½', '70±1', '28"', '52 cm'].every(isMeasurementValue)).toBe(true);
    expect(isMeasurementValue('Navy')).toBe(false);
  });
});
