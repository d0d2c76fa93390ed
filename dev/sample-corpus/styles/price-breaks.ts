import { breakPriceCents, fromCents, lineAmountCents, sum } from '../money.js';
import { ACCESSORY_CATEGORIES } from '../sample-catalog.js';
import { planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths, tierHeader } from '../workbook.js';

const SUPPLIER = 'Quanzhou Rocksteady Bags & Accessories Co., Ltd.';
const HEADER_ROW = 4;
const BREAKS = [
  { minQty: 1, label: '1-299 pcs', factor: 1 },
  { minQty: 300, label: '300-999', factor: 0.92 },
  { minQty: 1000, label: '1000+', factor: 0.85 },
] as const;

export const priceBreaks: SampleStyle = {
  name: 'quantity-price-breaks',
  messes: [6, 13],
  build(context) {
    const { rng } = context;
    const lines = planLines(context, { categories: ACCESSORY_CATEGORIES, styles: 6, variantsPerStyle: [1, 3] });
    const workbook = createWorkbook('Rocksteady');
    const sheet = workbook.addWorksheet('Price List');
    setWidths(sheet, [16, 30, 18, 10, 11, 11, 11, 11, 13]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Quotation RS-0521 · 21 May 2025 · for Valden Outdoor']);

    // A two-row header: the price columns share one merged caption, each break labelled underneath.
    tierHeader(
      sheet,
      HEADER_ROW,
      {
        left: ['Item No.', 'Description', 'Colour', 'Size', 'Order Qty'],
        priceCaption: 'Unit Price (USD)',
        right: ['Amount (USD)'],
      },
      BREAKS.map((tier) => tier.label),
    );

    const amounts: number[] = [];
    const items = lines.map(({ variant, unitCents }, i) => {
      const row = HEADER_ROW + 2 + i;
      // Spread the order quantities over all three breaks.
      const band = i % 3;
      const quantity = band === 0 ? rng.int(2, 5) * 50 : band === 1 ? rng.int(3, 9) * 100 : rng.int(10, 20) * 100;
      const { tierCents, priceCents } = breakPriceCents(BREAKS, unitCents, quantity);
      const amount = lineAmountCents(quantity, priceCents);
      amounts.push(amount);
      setRow(sheet, row, [
        variant.sku,
        variant.name,
        variant.color,
        variant.size,
        quantity,
        ...tierCents.map(fromCents),
        fromCents(amount),
      ]);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description: variant.name,
        color: variant.color,
        size: variant.size,
        quantity,
        unitPrice: fromCents(priceCents),
        tiers: BREAKS.map((tier, t) => ({ minQty: tier.minQty, unitPrice: fromCents(tierCents[t] ?? unitCents) })),
      });
    });

    const totalRow = HEADER_ROW + 2 + lines.length;
    const total = sum(amounts);
    setRow(sheet, totalRow, ['Total', sum(items.map((item) => item.quantity))], 4);
    setRow(sheet, totalRow, [fromCents(total)], 9);
    boldRow(sheet, totalRow, 1, 9);
    for (const column of [6, 7, 8, 9]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    const notes = [
      'Notes:',
      'Prices valid 30 days.',
      'MOQ 100 pcs/colour.',
      'Payment: 100% T/T before shipment.',
      'Lead time: 35 days after sample approval.',
      'FOB Xiamen, prices in USD.',
    ];
    notes.forEach((text, i) => setRow(sheet, totalRow + 2 + i, [text]));

    return {
      workbook,
      description:
        'Quantity price breaks in three columns (1-299 pcs, 300-999, 1000+) under a merged two-row header: each ' +
        'line lists all breaks as tiers and its unit price is the break that applies at its order quantity.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: '100% T/T before shipment',
        leadTimeDays: 35,
        currency: 'USD',
        incoterm: 'FOB Xiamen',
        moq: 100,
        validityDays: 30,
      },
      items,
      charges: [],
      statedTotal: fromCents(total),
    };
  },
};
