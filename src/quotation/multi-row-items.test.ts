// Items written over more than one row: price breaks as rows under their product, and a product's name, fabric and
// packing on rows of their own with the code, quantity and price merged down beside them.
import { describe, expect, it } from 'vitest';
import { sheetGrid } from '../../test/support/grid-fixture.js';
import { structureSheet } from './structurer.js';

describe('price breaks written as rows', () => {
  const HEADER = ['Model', 'Product Name', 'Order Qty', 'Quantity Break', 'Unit Price (USD)'];
  const product = (sku: string, qty: string, prices: [string, string, string]) => [
    [sku, 'Trail cap', qty, '1-499 pcs', prices[0]],
    ['', '', '', '500-999 pcs', prices[1]],
    ['', '', '', '≥1,000 pcs', prices[2]],
  ];

  it('gives each product all its breaks and prices it at the break its order quantity reaches', () => {
    const sheet = sheetGrid('Offer', [
      HEADER,
      ...product('HC001-BLK-OS', '200', ['5.00', '4.70', '4.45']),
      ...product('HC002-NVY-OS', '600', ['6.00', '5.60', '5.30']),
      ...product('HC003-RED-OS', '1500', ['7.00', '6.60', '6.20']),
    ]);
    const { lines } = structureSheet(sheet).extraction;
    expect(lines.map((l) => [l.row, l.rawSku, l.quantity, l.unitPrice])).toEqual([
      [2, 'HC001-BLK-OS', 200, 5],
      [5, 'HC002-NVY-OS', 600, 5.6],
      [8, 'HC003-RED-OS', 1500, 6.2],
    ]);
    expect(lines[1]?.tiers).toEqual([
      { minQty: 1, unitPrice: 6 },
      { minQty: 500, unitPrice: 5.6 },
      { minQty: 1000, unitPrice: 5.3 },
    ]);
  });

  it('reads breaks written in the quantity column under the product, its own price being the first', () => {
    const sheet = sheetGrid('Offer', [
      ['SKU', 'Description', 'Qty', 'Unit Price (USD)'],
      ['HC001-BLK-OS', 'Trail cap', '800', '5.00'],
      ['', '', '500+ pcs', '4.70'],
      ['', '', '3,000+ pcs', '4.45'],
      ['HC002-NVY-OS', 'Beanie', '300', '6.00'],
      ['', '', '≥1000', '5.50'],
      ['HC003-RED-OS', 'Neck gaiter', '200', '3.00'],
    ]);
    const { lines } = structureSheet(sheet).extraction;
    expect(lines.map((l) => [l.row, l.quantity, l.unitPrice, l.tiers.map((t) => t.minQty)])).toEqual([
      [2, 800, 4.7, [1, 500, 3000]],
      [5, 300, 6, [1, 1000]],
      [7, 200, 3, []],
    ]);
  });

  it('leaves a product with one price alone when the label column is not breaks', () => {
    const sheet = sheetGrid('Offer', [
      ['Model', 'Product Name', 'Qty', 'Remarks', 'Unit Price'],
      ['HC001-BLK-OS', 'Trail cap', '200', 'embroidered', '5'],
      ['HC002-NVY-OS', 'Trail cap', '300', 'printed', '6'],
    ]);
    const { lines } = structureSheet(sheet).extraction;
    expect(lines.map((l) => [l.unitPrice, l.tiers.length])).toEqual([
      [5, 0],
      [6, 0],
    ]);
  });
});

describe('a product over several rows with its values merged down', () => {
  const HEADER = ['Style No.', 'Description', 'Qty', 'Pricing Per Unit', 'Amount'];

  it('is one line on its first row, the rows below adding detail, not lines', () => {
    const rows = [
      HEADER,
      ['MJ014-BLK-M', 'Alpine shell jacket', '300', '42.5', '12750'],
      ['', 'Fabric: 100% recycled polyester, 280 gsm'],
      ['', 'Packing: 1 pc per polybag'],
      ['KF001-FRG-L', 'Ridgeline fleece', '200', '18', '3600'],
      ['', 'Fabric: 300 gsm polar fleece'],
    ];
    const sheet = sheetGrid('Q', rows, {
      mergedDown: [
        [2, 1, 4],
        [2, 3, 4],
        [2, 4, 4],
        [2, 5, 4],
        [5, 1, 6],
        [5, 3, 6],
        [5, 4, 6],
        [5, 5, 6],
      ],
    });
    const { lines } = structureSheet(sheet).extraction;
    expect(lines.map((l) => [l.row, l.rawSku, l.description, l.quantity, l.unitPrice])).toEqual([
      [2, 'MJ014-BLK-M', 'Alpine shell jacket', 300, 42.5],
      [5, 'KF001-FRG-L', 'Ridgeline fleece', 200, 18],
    ]);
    expect(lines[0]?.notes).toBe('Fabric: 100% recycled polyester, 280 gsm; Packing: 1 pc per polybag');
  });

  it('still reads rows that share a merged price but have quantities of their own', () => {
    const sheet = sheetGrid(
      'Q',
      [
        HEADER,
        ['MJ014-BLK-M', 'Alpine shell M', '300', '42.5', '12750'],
        ['MJ014-BLK-L', 'Alpine shell L', '100', '', '4250'],
      ],
      { mergedDown: [[2, 4, 3]] },
    );
    const { lines } = structureSheet(sheet).extraction;
    expect(lines.map((l) => [l.rawSku, l.quantity, l.unitPrice])).toEqual([
      ['MJ014-BLK-M', 300, 42.5],
      ['MJ014-BLK-L', 100, 42.5],
    ]);
  });
});

describe('a request for quotation', () => {
  it('is read with confidence though every price is blank: there is no price for Claude to find', () => {
    const sheet = sheetGrid('RFQ', [
      ['SKU', 'Description', 'Qty', 'Unit Price (USD)', 'Amount (USD)'],
      ['MJ014-BLK-M', 'Alpine shell jacket', '300'],
      ['KF001-FRG-L', 'Ridgeline fleece', '200'],
    ]);
    const { extraction } = structureSheet(sheet);
    expect(extraction.lines.map((l) => l.unitPrice)).toEqual([null, null]);
    expect(extraction.confidence).toBeGreaterThanOrEqual(0.8);
  });
});
