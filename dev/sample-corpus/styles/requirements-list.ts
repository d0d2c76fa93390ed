import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { NO_TERMS, planLines, truthItem, type SampleStyle } from '../sample.js';
import { boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const HEADER_ROW = 5;
const NEED_BY = ['2026-02-02', '2026-02-16', '2026-03-02'];

export const requirementsList: SampleStyle = {
  name: 'requirements-list',
  number: 27,
  messes: [1],
  build(context) {
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 4, variantsPerStyle: [2, 3] });
    const workbook = createWorkbook('Valden Planning');
    const sheet = workbook.addWorksheet('Needs');
    setWidths(sheet, [6, 18, 36, 14, 8, 14, 7, 12]);
    setRow(sheet, 1, ['Valden Outdoor']);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    // No title word names the kind: the columns (quantities, no price at all) have to.
    setRow(sheet, 2, ['Spring 2026 drop - what the stores need']);
    setRow(sheet, 3, ['Prepared by planning, 12 Jan 2026']);
    setRow(sheet, HEADER_ROW, ['Line', 'Item Code', 'Description', 'Colour', 'Size', 'Required Qty', 'UOM', 'Need by']);
    boldRow(sheet, HEADER_ROW, 1, 8);

    const items = lines.map(({ variant, quantity }, i) => {
      const row = HEADER_ROW + 1 + i;
      const needBy = NEED_BY[i % NEED_BY.length];
      setRow(sheet, row, [i + 1, variant.sku, variant.name, variant.color, variant.size, quantity, 'pcs', needBy]);
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
      documentKind: 'requirements',
      description:
        "The buyer's own requirements list: quantities and need-by dates with no price column at all and no title " +
        'word naming it; its lines are read with no price and the buyer is told it could go out as an RFQ.',
      supplier: null,
      terms: NO_TERMS,
      items,
      charges: [],
      statedTotal: null,
    };
  },
};
