// Every way the XLSX reader can turn a file down, as the sentence the buyer reads. Each says what was wrong and what
// to send instead; none carries a stack, a library's wording or a value that might be undefined.
import { QuotationError } from './errors.js';

const MB = 1024 * 1024;

/** Sizes as a person says them: "15 MB", "2.5 MB", "640 KB". */
export function megabytes(bytes: number): string {
  if (bytes < MB) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  const value = bytes / MB;
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} MB`;
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');

/** Sheet names come from the file: keep them short in a sentence. Escaping for Slack is the view layer's job. */
function quoteSheet(name: string): string {
  const clean = name.replace(/\s+/g, ' ').trim();
  return `"${clean.length > 40 ? `${clean.slice(0, 39)}…` : clean}"`;
}

const SAVE_AS_XLSX =
  'open it in Excel (or Google Sheets, Numbers, LibreOffice) and save it as an Excel Workbook (.xlsx)';

export type NotXlsxKind = 'pdf' | 'xls' | 'xlsb' | 'ods' | 'zip' | 'other';

export function notXlsx(kind: NotXlsxKind): QuotationError {
  const sentences: Record<NotXlsxKind, string> = {
    pdf: 'This file is a PDF, not an Excel workbook. Please ask the supplier for the quotation as an .xlsx spreadsheet.',
    xls: `This is an old-style Excel file (.xls), which Parley can't read. Please ${SAVE_AS_XLSX}, then share that file.`,
    xlsb: `This workbook is saved in Excel's binary format (.xlsb), which Parley can't read. Please ${SAVE_AS_XLSX}, then share that file.`,
    ods: `This is an OpenDocument spreadsheet (.ods), which Parley can't read. Please ${SAVE_AS_XLSX}, then share that file.`,
    zip: 'This file is a ZIP archive but not an Excel workbook. Please share the quotation itself as an .xlsx file.',
    other: `This file isn't an Excel workbook (.xlsx). If it is a CSV or another spreadsheet, please ${SAVE_AS_XLSX}, then share that file.`,
  };
  return new QuotationError('not_xlsx', sentences[kind]);
}

export function encrypted(): QuotationError {
  return new QuotationError(
    'encrypted',
    "This workbook is password-protected, so Parley can't open it. Please remove the password (in Excel: File > Info > Protect Workbook > Encrypt with Password, then clear it) and share it again.",
  );
}

export function corrupt(cause?: unknown): QuotationError {
  return new QuotationError(
    'corrupt',
    "This file looks damaged or incomplete, so Parley couldn't read it. Please check that it opens in Excel, save it again as .xlsx, and share the new copy.",
    { cause },
  );
}

export function zipBomb(reason: 'expands_too_much' | 'sizes_lie' | 'too_many_parts', capBytes: number): QuotationError {
  const why: Record<typeof reason, string> = {
    expands_too_much: `it unpacks to far more data than a quotation needs (over ${megabytes(capBytes)})`,
    sizes_lie: 'its internal sizes do not add up, which is a sign of a damaged or deliberately crafted file',
    too_many_parts: 'it is made of far more internal parts than a spreadsheet has',
  };
  return new QuotationError(
    'zip_bomb',
    `Parley won't open this file because ${why[reason]}. Please save a fresh copy of the quotation from Excel as .xlsx and share that.`,
  );
}

export function tooLarge(sizeBytes: number, maxBytes: number): QuotationError {
  return new QuotationError(
    'too_large',
    `This file is ${megabytes(sizeBytes)}, and Parley reads quotations up to ${megabytes(maxBytes)}. Please remove pictures or sheets that aren't part of the quotation (or split it into several files) and share it again.`,
  );
}

export function tooManyRows(sheetName: string, rows: number, maxRows: number): QuotationError {
  return new QuotationError(
    'too_many_rows',
    `The sheet ${quoteSheet(sheetName)} has ${count(rows)} rows, and Parley reads up to ${count(maxRows)} rows a sheet. Please delete rows that aren't part of the quotation (or split it into several files) and share it again.`,
  );
}

/** `cells` is what the sheets add up to, or null when the file was turned down before the grid was measured. */
export function tooManyCells(cells: number | null, maxCells: number): QuotationError {
  const size = cells === null ? 'far more than' : `${count(cells)} cells, more than`;
  return new QuotationError(
    'too_many_cells',
    `This workbook holds ${size} the ${count(maxCells)} cells Parley reads in one file. Please delete sheets, rows or columns that aren't part of the quotation and share it again.`,
  );
}

export function empty(): QuotationError {
  return new QuotationError(
    'empty',
    'Every sheet in this workbook is empty, so there is no quotation to read. Please check that you shared the right file and that the prices are typed into cells, not pasted as a picture.',
  );
}
