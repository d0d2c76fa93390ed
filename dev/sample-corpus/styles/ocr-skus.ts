import { fromCents, lineAmountCents, sum } from '../money.js';
import { noisySku, SKU_NOISES, type SkuNoise } from '../ocr-noise.js';
import { NO_TERMS, planLines, truthItem, type SampleStyle } from '../sample.js';
import type { TruthItem } from '../truth.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Chittagong Peak Knitwear Ltd.';
const HEADER_ROW = 4;

/** Trims a brand buys from its garment maker that are not catalog products. */
const CUSTOM_ITEMS = [
  { code: 'WL-5015', description: 'Custom woven label 50x15mm, Valden logo', quantity: 2000, unitCents: 6 },
  { code: 'EP-0707', description: 'Embroidered logo patch 70x70mm (custom)', quantity: 1500, unitCents: 38 },
  { code: 'HT-220', description: 'Printed swing tag with string, custom artwork', quantity: 2000, unitCents: 9 },
] as const;

export const ocrSkus: SampleStyle = {
  name: 'ocr-sku-errors-custom-items',
  messes: [10, 15],
  build(context) {
    const { rng, catalog } = context;
    const lines = planLines(context, {
      categories: ['Tees', 'Base Layers', 'Fleece', 'Shirts'],
      styles: 6,
      variantsPerStyle: [2, 4],
    });
    const workbook = createWorkbook('CPK Merchandiser');
    const sheet = workbook.addWorksheet('Sheet1');
    setWidths(sheet, [5, 18, 52, 9, 14, 14]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true };
    setRow(sheet, 2, ['Plot 14, Chittagong Export Processing Zone, Chattogram, Bangladesh']);
    setRow(sheet, HEADER_ROW, ['SL', 'Article No.', 'Description', 'Qty', 'U/Price (USD)', 'Total (USD)']);
    boldRow(sheet, HEADER_ROW, 1, 6);

    // Custom trims land after the 5th catalog line and at the end, as a merchandiser adds them.
    const entries = [
      ...lines.slice(0, 5).map((line) => ({ line })),
      { custom: CUSTOM_ITEMS[0] },
      ...lines.slice(5).map((line) => ({ line })),
      { custom: CUSTOM_ITEMS[1] },
      { custom: CUSTOM_ITEMS[2] },
    ];

    // Slips are dealt in turn, a slip going to the back of the queue once used, so every kind shows up.
    const queue: SkuNoise[] = [...SKU_NOISES];
    const amounts: number[] = [];
    const items: TruthItem[] = entries.map((entry, i) => {
      const row = HEADER_ROW + 1 + i;
      if ('custom' in entry) {
        const { code, description, quantity, unitCents } = entry.custom;
        const amount = lineAmountCents(quantity, unitCents);
        amounts.push(amount);
        setRow(sheet, row, [i + 1, code, description, quantity, fromCents(unitCents), fromCents(amount)]);
        return truthItem({
          sheet: sheet.name,
          row,
          rawSku: code,
          description,
          quantity,
          unitPrice: fromCents(unitCents),
        });
      }
      const { variant, quantity, unitCents } = entry.line;
      // About one line in five is read cleanly.
      let written = variant.sku;
      if (i % 5 !== 4) {
        const slip = noisySku(variant.sku, queue[0] ?? 'lowercase', rng, catalog.has);
        queue.splice(queue.indexOf(slip.noise), 1);
        queue.push(slip.noise);
        written = slip.written;
      }
      const description = `${variant.name} / ${variant.color} / ${variant.size}`;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      setRow(sheet, row, [i + 1, written, description, quantity, fromCents(unitCents), fromCents(amount)]);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: written,
        description,
        quantity,
        unitPrice: fromCents(unitCents),
      });
    });

    const totalRow = HEADER_ROW + entries.length + 1;
    const total = sum(amounts);
    setRow(sheet, totalRow, ['TOTAL', sum(items.map((item) => item.quantity)), undefined, fromCents(total)], 3);
    boldRow(sheet, totalRow, 1, 6);
    for (const column of [5, 6]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    return {
      workbook,
      description:
        'A quotation re-typed from a scanned PDF: article numbers carry OCR slips (O/0, I/l/1, missing dashes, ' +
        'lowercase, stray spaces; rawSku keeps them, sku is the real one) and three custom trims are not in the catalog.',
      supplier: SUPPLIER,
      terms: { ...NO_TERMS, currency: 'USD' },
      items,
      charges: [],
      statedTotal: fromCents(total),
    };
  },
};
