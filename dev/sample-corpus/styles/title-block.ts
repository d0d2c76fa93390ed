import { fromCents, lineAmountCents, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, mergedLine, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Ningbo Everbright Garments Co., Ltd.';
const HEADER_ROW = 9;
const WIDTH = 9;

export const titleBlock: SampleStyle = {
  name: 'title-block-header-row-9',
  messes: [2, 13],
  build(context) {
    const lines = planLines(context, {
      categories: APPAREL_CATEGORIES,
      styles: 5,
      variantsPerStyle: [2, 5],
      minQuantity: 100,
    });
    const workbook = createWorkbook('Everbright Sales');
    const sheet = workbook.addWorksheet('Quotation');
    setWidths(sheet, [6, 16, 3, 36, 18, 8, 11, 16, 15]);

    mergedLine(sheet, 1, WIDTH, SUPPLIER, { bold: true, size: 16 });
    mergedLine(sheet, 2, WIDTH, 'No. 188 Jiangnan Road, Beilun District, Ningbo, Zhejiang 315800, China');
    mergedLine(sheet, 3, WIDTH, 'Tel: +86 574 8688 1234   Fax: +86 574 8688 1235   sales@everbright-garments.cn');
    mergedLine(sheet, 4, WIDTH, 'QUOTATION', { bold: true, size: 14, underline: true });
    setRow(sheet, 5, ['To:', 'Valden Outdoor', undefined, undefined, undefined, undefined, 'Date:', '14 Mar 2025']);
    setRow(sheet, 6, [
      'Attn:',
      'Purchasing Dept.',
      undefined,
      undefined,
      undefined,
      undefined,
      'Quote No.:',
      'EB-Q25-0314',
    ]);
    setRow(sheet, 7, ['Season:', 'AW25 outerwear & fleece']);
    sheet.mergeCells(5, 2, 5, 4);
    sheet.mergeCells(6, 2, 6, 4);
    sheet.mergeCells(7, 2, 7, 4);

    // Column C is left blank on purpose: a spacer column the supplier's template has.
    setRow(sheet, HEADER_ROW, [
      'No.',
      'Item No.',
      undefined,
      'Description',
      'Colour',
      'Size',
      'Qty (pcs)',
      'Unit Price (USD)',
      'Amount (USD)',
    ]);
    boldRow(sheet, HEADER_ROW, 1, WIDTH);

    let row = HEADER_ROW + 1;
    let previousStyle: string | null = null;
    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const style = variant.sku.slice(0, 5);
      // A blank row between styles, as the supplier groups its sheet.
      if (previousStyle !== null && style !== previousStyle) row++;
      previousStyle = style;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      const unitPrice = fromCents(unitCents);
      setRow(sheet, row, [
        i + 1,
        variant.sku,
        undefined,
        variant.name,
        variant.color,
        variant.size,
        quantity,
        unitPrice,
        fromCents(amount),
      ]);
      const item = truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description: variant.name,
        color: variant.color,
        size: variant.size,
        quantity,
        unitPrice,
      });
      row++;
      return item;
    });

    const totalRow = row + 1;
    const total = fromCents(sum(amounts));
    setRow(sheet, totalRow, ['TOTAL', sum(lines.map((line) => line.quantity)), undefined, total], 6);
    boldRow(sheet, totalRow, 1, WIDTH);
    for (const column of [8, 9]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    const remarks = [
      'Remarks:',
      '1. Prices valid 30 days from the date of this quotation.',
      '2. MOQ 300 pcs/style.',
      '3. Payment: 30% T/T deposit, balance before shipment.',
      '4. Lead time: 45 days after deposit.',
      '5. FOB Ningbo.',
      '6. Currency: USD.',
    ];
    remarks.forEach((text, i) => setRow(sheet, totalRow + 2 + i, [text]));
    sheet.getCell(totalRow + 2, 1).font = { bold: true };

    return {
      workbook,
      description:
        'Letterhead in merged cells (company, address, QUOTATION, date, quote no.) above a bold header on row 9, ' +
        'with an empty spacer column C, blank rows between styles, and the terms in a numbered Remarks block.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: '30% T/T deposit, balance before shipment',
        leadTimeDays: 45,
        currency: 'USD',
        incoterm: 'FOB Ningbo',
        moq: 300,
        validityDays: 30,
      },
      items,
      charges: [],
      statedTotal: total,
    };
  },
};
