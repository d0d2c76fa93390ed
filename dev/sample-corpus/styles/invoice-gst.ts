import { fromCents, lineAmountCents, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { charge, planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Lion City Outdoor Supply Pte. Ltd.';
const HEADER_ROW = 7;

export const invoiceGst: SampleStyle = {
  name: 'invoice-gst',
  messes: [1, 12],
  build(context) {
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 3, variantsPerStyle: [2, 3] });
    const workbook = createWorkbook('Lion City Accounts');
    const sheet = workbook.addWorksheet('Invoice');
    setWidths(sheet, [6, 18, 44, 8, 14, 14]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['8 Kaki Bukit Avenue 1, Singapore 417941. GST Reg. No. 201912345K']);
    setRow(sheet, 3, ['TAX INVOICE']);
    sheet.getCell(3, 1).font = { bold: true, size: 13 };
    setRow(sheet, 4, ['Invoice No: INV-25-0419']);
    setRow(sheet, 5, ['Bill to: Valden Outdoor']);
    setRow(sheet, HEADER_ROW, ['S/N', 'Item Code', 'Description', 'Qty', 'Unit Price (USD)', 'Amount (USD)']);
    boldRow(sheet, HEADER_ROW, 1, 6);

    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const description = `${variant.name} - ${variant.color} - ${variant.size}`;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      setRow(sheet, row, [i + 1, variant.sku, description, quantity, fromCents(unitCents), fromCents(amount)]);
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

    const after = HEADER_ROW + 1 + lines.length;
    const goods = sum(amounts);
    const gst = Math.round(goods * 0.09);
    const summary: [string, number][] = [
      ['Subtotal', goods],
      ['GST 9%', gst],
      ['Total Amount Due', goods + gst],
    ];
    summary.forEach(([label, cents], i) => {
      setRow(sheet, after + i, [label], 5);
      setRow(sheet, after + i, [fromCents(cents)], 6);
    });
    boldRow(sheet, after + 2, 1, 6);
    for (const column of [5, 6]) sheet.getColumn(column).numFmt = MONEY_FORMAT;
    setRow(sheet, after + 4, ['Payment: 30 days from invoice date']);

    return {
      workbook,
      documentKind: 'invoice',
      description:
        'A tax invoice, not a quotation: it bills an order already placed (the buyer is told so); its lines are ' +
        'still read, and the GST 9% row under the table is a tax, not an item.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: '30 days from invoice date',
        leadTimeDays: null,
        currency: 'USD',
        incoterm: null,
        moq: null,
        validityDays: null,
      },
      items,
      charges: [charge('GST 9%', gst)],
      statedTotal: fromCents(goods + gst),
    };
  },
};
