import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  LINES_SHEET,
  NOT_IN_CATALOG,
  type CurrentReviewLine,
  type ReviewWorkbookLine,
  buildReviewWorkbook,
  mightBeReviewWorkbook,
  planReviewWorkbook,
  readSharedReviewWorkbook,
} from './review-workbook.js';
import { readWorkbook } from './xlsx-reader.js';

const LIMITS = { maxBytes: 10 * 1024 * 1024, maxRowsPerSheet: 10_000, maxCells: 1_000_000 };
const QT = 'clquotation00000000000001';

const line = (n: number, extra: Partial<ReviewWorkbookLine> = {}): ReviewWorkbookLine => ({
  itemId: `clitem${String(n).padStart(19, '0')}`,
  sheet: 'Quote',
  row: n + 2,
  rawSku: `MC00${n}-GLW-M`,
  description: `Summit Jacket ${n}`,
  color: 'Glacier White',
  size: 'M',
  quantity: 100,
  unitPrice: 21.5,
  matchedSku: `MC00${n}-GLW-M`,
  matchedName: `Summit Jacket ${n}`,
  confidence: 0.97,
  state: 'auto_accepted',
  ...extra,
});

/** The workbook as a buyer edits it in Excel: `edit` gets the Lines sheet. */
async function edited(bytes: Buffer, edit: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet(LINES_SHEET);
  if (!sheet) throw new Error('no Lines sheet');
  edit(sheet);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const CONFIRMED = 13;

describe('the review workbook', () => {
  const lines = [
    line(1),
    line(2, { state: 'needs_review', confidence: 0.62, matchedSku: 'MC009-GLW-M' }),
    line(3, { state: 'needs_review', confidence: 0.55, description: '=HYPERLINK("http://x","<!channel>")' }),
  ];

  it('is recognised by its marker sheet and read back row by row; a quotation is not', async () => {
    const bytes = await buildReviewWorkbook({ quotationId: QT, fileName: 'quote.xlsx', lines });
    expect(await mightBeReviewWorkbook(bytes)).toBe(true);
    const shared = readSharedReviewWorkbook(await readWorkbook(bytes, LIMITS));
    expect(shared?.quotationId).toBe(QT);
    expect(shared?.problem).toBeNull();
    // The decided line carries its SKU; the open ones are empty, so an unedited workbook confirms nothing.
    expect(shared?.rows).toEqual([
      { row: 2, itemId: lines[0]?.itemId, confirmedSku: 'MC001-GLW-M' },
      { row: 3, itemId: lines[1]?.itemId, confirmedSku: '' },
      { row: 4, itemId: lines[2]?.itemId, confirmedSku: '' },
    ]);

    const grid = await readWorkbook(bytes, LIMITS);
    const description = grid.sheets.find((s) => s.name === LINES_SHEET)?.cells[3]?.[3];
    // The supplier's text stays text, never a formula.
    expect(description).toBe('=HYPERLINK("http://x","<!channel>")');
  });

  it('plans only the changed rows, and names every row it cannot apply', async () => {
    const bytes = await buildReviewWorkbook({ quotationId: QT, fileName: 'quote.xlsx', lines });
    const back = await edited(bytes, (sheet) => {
      sheet.getRow(3).getCell(CONFIRMED).value = 'mc009-glw-m'; // the suggestion, lower case: confirmed
      sheet.getRow(4).getCell(CONFIRMED).value = NOT_IN_CATALOG.toLowerCase();
      sheet.getRow(2).getCell(CONFIRMED).value = 'ZZ999-XXX-9'; // not a catalog SKU
      sheet.addRow(['Quote', 99, '', '', '', '', 1, 1, '', '', 0, '', 'MC001-GLW-M', 'clforged0000000000000000']);
      sheet.addRow(['Quote', 3, '', '', '', '', 1, 1, '', '', 0, '', 'MC001-GLW-M', lines[1]?.itemId]);
    });
    const shared = readSharedReviewWorkbook(await readWorkbook(back, LIMITS));
    if (!shared) throw new Error('not recognised');
    const current = new Map<string, CurrentReviewLine>(
      lines.map((l) => [l.itemId, { itemId: l.itemId, state: l.state, matchedSku: l.matchedSku }]),
    );
    const catalog = new Set(['MC001-GLW-M', 'MC009-GLW-M']);
    const plan = planReviewWorkbook(shared.rows, current, (sku) =>
      catalog.has(sku.toUpperCase()) ? sku.toUpperCase() : null,
    );
    expect(plan.changes).toEqual([
      { kind: 'confirm', itemId: lines[1]?.itemId, sku: 'MC009-GLW-M', row: 3 },
      { kind: 'not_in_catalog', itemId: lines[2]?.itemId, row: 4 },
    ]);
    expect(plan.unchanged).toBe(0);
    expect(plan.problems).toEqual([
      'Row 2: “ZZ999-XXX-9” is not a SKU of the catalog; the line is as it was.',
      'Row 5: its Line id is not a line of this quotation (a changed id or an added row).',
      'Row 6: the same line as row 3; only row 3 counts.',
    ]);
  });

  it('says what is missing when the columns it needs were removed', async () => {
    const bytes = await buildReviewWorkbook({ quotationId: QT, fileName: 'quote.xlsx', lines });
    const back = await edited(bytes, (sheet) => {
      sheet.getRow(1).getCell(14).value = 'Notes';
    });
    const shared = readSharedReviewWorkbook(await readWorkbook(back, LIMITS));
    expect(shared?.rows).toEqual([]);
    expect(shared?.problem).toContain('"Line id"');
  });

  it('is not claimed for an ordinary quotation', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('parley').addRow(['Parley review workbook v1']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(await mightBeReviewWorkbook(bytes)).toBe(false);
    expect(readSharedReviewWorkbook(await readWorkbook(bytes, LIMITS))).toBeNull();
    expect(await mightBeReviewWorkbook(Buffer.from('not a zip'))).toBe(false);
  });
});
