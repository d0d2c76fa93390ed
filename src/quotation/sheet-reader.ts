// The CPU-heavy first half of reading a quotation — the XLSX unpacked into grids, the grids structured into lines —
// behind one signature, so it can run in this thread (tests, the CLIs) or in a worker thread (the server, where a
// 3,000-line file would otherwise hold Bolt's event loop for a second or more and delay every ack). A catalog
// workbook (10,000 products or more) is only unpacked: the same worker, without the structuring.
import type { ReadLimits } from './errors.js';
import { type StructureOptions, structureWorkbook } from './structurer.js';
import type { Extraction, WorkbookGrid } from './types.js';
import { readWorkbook } from './xlsx-reader.js';

export interface ReadSheets {
  grid: WorkbookGrid;
  extraction: Extraction;
}

/**
 * Reads and structures a workbook; rejects with a QuotationError for a file it cannot read. `options` carry what the
 * buyer settled about this file (the supplier column picked on a comparison sheet).
 */
export type SheetReader = (data: Buffer, limits: ReadLimits, options?: StructureOptions) => Promise<ReadSheets>;

/** Only unpacks a workbook into grids (a catalog file: a table, not a quotation to structure). */
export type GridReader = (data: Buffer, limits: ReadLimits) => Promise<WorkbookGrid>;

export const readGridInProcess: GridReader = readWorkbook;

export const readSheetsInProcess: SheetReader = async (data, limits, options = {}) => {
  const grid = await readGridInProcess(data, limits);
  return { grid, extraction: structureWorkbook(grid, options) };
};
