import { fromCents, lineAmountCents, netUnitPrice, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Dhaka Northwind Apparels Ltd.';
const HEADER_ROW = 5;
/** 5 % off the whole order, stated once under the table: every line's net price is 95 % of its written one. */
const CLOSING_DISCOUNT = 50;

export const mergedPriceClosingDiscount: SampleStyle = {
  name: 'merged-price-closing-discount',
  messes: [2, 5, 13],
  build(context) {
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 5, variantsPerStyle: [2, 3] });
    const workbook = createWorkbook('Northwind Merchandising');
    const sheet = workbook.addWorksheet('Offer');
    setWidths(sheet, [6, 18, 40, 14, 8, 8, 11, 13]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Quotation for Valden Outdoor']);
    // "Price (USD)" merged over two sub-headers, "Unit" and "Total": the Unit column is the unit price.
    setRow(sheet, HEADER_ROW, ['Pos.', 'Article No.', 'Description of Goods', 'Colour', 'Size', 'Qty', 'Price (USD)']);
    setRow(sheet, HEADER_ROW + 1, ['Unit', 'Total'], 7);
    sheet.mergeCells(HEADER_ROW, 7, HEADER_ROW, 8);
    for (let column = 1; column <= 6; column++) sheet.mergeCells(HEADER_ROW, column, HEADER_ROW + 1, column);
    boldRow(sheet, HEADER_ROW, 1, 8);
    boldRow(sheet, HEADER_ROW + 1, 1, 8);

    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 2 + i;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      setRow(sheet, row, [
        i + 1,
        variant.sku,
        variant.name,
        variant.color,
        variant.size,
        quantity,
        fromCents(unitCents),
        fromCents(amount),
      ]);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description: variant.name,
        color: variant.color,
        size: variant.size,
        quantity,
        unitPrice: netUnitPrice(unitCents, CLOSING_DISCOUNT),
      });
    });

    // TOTAL merged across A:F, then the closing discount and the net total the buyer really pays.
    const after = HEADER_ROW + 2 + lines.length;
    const goods = sum(amounts);
    const discount = Math.round((goods * CLOSING_DISCOUNT) / 1000);
    const rows: [string, number][] = [
      ['TOTAL', goods],
      ['Less 5% discount', -discount],
      ['NET TOTAL', goods - discount],
    ];
    rows.forEach(([label, cents], i) => {
      sheet.mergeCells(after + i, 1, after + i, 6);
      sheet.getCell(after + i, 1).value = label;
      sheet.getCell(after + i, 8).value = fromCents(cents);
      boldRow(sheet, after + i, 1, 8);
    });
    for (const column of [7, 8]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    const notes = ['Payment: 30% deposit, 70% before shipment', 'Incoterm: FOB Chittagong'];
    notes.forEach((text, i) => setRow(sheet, after + 4 + i, [text]));

    return {
      workbook,
      description:
        'Merged "Price (USD)" header over Unit and Total sub-headers (Unit is the unit price, not a unit of measure), ' +
        'a Pos. column left of the Article No., TOTAL merged across A:F and a closing "Less 5% discount" row: every ' +
        'unit price in the truth is net of that 5 %.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: '30% deposit, 70% before shipment',
        leadTimeDays: null,
        currency: 'USD',
        incoterm: 'FOB Chittagong',
        moq: null,
        validityDays: null,
      },
      items,
      charges: [],
      statedTotal: fromCents(goods - discount),
    };
  },
};
