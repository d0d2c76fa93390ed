import { fromCents, lineAmountCents, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Jiangsu Longriver Textile Co., Ltd.';
const HEADER_ROW = 5;

export const targetPriceColumn: SampleStyle = {
  name: 'target-price-column',
  messes: [1],
  build(context) {
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 4, variantsPerStyle: [2, 3] });
    const workbook = createWorkbook('Longriver Sales');
    const sheet = workbook.addWorksheet('Reply');
    setWidths(sheet, [18, 40, 8, 16, 16, 16]);
    setRow(sheet, 1, [`Supplier: ${SUPPLIER}`]);
    setRow(sheet, 2, ['Quotation in reply to RFQ-2025-07 from Valden Outdoor']);
    // The buyer's template, filled in: the buyer's target price sits left of the supplier's own price.
    setRow(sheet, HEADER_ROW, ['SKU', 'Description', 'Qty', 'Target Price (USD)', 'Your Price (USD)', 'Amount (USD)']);
    boldRow(sheet, HEADER_ROW, 1, 6);

    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const description = `${variant.name} ${variant.color} ${variant.size}`;
      const targetCents = Math.round((unitCents * 0.85) / 5) * 5;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      setRow(sheet, row, [
        variant.sku,
        description,
        quantity,
        fromCents(targetCents),
        fromCents(unitCents),
        fromCents(amount),
      ]);
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

    const totalRow = HEADER_ROW + 1 + lines.length;
    const total = sum(amounts);
    setRow(sheet, totalRow, ['Total'], 2);
    setRow(sheet, totalRow, [fromCents(total)], 6);
    boldRow(sheet, totalRow, 1, 6);
    for (const column of [4, 5, 6]) sheet.getColumn(column).numFmt = MONEY_FORMAT;
    setRow(sheet, totalRow + 2, ['Lead time: 50 days']);
    setRow(sheet, totalRow + 3, ['Incoterm: FOB Shanghai']);

    return {
      workbook,
      description:
        "The buyer's RFQ template filled in by the supplier: a Target Price column (the buyer's own, 15 % under) " +
        "left of the supplier's price; the supplier's price is the line price, never the target.",
      supplier: SUPPLIER,
      terms: {
        paymentTerms: null,
        leadTimeDays: 50,
        currency: 'USD',
        incoterm: 'FOB Shanghai',
        moq: null,
        validityDays: null,
      },
      items,
      charges: [],
      statedTotal: fromCents(total),
    };
  },
};
