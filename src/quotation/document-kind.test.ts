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
    expect(needs.kind).toBe('rfq');
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
    expect(result.supplierColumns).toEqual(['Supplier A Price', 'Supplier B Price', 'Supplier C Price']);
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
