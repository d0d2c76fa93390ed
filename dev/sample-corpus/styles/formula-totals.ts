import type { CellValue } from 'exceljs';
import { fromCents, lineAmountCents, sum, toCents } from '../money.js';
import { charge, NO_TERMS, planLines, type SampleStyle, variantTruth } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, ref, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Dongguan Huafeng Outerwear Manufacturing Co., Ltd.';
const HEADER_ROW = 5;
const QTY = 5;
const PRICE = 6;
const AMOUNT = 7;

export const formulaTotals: SampleStyle = {
  name: 'formula-totals-and-charges',
  messes: [3, 12],
  build(context) {
    const lines = planLines(context, {
      categories: ['Coats & Shells', 'Jackets', 'Vests'],
      styles: 6,
      variantsPerStyle: [2, 4],
    });
    const workbook = createWorkbook('HF Sales Dept');
    const sheet = workbook.addWorksheet('Quote');
    setWidths(sheet, [16, 44, 18, 7, 9, 11, 13]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Quotation No.: HF-2025-0412        Date: 2025-04-12']);
    setRow(sheet, 3, ['Customer: Valden Outdoor']);
    setRow(sheet, HEADER_ROW, ['Item Code', 'Description', 'Colour', 'Size', 'Qty', 'Unit Price', 'Amount']);
    boldRow(sheet, HEADER_ROW, 1, AMOUNT);

    const first = HEADER_ROW + 1;
    const last = first + lines.length - 1;
    // The first half of the amounts is one shared formula filled down, the rest typed row by row: both happen.
    const sharedUntil = first + Math.floor(lines.length / 2) - 1;
    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = first + i;
      const amountCents = lineAmountCents(quantity, unitCents);
      amounts.push(amountCents);
      // Shared rows are filled in one go below; the rest get a formula typed into each cell.
      const formula: CellValue | undefined =
        row <= sharedUntil
          ? undefined
          : { formula: `${ref(row, QTY)}*${ref(row, PRICE)}`, result: fromCents(amountCents) };
      setRow(sheet, row, [
        variant.sku,
        variant.name,
        variant.color,
        variant.size,
        quantity,
        fromCents(unitCents),
        formula,
      ]);
      return variantTruth(sheet.name, row, { variant, quantity, unitCents });
    });

    sheet.fillFormula(
      `${ref(first, AMOUNT)}:${ref(sharedUntil, AMOUNT)}`,
      `${ref(first, QTY)}*${ref(first, PRICE)}`,
      amounts.slice(0, sharedUntil - first + 1).map(fromCents),
    );

    const subtotalRow = last + 1;
    const subtotal = sum(amounts);
    const quantityTotal = sum(lines.map((line) => line.quantity));
    setRow(
      sheet,
      subtotalRow,
      [
        { formula: `SUM(${ref(first, QTY)}:${ref(last, QTY)})`, result: quantityTotal },
        'Subtotal',
        { formula: `SUM(${ref(first, AMOUNT)}:${ref(last, AMOUNT)})`, result: fromCents(subtotal) },
      ],
      QTY,
    );
    boldRow(sheet, subtotalRow, 1, AMOUNT);

    const charges = [
      charge("Sea freight to Rotterdam (1 x 20' container)", 85_000),
      charge('Export carton packaging, 5-ply', 12_000),
      charge('Pre-production samples, 2 per style', 18_000),
    ];
    charges.forEach((entry, i) => setRow(sheet, subtotalRow + 1 + i, [entry.description], 2));
    charges.forEach((entry, i) => setRow(sheet, subtotalRow + 1 + i, [entry.amount], AMOUNT));

    const grandRow = subtotalRow + charges.length + 1;
    const grandTotal = fromCents(subtotal + sum(charges.map((entry) => toCents(entry.amount))));
    setRow(
      sheet,
      grandRow,
      ['Grand Total', { formula: `SUM(${ref(subtotalRow, AMOUNT)}:${ref(grandRow - 1, AMOUNT)})`, result: grandTotal }],
      PRICE,
    );
    boldRow(sheet, grandRow, 1, AMOUNT);
    for (const column of [PRICE, AMOUNT]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    setRow(sheet, grandRow + 2, ['All prices in USD, FOB Shenzhen.']);
    setRow(sheet, grandRow + 3, ['Payment terms: T/T 30 days after B/L date.']);

    return {
      workbook,
      description:
        'Line amounts are formulas (half one shared formula, half typed per row) with cached results, followed by ' +
        'a SUM Subtotal, three charge rows (freight, cartons, samples) that are not products and a Grand Total.',
      supplier: SUPPLIER,
      terms: { ...NO_TERMS, paymentTerms: 'T/T 30 days after B/L date', currency: 'USD', incoterm: 'FOB Shenzhen' },
      items,
      charges,
      statedTotal: grandTotal,
    };
  },
};
