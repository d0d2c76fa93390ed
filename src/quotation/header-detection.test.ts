import { describe, expect, it } from 'vitest';
import { sheetGrid } from '../../test/support/grid-fixture.js';
import { classifyHeader, findItemTables, isSizeLabel, parsePriceBreak } from './header-detection.js';

const kindOf = (text: string) => classifyHeader(text)?.kind ?? null;

describe('classifyHeader', () => {
  it.each([
    ['SKU', 'sku'],
    ['Item No.', 'sku'],
    ['Item #', 'sku'],
    ['Style', 'sku'],
    ['Style No.', 'sku'],
    ['Art. No.', 'sku'],
    ['Article', 'sku'],
    ['Model', 'sku'],
    ['Ref.', 'sku'],
    ['Product Code', 'sku'],
    ['款号', 'sku'],
    ['货号', 'sku'],
    ['编号', 'sku'],
    ['Description', 'description'],
    ['Item', 'description'],
    ['Product', 'description'],
    ['Product Name', 'description'],
    ['Style Description', 'description'],
    ['品名', 'description'],
    ['名称', 'description'],
    ['Colour', 'color'],
    ['Color Code', 'color'],
    ['颜色', 'color'],
    ['Size', 'size'],
    ['尺码', 'size'],
    ['Qty', 'quantity'],
    ['Quantity', 'quantity'],
    ['Order Qty', 'quantity'],
    ['Total Qty', 'quantity'],
    ['Qty (pcs)', 'quantity'],
    ['PCS', 'quantity'],
    ['Units', 'quantity'],
    ['数量', 'quantity'],
    ['Unit Price', 'unitPrice'],
    ['Price', 'unitPrice'],
    ['U/Price (USD)', 'unitPrice'],
    ['FOB Price', 'unitPrice'],
    ['Unit Cost', 'unitPrice'],
    ['单价', 'unitPrice'],
    ['Disc.', 'discount'],
    ['Discount', 'discount'],
    ['Disc. %', 'discount'],
    ['折扣', 'discount'],
    ['Amount', 'total'],
    ['Total', 'total'],
    ['Line Total', 'total'],
    ['Ext. Price', 'total'],
    ['Total Price', 'total'],
    ['Amount (USD)', 'total'],
    ['金额', 'total'],
    ['总价', 'total'],
    ['Remarks', 'notes'],
    ['Notes', 'notes'],
    ['Comment', 'notes'],
    ['备注', 'notes'],
    ['MOQ', 'attribute'],
    ['Fabric', 'attribute'],
    ['HS Code', 'ignore'],
    ['Qty/Ctn', 'ignore'],
    ['No.', 'index'],
    ['Unit', 'unit'],
  ])('%j names a %s column', (text, kind) => {
    expect(kindOf(text)).toBe(kind);
  });

  it('reads bilingual cells, split by a line break or not', () => {
    expect(kindOf('单价\nUnit Price')).toBe('unitPrice');
    expect(kindOf('数量 Qty')).toBe('quantity');
    expect(kindOf('款号 Style No.')).toBe('sku');
    expect(classifyHeader('金额\nAmount')?.strength).toBe(1);
  });

  it.each([
    ['Artikel-Nr.', 'sku'],
    ['Código', 'sku'],
    ['Referência', 'sku'],
    ['Bezeichnung', 'description'],
    ['Descripción', 'description'],
    ['Descrição', 'description'],
    ['Farbe', 'color'],
    ['Größe', 'size'],
    ['Menge', 'quantity'],
    ['Cantidad', 'quantity'],
    ['Quantité', 'quantity'],
    ['Einzelpreis', 'unitPrice'],
    ['Precio unitario', 'unitPrice'],
    ['Preço unitário', 'unitPrice'],
    ['Prix unitaire', 'unitPrice'],
    ['Birim Fiyat', 'unitPrice'],
    ['Rabatt', 'discount'],
    ['Gesamtpreis', 'total'],
    ['Importe', 'total'],
    ['Bemerkung', 'notes'],
  ])('%j (European) names a %s column', (text, kind) => {
    expect(kindOf(text)).toBe(kind);
  });

  it.each([
    ['USD/pc', 'unitPrice'],
    ['US$ per piece', 'unitPrice'],
    ['Rs. per pc', 'unitPrice'],
    ['P/U', 'unitPrice'],
    ['Pricing Per Unit', 'unitPrice'],
    ['Rate', 'unitPrice'],
    ['Rate (INR)', 'unitPrice'],
    ['Particulars', 'description'],
    ['Description of Goods', 'description'],
    ['HSN Code', 'ignore'],
    ['HSN/SAC', 'ignore'],
    ['GST %', 'ignore'],
    ['CGST Amount', 'ignore'],
    ['MwSt.', 'ignore'],
    ['Nos.', 'quantity'],
    ['Sl. No.', 'index'],
    ['Pos.', 'index'],
    ['STT', 'index'],
    ['Einheit', 'unit'],
    ['Unidad', 'unit'],
    ['ĐVT', 'unit'],
    ['Per', 'unit'],
    ['Stückpreis', 'unitPrice'],
    ['Artikelbezeichnung', 'description'],
    ['Mã hàng', 'sku'],
    ['Tên hàng', 'description'],
    ['Mô tả', 'description'],
    ['Số lượng', 'quantity'],
    ['Đơn giá', 'unitPrice'],
    ['Thành tiền', 'total'],
    ['含税单价', 'unitPrice'],
    ['型号', 'sku'],
    ['序号', 'index'],
  ])('%j (trade vocabulary: Hindi-English, German, Spanish, Vietnamese, Chinese) names a %s column', (text, kind) => {
    expect(kindOf(text)).toBe(kind);
  });

  it('tells a net price from a list price', () => {
    expect(classifyHeader('Net Price')).toMatchObject({ kind: 'unitPrice', priceBasis: 'net' });
    expect(classifyHeader('Price after disc.')).toMatchObject({ kind: 'unitPrice', priceBasis: 'net' });
    expect(classifyHeader('List Price')).toMatchObject({ kind: 'unitPrice', priceBasis: 'list' });
  });

  it('gives a keyword lost in other words less strength', () => {
    expect(classifyHeader('Qty')?.strength).toBe(1);
    expect(classifyHeader('Style Description')?.strength).toBe(1);
    const vague = classifyHeader('Packing style for shipment');
    expect(vague?.strength ?? 0).toBeLessThan(0.7);
  });

  it("reads a requirements list's headers: the quantity needed at full strength, the date needed kept as an attribute", () => {
    for (const header of ['Required Qty', 'Qty Required', 'Quantity requested', 'Est. Qty']) {
      expect(classifyHeader(header)).toMatchObject({ kind: 'quantity', strength: 1 });
    }
    for (const header of ['Need by', 'Required by', 'Needed on', 'Due date']) expect(kindOf(header)).toBe('attribute');
  });

  it('ignores sentences, key:value cells and numbers', () => {
    expect(classifyHeader('Payment: 30% T/T deposit, balance before shipment')).toBeNull();
    expect(classifyHeader('Ref: Q-2291')).toBeNull();
    expect(classifyHeader('1234.5')).toBeNull();
    expect(classifyHeader('Prices are FOB Ningbo and valid for thirty days from the date of this quote')).toBeNull();
  });
});

describe('parsePriceBreak', () => {
  it.each([
    ['1-299 pcs', 1],
    ['300-999', 300],
    ['1,000-2,999 pcs', 1000],
    ['1000+', 1000],
    ['1000+ pcs', 1000],
    ['3,000+ pcs', 3000],
    ['5K+', 5000],
    ['MOQ 500', 500],
    ['≥1000', 1000],
    ['>= 3000 pcs', 3000],
    ['3000 pcs & up', 3000],
    ['<300', 1],
    ['500 pcs', 500],
    ['Price 300-999', 300],
    ['1000以上', 1000],
  ])('%j breaks at %d', (text, minQty) => {
    expect(parsePriceBreak(text)).toBe(minQty);
  });

  it.each(['Qty (pcs)', '30-35 days', 'GW-FR-2025-06', 'XL', '500', '2XL'])('%j is no break', (text) => {
    expect(parsePriceBreak(text)).toBeNull();
  });

  it('takes a lone number only when asked (the column sits under a price heading)', () => {
    expect(parsePriceBreak('500', { bare: true })).toBe(500);
  });
});

describe('isSizeLabel', () => {
  it.each(['XS', 'S', 'm', 'XL', 'XXL', '2XL', '3XL', 'One Size', 'OS', 'W32', '10T'])('%j is a size', (text) => {
    expect(isSizeLabel(text)).toBe(true);
  });

  it.each(['Size', 'Qty', '28', 'SKU', 'Small print'])('%j is not a size label by itself', (text) => {
    expect(isSizeLabel(text)).toBe(false);
  });
});

describe('findItemTables', () => {
  it('finds a header below a title block by its words, not its position', () => {
    const sheet = sheetGrid('Quote', [
      ['Ningbo Everbright Garments Co., Ltd.'],
      ['Ref:', 'EB-2291', 'Date:', '2025-03-14'],
      [],
      ['Item No.', 'Description', 'Qty', 'Unit Price', 'Amount'],
      ['KF001-FRG-M', 'Ridgeline Fleece', '300', '12.5', '3750'],
    ]);
    const { tables } = findItemTables(sheet);
    expect(tables).toHaveLength(1);
    expect(tables[0]).toMatchObject({ firstRow: 3, lastRow: 3, clarity: 1 });
    expect(tables[0]?.columns).toMatchObject({ sku: 0, description: 1, quantity: 2, unitPrice: 3, total: 4 });
  });

  it('needs a product column and a quantity or price column', () => {
    const sheet = sheetGrid('Terms', [
      ['Payment', 'Lead time', 'Remarks'],
      ['Description', 'Colour'],
    ]);
    expect(findItemTables(sheet).tables).toEqual([]);
  });

  it('prefers the bold row when two rows name columns equally', () => {
    const sheet = sheetGrid(
      'Quote',
      [['Style', 'Description', 'Price'], [], ['Style', 'Description', 'Price'], ['A-100', 'Shell jacket', '20']],
      { boldRows: [3] },
    );
    // The first row is a table too, but the bold one repeats its columns and scores higher.
    const { tables, repeatedHeaderRows } = findItemTables(sheet);
    expect(tables.map((t) => t.firstRow)).toEqual([0]);
    expect([...repeatedHeaderRows]).toEqual([2]);
  });

  it('joins a sub-header row of price breaks under a merged "Unit Price"', () => {
    const sheet = sheetGrid('Price List', [
      ['Item No.', 'Description', 'Order Qty', 'Unit Price (USD)', 'Unit Price (USD)', 'Unit Price (USD)'],
      ['Item No.', 'Description', 'Order Qty', '1-299 pcs', '300-999', '1000+'],
      ['KH004-STB-SM', 'Trucker Cap', '250', '7.1', '6.55', '6.05'],
    ]);
    const [table] = findItemTables(sheet).tables;
    expect(table).toMatchObject({ firstRow: 0, lastRow: 1, currency: 'USD' });
    expect(table?.columns.unitPrice).toBeNull();
    expect(table?.columns.tiers).toEqual([
      { column: 3, minQty: 1 },
      { column: 4, minQty: 300 },
      { column: 5, minQty: 1000 },
    ]);
  });

  it('finds size-run columns, lettered or numeric, beside or under a size heading', () => {
    const letters = sheetGrid('Order', [
      ['Style', 'Colour', 'XS', 'S', 'M', 'L', 'XL', 'Total Qty', 'Unit Price'],
      ['MS005', 'Fog', '60', '60', '', '110', '70', '300', '17.3'],
    ]);
    const lettered = findItemTables(letters).tables[0]?.columns;
    expect(lettered?.sizes.map((s) => s.label)).toEqual(['XS', 'S', 'M', 'L', 'XL']);
    expect(lettered?.quantity).toBe(7);

    const waist = sheetGrid('Pants', [
      ['Style', 'Colour', 'Qty per size', 'Qty per size', 'Qty per size', 'Unit Price'],
      ['Style', 'Colour', '30', '32', '34', 'Unit Price'],
      ['WP002', 'Slate', '10', '20', '30', '28.3'],
    ]);
    const [table] = findItemTables(waist).tables;
    expect(table?.lastRow).toBe(1);
    expect(table?.columns.sizes).toEqual([
      { column: 2, label: '30' },
      { column: 3, label: '32' },
      { column: 4, label: '34' },
    ]);
  });

  it('starts a new table where a header maps different columns, and skips a repeated one', () => {
    const sheet = sheetGrid('Order', [
      ['Style', 'Colour', 'XS', 'S', 'M', 'Unit Price'],
      ['A1', 'Red', '1', '2', '3', '10'],
      ['Style', 'Colour', 'XS', 'S', 'M', 'Unit Price'],
      ['A2', 'Red', '1', '2', '3', '10'],
      [],
      ['Style', 'Colour', '28', '30', '32', 'Unit Price'],
      ['P1', 'Navy', '5', '6', '7', '20'],
    ]);
    const { tables, repeatedHeaderRows } = findItemTables(sheet);
    expect(tables.map((t) => t.firstRow)).toEqual([0, 5]);
    expect([...repeatedHeaderRows]).toEqual([2]);
  });

  it('ignores hidden header cells', () => {
    const sheet = sheetGrid(
      'Quote',
      [
        ['SKU', 'Description', 'Internal Cost', 'Unit Price', 'Qty'],
        ['A1', 'Shell', '5', '10', '3'],
      ],
      { hiddenColumns: [3] },
    );
    expect(findItemTables(sheet).tables[0]?.columns).toMatchObject({ unitPrice: 3, quantity: 4 });
  });
});
