import { fromCents, lineAmountCents, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { NO_TERMS, planLines, variantTruth, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const HEADER_ROW = 3;

/** The three shapes of chart suppliers put under a style, taken in turn. */
const CHARTS: (readonly (string | number)[])[][] = [
  // Centimetres under a size row, labels in the description column.
  [
    ['', 'Size', 'S', 'M', 'L', 'XL'],
    ['', 'Chest (cm)', 52, 55, 58, 61],
    ['', 'Body length (cm)', 70, 72, 74, 76],
    ['', 'Sleeve (cm)', 61, 62.5, 64, 65.5],
  ],
  // Inches with fractions and no size row, labels in the code column.
  [
    ['1/2 Chest (inch)', '', '20 1/2', '21 1/2', '22 1/2', '23 1/2'],
    ['Length from HPS (inch)', '', '27', '28', '29', '30'],
  ],
  // A specification under a heading.
  [
    ['', 'Specifications'],
    ['', 'Fabric', '100% recycled polyester'],
    ['', 'Weight (gsm)', 280],
    ['', 'Zipper', 'YKK #5 reverse coil'],
  ],
];

export const dimensionSubTables: SampleStyle = {
  name: 'dimension-sub-tables',
  number: 28,
  messes: [1],
  build(context) {
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 4, variantsPerStyle: [2, 3] });
    const workbook = createWorkbook('Sales');
    const sheet = workbook.addWorksheet('Quote');
    setWidths(sheet, [22, 30, 14, 8, 16, 16]);
    setRow(sheet, 1, ['QUOTATION']);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, HEADER_ROW, ['Style No.', 'Description', 'Colour', 'Qty', 'Unit Price (USD)', 'Amount (USD)']);
    boldRow(sheet, HEADER_ROW, 1, 6);

    let row = HEADER_ROW + 1;
    const amounts: number[] = [];
    let chart = 0;
    const items = lines.map((line, i) => {
      const { variant, quantity, unitCents } = line;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      setRow(sheet, row, [variant.sku, variant.name, variant.color, quantity, fromCents(unitCents), fromCents(amount)]);
      const truth = variantTruth(sheet.name, row, line);
      row++;
      // The style's measurements follow its last colour/size line.
      const next = lines[i + 1];
      if (!next || next.variant.name !== variant.name) {
        for (const cells of CHARTS[chart % CHARTS.length] ?? []) setRow(sheet, row++, cells);
        chart++;
      }
      return truth;
    });

    const total = fromCents(sum(amounts));
    setRow(sheet, row, ['Total', undefined, undefined, sum(lines.map((l) => l.quantity)), undefined, total]);
    boldRow(sheet, row, 1, 6);
    for (const column of [5, 6]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    return {
      workbook,
      description:
        "A quotation with a size chart or spec table under each style (cm under a size row, inches with fractions, a 'Specifications' block): " +
        "the charts are the style's notes, never items.",
      supplier: null,
      terms: { ...NO_TERMS, currency: 'USD' },
      items,
      charges: [],
      statedTotal: total,
    };
  },
};
