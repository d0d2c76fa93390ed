import { fromCents, lineAmountCents, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { NO_TERMS, planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

export const cleanBaseline: SampleStyle = {
  name: 'clean-baseline',
  messes: [1],
  build(context) {
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 5, variantsPerStyle: [2, 4] });
    const workbook = createWorkbook('Purchasing');
    const sheet = workbook.addWorksheet('Sheet1');
    setWidths(sheet, [16, 48, 8, 11, 12]);
    setRow(sheet, 1, ['SKU', 'Description', 'Qty', 'Unit Price', 'Amount']);
    boldRow(sheet, 1, 1, 5);

    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = 2 + i;
      const description = `${variant.name} - ${variant.color} - ${variant.size}`;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      setRow(sheet, row, [variant.sku, description, quantity, fromCents(unitCents), fromCents(amount)]);
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

    const totalRow = 2 + lines.length;
    const total = fromCents(sum(amounts));
    setRow(sheet, totalRow, ['Total', undefined, sum(lines.map((line) => line.quantity)), undefined, total]);
    boldRow(sheet, totalRow, 1, 5);
    for (const column of [4, 5]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    return {
      workbook,
      description:
        'Clean baseline: one table with its header on row 1 (SKU, Description, Qty, Unit Price, Amount), correct ' +
        'catalog SKUs, plain numbers and a Total row; no supplier, currency or terms are stated.',
      supplier: null,
      terms: NO_TERMS,
      items,
      charges: [],
      statedTotal: total,
    };
  },
};
