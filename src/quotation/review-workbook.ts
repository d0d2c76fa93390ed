// The review workbook: every line of a large quotation in one XLSX, with its match, confidence and
// an editable "Confirmed SKU" column, for a buyer who would rather fix 3,000 lines in Excel than page through Slack.
// The buyer shares the edited file back in the thread; Parley knows it by a very hidden marker sheet naming the
// quotation, and each row by a line id column. What a row asks for is decided here, purely: only rows whose
// Confirmed SKU differs from what Parley wrote are changes, and a row that cannot be applied gets a sentence saying
// why, leaving its line as it was.
//
// Text from the supplier's file is data: exceljs writes strings as shared strings (never formulas), and text cells
// carry the Text number format so an edited cell stays text.
import ExcelJS, { type Worksheet } from 'exceljs';
import type { WorkbookGrid } from './types.js';
import { readZipDirectory, inflateEntry } from './zip-archive.js';

/** The marker sheet's name and its first cell: what makes a shared workbook Parley's own. */
export const REVIEW_WORKBOOK_SHEET = 'parley-review';
export const REVIEW_WORKBOOK_MARKER = 'Parley review workbook v1';
export const LINES_SHEET = 'Lines';
/** What the buyer writes in Confirmed SKU for a line that is not one of the brand's products. */
export const NOT_IN_CATALOG = 'NOT IN CATALOG';

export const REVIEW_WORKBOOK_COLUMNS = [
  'Sheet',
  'Row',
  'SKU in file',
  'Description',
  'Colour',
  'Size',
  'Quantity',
  'Unit price',
  'Matched SKU',
  'Matched product',
  'Confidence',
  'State',
  'Confirmed SKU',
  'Line id',
] as const;

export type ReviewLineState = 'auto_accepted' | 'needs_review' | 'confirmed' | 'not_in_catalog';

export interface ReviewWorkbookLine {
  itemId: string;
  sheet: string;
  row: number;
  rawSku: string | null;
  description: string | null;
  color: string | null;
  size: string | null;
  quantity: number | null;
  unitPrice: number | null;
  /** The product the line is matched (or suggested) to. */
  matchedSku: string | null;
  matchedName: string | null;
  /** 0–1. */
  confidence: number;
  state: ReviewLineState;
}

export interface ReviewWorkbookInput {
  quotationId: string;
  fileName: string;
  lines: readonly ReviewWorkbookLine[];
}

const STATE_WORDS: Record<ReviewLineState, string> = {
  auto_accepted: 'matched on its own',
  needs_review: 'needs a look',
  confirmed: 'confirmed',
  not_in_catalog: 'not in catalog',
};

/**
 * What Parley writes in Confirmed SKU: the decided product, NOT IN CATALOG, or nothing for a line still open (so a
 * workbook shared back unedited confirms no suggestion nobody looked at).
 */
export function writtenConfirmedSku(line: Pick<ReviewWorkbookLine, 'state' | 'matchedSku'>): string {
  if (line.state === 'not_in_catalog') return NOT_IN_CATALOG;
  if (line.state === 'needs_review') return '';
  return line.matchedSku ?? '';
}

export async function buildReviewWorkbook(input: ReviewWorkbookInput): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Parley';
  const sheet = workbook.addWorksheet(LINES_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = REVIEW_WORKBOOK_COLUMNS.map((header) => ({ header, width: WIDTHS[header] ?? 14 }));
  sheet.getRow(1).font = { bold: true };
  for (const line of input.lines) {
    sheet.addRow([
      line.sheet,
      line.row,
      line.rawSku ?? '',
      line.description ?? '',
      line.color ?? '',
      line.size ?? '',
      line.quantity,
      line.unitPrice,
      line.matchedSku ?? '',
      line.matchedName ?? '',
      Math.round(line.confidence * 100) / 100,
      STATE_WORDS[line.state],
      writtenConfirmedSku(line),
      line.itemId,
    ]);
  }
  textColumns(sheet, ['Sheet', 'SKU in file', 'Description', 'Colour', 'Size', 'Confirmed SKU', 'Line id']);
  sheet.getColumn(REVIEW_WORKBOOK_COLUMNS.indexOf('Confidence') + 1).numFmt = '0%';
  // The column the buyer edits stands out; the line id is what ties a row back to its line.
  sheet.getColumn(REVIEW_WORKBOOK_COLUMNS.indexOf('Confirmed SKU') + 1).fill = {
    type: 'pattern',
    pattern: 'solid',
    fgColor: { argb: 'FFFFF2CC' },
  };
  const help = workbook.addWorksheet('How to use');
  help.addRows([
    [`Review of ${input.fileName}`],
    ['Write the right catalog SKU in "Confirmed SKU" (or NOT IN CATALOG), then share this file in the same thread.'],
    ['Only rows whose Confirmed SKU you change are applied; an empty cell on an open line leaves it open.'],
    ['Keep the "Line id" column as it is: it tells Parley which line a row is.'],
  ]);
  const marker = workbook.addWorksheet(REVIEW_WORKBOOK_SHEET, { state: 'veryHidden' });
  marker.addRows([[REVIEW_WORKBOOK_MARKER], ['quotation', input.quotationId]]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const WIDTHS: Partial<Record<(typeof REVIEW_WORKBOOK_COLUMNS)[number], number>> = {
  Description: 40,
  'Matched product': 30,
  'Confirmed SKU': 18,
  'Line id': 28,
};

function textColumns(sheet: Worksheet, headers: readonly (typeof REVIEW_WORKBOOK_COLUMNS)[number][]) {
  for (const header of headers) sheet.getColumn(REVIEW_WORKBOOK_COLUMNS.indexOf(header) + 1).numFmt = '@';
}

/**
 * A cheap first look, before a full read: does the package name Parley's marker sheet? Reads only the zip directory
 * and xl/workbook.xml (a few KB); any doubt answers false and the file is read as a quotation.
 */
export async function mightBeReviewWorkbook(data: Buffer): Promise<boolean> {
  try {
    const entry = readZipDirectory(data, { maxEntries: 10_000 }).find((e) => e.name === 'xl/workbook.xml');
    if (!entry || entry.uncompressedSize > 1_000_000) return false;
    return (await inflateEntry(data, entry)).toString('utf8').includes(`name="${REVIEW_WORKBOOK_SHEET}"`);
  } catch {
    return false;
  }
}

/** One row of a shared-back workbook: its 1-based sheet row, the line id and the Confirmed SKU as written. */
export interface ReviewWorkbookRow {
  row: number;
  itemId: string;
  confirmedSku: string;
}

export interface SharedReviewWorkbook {
  quotationId: string;
  rows: ReviewWorkbookRow[];
  /** Why the lines could not be read at all (a renamed header, a deleted sheet); the rows are then empty. */
  problem: string | null;
}

/** Parley's own workbook read back from a grid; null when the grid is not one (no marker sheet). */
export function readSharedReviewWorkbook(grid: WorkbookGrid): SharedReviewWorkbook | null {
  const marker = grid.sheets.find((sheet) => sheet.name === REVIEW_WORKBOOK_SHEET);
  if (!marker || marker.cells[0]?.[0] !== REVIEW_WORKBOOK_MARKER) return null;
  const quotationId = marker.cells[1]?.[1]?.trim() ?? '';
  if (!quotationId) return null;
  const lines = grid.sheets.find((sheet) => sheet.name === LINES_SHEET);
  const header = lines?.cells[0]?.map((cell) => cell.trim().toLowerCase()) ?? [];
  const idColumn = header.indexOf('line id');
  const skuColumn = header.indexOf('confirmed sku');
  if (!lines || idColumn < 0 || skuColumn < 0) {
    return {
      quotationId,
      rows: [],
      problem: `the "${LINES_SHEET}" sheet with its "Line id" and "Confirmed SKU" columns is missing`,
    };
  }
  const rows = lines.cells.slice(1).flatMap((cells, index): ReviewWorkbookRow[] => {
    const itemId = cells[idColumn]?.trim() ?? '';
    const confirmedSku = cells[skuColumn]?.trim() ?? '';
    return itemId || confirmedSku ? [{ row: index + 2, itemId, confirmedSku }] : [];
  });
  return { quotationId, rows, problem: null };
}

/** A line as it stands when the workbook comes back. */
export interface CurrentReviewLine {
  itemId: string;
  state: ReviewLineState;
  matchedSku: string | null;
}

export type ReviewWorkbookChange =
  | { kind: 'confirm'; itemId: string; sku: string; row: number }
  | { kind: 'not_in_catalog'; itemId: string; row: number };

export interface ReviewWorkbookPlan {
  changes: ReviewWorkbookChange[];
  unchanged: number;
  /** One sentence per row that was not applied, naming the row. */
  problems: string[];
}

const sameSku = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

/**
 * What a shared-back workbook asks for, row by row, against the lines as they stand. `catalogSku` answers the
 * catalog's own spelling of a SKU, or null when the catalog has no such product.
 */
export function planReviewWorkbook(
  rows: readonly ReviewWorkbookRow[],
  lines: ReadonlyMap<string, CurrentReviewLine>,
  catalogSku: (sku: string) => string | null,
): ReviewWorkbookPlan {
  const plan: ReviewWorkbookPlan = { changes: [], unchanged: 0, problems: [] };
  const seenOn = new Map<string, number>();
  for (const { row, itemId, confirmedSku } of rows) {
    const line = lines.get(itemId);
    if (!line) {
      plan.problems.push(`Row ${row}: its Line id is not a line of this quotation (a changed id or an added row).`);
      continue;
    }
    const earlier = seenOn.get(itemId);
    if (earlier !== undefined) {
      plan.problems.push(`Row ${row}: the same line as row ${earlier}; only row ${earlier} counts.`);
      continue;
    }
    seenOn.set(itemId, row);
    const written = writtenConfirmedSku(line);
    if (sameSku(confirmedSku, written)) {
      plan.unchanged++;
      continue;
    }
    if (confirmedSku === '') {
      plan.problems.push(
        `Row ${row}: Confirmed SKU was emptied; the line keeps ${line.matchedSku ?? 'its decision'} ` +
          `(write ${NOT_IN_CATALOG} to take the match away).`,
      );
      continue;
    }
    if (sameSku(confirmedSku, NOT_IN_CATALOG)) {
      plan.changes.push({ kind: 'not_in_catalog', itemId, row });
      continue;
    }
    const sku = catalogSku(confirmedSku);
    if (!sku) {
      plan.problems.push(
        `Row ${row}: “${confirmedSku.slice(0, 60)}” is not a SKU of the catalog; the line is as it was.`,
      );
      continue;
    }
    plan.changes.push({ kind: 'confirm', itemId, sku, row });
  }
  return plan;
}
