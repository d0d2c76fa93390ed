// The purchase order as an XLSX workbook: what finance opens to check the numbers by hand.
//
// A Summary sheet (the PO's header, one row per supplier allocation, the totals with the split overhead, the
// approvals, the notes) and one sheet per supplier allocation (header block, lines with their price breaks, a SUM
// total, the landed cost). Every total that Excel could recompute is a formula *with* its cached result, so the file
// shows the right numbers in viewers that never calculate (Slack's preview, Quick Look) and still checks itself in
// Excel and LibreOffice.
//
// Text from suppliers is data, never a formula. exceljs writes a string value as a shared string (never `<f>`), so
// "=HYPERLINK(…)" opens as text; every text cell also gets the Text number format (`@`), so a buyer who edits the cell
// and presses Enter still gets text rather than a live formula. The text itself is not altered (no visible quote).
//
// Deterministic: the same PO gives the same bytes. The document dates come from the PO date, and the ZIP entries'
// timestamps (which JSZip stamps with the wall clock) are overwritten with it.
import ExcelJS, { type Borders, type Cell, type Worksheet } from 'exceljs';
import type { PriceTier } from '../negotiation/types.js';
import { formatPercent, fromCents, toCents } from '../commerce/money.js';
import { describePaymentTerms } from '../commerce/payment-terms.js';

export type PurchaseOrderStatus = 'draft' | 'approved' | 'rejected' | 'superseded';

export interface PurchaseOrderLine {
  sku: string;
  description: string;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
  /** The supplier's price breaks for this SKU, as quoted. */
  tiers: readonly PriceTier[];
}

export interface PurchaseOrderAllocation {
  supplier: { code: string; name: string };
  /** Instalments in percent, "33/33/33", "40/60", "100". */
  paymentTerms: string;
  leadTimeDays: number;
  /** Its share of the order's FOB value, 0–1. */
  share: number;
  /** This supplier's incoterm when it differs from the PO's. */
  incoterm?: string | null;
  lines: readonly PurchaseOrderLine[];
  /** Σ line totals. */
  fobCost: number;
  cashFlowCost: number;
  /** Charges, freight and duty (landed-cost assumptions); absent or 0 when none were counted. */
  otherCosts?: number;
  /** fobCost + cashFlowCost + otherCosts. */
  effectiveLandedCost: number;
}

export interface PurchaseOrderDocument {
  /** "PO-2026-0001". */
  number: string;
  /** ISO 8601 date or date-time. */
  date: string;
  status: PurchaseOrderStatus;
  buyer: { name: string };
  currency: string;
  incoterm: string | null;
  allocations: readonly PurchaseOrderAllocation[];
  totals: {
    fobCost: number;
    cashFlowCost: number;
    otherCosts?: number;
    /** The split-order overhead; 0 for a single supplier. */
    splitOverhead: number;
    /** fobCost + cashFlowCost + otherCosts + splitOverhead. */
    effectiveLandedCost: number;
  };
  /** ISO 8601 `at`. */
  approvals: readonly { by: string; at: string }[];
  notes: readonly string[];
}

export const SUMMARY_SHEET_NAME = 'Summary';
/** Excel's limit on a sheet name's length. */
export const SHEET_NAME_MAX_LENGTH = 31;

const MONEY_FORMAT = '#,##0.00';
/** Negotiated unit prices carry up to a hundredth of a cent (allocation.ts), so show up to four decimals. */
const UNIT_PRICE_FORMAT = '#,##0.00##';
const QUANTITY_FORMAT = '#,##0';
const SHARE_FORMAT = '0.0%';
const DAYS_FORMAT = '0 "days"';
const DATE_FORMAT = 'yyyy-mm-dd';
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm';
const TEXT_FORMAT = '@';

const HEADER_FILL = 'FFE8EEF4';
/**
 * Every styled cell names its font: a font without a name makes LibreOffice fall back to a serif face, so bold cells
 * would not match the rest. Calibri is the workbook default exceljs writes.
 */
const FONT = { name: 'Calibri', family: 2, size: 11 } as const;
const TITLE_SIZE = 16;
const POINTS_PER_TEXT_LINE = 15;
const TEXT_CHARS_PER_WIDTH = 1.1;

const STATUS_LABELS: Record<PurchaseOrderStatus, string> = {
  draft: 'Draft — awaiting approval',
  approved: 'Approved',
  rejected: 'Rejected',
  superseded: 'Superseded',
};

/** The PO as an .xlsx file. Throws a RangeError when the PO's amounts do not add up: such a file must not exist. */
export async function buildPurchaseOrderWorkbook(po: PurchaseOrderDocument): Promise<Buffer> {
  const date = parseIsoDate(po.date, 'PO date');
  checkAmounts(po);

  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Parley';
  workbook.lastModifiedBy = 'Parley';
  workbook.created = date;
  workbook.modified = date;
  workbook.title = `Purchase order ${po.number}`;
  workbook.company = po.buyer.name;

  const taken: string[] = [SUMMARY_SHEET_NAME];
  const sheetNames = po.allocations.map((allocation) => {
    const name = safeSheetName(`${allocation.supplier.code} ${allocation.supplier.name}`, taken);
    taken.push(name);
    return name;
  });

  writeSummary(workbook.addWorksheet(SUMMARY_SHEET_NAME), po, date, sheetNames);
  po.allocations.forEach((allocation, index) => {
    writeAllocation(workbook.addWorksheet(sheetNames[index] ?? `Supplier ${index + 1}`), po, date, allocation);
  });

  const written = await workbook.xlsx.writeBuffer();
  return pinZipTimestamps(Buffer.from(written), date);
}

/**
 * A name Excel accepts for a sheet: none of []:*?/\ or control characters, at most 31 characters, not "History"
 * (Excel reserves it), and different — ignoring case, as Excel does — from every name in `taken` ("Name (2)" and so
 * on). An apostrophe becomes ’: Excel forbids one at either end, and exceljs does not double one inside the quoted
 * sheet reference it writes for the print titles ('O'Brien'!$10:$10), which Excel then reports as a damaged file.
 */
export function safeSheetName(raw: string, taken: readonly string[] = []): string {
  const cleaned = raw
    .replace(/[[\]:*?/\\\p{Cc}]/gu, ' ')
    .replace(/'/g, '\u2019')
    .replace(/\s+/g, ' ')
    .trim();
  const base = cleaned === '' ? 'Sheet' : cleaned;
  const used = new Set(['history', ...taken.map((name) => name.toLowerCase())]);
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : ` (${n})`;
    const name = truncate(base, SHEET_NAME_MAX_LENGTH - suffix.length).trimEnd() + suffix;
    if (!used.has(name.toLowerCase())) return name;
  }
}

/** "1+ 12.40 · 500+ 11.90": the supplier's breaks, cheapest quantity first. */
export function describePriceBreaks(tiers: readonly PriceTier[]): string {
  if (tiers.length === 0) return '—';
  return [...tiers]
    .sort((a, b) => a.minQty - b.minQty)
    .map((tier) => `${formatNumber(tier.minQty, 0, 0)}+ ${formatNumber(tier.unitPrice, 2, 4)}`)
    .join(' · ');
}

// --- Sheets --------------------------------------------------------------------------------------------------------

interface TableColumn {
  header: string;
  /** Width bounds, in Excel's units (the width of a digit). */
  min: number;
  max: number;
  /** Right-aligned heading, over numbers. */
  numeric?: boolean;
  /** Its heading names the currency. */
  money?: boolean;
}

/** Summary columns, A to I. */
const SUMMARY_COLUMNS: readonly TableColumn[] = [
  { header: 'Supplier code', min: 14, max: 18 },
  { header: 'Supplier', min: 24, max: 40 },
  { header: 'Share', min: 9, max: 10, numeric: true },
  { header: 'Payment terms', min: 16, max: 50 },
  // "12 days" in the cell, as on the supplier sheets: a "(days)" heading would make the column twice its content.
  { header: 'Lead time', min: 11, max: 12, numeric: true },
  { header: 'FOB', min: 15, max: 18, numeric: true, money: true },
  { header: 'Cash-flow cost', min: 15, max: 18, numeric: true, money: true },
  { header: 'Landed cost', min: 16, max: 18, numeric: true, money: true },
  // Where this supplier's lines are.
  { header: 'Sheet', min: 16, max: 34 },
];

function writeSummary(sheet: Worksheet, po: PurchaseOrderDocument, date: Date, sheetNames: readonly string[]): void {
  title(sheet, `Purchase order ${po.number}`, 'Summary');
  const headerRows: [string, (cell: Cell) => void][] = [
    ['PO number', (cell) => text(cell, po.number)],
    ['Date', (cell) => dateValue(cell, date, DATE_FORMAT)],
    ['Status', (cell) => text(cell, STATUS_LABELS[po.status])],
    ['Buyer', (cell) => text(cell, po.buyer.name)],
    ['Currency', (cell) => text(cell, po.currency)],
    ['Incoterm', (cell) => text(cell, po.incoterm ?? '—')],
  ];
  let r = 4;
  for (const [label, write] of headerRows) {
    labelCell(sheet.getCell(r, 1), label);
    write(sheet.getCell(r, 2));
    sheet.getCell(r, 2).alignment = { horizontal: 'left' };
    r++;
  }

  r++;
  const headerRow = r;
  SUMMARY_COLUMNS.forEach((column, c) => tableHeading(sheet.getCell(headerRow, c + 1), column, po.currency));
  r++;
  const firstAllocation = r;
  po.allocations.forEach((allocation, index) => {
    text(sheet.getCell(r, 1), allocation.supplier.code);
    text(sheet.getCell(r, 2), allocation.supplier.name);
    number(sheet.getCell(r, 3), allocation.share, SHARE_FORMAT);
    text(sheet.getCell(r, 4), describePaymentTerms(allocation.paymentTerms, { instalments: true }));
    number(sheet.getCell(r, 5), allocation.leadTimeDays, DAYS_FORMAT);
    number(sheet.getCell(r, 6), allocation.fobCost, MONEY_FORMAT);
    number(sheet.getCell(r, 7), allocation.cashFlowCost, MONEY_FORMAT);
    number(sheet.getCell(r, 8), allocation.effectiveLandedCost, MONEY_FORMAT);
    text(sheet.getCell(r, 9), sheetNames[index] ?? '');
    r++;
  });
  const lastAllocation = r - 1;

  const subtotalRow = r;
  labelCell(sheet.getCell(r, 1), 'Subtotal');
  number(sheet.getCell(r, 3), sumOf(po.allocations.map((a) => a.share)), SHARE_FORMAT);
  const subtotals = [
    { column: 6, value: po.totals.fobCost },
    { column: 7, value: po.totals.cashFlowCost },
    { column: 8, value: centsSum([po.totals.fobCost, po.totals.cashFlowCost, po.totals.otherCosts ?? 0]) },
  ];
  for (const { column, value } of subtotals) {
    sumFormula(sheet.getCell(r, column), column, firstAllocation, lastAllocation, value, MONEY_FORMAT);
  }
  borderRow(sheet, r, 1, SUMMARY_COLUMNS.length, { top: { style: 'thin' } });
  r++;

  labelCell(sheet.getCell(r, 1), 'Split-order overhead');
  text(
    sheet.getCell(r, 4),
    po.totals.splitOverhead === 0 || po.totals.fobCost === 0
      ? 'None: one supplier'
      : `${formatPercent(po.totals.splitOverhead / po.totals.fobCost)} of FOB`,
  );
  number(sheet.getCell(r, 8), po.totals.splitOverhead, MONEY_FORMAT);
  const overheadRow = r;
  r++;

  labelCell(sheet.getCell(r, 1), 'Effective landed cost');
  const landed = sheet.getCell(r, 8);
  landed.value = {
    formula: `${cellRef(subtotalRow, 8)}+${cellRef(overheadRow, 8)}`,
    result: po.totals.effectiveLandedCost,
  };
  landed.numFmt = MONEY_FORMAT;
  landed.font = { ...FONT, bold: true };
  borderRow(sheet, r, 1, SUMMARY_COLUMNS.length, { top: { style: 'thin' }, bottom: { style: 'double' } });
  r += 2;

  // Approvers' names are long ("Maya Lindqvist (U024BE7LH)"): each column pair is merged into one cell.
  const approvalCell = (row: number, pair: 0 | 1) => {
    sheet.mergeCells(row, 1 + 2 * pair, row, 2 + 2 * pair);
    return sheet.getCell(row, 1 + 2 * pair);
  };
  headerCell(approvalCell(r, 0), 'Approved by');
  headerCell(approvalCell(r, 1), 'At (UTC)');
  r++;
  if (po.approvals.length === 0) {
    text(approvalCell(r, 0), 'No approvals yet');
    sheet.getCell(r, 1).font = { ...FONT, italic: true };
    r++;
  }
  for (const approval of po.approvals) {
    text(approvalCell(r, 0), approval.by);
    const at = approvalCell(r, 1);
    dateValue(at, parseIsoDate(approval.at, `approval by ${approval.by}`), DATE_TIME_FORMAT);
    at.alignment = { horizontal: 'left' };
    r++;
  }

  if (po.notes.length > 0) {
    r++;
    labelCell(sheet.getCell(r, 1), 'Notes');
    r++;
    const widths = columnWidths(sheet, SUMMARY_COLUMNS, headerRow, lastAllocation);
    for (const note of po.notes) {
      wrappedText(sheet, r, 1, SUMMARY_COLUMNS.length, note, sumOf(widths));
      r++;
    }
  }

  setColumnWidths(sheet, columnWidths(sheet, SUMMARY_COLUMNS, headerRow, lastAllocation));
  // Payment terms follow Share, Sheet follows Landed cost.
  for (const column of [4, 9]) indentColumn(sheet, column, headerRow, overheadRow);
  finishSheet(sheet, po, headerRow);
}

/** Supplier sheet columns, A to F. */
const LINE_COLUMNS: readonly TableColumn[] = [
  { header: 'SKU', min: 14, max: 24 },
  { header: 'Description', min: 24, max: 50 },
  { header: 'Qty', min: 10, max: 12, numeric: true },
  { header: 'Unit price', min: 14, max: 16, numeric: true, money: true },
  { header: 'Line total', min: 16, max: 18, numeric: true, money: true },
  { header: 'Price breaks', min: 28, max: 50 },
];

function writeAllocation(
  sheet: Worksheet,
  po: PurchaseOrderDocument,
  date: Date,
  allocation: PurchaseOrderAllocation,
): void {
  const supplier = `${allocation.supplier.name} (${allocation.supplier.code})`;
  title(sheet, `Purchase order ${po.number}`, supplier);

  // Two label/value pairs a row: A–B under SKU and Description, E–F under Line total and Price breaks.
  const left: [string, (cell: Cell) => void][] = [
    ['PO number', (cell) => text(cell, po.number)],
    ['Date', (cell) => dateValue(cell, date, DATE_FORMAT)],
    ['Status', (cell) => text(cell, STATUS_LABELS[po.status])],
    ['Buyer', (cell) => text(cell, po.buyer.name)],
    ['Currency', (cell) => text(cell, po.currency)],
  ];
  const right: [string, (cell: Cell) => void][] = [
    ['Supplier', (cell) => text(cell, supplier)],
    ['Payment terms', (cell) => text(cell, describePaymentTerms(allocation.paymentTerms, { instalments: true }))],
    ['Lead time', (cell) => number(cell, allocation.leadTimeDays, DAYS_FORMAT)],
    ['Incoterm', (cell) => text(cell, allocation.incoterm ?? po.incoterm ?? '—')],
    ['Share of order', (cell) => number(cell, allocation.share, SHARE_FORMAT)],
  ];
  left.forEach(([label, write], i) => {
    labelCell(sheet.getCell(4 + i, 1), label);
    write(sheet.getCell(4 + i, 2));
    sheet.getCell(4 + i, 2).alignment = { horizontal: 'left' };
  });
  right.forEach(([label, write], i) => {
    labelCell(sheet.getCell(4 + i, 5), label);
    write(sheet.getCell(4 + i, 6));
    sheet.getCell(4 + i, 6).alignment = { horizontal: 'left' };
  });

  const headerRow = 4 + Math.max(left.length, right.length) + 1;
  LINE_COLUMNS.forEach((column, c) => tableHeading(sheet.getCell(headerRow, c + 1), column, po.currency));
  let r = headerRow + 1;
  for (const line of allocation.lines) {
    text(sheet.getCell(r, 1), line.sku);
    text(sheet.getCell(r, 2), line.description);
    number(sheet.getCell(r, 3), line.quantity, QUANTITY_FORMAT);
    number(sheet.getCell(r, 4), line.unitPrice, UNIT_PRICE_FORMAT);
    number(sheet.getCell(r, 5), line.lineTotal, MONEY_FORMAT);
    text(sheet.getCell(r, 6), describePriceBreaks(line.tiers));
    // Top-aligned, so a line whose description wraps still reads across as one row.
    for (let c = 1; c <= LINE_COLUMNS.length; c++) {
      sheet.getCell(r, c).alignment = c === 2 || c === 6 ? { wrapText: true, vertical: 'top' } : { vertical: 'top' };
    }
    r++;
  }
  const lastLine = r - 1;

  const totalRow = r;
  labelCell(sheet.getCell(r, 1), 'Total');
  text(sheet.getCell(r, 2), `${allocation.lines.length} ${allocation.lines.length === 1 ? 'line' : 'lines'}`);
  sumFormula(
    sheet.getCell(r, 3),
    3,
    headerRow + 1,
    lastLine,
    sumOf(allocation.lines.map((l) => l.quantity)),
    QUANTITY_FORMAT,
  );
  sumFormula(sheet.getCell(r, 5), 5, headerRow + 1, lastLine, allocation.fobCost, MONEY_FORMAT);
  for (const c of [3, 5]) sheet.getCell(r, c).font = { ...FONT, bold: true };
  borderRow(sheet, r, 1, LINE_COLUMNS.length, { top: { style: 'thin' }, bottom: { style: 'double' } });
  r += 2;

  labelCell(sheet.getCell(r, 1), 'Landed cost');
  r++;
  const fobRow = r;
  text(sheet.getCell(r, 1), 'FOB cost');
  sheet.getCell(r, 5).value = { formula: cellRef(totalRow, 5), result: allocation.fobCost };
  sheet.getCell(r, 5).numFmt = MONEY_FORMAT;
  text(sheet.getCell(r, 6), 'The line total above');
  r++;
  const cashRow = r;
  text(sheet.getCell(r, 1), 'Cash-flow cost');
  number(sheet.getCell(r, 5), allocation.cashFlowCost, MONEY_FORMAT);
  text(sheet.getCell(r, 6), 'Cost of capital tied up by paying before delivery');
  r++;
  const other = allocation.otherCosts ?? 0;
  const otherRow = r;
  if (toCents(other) !== 0) {
    text(sheet.getCell(r, 1), 'Charges, freight and duty');
    number(sheet.getCell(r, 5), other, MONEY_FORMAT);
    text(
      sheet.getCell(r, 6),
      "The quote's charges, and the freight and duty its Incoterm leaves to the buyer (assumed)",
    );
    r++;
  }
  labelCell(sheet.getCell(r, 1), 'Effective landed cost');
  const landed = sheet.getCell(r, 5);
  const parts = [cellRef(fobRow, 5), cellRef(cashRow, 5), ...(toCents(other) !== 0 ? [cellRef(otherRow, 5)] : [])];
  landed.value = { formula: parts.join('+'), result: allocation.effectiveLandedCost };
  landed.numFmt = MONEY_FORMAT;
  landed.font = { ...FONT, bold: true };
  text(sheet.getCell(r, 6), 'Before any split-order overhead (see Summary)');
  borderRow(sheet, r, 1, LINE_COLUMNS.length, { top: { style: 'thin' } });
  // Price breaks (and the header block's right-hand values, and the landed-cost notes) follow Line total.
  indentColumn(sheet, 6, 4, r);

  setColumnWidths(sheet, columnWidths(sheet, LINE_COLUMNS, headerRow, lastLine));
  // Row heights for wrapped descriptions: Excel and LibreOffice do not grow a row written by a library on open.
  const widths = columnWidths(sheet, LINE_COLUMNS, headerRow, lastLine);
  for (let row = headerRow + 1; row <= lastLine; row++) {
    const lines = Math.max(
      textLines(cellText(sheet.getCell(row, 2)), widths[1] ?? 1),
      textLines(cellText(sheet.getCell(row, 6)), widths[5] ?? 1),
    );
    if (lines > 1) sheet.getRow(row).height = lines * POINTS_PER_TEXT_LINE;
  }
  finishSheet(sheet, po, headerRow);
}

// --- Cells ---------------------------------------------------------------------------------------------------------

function title(sheet: Worksheet, heading: string, subheading: string): void {
  text(sheet.getCell(1, 1), heading);
  sheet.getCell(1, 1).font = { ...FONT, bold: true, size: TITLE_SIZE };
  text(sheet.getCell(2, 1), subheading);
  sheet.getCell(2, 1).font = { ...FONT, bold: true, size: 12, color: { argb: 'FF44546A' } };
}

/** A string cell that no spreadsheet will turn into a formula, even after an edit: see the top of this file. */
function text(cell: Cell, value: string): void {
  cell.value = value;
  cell.numFmt = TEXT_FORMAT;
}

function number(cell: Cell, value: number, format: string): void {
  cell.value = value;
  cell.numFmt = format;
}

function dateValue(cell: Cell, value: Date, format: string): void {
  cell.value = value;
  cell.numFmt = format;
}

function labelCell(cell: Cell, label: string): void {
  text(cell, label);
  cell.font = { ...FONT, bold: true };
}

function headerCell(cell: Cell, label: string, horizontal: 'left' | 'right' = 'left'): void {
  text(cell, label);
  cell.font = { ...FONT, bold: true };
  cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: HEADER_FILL } };
  cell.border = { bottom: { style: 'thin' } };
  cell.alignment = { vertical: 'middle', horizontal };
}

/** A table column's heading; over numbers it is right-aligned, like them. */
function tableHeading(cell: Cell, column: TableColumn, currency: string): void {
  const label = column.money === true ? `${column.header} (${currency})` : column.header;
  headerCell(cell, label, column.numeric === true ? 'right' : 'left');
}

/** `SUM(col first:col last)` with its result cached; an empty range sums to 0 without a formula to get wrong. */
function sumFormula(cell: Cell, column: number, first: number, last: number, result: number, format: string): void {
  cell.value = last < first ? 0 : { formula: `SUM(${cellRef(first, column)}:${cellRef(last, column)})`, result };
  cell.numFmt = format;
  cell.font = { ...FONT, bold: true };
}

/**
 * Left-aligned text right after a right-aligned number column would touch the number ("19,320.00100+ 25.40"): one
 * indent step keeps them apart (an indent needs an explicit left alignment to count).
 */
function indentColumn(sheet: Worksheet, column: number, fromRow: number, toRow: number): void {
  for (let row = fromRow; row <= toRow; row++) {
    const cell = sheet.getCell(row, column);
    cell.alignment = { ...cell.alignment, horizontal: 'left', indent: 1 };
  }
}

function borderRow(sheet: Worksheet, row: number, from: number, to: number, border: Partial<Borders>): void {
  for (let c = from; c <= to; c++) sheet.getCell(row, c).border = border;
}

/** Long text over several merged columns, with the row made tall enough to show it all. */
function wrappedText(sheet: Worksheet, row: number, from: number, to: number, value: string, width: number): void {
  sheet.mergeCells(row, from, row, to);
  const cell = sheet.getCell(row, from);
  text(cell, value);
  cell.alignment = { wrapText: true, vertical: 'top' };
  sheet.getRow(row).height = textLines(value, width) * POINTS_PER_TEXT_LINE;
}

/** Frozen header row, print setup and footer, shared by every sheet. */
function finishSheet(sheet: Worksheet, po: PurchaseOrderDocument, headerRow: number): void {
  sheet.views = [{ state: 'frozen', xSplit: 0, ySplit: headerRow, topLeftCell: `A${headerRow + 1}`, activeCell: 'A1' }];
  sheet.pageSetup = {
    orientation: 'landscape',
    fitToPage: true,
    fitToWidth: 1,
    // 0: as many pages down as the lines need.
    fitToHeight: 0,
    printTitlesRow: `${headerRow}:${headerRow}`,
    margins: { left: 0.5, right: 0.5, top: 0.6, bottom: 0.6, header: 0.3, footer: 0.3 },
  };
  // `&` starts a code in a header or footer; a literal one is doubled.
  sheet.headerFooter = { oddFooter: `&L${po.number.replace(/&/g, '&&')}&RPage &P of &N` };
}

/**
 * Column widths from the table's content (data rows), within each column's bounds, and never narrower than the
 * column's heading: a heading that wraps would need a taller row, which no reader computes for us.
 */
function columnWidths(sheet: Worksheet, columns: readonly TableColumn[], headerRow: number, lastRow: number): number[] {
  return columns.map((column, c) => {
    let longest = 0;
    for (let row = headerRow + 1; row <= lastRow; row++) {
      const cell = sheet.getCell(row, c + 1);
      const shown = typeof cell.value === 'number' ? formatNumber(cell.value, 2, 4) : cellText(cell);
      longest = Math.max(longest, shown.length);
    }
    const heading = cellText(sheet.getCell(headerRow, c + 1)).length + 2;
    return Math.max(heading, Math.min(column.max, Math.max(column.min, longest + 2)));
  });
}

function setColumnWidths(sheet: Worksheet, widths: readonly number[]): void {
  widths.forEach((width, c) => {
    sheet.getColumn(c + 1).width = width;
  });
}

function cellText(cell: Cell): string {
  return typeof cell.value === 'string' ? cell.value : '';
}

/**
 * How many lines `value` wraps to in a column `width` units wide. A unit is the width of a digit; running text in
 * Calibri fits about 1.2 characters a unit (seen in LibreOffice), so 1.1 errs towards a row too tall, never a clipped
 * one.
 */
function textLines(value: string, width: number): number {
  const usable = Math.max(1, Math.floor(width * TEXT_CHARS_PER_WIDTH));
  return value.split('\n').reduce((sum, paragraph) => sum + Math.max(1, Math.ceil(paragraph.length / usable)), 0);
}

// --- Checks and helpers ----------------------------------------------------------------------------------------------

/**
 * The PO's amounts, compared in whole cents: each supplier's lines add up to its FOB, FOB + cash-flow cost to its
 * landed cost, the suppliers to the totals, and the totals to the effective landed cost.
 */
function checkAmounts(po: PurchaseOrderDocument): void {
  const problems: string[] = [];
  const expect = (what: string, actual: number, wanted: number) => {
    if (toCents(actual) !== toCents(wanted))
      problems.push(`${what} is ${actual}, expected ${fromCents(toCents(wanted))}`);
  };
  for (const a of po.allocations) {
    const who = a.supplier.code;
    expect(`${who} FOB`, a.fobCost, centsSum(a.lines.map((line) => line.lineTotal)));
    expect(`${who} landed cost`, a.effectiveLandedCost, centsSum([a.fobCost, a.cashFlowCost, a.otherCosts ?? 0]));
  }
  expect('total FOB', po.totals.fobCost, centsSum(po.allocations.map((a) => a.fobCost)));
  expect('total cash-flow cost', po.totals.cashFlowCost, centsSum(po.allocations.map((a) => a.cashFlowCost)));
  expect(
    'effective landed cost',
    po.totals.effectiveLandedCost,
    centsSum([po.totals.fobCost, po.totals.cashFlowCost, po.totals.otherCosts ?? 0, po.totals.splitOverhead]),
  );
  if (problems.length > 0) throw new RangeError(`PO ${po.number}: amounts do not add up: ${problems.join('; ')}`);
}

function centsSum(amounts: readonly number[]): number {
  return fromCents(amounts.reduce((sum, amount) => sum + toCents(amount), 0));
}

function sumOf(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0);
}

function parseIsoDate(value: string, what: string): Date {
  // Date-only ISO strings are UTC midnight by the standard; Date.parse would also take "March 2", which is not ISO.
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    throw new RangeError(`${what}: not an ISO 8601 date: ${JSON.stringify(value)}`);
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`${what}: not a valid date: ${JSON.stringify(value)}`);
  return date;
}

function cellRef(row: number, column: number): string {
  let letters = '';
  for (let c = column; c > 0; c = Math.floor((c - 1) / 26))
    letters = String.fromCharCode(65 + ((c - 1) % 26)) + letters;
  return `${letters}${row}`;
}

/** One formatter per digit range: toLocaleString builds a new one per call, most of a 3,000-line PO's build time. */
const numberFormats = new Map<string, Intl.NumberFormat>();

function formatNumber(value: number, minDigits: number, maxDigits: number): string {
  const key = `${minDigits}:${maxDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: minDigits, maximumFractionDigits: maxDigits });
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/** The first `max` UTF-16 units of `value`, never ending in half a surrogate pair. */
function truncate(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

// --- ZIP timestamps ------------------------------------------------------------------------------------------------

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/**
 * Sets every entry's modification time, in its local header and in the central directory, to `date` (UTC, to the
 * two seconds DOS time allows). The CRCs cover the data only, so nothing else changes.
 */
function pinZipTimestamps(zip: Buffer, date: Date): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) throw new Error('xlsx: no ZIP end record');
  const entries = zip.readUInt16LE(end + 10);
  const year = Math.min(2107, Math.max(1980, date.getUTCFullYear()));
  const dosDate = ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
  const dosTime = (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_HEADER) throw new Error('xlsx: bad ZIP central directory');
    zip.writeUInt16LE(dosTime, at + 12);
    zip.writeUInt16LE(dosDate, at + 14);
    const local = zip.readUInt32LE(at + 42);
    if (zip.readUInt32LE(local) !== LOCAL_HEADER) throw new Error('xlsx: bad ZIP local header');
    zip.writeUInt16LE(dosTime, local + 10);
    zip.writeUInt16LE(dosDate, local + 12);
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return zip;
}
