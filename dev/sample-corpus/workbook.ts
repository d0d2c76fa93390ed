// Small helpers every sample style shares: a workbook that writes the same bytes every run, and row writing.
import ExcelJS from 'exceljs';
import type { CellValue, Workbook, Worksheet } from 'exceljs';
import { stampZipEntries } from './zip-timestamps.js';

/** Every sample claims to be written at this instant, so re-running the generator changes nothing. */
export const SAMPLE_TIMESTAMP = new Date('2025-03-03T09:00:00Z');

export function createWorkbook(author: string): Workbook {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = author;
  workbook.lastModifiedBy = author;
  workbook.created = SAMPLE_TIMESTAMP;
  workbook.modified = SAMPLE_TIMESTAMP;
  return workbook;
}

export async function workbookToBuffer(workbook: Workbook): Promise<Buffer> {
  return stampZipEntries(Buffer.from(await workbook.xlsx.writeBuffer()), SAMPLE_TIMESTAMP);
}

/** Writes `values` left to right from `firstColumn`; `undefined` leaves a cell untouched (blank). */
export function setRow(
  sheet: Worksheet,
  row: number,
  values: readonly (CellValue | undefined)[],
  firstColumn = 1,
): void {
  values.forEach((value, i) => {
    if (value !== undefined) sheet.getCell(row, firstColumn + i).value = value;
  });
}

export function boldRow(sheet: Worksheet, row: number, fromColumn: number, toColumn: number): void {
  for (let column = fromColumn; column <= toColumn; column++) sheet.getCell(row, column).font = { bold: true };
}

/** One merged, optionally bold, line of a letterhead across columns 1..`width`. */
export function mergedLine(
  sheet: Worksheet,
  row: number,
  width: number,
  text: string,
  font: Partial<ExcelJS.Font> = {},
): void {
  sheet.mergeCells(row, 1, row, width);
  const cell = sheet.getCell(row, 1);
  cell.value = text;
  cell.font = font;
  cell.alignment = { horizontal: 'center' };
}

export function setWidths(sheet: Worksheet, widths: readonly number[]): void {
  widths.forEach((width, i) => {
    sheet.getColumn(i + 1).width = width;
  });
}

/** A1 reference for row/column (1-based), for formulas. */
export function ref(row: number, column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return `${letters}${row}`;
}

export const MONEY_FORMAT = '#,##0.00';

/** exceljs types `load()` as taking an ArrayBuffer, which a Node Buffer is not; a copy into a plain one satisfies it. */
export async function loadWorkbook(bytes: Uint8Array): Promise<Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Uint8Array.from(bytes).buffer);
  return workbook;
}

/**
 * A two-row header whose price caption is merged over one column per quantity break (`breakLabels`, from
 * `firstBreakColumn`), each break labelled underneath; every other captioned column is merged down over both rows.
 */
export function tierHeader(
  sheet: Worksheet,
  row: number,
  captions: { left: readonly string[]; priceCaption: string; right: readonly string[] },
  breakLabels: readonly string[],
): void {
  const firstBreakColumn = captions.left.length + 1;
  const lastBreakColumn = firstBreakColumn + breakLabels.length - 1;
  const lastColumn = lastBreakColumn + captions.right.length;
  setRow(sheet, row, [...captions.left, captions.priceCaption]);
  setRow(sheet, row, [...captions.right], lastBreakColumn + 1);
  setRow(sheet, row + 1, [...breakLabels], firstBreakColumn);
  sheet.mergeCells(row, firstBreakColumn, row, lastBreakColumn);
  for (let column = 1; column <= lastColumn; column++) {
    if (column < firstBreakColumn || column > lastBreakColumn) sheet.mergeCells(row, column, row + 1, column);
  }
  boldRow(sheet, row, 1, lastColumn);
  boldRow(sheet, row + 1, 1, lastColumn);
}
