import type { Workbook } from 'exceljs';
import { formatPrefixed, fromCents, lineAmountCents, netUnitPrice, sum } from '../money.js';
import { planLines, truthItem, type PlannedLine, type SampleStyle } from '../sample.js';
import type { TruthItem } from '../truth.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Busan Trekwear Co., Ltd.';
const HEADER_ROW = 4;

interface SheetResult {
  items: TruthItem[];
  amountCents: number;
}

/** `discounts` (tenths of a percent, per line) adds a Discount column holding fractions such as 0.05. */
function writeItemSheet(
  workbook: Workbook,
  name: string,
  lines: readonly PlannedLine[],
  discounts: readonly number[] | null,
): SheetResult {
  const sheet = workbook.addWorksheet(name);
  const headers = [
    'Code',
    'Description',
    'Colour',
    'Size',
    'Qty',
    'Price',
    ...(discounts ? ['Discount'] : []),
    'Amount',
  ];
  setWidths(sheet, [16, 34, 18, 9, 8, 10, 10, 12]);
  setRow(sheet, 1, [SUPPLIER]);
  sheet.getCell(1, 1).font = { bold: true, size: 13 };
  setRow(sheet, 2, [`Quotation BT-25-118 · ${name}`]);
  setRow(sheet, HEADER_ROW, headers);
  boldRow(sheet, HEADER_ROW, 1, headers.length);

  const amounts: number[] = [];
  const items = lines.map(({ variant, quantity, unitCents }, i) => {
    const row = HEADER_ROW + 1 + i;
    const discount = discounts?.[i] ?? 0;
    const amount = lineAmountCents(quantity, unitCents, discount);
    amounts.push(amount);
    const discountCell = discounts ? [discount / 1000] : [];
    setRow(sheet, row, [
      variant.sku,
      variant.name,
      variant.color,
      variant.size,
      quantity,
      fromCents(unitCents),
      ...discountCell,
      fromCents(amount),
    ]);
    return truthItem({
      sheet: name,
      row,
      sku: variant.sku,
      rawSku: variant.sku,
      description: variant.name,
      color: variant.color,
      size: variant.size,
      quantity,
      unitPrice: netUnitPrice(unitCents, discount),
    });
  });

  const totalRow = HEADER_ROW + lines.length + 1;
  const amountCents = sum(amounts);
  setRow(sheet, totalRow, ['Sheet total', sum(lines.map((line) => line.quantity))], 4);
  setRow(sheet, totalRow, [fromCents(amountCents)], headers.length);
  boldRow(sheet, totalRow, 1, headers.length);
  sheet.getColumn(6).numFmt = MONEY_FORMAT;
  sheet.getColumn(headers.length).numFmt = MONEY_FORMAT;
  return { items, amountCents };
}

export const multiSheet: SampleStyle = {
  name: 'multi-sheet-with-terms',
  messes: [5, 8, 13],
  build(context) {
    const workbook = createWorkbook('Trekwear Export Team');
    const jackets = writeItemSheet(
      workbook,
      'Jackets',
      planLines(context, { categories: ['Jackets', 'Coats & Shells'], styles: 3, variantsPerStyle: [2, 4] }),
      null,
    );
    const fleece = writeItemSheet(
      workbook,
      'Fleece',
      planLines(context, { categories: ['Fleece'], styles: 3, variantsPerStyle: [2, 4] }),
      null,
    );
    const accessoryLines = planLines(context, {
      categories: ['Headwear', 'Gloves'],
      styles: 3,
      variantsPerStyle: [1, 3],
    });
    const accessories = writeItemSheet(
      workbook,
      'Accessories',
      accessoryLines,
      accessoryLines.map((_, i) => (i % 3 === 2 ? 0 : 50)),
    );

    const totalCents = jackets.amountCents + fleece.amountCents + accessories.amountCents;
    const terms = workbook.addWorksheet('Terms');
    setWidths(terms, [22, 80]);
    setRow(terms, 1, ['Terms & Conditions']);
    terms.getCell(1, 1).font = { bold: true, size: 13 };
    const rows: [string, string][] = [
      ['Currency', 'USD'],
      ['Payment', 'T/T 30% with order, 70% against B/L copy'],
      ['Lead time', '55 days after order confirmation'],
      ['Incoterm', 'FOB Busan'],
      ['MOQ', '200 pcs per style/colour'],
      ['Validity', 'Quotation valid for 30 days'],
      ['Total value (all sheets)', formatPrefixed('USD ', totalCents)],
      ['Remarks', 'Prices are based on current fabric costs and may change after the validity period.'],
    ];
    rows.forEach((pair, i) => setRow(terms, 3 + i, pair));

    return {
      workbook,
      description:
        'Three item sheets (Jackets, Fleece, Accessories) each with its own table and sheet total, the Accessories ' +
        'one with a Discount column of fractions (0.05) netted into the unit price, plus a Terms sheet with no items.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: 'T/T 30% with order, 70% against B/L copy',
        leadTimeDays: 55,
        currency: 'USD',
        incoterm: 'FOB Busan',
        moq: 200,
        validityDays: 30,
      },
      items: [...jackets.items, ...fleece.items, ...accessories.items],
      charges: [],
      statedTotal: fromCents(totalCents),
    };
  },
};
