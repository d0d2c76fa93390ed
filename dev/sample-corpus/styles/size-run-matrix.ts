import type { Worksheet } from 'exceljs';
import { SIZE_SCALES } from '../../catalog/catalog-generator.js';
import { fromCents, lineAmountCents, sum } from '../money.js';
import { pickPriceCents, pickStyles, type Style } from '../sample-catalog.js';
import { NO_TERMS, truthItem, type SampleContext, type SampleStyle } from '../sample.js';
import type { TruthItem } from '../truth.js';
import { MONEY_FORMAT, boldRow, createWorkbook, ref, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'PT Mega Garmindo Jaya';

/** Buyers order the middle of a size run heavier than its ends. */
const SIZE_CURVE: Record<string, readonly [number, number]> = {
  XS: [3, 6],
  S: [6, 15],
  M: [10, 30],
  L: [10, 30],
  XL: [5, 15],
  XXL: [2, 8],
};

interface Block {
  header: number;
  styles: Style[];
  sizes: readonly string[];
}

interface BlockResult {
  items: TruthItem[];
  nextRow: number;
  quantity: number;
  amountCents: number;
}

function writeBlock(sheet: Worksheet, context: SampleContext, block: Block): BlockResult {
  const { rng } = context;
  const firstSize = 4;
  const totalQtyColumn = firstSize + block.sizes.length;
  const priceColumn = totalQtyColumn + 1;
  const amountColumn = priceColumn + 1;
  setRow(sheet, block.header, ['Style', 'Description', 'Colour', ...block.sizes, 'Total Qty', 'Unit Price', 'Amount']);
  boldRow(sheet, block.header, 1, amountColumn);

  const items: TruthItem[] = [];
  let row = block.header + 1;
  let quantity = 0;
  let amountCents = 0;
  for (const style of block.styles) {
    const unitCents = pickPriceCents(rng, style.category);
    for (const color of rng.sample(style.colors, Math.min(style.colors.length, rng.int(2, 3)))) {
      const rowItems: TruthItem[] = [];
      block.sizes.forEach((size, s) => {
        const variant = color.variants.find((candidate) => candidate.size === size);
        // Leave some carried sizes unordered too, as buyers skip sizes that do not sell in a colour.
        if (!variant || rng.next() < 0.15) return;
        const [low, high] = SIZE_CURVE[size] ?? [3, 12];
        const sizeQuantity = rng.int(low, high) * 10;
        sheet.getCell(row, firstSize + s).value = sizeQuantity;
        rowItems.push(
          truthItem({
            sheet: sheet.name,
            row,
            sku: variant.sku,
            rawSku: style.code,
            description: style.name,
            color: color.name,
            size,
            quantity: sizeQuantity,
            unitPrice: fromCents(unitCents),
          }),
        );
      });
      if (rowItems.length === 0) continue;
      const rowQuantity = sum(rowItems.map((item) => item.quantity));
      const rowAmount = lineAmountCents(rowQuantity, unitCents);
      setRow(sheet, row, [style.code, style.name, color.name]);
      setRow(
        sheet,
        row,
        [
          { formula: `SUM(${ref(row, firstSize)}:${ref(row, totalQtyColumn - 1)})`, result: rowQuantity },
          fromCents(unitCents),
          { formula: `${ref(row, totalQtyColumn)}*${ref(row, priceColumn)}`, result: fromCents(rowAmount) },
        ],
        totalQtyColumn,
      );
      sheet.getCell(row, priceColumn).numFmt = MONEY_FORMAT;
      sheet.getCell(row, amountColumn).numFmt = MONEY_FORMAT;
      items.push(...rowItems);
      quantity += rowQuantity;
      amountCents += rowAmount;
      row++;
    }
  }
  return { items, nextRow: row, quantity, amountCents };
}

export const sizeRunMatrix: SampleStyle = {
  name: 'size-run-matrix',
  messes: [7],
  build(context) {
    const { rng, catalog } = context;
    const workbook = createWorkbook('Mega Garmindo Merchandising');
    const sheet = workbook.addWorksheet('Order');
    setWidths(sheet, [10, 30, 18, 7, 7, 7, 7, 7, 7, 7, 10, 11, 13]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Jl. Raya Cikarang-Cibarusah Km 3, Bekasi 17530, Indonesia']);
    setRow(sheet, 3, ['Size breakdown quotation for Valden Outdoor, Spring/Summer 2026']);

    const apparel = writeBlock(sheet, context, {
      header: 5,
      styles: pickStyles(rng, catalog, ['Jackets', 'Fleece', 'Shirts'], 4),
      sizes: SIZE_SCALES.apparel.map((size) => size.size),
    });
    // The pants follow in a second table with waist sizes, as the supplier pasted it below.
    const pants = writeBlock(sheet, context, {
      header: apparel.nextRow + 1,
      styles: pickStyles(rng, catalog, ['Pants'], 2),
      sizes: SIZE_SCALES.waist.map((size) => size.size),
    });

    const totalRow = pants.nextRow + 1;
    const total = fromCents(apparel.amountCents + pants.amountCents);
    setRow(sheet, totalRow, ['GRAND TOTAL']);
    setRow(sheet, totalRow, [apparel.quantity + pants.quantity, undefined, total], 11);
    sheet.getCell(totalRow, 13).numFmt = MONEY_FORMAT;
    boldRow(sheet, totalRow, 1, 13);

    const notes = [
      'Price FOB Jakarta, in USD.',
      'Payment: L/C at sight.',
      'Delivery: 75 days after approval of PP samples.',
    ];
    notes.forEach((text, i) => setRow(sheet, totalRow + 2 + i, [text]));

    return {
      workbook,
      description:
        'Size-run matrix: one row per style and colour with a quantity column per size (XS-XXL, then a second ' +
        'table of waist sizes 28-40), so each non-empty size cell is one item sharing its row, rawSku being the style.',
      supplier: SUPPLIER,
      terms: { ...NO_TERMS, paymentTerms: 'L/C at sight', leadTimeDays: 75, currency: 'USD', incoterm: 'FOB Jakarta' },
      items: [...apparel.items, ...pants.items],
      charges: [],
      statedTotal: total,
    };
  },
};
