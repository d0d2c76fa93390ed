// Block Kit's two table blocks, built from plain strings and numbers as raw_text / raw_number cells. Cell text is
// escaped like every other text Parley sends (`&`, `<`, `>`), so a supplier named `<!channel>` reads as typed.
// Limits (limits.ts checks them): `table` ≤ 100 rows of ≤ 20 cells (@slack/types 3.2 TableBlock); `data_table` a header
// row plus 1–100 rows of equal length, 1–20 columns, page_size 1–100 (docs.slack.dev/reference/block-kit/blocks/
// data-table-block).
import type { DataTableBlock, RawNumberElement, RawTextElement, TableBlock } from '@slack/types';
import { inline } from './escape.js';

export type Cell = string | { value: number; text: string };

export const TABLE_MAX_ROWS = 100;
export const TABLE_MAX_COLUMNS = 20;
export const DATA_TABLE_MAX_ROWS = 100;
/** Room for a cell in a table of many: names and descriptions are cut here. */
const CELL_MAX = 80;

function cell(value: Cell): RawTextElement | RawNumberElement {
  if (typeof value === 'string') return { type: 'raw_text', text: inline(value, CELL_MAX) || '—' };
  return { type: 'raw_number', value: value.value, text: inline(value.text, CELL_MAX) || '—' };
}

/** A `table` block: the header row first; rows past the limit are left out (the caller says so). */
export function tableBlock(
  header: readonly string[],
  rows: readonly Cell[][],
  align?: ('left' | 'right')[],
): TableBlock {
  const width = Math.min(header.length, TABLE_MAX_COLUMNS);
  const all = [header, ...rows].slice(0, TABLE_MAX_ROWS).map((row) => row.slice(0, width).map(cell));
  return {
    type: 'table',
    rows: all,
    ...(align ? { column_settings: align.slice(0, width).map((a) => ({ align: a })) } : {}),
  };
}

/** A `data_table` block (paged, sortable): a header row and at most 100 rows, `pageSize` a page. */
export function dataTableBlock(
  caption: string,
  header: readonly string[],
  rows: readonly Cell[][],
  pageSize = 10,
): DataTableBlock {
  const width = Math.min(header.length, TABLE_MAX_COLUMNS);
  return {
    type: 'data_table',
    caption: inline(caption, 200),
    page_size: Math.max(1, Math.min(pageSize, DATA_TABLE_MAX_ROWS)),
    rows: [header, ...rows.slice(0, DATA_TABLE_MAX_ROWS)].map((row) => row.slice(0, width).map(cell)),
  };
}
