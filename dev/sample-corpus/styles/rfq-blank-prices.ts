import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { NO_TERMS, planLines, truthItem, type SampleStyle } from '../sample.js';
import { boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const HEADER_ROW = 5;

export const rfqBlankPrices: SampleStyle = {
  name: 'rfq-blank-prices',
  messes: [1],
  build(context) {
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 4, variantsPerStyle: [2, 3] });
    const workbook = createWorkbook('Valden Sourcing');
    const sheet = workbook.addWorksheet('RFQ');
    setWidths(sheet, [6, 18, 36, 14, 8, 8, 16, 16]);
    setRow(sheet, 1, ['Valden Outdoor']);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['REQUEST FOR QUOTATION RFQ-2025-07']);
    setRow(sheet, 3, ['Please quote your best FOB price per piece for the quantities below.']);
    setRow(sheet, HEADER_ROW, [
      'Line',
      'SKU',
      'Description',
      'Colour',
      'Size',
      'Qty',
      'Unit Price (USD)',
      'Amount (USD)',
    ]);
    boldRow(sheet, HEADER_ROW, 1, 8);

    // The price columns are the supplier's to fill in: blank.
    const items = lines.map(({ variant, quantity }, i) => {
      const row = HEADER_ROW + 1 + i;
      setRow(sheet, row, [i + 1, variant.sku, variant.name, variant.color, variant.size, quantity]);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description: variant.name,
        color: variant.color,
        size: variant.size,
        quantity,
        unitPrice: null,
      });
    });

    return {
      workbook,
      documentKind: 'rfq',
      description:
        "The buyer's own request for quotation with the price columns still blank: its lines are read with no " +
        'price, and the buyer is told there is nothing to negotiate yet.',
      supplier: null,
      // The request itself names the basis it wants quoted: USD (the price header) and FOB (its note).
      terms: { ...NO_TERMS, currency: 'USD', incoterm: 'FOB' },
      items,
      charges: [],
      statedTotal: null,
    };
  },
};
