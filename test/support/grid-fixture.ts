// Builds the reader's output by hand, so structurer tests read like the sheet they describe. Test support only.
import { cellKey, type SheetGrid, type WorkbookGrid } from '../../src/quotation/types.js';

export interface SheetFixture {
  /** 1-based [row, column] of bold cells. */
  bold?: [number, number][];
  /** 1-based rows whose every non-empty cell is bold. */
  boldRows?: number[];
  /** 1-based rows and columns a person does not see. */
  hiddenRows?: number[];
  hiddenColumns?: number[];
  hidden?: boolean;
  index?: number;
  /** 1-based [top row, column, bottom row] of ranges merged down: the top cell's text is repeated below it. */
  mergedDown?: [number, number, number][];
}

/** A SheetGrid from rows of cells (`rows[0]` is sheet row 1); short rows are padded so the grid is rectangular. */
export function sheetGrid(name: string, rows: string[][], fixture: SheetFixture = {}): SheetGrid {
  const columnCount = Math.max(0, ...rows.map((row) => row.length));
  const cells = rows.map((row) => Array.from({ length: columnCount }, (_, c) => row[c] ?? ''));
  const mergedFromAbove = new Set<string>();
  for (const [top, column, bottom] of fixture.mergedDown ?? []) {
    for (let r = top; r < bottom; r++) {
      const line = cells[r];
      if (!line) continue;
      line[column - 1] = cells[top - 1]?.[column - 1] ?? '';
      mergedFromAbove.add(cellKey(r, column - 1));
    }
  }
  const bold = new Set<string>((fixture.bold ?? []).map(([r, c]) => cellKey(r - 1, c - 1)));
  for (const r of fixture.boldRows ?? []) {
    (cells[r - 1] ?? []).forEach((cell, c) => {
      if (cell !== '') bold.add(cellKey(r - 1, c));
    });
  }
  return {
    name,
    index: fixture.index ?? 0,
    hidden: fixture.hidden ?? false,
    cells,
    rowCount: cells.length,
    columnCount,
    bold,
    hiddenRows: new Set((fixture.hiddenRows ?? []).map((r) => r - 1)),
    hiddenColumns: new Set((fixture.hiddenColumns ?? []).map((c) => c - 1)),
    ...(mergedFromAbove.size ? { mergedFromAbove } : {}),
  };
}

export function workbookGrid(...sheets: SheetGrid[]): WorkbookGrid {
  return { sheets: sheets.map((sheet, index) => ({ ...sheet, index })) };
}
