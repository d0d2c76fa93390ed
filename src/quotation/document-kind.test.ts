import { describe, expect, it } from 'vitest';
import { sheetGrid, workbookGrid } from '../../test/support/grid-fixture.js';
import { detectDocumentKind } from './document-kind.js';
import { structureSheet, structureWorkbook } from './structurer.js';

const ITEMS = [
  ['KF001-FRG-M', 'Fleece jacket', '100', '10', '1000'],
  ['KF002-NVY-L', 'Rain shell', '50', '20', '1000'],
];
const HEADER = ['SKU', 'Description', 'Qty', 'Unit Price', 'Amount'];

function kindOf(rows: string[][]) {
  const workbook = workbookGrid(sheetGrid('Sheet1', rows));
  return detectDocumentKind(workbook, structureWorkbook(workbook));
}

describe('detectDocumentKind', () => {
  it.each([
    ['QUOTATION', 'quotation'],
    ['Proforma Invoice', 'quotation'],
    ['TAX INVOICE', 'invoice'],
    ['Commercial Invoice No. 2291', 'invoice'],
    ['Delivery Challan', 'delivery_note'],
    ['Packing List', 'delivery_note'],
    ['PURCHASE ORDER', 'purchase_order'],
    ['Price List 2026', 'price_list'],
  ])('a sheet titled %j is a %s', (title, kind) => {
    expect(kindOf([[title], [], HEADER, ...ITEMS]).kind).toBe(kind);
  });

  it('an untitled sheet with quantities and prices is a quotation, with no sentence', () => {
    expect(kindOf([HEADER, ...ITEMS])).toEqual({ kind: 'quotation', supplierColumns: [], sentence: null });
  });

  it('blank prices make an RFQ; no price column at all a requirements list', () => {
    const rfq = kindOf([HEADER, ['KF001-FRG-M', 'Fleece jacket', '100', '', ''], ['KF002', 'Rain shell', '5', '', '']]);
    expect(rfq.kind).toBe('rfq');
    expect(rfq.sentence).toContain('request for quotation');
    const needs = kindOf([
      ['SKU', 'Description', 'Qty'],
      ['KF001-FRG-M', 'Fleece jacket', '100'],
    ]);
    // This expectation once said 'rfq', against the test's own name: no price column asks for no price.
    expect(needs.kind).toBe('requirements');
  });

  it('a list of needs (Required qty, Need by) with no price column is a requirements list that could become an RFQ', () => {
    const result = kindOf([
      ['Item', 'Description', 'Required Qty', 'UOM', 'Need by'],
      ['1', 'Fleece jacket, navy, M', '120', 'pcs', '2026-02-01'],
      ['2', 'Rain shell, black, L', '80', 'pcs', '2026-02-15'],
      ['3', 'Trail cap', '300', 'pcs', '2026-03-01'],
    ]);
    expect(result.kind).toBe('requirements');
    expect(result.sentence).toMatch(
      /^This looks like a requirements list \(3 lines, no prices\).*request for quotation/,
    );
  });

  it('trusts its reading of a list of needs, but not of a priceless table with money in a column it did not name', () => {
    const needs = [
      ['Line', 'Item Code', 'Description', 'Required Qty', 'Need by'],
      ['1', 'KF001-FRG-M', 'Fleece jacket', '120', '2026-02-01'],
      ['2', 'KF002-NVY-L', 'Rain shell', '80', '2026-02-15'],
    ];
    expect(structureSheet(sheetGrid('Needs', needs)).extraction.confidence).toBeGreaterThanOrEqual(0.8);
    const unnamedPrice = needs.map((row, i) => [...row, i === 0 ? 'Kosten je Stk' : `$${i}2.50`]);
    expect(structureSheet(sheetGrid('Needs', unnamedPrice)).extraction.confidence).toBeLessThan(0.8);
  });

  it('a Supplier or Vendor column naming many suppliers down the rows is a purchase order register', () => {
    const rows = [
      ['PO No', 'Vendor', 'SKU', 'Description', 'Qty', 'Unit Price', 'Amount'],
      ['PO-1001', 'Ningbo Apparel Co', 'KF001-FRG-M', 'Fleece jacket', '100', '10', '1000'],
      ['PO-1002', 'Dhaka Knit Ltd', 'KF002-NVY-L', 'Rain shell', '50', '20', '1000'],
      ['PO-1003', 'Saigon Garment JSC', 'KF003-BLK-S', 'Trail cap', '300', '4', '1200'],
      ['PO-1004', 'Ningbo Apparel Co', 'KF004-GRY-M', 'Hoodie', '200', '8', '1600'],
    ];
    const result = kindOf(rows);
    expect(result.kind).toBe('purchase_order');
    expect(result.registerSuppliers).toEqual(['Ningbo Apparel Co', 'Dhaka Knit Ltd', 'Saigon Garment JSC']);
    expect(result.sentence).toMatch(/^This looks like a purchase order register of 3 suppliers \(Ningbo Apparel Co, /);
    // Headed in another language, or two header rows, it is the same register.
    const chinese = rows.map((row, i) => (i === 0 ? row.map((c) => (c === 'Vendor' ? '供应商' : c)) : row));
    expect(kindOf([['2026 orders'], ...chinese]).kind).toBe('purchase_order');
  });

  it('one or two suppliers down a Supplier column is still a quotation', () => {
    const result = kindOf([
      ['Supplier', 'SKU', 'Description', 'Qty', 'Unit Price', 'Amount'],
      ['Ningbo Apparel Co', 'KF001-FRG-M', 'Fleece jacket', '100', '10', '1000'],
      ['Ningbo Apparel Co', 'KF002-NVY-L', 'Rain shell', '50', '20', '1000'],
      ['Dhaka Knit Ltd', 'KF003-BLK-S', 'Trail cap', '300', '4', '1200'],
    ]);
    expect(result.kind).toBe('quotation');
  });

  it('a titled request for quotation is an RFQ until its prices are filled in', () => {
    const blank = ITEMS.map(([sku = '', name = '', qty = '']) => [sku, name, qty, '', '']);
    expect(kindOf([['REQUEST FOR QUOTATION RFQ-2025-07'], [], HEADER, ...blank]).kind).toBe('rfq');
    expect(kindOf([['Quotation in reply to RFQ-2025-07'], [], HEADER, ...ITEMS]).kind).toBe('quotation');
    // A reply to an RFQ with a line it cannot quote is still a quotation.
    expect(kindOf([['Quotation in reply to RFQ-2025-07'], [], HEADER, ...ITEMS, ...blank]).kind).toBe('quotation');
  });

  it('a price column per supplier is a comparison, with the suppliers to pick from; the target is not one', () => {
    const result = kindOf([
      ['Price comparison'],
      ['SKU', 'Description', 'Qty', 'Target Price', 'Supplier A Price', 'Supplier B Price', 'Supplier C Price'],
      ['KF001-FRG-M', 'Fleece jacket', '100', '9', '10', '11', '10.5'],
    ]);
    expect(result.kind).toBe('comparison');
    expect(result.supplierColumns).toEqual([
      { sheet: 'Sheet1', column: 4, name: 'Supplier A' },
      { sheet: 'Sheet1', column: 5, name: 'Supplier B' },
      { sheet: 'Sheet1', column: 6, name: 'Supplier C' },
    ]);
    expect(result.sentence).toContain('comparison of 3 suppliers');
  });

  it('never reads a buyer target column as the supplier price', () => {
    const sheet = sheetGrid('Q', [
      ['SKU', 'Description', 'Qty', 'Target Price', 'Quoted Price'],
      ['KF001-FRG-M', 'Fleece jacket', '100', '9', '10'],
    ]);
    expect(structureSheet(sheet).extraction.lines[0]?.unitPrice).toBe(10);
  });

  it('tells the buyer in the workbook warnings', () => {
    const workbook = workbookGrid(sheetGrid('Sheet1', [['TAX INVOICE'], [], HEADER, ...ITEMS]));
    expect(structureWorkbook(workbook).warnings[0]).toContain('invoice');
  });
});

const suppliersOf = (rows: string[][]) => kindOf(rows).supplierColumns.map((s) => [s.column, s.name]);

describe('detectDocumentKind: comparison sheets of several shapes', () => {
  it('numbered vendors with a lowest column: the lowest is no supplier', () => {
    const rows = [
      ['Item', 'Description', 'Qty', 'Vendor 1 price', 'Vendor 2 price', 'Vendor 3 price', 'Lowest'],
      ['KF001-FRG-M', 'Fleece jacket', '100', '10', '11', '10.5', '10'],
    ];
    expect(suppliersOf(rows)).toEqual([
      [3, 'Vendor 1'],
      [4, 'Vendor 2'],
      [5, 'Vendor 3'],
    ]);
    expect(kindOf(rows).sentence).toBe(
      'This is a comparison of 3 suppliers (Vendor 1, Vendor 2, Vendor 3): pick the supplier column to negotiate.',
    );
  });

  it('company names merged over a rate and an amount each: the rate column is the supplier’s', () => {
    const rows = [
      ['', '', '', 'Acme Textiles Ltd', 'Acme Textiles Ltd', 'Brightstar Co., Ltd', 'Brightstar Co., Ltd'],
      ['SKU', 'Description', 'Qty', 'Unit Price', 'Amount', 'Unit Price', 'Amount'],
      ['KF001-FRG-M', 'Fleece jacket', '100', '10', '1000', '11', '1100'],
    ];
    expect(suppliersOf(rows)).toEqual([
      [3, 'Acme Textiles Ltd'],
      [5, 'Brightstar Co., Ltd'],
    ]);
  });

  it('plain names over their rates, with an L1 rate column and a rank row under the lines', () => {
    const rows = [
      ['Comparative statement'],
      ['', '', '', 'Kohinoor', 'Kohinoor', 'Sunrise', 'Sunrise', 'Bharat', 'Bharat', ''],
      ['S.No', 'Particulars', 'Qty', 'Rate', 'Amount', 'Rate', 'Amount', 'Rate', 'Amount', 'L1 Rate'],
      ['1', 'Fleece jacket', '100', '10', '1000', '11', '1100', '12', '1200', '10'],
      ['', 'Rank', '', 'L1', '', 'L2', '', 'L3', '', ''],
    ];
    expect(suppliersOf(rows)).toEqual([
      [3, 'Kohinoor'],
      [5, 'Sunrise'],
      [7, 'Bharat'],
    ]);
  });

  it('a buyer target, budget or last price beside two suppliers is none of them', () => {
    const rows = [
      ['SKU', 'Qty', 'Target Price', 'Budget', 'Last PO Price', 'Supplier A', 'Supplier B'],
      ['KF001-FRG-M', '100', '9', '9', '9.5', '10', '11'],
    ];
    expect(suppliersOf(rows)).toEqual([
      [5, 'Supplier A'],
      [6, 'Supplier B'],
    ]);
  });

  it.each([
    [['SKU', 'Description', 'Qty', 'Supplier SKU', 'Supplier Price', 'Amount']],
    [
      ['Style No.', 'Description', 'Qty', 'Price (USD)', 'Price (USD)'],
      ['', '', '', 'Unit', 'Amount'],
    ],
    [['SKU', 'Description', 'Qty', 'FOB Price', 'CIF Price', 'Amount']],
  ])('one supplier’s own columns are no comparison: %j', (...header) => {
    const result = kindOf([...header, ['KF001-FRG-M', 'Fleece jacket', '100', '10', '10', '1000']]);
    expect(result.kind).not.toBe('comparison');
    expect(result.supplierColumns).toEqual([]);
  });

  it('a comparison extraction names its suppliers for the buyer to pick; a picked one reads that column', () => {
    const rows = [
      ['SKU', 'Description', 'Qty', 'Supplier A Price', 'Supplier B Price', 'Supplier C Price'],
      ['KF001-FRG-M', 'Fleece jacket', '100', '10', '11', '10.5'],
    ];
    const workbook = workbookGrid(sheetGrid('Sheet1', rows));
    const pending = structureWorkbook(workbook);
    expect(pending.comparison?.map((s) => s.name)).toEqual(['Supplier A', 'Supplier B', 'Supplier C']);
    const picked = structureWorkbook(workbook, { priceColumn: { sheet: 'Sheet1', column: 4, name: 'Supplier B' } });
    expect(picked.comparison).toBeUndefined();
    expect(picked.supplierName).toBe('Supplier B');
    expect(picked.sheets[0]?.lines.map((l) => l.unitPrice)).toEqual([11]);
    expect(picked.warnings[0]).toBe(
      "Prices read from Supplier B's column (E on sheet 'Sheet1') of a comparison sheet.",
    );
  });
});
