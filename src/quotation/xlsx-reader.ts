// XLSX upload → WorkbookGrid: every worksheet flattened to trimmed, rectangular text, with the formatting hints the
// structurer uses (bold, hidden rows, columns and sheets). Suppliers' files are messy and sometimes hostile, so the
// package is checked and rebuilt first (xlsx-package.ts) and every rejection is a QuotationError a buyer can act on.
import ExcelJS, { type Cell, type Worksheet } from 'exceljs';

import type { Env } from '../config/env.js';
import type { ReadLimits } from './errors.js';
import { evaluateFormula } from './formulas.js';
import { type SheetGrid, type UncomputedFormula, type WorkbookGrid, cellKey } from './types.js';
import { type SheetExtras, prepareXlsxPackage } from './xlsx-package.js';
import * as reject from './xlsx-errors.js';

/** The reader's limits from the environment; MAX_UPLOAD_MB counts binary megabytes, as the messages do. */
export function readLimitsFrom(env: Pick<Env, 'MAX_UPLOAD_MB' | 'MAX_SHEET_ROWS' | 'MAX_WORKBOOK_CELLS'>): ReadLimits {
  return {
    maxBytes: Math.floor(env.MAX_UPLOAD_MB * 1024 * 1024),
    maxRowsPerSheet: env.MAX_SHEET_ROWS,
    maxCells: env.MAX_WORKBOOK_CELLS,
  };
}

/**
 * Reads every worksheet of an .xlsx into text. Throws QuotationError: not_xlsx, encrypted, corrupt, too_large,
 * zip_bomb, too_many_rows, too_many_cells or empty.
 */
export async function readWorkbook(data: Buffer, limits: ReadLimits): Promise<WorkbookGrid> {
  if (data.length > limits.maxBytes) throw reject.tooLarge(data.length, limits.maxBytes);
  const prepared = await prepareXlsxPackage(data, limits);

  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(prepared.archive);
  } catch (error) {
    throw reject.corrupt(error);
  }

  const sheets: SheetGrid[] = [];
  let cellsSoFar = 0;
  for (const worksheet of workbook.worksheets) {
    const extras = prepared.sheets[worksheet.id - 1];
    if (!extras) continue;
    const sheet = readSheet(worksheet, extras, sheets.length, limits, cellsSoFar);
    cellsSoFar += sheet.rowCount * sheet.columnCount;
    sheets.push(sheet);
  }
  if (!sheets.some((sheet) => sheet.rowCount > 0)) throw reject.empty();
  return { sheets };
}

// ───────────────────────────── Cell values → text ─────────────────────────────

/**
 * Excel keeps 15 significant digits, so anything past them is binary noise (0.1 + 0.2 → 0.30000000000000004 → "0.3").
 * Not fewer: a 13-digit EAN or a long order number typed as a number must survive intact.
 */
function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  return String(Number(value.toPrecision(15)));
}

/** exceljs gives dates as UTC instants. Rounded to the second: serial day fractions land a millisecond off. */
function dateText(value: Date): string {
  const time = value.getTime();
  if (Number.isNaN(time)) return '';
  const iso = new Date(Math.round(time / 1000) * 1000).toISOString();
  const day = iso.slice(0, 10);
  const clock = iso.slice(11, 19);
  return clock === '00:00:00' ? day : `${day}T${clock}`;
}

/** Line breaks inside a cell are layout, not meaning: "Cotton\nblend" reads as "Cotton blend". */
function stringText(value: string): string {
  return value.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

function runsOf(value: object): { text: string; bold: boolean | undefined }[] | null {
  if (!('richText' in value) || !Array.isArray(value.richText)) return null;
  return value.richText.map((run: unknown) => {
    if (typeof run !== 'object' || run === null) return { text: '', bold: undefined };
    const text = 'text' in run && typeof run.text === 'string' ? run.text : '';
    const font = 'font' in run && typeof run.font === 'object' && run.font !== null ? run.font : null;
    const bold = font && 'bold' in font && typeof font.bold === 'boolean' ? font.bold : undefined;
    return { text, bold };
  });
}

/**
 * Any exceljs cell value as text. Typed `unknown` rather than CellValue: exceljs produces shapes its typings omit
 * (a formula without a result, rich text inside a hyperlink), and a value we do not recognise must read as empty,
 * never throw.
 */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return numberText(value);
  // A string cell is text even when it starts with "=": it is shown, never evaluated.
  if (typeof value === 'string') return stringText(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if (typeof value !== 'object') return '';
  // Formulas (plain, shared, array) read as their cached result; without one there is nothing to show.
  if ('formula' in value || 'sharedFormula' in value) return 'result' in value ? valueText(value.result) : '';
  if ('error' in value) return typeof value.error === 'string' ? value.error : '';
  const runs = runsOf(value);
  if (runs) return stringText(runs.map((run) => run.text).join(''));
  if ('text' in value) return valueText(value.text); // hyperlink
  return '';
}

/** Bold font, or rich text whose visible runs are all bold (a run without its own font takes the cell's). */
function isBold(cell: Cell): boolean {
  const cellBold = cell.font?.bold === true;
  const value: unknown = cell.value;
  const runs = typeof value === 'object' && value !== null ? runsOf(value) : null;
  if (!runs) return cellBold;
  const visible = runs.filter((run) => run.text.trim() !== '');
  return visible.length > 0 && visible.every((run) => run.bold ?? cellBold);
}

// ───────────────────────────── Worksheet → grid ─────────────────────────────

interface ReadCell {
  row: number;
  column: number;
  text: string;
  bold: boolean;
}

function readSheet(
  worksheet: Worksheet,
  extras: SheetExtras,
  index: number,
  limits: ReadLimits,
  cellsSoFar: number,
): SheetGrid {
  const masters = new Set(extras.merges.map((merge) => cellKey(merge.top, merge.left)));
  const mastersWithText = new Set<string>();
  const found: ReadCell[] = [];
  let rowCount = 0;
  let columnCount = 0;
  const pending: UncomputedFormula[] = [];
  worksheet.eachRow((row, rowNumber) => {
    row.eachCell((cell, columnNumber) => {
      const text = valueText(cell.value);
      const formula = text === '' ? uncachedFormula(cell) : null;
      if (formula) {
        pending.push({ row: rowNumber - 1, column: columnNumber - 1, formula });
        rowCount = Math.max(rowCount, rowNumber);
        columnCount = Math.max(columnCount, columnNumber);
      }
      if (text === '') return;
      const read = { row: rowNumber - 1, column: columnNumber - 1, text, bold: isBold(cell) };
      found.push(read);
      if (masters.size > 0 && masters.has(cellKey(read.row, read.column))) {
        mastersWithText.add(cellKey(read.row, read.column));
      }
      rowCount = Math.max(rowCount, rowNumber);
      columnCount = Math.max(columnCount, columnNumber);
    });
  });
  // A merged range shows its top-left cell's text across the whole range.
  for (const merge of extras.merges) {
    if (!mastersWithText.has(cellKey(merge.top, merge.left))) continue;
    rowCount = Math.max(rowCount, merge.bottom + 1);
    columnCount = Math.max(columnCount, merge.right + 1);
  }

  // Measured before anything is allocated: the limits are what keep the grid's memory bounded.
  if (rowCount > limits.maxRowsPerSheet) throw reject.tooManyRows(extras.name, rowCount, limits.maxRowsPerSheet);
  if (cellsSoFar + rowCount * columnCount > limits.maxCells) {
    throw reject.tooManyCells(cellsSoFar + rowCount * columnCount, limits.maxCells);
  }

  const cells = Array.from({ length: rowCount }, () => new Array<string>(columnCount).fill(''));
  const bold = new Set<string>();
  for (const read of found) {
    const line = cells[read.row];
    if (!line) continue;
    line[read.column] = read.text;
    if (read.bold) bold.add(cellKey(read.row, read.column));
  }
  const uncomputed = computeFormulas(cells, pending);
  const mergedFromAbove = fillMerges(cells, bold, extras.merges, rowCount, columnCount);

  // Blank merges can clear what was the last row or column: trim again.
  while (rowCount > 0 && cells[rowCount - 1]?.every((text) => text === '')) rowCount--;
  cells.length = rowCount;
  while (columnCount > 0 && cells.every((line) => line[columnCount - 1] === '')) columnCount--;
  for (const line of cells) line.length = columnCount;
  for (const key of bold) {
    const [row = 0, column = 0] = key.split(',').map(Number);
    if (row >= rowCount || column >= columnCount) bold.delete(key);
  }

  return {
    name: extras.name,
    index,
    hidden: extras.hidden,
    cells,
    rowCount,
    columnCount,
    bold,
    hiddenRows: new Set(extras.hiddenRows.filter((row) => row < rowCount)),
    hiddenColumns: new Set(extras.hiddenColumns.filter((column) => column < columnCount)),
    ...(mergedFromAbove.size ? { mergedFromAbove } : {}),
    ...(uncomputed.length ? { uncomputedFormulas: uncomputed } : {}),
  };
}

/** The formula of a cell saved without its result, or null. */
function uncachedFormula(cell: Cell): string | null {
  const value: unknown = cell.value;
  if (typeof value !== 'object' || value === null) return null;
  if (!('formula' in value || 'sharedFormula' in value) || 'result' in value) return null;
  // exceljs translates a shared formula to this cell's own references.
  const formula: unknown = cell.formula;
  return typeof formula === 'string' && formula !== '' ? formula : null;
}

/**
 * Works out the uncached formulas it can, in passes (a total may sum line amounts that are formulas too), writing
 * their values into the grid; returns the ones it could not.
 */
function computeFormulas(cells: string[][], pending: UncomputedFormula[]): UncomputedFormula[] {
  let left = pending;
  const valueAt = (row: number, column: number) => {
    const text = cells[row]?.[column] ?? '';
    return text !== '' && /^-?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i.test(text) ? Number(text) : null;
  };
  for (let pass = 0; pass < 4 && left.length > 0; pass++) {
    const next = left.filter((item) => {
      const value = evaluateFormula(item.formula, valueAt);
      const line = cells[item.row];
      if (value === null || !line) return true;
      line[item.column] = numberText(value);
      return false;
    });
    if (next.length === left.length) break;
    left = next;
  }
  return left;
}

/**
 * Copies each merged range's top-left text (and boldness) over the range — as Excel shows it, and as exceljs would
 * have done had we let it see the merges. Excel clears the other cells when merging, so an empty top-left blanks the
 * range. Returns the cells below a range's first row that now show its text (see SheetGrid.mergedFromAbove).
 */
function fillMerges(
  cells: string[][],
  bold: Set<string>,
  merges: readonly { top: number; left: number; bottom: number; right: number }[],
  rowCount: number,
  columnCount: number,
): Set<string> {
  const fromAbove = new Set<string>();
  // Excel's merged ranges never overlap, so together they cover at most the grid. Overlapping ones are not a real
  // file; stopping there keeps a crafted list of huge overlapping ranges from costing ranges × grid.
  let budget = rowCount * columnCount;
  for (const merge of merges) {
    if (merge.top >= rowCount || merge.left >= columnCount) continue;
    const bottom = Math.min(merge.bottom, rowCount - 1);
    const right = Math.min(merge.right, columnCount - 1);
    budget -= (bottom - merge.top + 1) * (right - merge.left + 1);
    if (budget < 0) return fromAbove;
    const text = cells[merge.top]?.[merge.left] ?? '';
    const masterBold = bold.has(cellKey(merge.top, merge.left));
    for (let row = merge.top; row <= bottom; row++) {
      const line = cells[row];
      if (!line) continue;
      for (let column = merge.left; column <= right; column++) {
        line[column] = text;
        if (masterBold && text !== '') bold.add(cellKey(row, column));
        else bold.delete(cellKey(row, column));
        if (row > merge.top && text !== '') fromAbove.add(cellKey(row, column));
      }
    }
  }
  return fromAbove;
}
