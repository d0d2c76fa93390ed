import { fromCents, lineAmountCents, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { NO_TERMS, planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

/** The offers compared, left to right, each priced as a share of the catalog price (rounded to 5 cents). */
const SUPPLIERS = [
  { name: 'Jiangsu Longriver Textile Co., Ltd.', factor: 1 },
  { name: 'Ningbo Everbright Garments Co., Ltd.', factor: 1.04 },
  { name: 'Dong Nai Apparel JSC', factor: 0.97 },
];
const HEADER_ROW = 5;
/** Columns: No., SKU, Description, Qty, Target, then Unit Price + Amount per supplier, then Lowest. */
const FIRST_SUPPLIER_COLUMN = 6;

export const supplierComparison: SampleStyle = {
  name: 'supplier-comparison',
  messes: [1],
  build(context) {
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 4, variantsPerStyle: [2, 3] });
    const workbook = createWorkbook('Valden Sourcing');
    const sheet = workbook.addWorksheet('Comparison');
    const lowestColumn = FIRST_SUPPLIER_COLUMN + SUPPLIERS.length * 2;
    setWidths(sheet, [6, 18, 36, 8, 14, ...SUPPLIERS.flatMap(() => [14, 14]), 12]);
    setRow(sheet, 1, ['Valden Outdoor']);
    setRow(sheet, 2, ['Price Comparison — RFQ-2025-07, fleece and shells']);
    setRow(sheet, 3, ['All prices USD per piece, FOB']);
    // The buyer's own sheet: each offer's name merged over its unit price and amount, the buyer's target left of
    // them and the lowest offer right of them.
    SUPPLIERS.forEach(({ name }, i) => {
      const column = FIRST_SUPPLIER_COLUMN + i * 2;
      sheet.getCell(HEADER_ROW - 1, column).value = name;
      sheet.mergeCells(HEADER_ROW - 1, column, HEADER_ROW - 1, column + 1);
    });
    setRow(sheet, HEADER_ROW, [
      'No.',
      'SKU',
      'Description',
      'Qty',
      'Target Price',
      ...SUPPLIERS.flatMap(() => ['Unit Price', 'Amount']),
      'Lowest',
    ]);
    boldRow(sheet, HEADER_ROW - 1, FIRST_SUPPLIER_COLUMN, lowestColumn - 1);
    boldRow(sheet, HEADER_ROW, 1, lowestColumn);

    const amounts: number[][] = SUPPLIERS.map(() => []);
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const description = `${variant.name} ${variant.color} ${variant.size}`;
      const targetCents = Math.round((unitCents * 0.85) / 5) * 5;
      const offers = SUPPLIERS.map(({ factor }) => Math.round((unitCents * factor) / 5) * 5);
      setRow(sheet, row, [
        i + 1,
        variant.sku,
        description,
        quantity,
        fromCents(targetCents),
        ...offers.flatMap((cents, s) => {
          const amount = lineAmountCents(quantity, cents);
          amounts[s]?.push(amount);
          return [fromCents(cents), fromCents(amount)];
        }),
        fromCents(Math.min(...offers)),
      ]);
      // Until the buyer picks a supplier the sheet is read with the first offer's prices (the leftmost price column
      // that is not the buyer's target); picking one reads that column instead.
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description,
        quantity,
        unitPrice: fromCents(offers[0] ?? unitCents),
      });
    });

    const totalRow = HEADER_ROW + 1 + lines.length;
    setRow(sheet, totalRow, ['Total'], 3);
    setRow(
      sheet,
      totalRow,
      SUPPLIERS.flatMap((_, s) => [undefined, fromCents(sum(amounts[s] ?? []))]),
      FIRST_SUPPLIER_COLUMN,
    );
    boldRow(sheet, totalRow, 1, lowestColumn);
    for (let column = 5; column <= lowestColumn; column++) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    return {
      workbook,
      documentKind: 'comparison',
      description:
        "The buyer's comparison of 3 suppliers' offers: each supplier's name merged over its Unit Price and Amount, " +
        "the buyer's Target Price left of them and a Lowest column right. Read unpicked, the lines carry the first " +
        "offer's prices and the buyer is offered one button per supplier; the target is never a price.",
      supplier: null,
      terms: { ...NO_TERMS, currency: 'USD', incoterm: 'FOB' },
      items,
      charges: [],
      statedTotal: fromCents(sum(amounts[0] ?? [])),
    };
  },
};
