import { fromCents } from '../money.js';
import { ACCESSORY_CATEGORIES } from '../sample-catalog.js';
import { planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Xiamen Harbourline Accessories Co., Ltd.';
const HEADER_ROW = 4;
const BREAKS = [
  { minQty: 1, label: '1-499 pcs', factor: 1 },
  { minQty: 500, label: '500-999 pcs', factor: 0.94 },
  { minQty: 1000, label: '≥1,000 pcs', factor: 0.89 },
] as const;

export const tierRows: SampleStyle = {
  name: 'tier-rows',
  messes: [6],
  build(context) {
    const lines = planLines(context, {
      categories: ACCESSORY_CATEGORIES,
      styles: 5,
      variantsPerStyle: [1, 2],
      minQuantity: 100,
      maxQuantity: 2000,
    });
    const workbook = createWorkbook('Harbourline');
    const sheet = workbook.addWorksheet('Offer');
    setWidths(sheet, [18, 40, 11, 16, 16]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Quotation for Valden Outdoor, prices in USD']);
    setRow(sheet, HEADER_ROW, ['Model', 'Product Name', 'Order Qty', 'Quantity Break', 'Unit Price (USD)']);
    boldRow(sheet, HEADER_ROW, 1, 5);

    // Each product takes three rows: its code, name and order quantity on the first, one price break per row.
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i * 3;
      const description = `${variant.name} ${variant.color} ${variant.size}`;
      const tierCents = BREAKS.map((tier) => Math.round((unitCents * tier.factor) / 5) * 5);
      BREAKS.forEach((tier, t) => {
        setRow(sheet, row + t, [tier.label, fromCents(tierCents[t] ?? unitCents)], 4);
      });
      setRow(sheet, row, [variant.sku, description, quantity]);
      const applicable = BREAKS.reduce((found, tier, t) => (quantity >= tier.minQty ? t : found), 0);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description,
        quantity,
        unitPrice: fromCents(tierCents[applicable] ?? unitCents),
        tiers: BREAKS.map((tier, t) => ({ minQty: tier.minQty, unitPrice: fromCents(tierCents[t] ?? unitCents) })),
      });
    });
    sheet.getColumn(5).numFmt = MONEY_FORMAT;
    const notesRow = HEADER_ROW + 2 + lines.length * 3;
    setRow(sheet, notesRow, ['Validity: 30 days']);
    setRow(sheet, notesRow + 1, ['Lead time: 35 days']);

    return {
      workbook,
      description:
        'Price breaks written as rows ("1-499 pcs", "500-999 pcs", "≥1,000 pcs") under each product, the product ' +
        'on the first of its three rows: one line per product with all three tiers, priced at the break its order ' +
        'quantity reaches; no total is stated.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: null,
        leadTimeDays: 35,
        currency: 'USD',
        incoterm: null,
        moq: null,
        validityDays: 30,
      },
      items,
      charges: [],
      statedTotal: null,
    };
  },
};
