import { breakPriceCents, fromCents, lineAmountCents, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths, tierHeader } from '../workbook.js';

const SUPPLIER = 'Ningbo Everpeak Outdoor Products Co., Ltd.';
const HEADER_ROW = 4;
const BREAKS = [
  { minQty: 100, label: 'MOQ 100', factor: 1 },
  { minQty: 500, label: 'MOQ 500', factor: 0.93 },
  { minQty: 1000, label: 'MOQ 1000', factor: 0.88 },
] as const;

export const moqTierColumns: SampleStyle = {
  name: 'moq-tier-columns',
  messes: [6],
  build(context) {
    const { rng } = context;
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 5, variantsPerStyle: [2, 3] });
    const workbook = createWorkbook('Everpeak Sales');
    const sheet = workbook.addWorksheet('Quote');
    setWidths(sheet, [8, 14, 18, 40, 10, 10, 10, 10, 13]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Quotation EP-2507 for Valden Outdoor, PO ref VO-25-031']);
    // Item # (1..n) and the buyer's PO Ref sit left of the style code; "USD/pc" is merged over the three MOQ columns.
    tierHeader(
      sheet,
      HEADER_ROW,
      {
        left: ['Item #', 'PO Ref', 'Style Code', 'Description', 'Order Qty'],
        priceCaption: 'USD/pc',
        right: ['Amount (USD)'],
      },
      BREAKS.map((tier) => tier.label),
    );

    const amounts: number[] = [];
    const items = lines.map(({ variant, unitCents }, i) => {
      const row = HEADER_ROW + 2 + i;
      const band = i % 3;
      const quantity = band === 0 ? rng.int(2, 9) * 50 : band === 1 ? rng.int(5, 9) * 100 : rng.int(10, 25) * 100;
      const { tierCents, priceCents } = breakPriceCents(BREAKS, unitCents, quantity);
      const amount = lineAmountCents(quantity, priceCents);
      amounts.push(amount);
      const description = `${variant.name}, ${variant.color}, ${variant.size}`;
      setRow(sheet, row, [
        i + 1,
        'VO-25-031',
        variant.sku,
        description,
        quantity,
        ...tierCents.map(fromCents),
        fromCents(amount),
      ]);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description,
        quantity,
        unitPrice: fromCents(priceCents),
        tiers: BREAKS.map((tier, t) => ({ minQty: tier.minQty, unitPrice: fromCents(tierCents[t] ?? unitCents) })),
      });
    });

    const totalRow = HEADER_ROW + 2 + lines.length;
    const total = sum(amounts);
    setRow(sheet, totalRow, ['Total'], 4);
    setRow(sheet, totalRow, [fromCents(total)], 9);
    boldRow(sheet, totalRow, 1, 9);
    for (const column of [6, 7, 8, 9]) sheet.getColumn(column).numFmt = MONEY_FORMAT;
    setRow(sheet, totalRow + 2, ['Payment: 30% T/T deposit, 70% before shipment']);
    setRow(sheet, totalRow + 3, ['FOB Ningbo']);

    return {
      workbook,
      description:
        'Price breaks as "MOQ 100 / MOQ 500 / MOQ 1000" columns under a merged "USD/pc" caption, with an Item # ' +
        'numbering column and a constant PO Ref column left of the style code: each line is priced at the MOQ ' +
        'column its order quantity reaches.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: '30% T/T deposit, 70% before shipment',
        leadTimeDays: null,
        currency: 'USD',
        incoterm: 'FOB Ningbo',
        moq: null,
        validityDays: null,
      },
      items,
      charges: [],
      statedTotal: fromCents(total),
    };
  },
};
