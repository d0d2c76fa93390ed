import { fromCents, lineAmountCents, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { charge, planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Shree Ganesh Knit Fab Pvt. Ltd.';
const HEADER_ROW = 6;
/** Rupees per US dollar, rounded the way an Indian mill quotes: whole rupees. */
const INR_PER_USD = 83;

export const indianGstRefHsn: SampleStyle = {
  name: 'indian-gst-ref-hsn',
  messes: [1, 12, 13],
  build(context) {
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 5, variantsPerStyle: [2, 3] });
    const workbook = createWorkbook('SGKF Accounts');
    const sheet = workbook.addWorksheet('Quotation');
    setWidths(sheet, [6, 18, 11, 46, 8, 12, 14]);
    setRow(sheet, 1, [SUPPLIER.toUpperCase()]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Plot 14, SIDCO Industrial Estate, Tiruppur 641604, Tamil Nadu. GSTIN 33AABCS1429K1Z5']);
    setRow(sheet, 3, ['QUOTATION']);
    setRow(sheet, 4, ['To: Valden Outdoor']);
    // A line-number "Ref" column left of the code and an HSN tariff code beside it: neither identifies the product.
    setRow(sheet, HEADER_ROW, ['Ref', 'Item Code', 'HSN Code', 'Particulars', 'Qty', 'Rate (₹)', 'Amount (₹)']);
    boldRow(sheet, HEADER_ROW, 1, 7);

    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const paise = Math.round((unitCents * INR_PER_USD) / 100) * 100;
      const description = `${variant.name} - ${variant.color} - ${variant.size}`;
      const amount = lineAmountCents(quantity, paise);
      amounts.push(amount);
      const hsn = variant.category === 'Tees' ? '61091000' : '62019300';
      setRow(sheet, row, [i + 1, variant.sku, hsn, description, quantity, fromCents(paise), fromCents(amount)]);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description,
        quantity,
        unitPrice: fromCents(paise),
      });
    });

    const goods = sum(amounts);
    const gst = Math.round(goods * 0.06);
    const charges = [charge('CGST @ 6%', gst), charge('SGST @ 6%', gst)];
    const after = HEADER_ROW + 1 + lines.length;
    setRow(sheet, after, ['Sub Total', undefined, undefined, fromCents(goods)], 4);
    setRow(sheet, after + 1, ['CGST @ 6%', undefined, undefined, fromCents(gst)], 4);
    setRow(sheet, after + 2, ['SGST @ 6%', undefined, undefined, fromCents(gst)], 4);
    const total = goods + 2 * gst;
    setRow(sheet, after + 3, ['Grand Total', undefined, undefined, fromCents(total)], 4);
    boldRow(sheet, after + 3, 1, 7);
    for (const column of [6, 7]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    const notes = ['Terms & Conditions:', 'Payment: 30 days from invoice', 'Delivery: 45 days', 'Validity: 15 days'];
    notes.forEach((text, i) => setRow(sheet, after + 5 + i, [text]));

    return {
      workbook,
      description:
        'Indian GST quotation in rupees: a 1..n Ref column left of the Item Code, an HSN tariff code column (not the ' +
        'SKU), Particulars and Rate headers, and CGST / SGST rows under the table that are taxes, not items.',
      supplier: SUPPLIER.toUpperCase(),
      terms: {
        paymentTerms: '30 days from invoice',
        leadTimeDays: 45,
        currency: 'INR',
        incoterm: null,
        moq: null,
        validityDays: 15,
      },
      items,
      charges,
      statedTotal: fromCents(total),
    };
  },
};
