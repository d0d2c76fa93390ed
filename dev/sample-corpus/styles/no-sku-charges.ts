import { fromCents, lineAmountCents, sum, toCents } from '../money.js';
import { charge, NO_TERMS, planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Anatolia Tekstil San. ve Tic. A.Ş.';
const HEADER_ROW = 6;

export const noSkuCharges: SampleStyle = {
  name: 'no-sku-lines-and-charges',
  messes: [11, 12],
  build(context) {
    const { rng, catalog } = context;
    // Without a code a line is only as good as its words: keep products whose name, colour and size say which.
    const lines = planLines(context, {
      categories: ['Pants', 'Shirts', 'Tees', 'Fleece'],
      styles: 6,
      variantsPerStyle: [2, 3],
    }).filter((line) => catalog.isUniqueByText(line.variant));
    const workbook = createWorkbook('Anatolia Tekstil Export');
    const sheet = workbook.addWorksheet('Teklif');
    setWidths(sheet, [52, 18, 8, 8, 11, 12]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 13 };
    setRow(sheet, 2, ['Organize Sanayi Bölgesi 3. Cadde No: 27, Çorlu / Tekirdağ, Türkiye']);
    setRow(sheet, 4, ['Offer for Valden Outdoor, ref. AT-2025-044']);
    setRow(sheet, HEADER_ROW, ['Description', 'Colour', 'Size', 'Qty', 'Unit Price', 'Amount']);
    boldRow(sheet, HEADER_ROW, 1, 6);

    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const color = rng.next() < 0.2 ? variant.color.toUpperCase() : variant.color;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      setRow(sheet, row, [variant.name, color, variant.size, quantity, fromCents(unitCents), fromCents(amount)]);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        description: variant.name,
        color,
        size: variant.size,
        quantity,
        unitPrice: fromCents(unitCents),
      });
    });

    // The charges sit in the item table itself; the sample charge even has a quantity and a unit price.
    const chargeStart = HEADER_ROW + lines.length + 1;
    const charges = [
      charge('Sample charge: 2 pre-production samples per style', 24_000),
      charge('Tooling: screen set-up for printed logo', 18_000),
      charge('Export carton packaging', 9_500),
      charge('Freight to Hamburg (LCL, 2.4 cbm)', 62_000),
    ];
    setRow(sheet, chargeStart, [charges[0]?.description, undefined, undefined, 6, 40, charges[0]?.amount]);
    charges.slice(1).forEach((entry, i) => {
      setRow(sheet, chargeStart + 1 + i, [entry.description]);
      setRow(sheet, chargeStart + 1 + i, [entry.amount], 6);
    });

    const totalRow = chargeStart + charges.length;
    const totalCents = sum(amounts) + sum(charges.map((entry) => toCents(entry.amount)));
    setRow(sheet, totalRow, ['TOTAL', fromCents(totalCents)], 5);
    boldRow(sheet, totalRow, 1, 6);
    for (const column of [5, 6]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    setRow(sheet, totalRow + 2, ['All prices in USD.']);
    setRow(sheet, totalRow + 3, ['Payment: 50% advance, 50% against copy of B/L.']);

    return {
      workbook,
      description:
        'No SKU column at all: products are named by description, colour (some in capitals) and size only, and ' +
        'sample, tooling, packaging and freight charges sit as rows inside the item table before the TOTAL.',
      supplier: SUPPLIER,
      terms: { ...NO_TERMS, paymentTerms: '50% advance, 50% against copy of B/L', currency: 'USD' },
      items,
      charges,
      statedTotal: fromCents(totalCents),
    };
  },
};
