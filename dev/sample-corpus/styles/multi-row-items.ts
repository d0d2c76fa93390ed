import { fromCents, lineAmountCents, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Hanoi Summit Garment JSC';
const HEADER_ROW = 5;
const ROWS_PER_ITEM = 3;

export const multiRowItems: SampleStyle = {
  name: 'multi-row-items',
  messes: [2],
  build(context) {
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 4, variantsPerStyle: [1, 3] });
    const workbook = createWorkbook('Summit Export');
    const sheet = workbook.addWorksheet('Quotation');
    setWidths(sheet, [18, 46, 10, 16, 14]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Quotation for Valden Outdoor']);
    setRow(sheet, HEADER_ROW, ['Style No.', 'Description', 'Qty', 'Pricing Per Unit', 'Amount']);
    boldRow(sheet, HEADER_ROW, 1, 5);

    // A product's name, fabric and packing on three rows; its code, quantity, price and amount merged down them.
    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i * ROWS_PER_ITEM;
      const description = `${variant.name} - ${variant.color} - ${variant.size}`;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      setRow(sheet, row, [variant.sku, description, quantity, fromCents(unitCents), fromCents(amount)]);
      setRow(sheet, row + 1, [undefined, 'Fabric: 100% recycled polyester, 280 gsm, DWR finish']);
      setRow(sheet, row + 2, [undefined, 'Packing: 1 pc per polybag, 20 pcs per carton']);
      for (const column of [1, 3, 4, 5]) sheet.mergeCells(row, column, row + ROWS_PER_ITEM - 1, column);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description,
        quantity,
        unitPrice: fromCents(unitCents),
      });
    });

    const totalRow = HEADER_ROW + 1 + lines.length * ROWS_PER_ITEM;
    const total = sum(amounts);
    setRow(sheet, totalRow, ['TOTAL'], 2);
    setRow(sheet, totalRow, [fromCents(total)], 5);
    boldRow(sheet, totalRow, 1, 5);
    for (const column of [4, 5]) sheet.getColumn(column).numFmt = MONEY_FORMAT;
    setRow(sheet, totalRow + 2, ['Payment: T/T 30 days after B/L date']);
    setRow(sheet, totalRow + 3, ['Price terms: FOB Hai Phong, USD']);

    return {
      workbook,
      description:
        'Multi-row items: each product spans three rows (name, fabric, packing) with its style number, quantity, ' +
        'price and amount merged vertically over them; one line per product, on its first row.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: 'T/T 30 days after B/L date',
        leadTimeDays: null,
        currency: 'USD',
        incoterm: 'FOB Hai Phong',
        moq: null,
        validityDays: null,
      },
      items,
      charges: [],
      statedTotal: fromCents(total),
    };
  },
};
