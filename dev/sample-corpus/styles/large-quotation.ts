import { fromCents, lineAmountCents, sum } from '../money.js';
import { noisySku, SKU_NOISES } from '../ocr-noise.js';
import { pickPriceCents, pickQuantity } from '../sample-catalog.js';
import { NO_TERMS, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, mergedLine, ref, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Jiangsu Greatwall Outdoor Products Co., Ltd.';
export const LARGE_LINE_COUNT = 3000;
const HEADER_ROW = 8;
const WIDTH = 8;
const QTY = 6;
const PRICE = 7;
const AMOUNT = 8;

export const largeQuotation: SampleStyle = {
  name: 'large-3000-lines',
  messes: [3, 10, 11],
  build(context) {
    const { rng, catalog } = context;
    const position = new Map(catalog.products.map((variant, i) => [variant.sku, i]));
    // A full-range quotation lists the products in the brand's own order, style by style.
    const products = rng
      .sample(catalog.products, LARGE_LINE_COUNT)
      .sort((a, b) => (position.get(a.sku) ?? 0) - (position.get(b.sku) ?? 0));

    const workbook = createWorkbook('Greatwall Sales');
    const sheet = workbook.addWorksheet('Quotation');
    setWidths(sheet, [7, 16, 36, 18, 9, 8, 16, 15]);
    mergedLine(sheet, 1, WIDTH, SUPPLIER, { bold: true, size: 16 });
    mergedLine(sheet, 2, WIDTH, 'No. 9 Changjiang Road, Zhangjiagang Economic Development Zone, Jiangsu 215600, China');
    mergedLine(sheet, 3, WIDTH, 'FULL RANGE QUOTATION', { bold: true, size: 14 });
    setRow(sheet, 5, ['To:', 'Valden Outdoor', undefined, undefined, undefined, 'Date:', '2025-06-02']);
    setRow(sheet, 6, ['Ref:', 'GW-FR-2025-06', undefined, undefined, undefined, 'Pages:', '1/1']);
    setRow(sheet, HEADER_ROW, [
      'No.',
      'Item Code',
      'Description',
      'Colour',
      'Size',
      'Qty',
      'Unit Price (USD)',
      'Amount (USD)',
    ]);
    boldRow(sheet, HEADER_ROW, 1, WIDTH);

    const styleCents = new Map<string, number>();
    const amounts: number[] = [];
    const items = products.map((variant, i) => {
      const row = HEADER_ROW + 1 + i;
      const style = variant.sku.slice(0, 5);
      const unitCents = styleCents.get(style) ?? pickPriceCents(rng, variant.category);
      styleCents.set(style, unitCents);
      const quantity = pickQuantity(rng);
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      const roll = rng.next();
      let written: string | null = variant.sku;
      if (roll < 0.05) written = noisySku(variant.sku, rng.pick(SKU_NOISES), rng, catalog.has).written;
      else if (roll < 0.07 && catalog.isUniqueByText(variant)) written = null;
      setRow(sheet, row, [
        i + 1,
        written ?? undefined,
        variant.name,
        variant.color,
        variant.size,
        quantity,
        fromCents(unitCents),
        { formula: `${ref(row, QTY)}*${ref(row, PRICE)}`, result: fromCents(amount) },
      ]);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: written,
        description: variant.name,
        color: variant.color,
        size: variant.size,
        quantity,
        unitPrice: fromCents(unitCents),
      });
    });

    const first = HEADER_ROW + 1;
    const last = HEADER_ROW + products.length;
    const totalRow = last + 1;
    const total = fromCents(sum(amounts));
    setRow(
      sheet,
      totalRow,
      [
        'TOTAL',
        { formula: `SUM(${ref(first, QTY)}:${ref(last, QTY)})`, result: sum(items.map((item) => item.quantity)) },
        undefined,
        { formula: `SUM(${ref(first, AMOUNT)}:${ref(last, AMOUNT)})`, result: total },
      ],
      5,
    );
    boldRow(sheet, totalRow, 1, WIDTH);
    for (const column of [PRICE, AMOUNT]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    const notes = ['Prices valid 30 days.', 'Payment: 30% T/T deposit, balance before shipment.', 'FOB Shanghai.'];
    notes.forEach((text, i) => setRow(sheet, totalRow + 2 + i, [text]));

    return {
      workbook,
      description:
        `A ${LARGE_LINE_COUNT}-line full-range quotation for the speed target: letterhead, one header, formula ` +
        'amounts and totals, about 5% of item codes with OCR slips and about 2% of lines with no code at all.',
      supplier: SUPPLIER,
      terms: {
        ...NO_TERMS,
        paymentTerms: '30% T/T deposit, balance before shipment',
        currency: 'USD',
        incoterm: 'FOB Shanghai',
        validityDays: 30,
      },
      items,
      charges: [],
      statedTotal: total,
    };
  },
};
