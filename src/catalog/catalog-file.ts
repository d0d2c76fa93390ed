// A brand's own catalog file (CSV or XLSX, as `/parley catalog` receives it) → the products to import, and every
// problem a person can fix, at its 1-based row. Pure: bytes in, rows and problems out. A file that cannot be a catalog
// at all (unreadable, no header, too big) is one `CatalogFileError`; a bad row is only skipped and reported, so one
// typo in 100,000 rows does not block the other 99,999.
import { QuotationError, type ReadLimits } from '../quotation/errors.js';
import { megabytes } from '../quotation/xlsx-errors.js';
import { type GridReader, readGridInProcess } from '../quotation/sheet-reader.js';
import { type CsvRecord, parseCsvRecords } from './products-csv.js';
import { parseSku, type SkuParts } from './sku.js';

/** Products in one file; far above any brand's range, low enough that the import stays well under a minute. */
export const MAX_CATALOG_ROWS = 200_000;
/** Title rows a spreadsheet may have above its header. */
const HEADER_SCAN_ROWS = 10;
/** Problems kept with the preview; the rest are counted. */
export const MAX_PROBLEMS_KEPT = 50;
const MAX_SKU_LENGTH = 64;
const MAX_NAME_LENGTH = 200;
const MAX_TEXT_LENGTH = 80;

export const REQUIRED_FIELDS = ['sku', 'name', 'color', 'size', 'category'] as const;
export type CatalogField = (typeof REQUIRED_FIELDS)[number] | 'brand';

/**
 * Header spellings per field, most specific first: a sheet with both "Product name" and "Description" takes the name
 * for `name`. Compared after lower-casing and turning punctuation into spaces ("Item #" → "item").
 */
export const HEADER_ALIASES: Readonly<Record<CatalogField, readonly string[]>> = {
  sku: [
    'sku',
    'sku code',
    'sku number',
    'sku no',
    'item code',
    'item number',
    'item no',
    'item',
    'product code',
    'style code',
    'article number',
    'article no',
    'article',
    'part number',
    'code',
    'ref',
    'reference',
  ],
  name: [
    'name',
    'product name',
    'item name',
    'style name',
    'product',
    'title',
    'description',
    'product description',
    'item description',
  ],
  color: ['color', 'colour', 'color name', 'colour name', 'colorway', 'colourway'],
  size: ['size', 'size name', 'size code'],
  category: ['category', 'product category', 'categories', 'product type', 'type', 'department', 'class'],
  brand: ['brand', 'brand name'],
};

/** A product as an import stores it: the file's fields, cleaned, and the SKU's parts the matcher indexes. */
export interface CatalogFileRow extends SkuParts {
  sku: string;
  brand: string;
  name: string;
  color: string;
  size: string;
  category: string;
}

export interface CatalogRowProblem {
  /** 1-based: the line of a CSV, the row of the sheet (as the person's spreadsheet numbers it). */
  row: number;
  sku: string | null;
  message: string;
}

export interface CatalogFile {
  kind: 'csv' | 'xlsx';
  /** The worksheet read (XLSX), or null. */
  sheet: string | null;
  headerRow: number;
  /** The header text each field was read from, as the file spells it. */
  columns: Record<CatalogField, string | null>;
  rows: CatalogFileRow[];
  /** Data rows that were not blank: rows + the ones with problems. */
  rowsRead: number;
  /** The first MAX_PROBLEMS_KEPT problems, in row order, and how many there are in all. */
  problems: CatalogRowProblem[];
  problemCount: number;
  /** SKUs of the rows with problems: a replace must not remove them. */
  skippedSkus: string[];
}

export type CatalogFileErrorCode =
  'not_supported' | 'unreadable' | 'too_large' | 'too_many_rows' | 'empty' | 'missing_columns' | 'no_rows';

/** Why a file cannot be imported at all, in a sentence for the person who shared it (plain text: escape it to show). */
export class CatalogFileError extends Error {
  override name = 'CatalogFileError';

  constructor(
    readonly code: CatalogFileErrorCode,
    readonly userMessage: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${userMessage}`, options);
  }
}

export interface ReadCatalogFileOptions {
  data: Buffer;
  fileName: string;
  /** The brand every row gets unless the file has a brand column. */
  defaultBrand: string;
  maxBytes: number;
  /** For tests; MAX_CATALOG_ROWS otherwise. */
  maxRows?: number;
  /** How an .xlsx is unpacked: in this thread unless given (the server passes its worker thread's reader). */
  readGrid?: GridReader;
}

const COLUMN_HINT = 'sku, name, color, size and category';

/** Reads and checks a catalog file. Throws CatalogFileError when nothing in it can be imported. */
export async function readCatalogFile(options: ReadCatalogFileOptions): Promise<CatalogFile> {
  const { data, fileName } = options;
  const maxRows = options.maxRows ?? MAX_CATALOG_ROWS;
  if (data.length > options.maxBytes) {
    throw new CatalogFileError(
      'too_large',
      `This file is ${megabytes(data.length)}; Parley reads catalog files up to ${megabytes(options.maxBytes)}. Split it, import the parts with Merge.`,
    );
  }
  const kind = fileKind(data, fileName);
  if (kind === 'xlsx') {
    const sheets = await readSheets(options.readGrid ?? readGridInProcess, data, options.maxBytes, maxRows);
    // The first sheet with a recognisable header; otherwise the first sheet says what is missing.
    const tables = sheets.map((sheet) => ({ sheet, header: findHeader(sheet.records) }));
    const found = tables.find((table) => table.header.missing.length === 0) ?? tables[0];
    if (!found) throw new CatalogFileError('empty', 'This workbook has no rows. Check that you shared the right file.');
    return readTable({ kind, sheet: found.sheet.name, records: found.sheet.records, options, maxRows });
  }
  if (kind === 'csv') return readTable({ kind, sheet: null, records: csvRecords(data), options, maxRows });
  throw new CatalogFileError(
    'not_supported',
    'Parley imports a catalog from a CSV (.csv) or Excel (.xlsx) file. Save it as one of those and share it again.',
  );
}

function fileKind(data: Buffer, fileName: string): 'csv' | 'xlsx' | null {
  // The bytes decide when they can: a ZIP is an .xlsx (or nothing), whatever the name says.
  if (data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'xlsx';
  if (/\.(csv|txt|tsv)$/i.test(fileName)) return 'csv';
  if (/\.xlsx$/i.test(fileName)) return 'xlsx';
  return null;
}

async function readSheets(readGrid: GridReader, data: Buffer, maxBytes: number, maxRows: number) {
  const limits: ReadLimits = {
    maxBytes,
    maxRowsPerSheet: maxRows + HEADER_SCAN_ROWS,
    // A catalog is a narrow table: room for 20 columns at the row limit.
    maxCells: (maxRows + HEADER_SCAN_ROWS) * 20,
  };
  try {
    const workbook = await readGrid(data, limits);
    return workbook.sheets
      .filter((sheet) => !sheet.hidden && sheet.rowCount > 0)
      .map((sheet) => ({
        name: sheet.name,
        records: sheet.cells.map((fields, r) => ({ line: r + 1, fields })),
      }));
  } catch (error) {
    if (!(error instanceof QuotationError)) throw error;
    throw fromReaderError(error, maxRows);
  }
}

/** The XLSX reader speaks of quotations; the same failures, said of a catalog. */
function fromReaderError(error: QuotationError, maxRows: number): CatalogFileError {
  switch (error.code) {
    case 'too_many_rows':
    case 'too_many_cells':
      return tooManyRows(maxRows, error);
    case 'empty':
      return new CatalogFileError('empty', 'Every sheet in this workbook is empty.', { cause: error });
    case 'too_large':
      return new CatalogFileError('too_large', error.userMessage, { cause: error });
    default:
      return new CatalogFileError(
        'unreadable',
        'Parley could not read this workbook (it may be damaged, password-protected or not really .xlsx). Open it in a spreadsheet app, save it as .xlsx or .csv and share it again.',
        { cause: error },
      );
  }
}

function tooManyRows(maxRows: number, cause?: unknown): CatalogFileError {
  return new CatalogFileError(
    'too_many_rows',
    `This file has more than ${maxRows.toLocaleString('en-US')} products, the most Parley imports at once. Split it and import the parts with Merge.`,
    { cause },
  );
}

/** UTF-8 (with or without a BOM); a file that is not valid UTF-8 is read as Windows-1252, what Excel saves by default. */
function decodeText(data: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
}

function csvRecords(data: Buffer): CsvRecord[] {
  const text = decodeText(data);
  const firstLine = text.slice(0, text.search(/\r|\n|$/));
  const count = (ch: string) => firstLine.split(ch).length - 1;
  const delimiter = count('\t') > count(',') && count('\t') > count(';') ? '\t' : count(';') > count(',') ? ';' : ',';
  try {
    // TextDecoder keeps a BOM as U+FEFF only when not stripping; parseCsvRecords drops it either way.
    return parseCsvRecords(text, 'file', delimiter);
  } catch (error) {
    throw new CatalogFileError(
      'unreadable',
      'This CSV has a quoted field that is never closed, so its rows cannot be told apart. Save it again from your spreadsheet app and share it again.',
      { cause: error },
    );
  }
}

// ───────────────────────────── Header ─────────────────────────────

function headerKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

interface Header {
  /** Index into the records of the header row, or -1. */
  index: number;
  columns: Partial<Record<CatalogField, number>>;
  missing: (typeof REQUIRED_FIELDS)[number][];
}

/** Which column holds each field, reading `fields` as a header row. */
export function columnsOf(fields: readonly string[]): Partial<Record<CatalogField, number>> {
  const keys = fields.map(headerKey);
  const used = new Set<number>();
  const columns: Partial<Record<CatalogField, number>> = {};
  for (const field of [...REQUIRED_FIELDS, 'brand'] as const) {
    for (const alias of HEADER_ALIASES[field]) {
      const at = keys.findIndex((key, i) => key === alias && !used.has(i));
      if (at >= 0) {
        columns[field] = at;
        used.add(at);
        break;
      }
    }
  }
  return columns;
}

/** The first of the top rows that names every required field; else the one that names the most. */
function findHeader(records: readonly CsvRecord[]): Header {
  let best: Header = { index: -1, columns: {}, missing: [...REQUIRED_FIELDS] };
  for (let i = 0; i < Math.min(records.length, HEADER_SCAN_ROWS); i++) {
    const columns = columnsOf(records[i]?.fields ?? []);
    const missing = REQUIRED_FIELDS.filter((field) => columns[field] === undefined);
    if (missing.length === 0) return { index: i, columns, missing };
    if (missing.length < best.missing.length) best = { index: i, columns, missing };
  }
  return best;
}

// ───────────────────────────── Rows ─────────────────────────────

/** Cell text as stored: NFKC, control characters gone, runs of white space as one space. */
function clean(text: string | undefined): string {
  return (text ?? '')
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A brand's SKU: letters and digits, with the separators SKUs use between them. */
const SKU_SHAPE = /^[\p{L}\p{N}](?:[\p{L}\p{N} ._/#+-]*[\p{L}\p{N}])?$/u;

/** A colour's or size's text as a code: upper case, letters and digits only ("Obsidian Black" → OBSIDIANBLACK). */
function codeOf(text: string): string {
  return text
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The parts the matcher indexes (style, colour code, size code). A SKU shaped STYLE-COLOR-SIZE (Valden's `MC001-GLW-XL`)
 * gives them itself. Any other brand's SKU is kept exactly as the brand writes it, and its parts are derived: the
 * style is the SKU's segments but its last two (`JK-1001-BLK-XL` → `JK-1001`; with two segments the first, with one
 * the SKU itself), and the colour and size codes come from the colour and size columns. The matcher compares codes only
 * with codes it read from the same catalog (a colour name in a quotation becomes the code its catalog gives that
 * name), so derived codes match as well as Valden's; only the style-colour-size tier, which needs a 5-character
 * style, is left to the SKU and name tiers.
 */
export function skuPartsOf(sku: string, color: string, size: string): SkuParts {
  const parsed = parseSku(sku);
  if (parsed) return parsed;
  // Split on the separators as written: normalizeSku would re-cut a run-together code into Valden's 5-3-n shape.
  const segments = sku.split(/[\s\-_./\\#+]+/).filter((segment) => segment !== '');
  const skuPrefix = segments.length >= 3 ? segments.slice(0, -2).join('-') : (segments[0] ?? sku);
  return { skuPrefix, colorCode: codeOf(color), sizeCode: codeOf(size) };
}

interface ReadTableInput {
  kind: 'csv' | 'xlsx';
  sheet: string | null;
  records: readonly CsvRecord[];
  options: ReadCatalogFileOptions;
  maxRows: number;
}

function readTable({ kind, sheet, records, options, maxRows }: ReadTableInput): CatalogFile {
  if (records.length === 0)
    throw new CatalogFileError('empty', 'This file is empty. Check that you shared the right file.');
  const header = findHeader(records);
  if (header.missing.length > 0) {
    const where = header.index >= 0 ? ` (row ${records[header.index]?.line ?? 1} looks like the header)` : '';
    throw new CatalogFileError(
      'missing_columns',
      `This file has no ${header.missing.join(', ')} column${header.missing.length > 1 ? 's' : ''}${where}. A catalog needs a header row naming ${COLUMN_HINT} (brand is optional).`,
    );
  }
  const headerRecord = records[header.index];
  const data = records.slice(header.index + 1);
  if (data.length > maxRows) throw tooManyRows(maxRows);

  const column = (field: CatalogField) => header.columns[field];
  const rows: CatalogFileRow[] = [];
  const problems: CatalogRowProblem[] = [];
  let problemCount = 0;
  const skipped = new Set<string>();
  const firstRowOfSku = new Map<string, number>();
  let rowsRead = 0;
  const report = (row: number, sku: string | null, message: string) => {
    problemCount++;
    if (problems.length < MAX_PROBLEMS_KEPT) problems.push({ row, sku, message });
    if (sku) skipped.add(sku);
  };

  for (const { line, fields } of data) {
    const cell = (field: CatalogField) => {
      const at = column(field);
      return at === undefined ? '' : clean(fields[at]);
    };
    if (fields.every((field) => clean(field) === '')) continue;
    rowsRead++;
    const sku = cell('sku').toUpperCase();
    const value = { sku, name: cell('name'), color: cell('color'), size: cell('size'), category: cell('category') };
    const brand = cell('brand') || options.defaultBrand;
    const missing = REQUIRED_FIELDS.filter((field) => value[field] === '');
    if (missing.length > 0) {
      report(line, sku || null, `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} empty`);
      continue;
    }
    if (sku.length > MAX_SKU_LENGTH || !SKU_SHAPE.test(sku)) {
      report(
        line,
        null,
        `SKU "${sku.slice(0, MAX_SKU_LENGTH)}" must be letters and digits, with - _ . / # + or spaces between them (at most ${MAX_SKU_LENGTH} characters)`,
      );
      continue;
    }
    const tooLong = (['name', 'color', 'size', 'category'] as const).find(
      (field) => value[field].length > (field === 'name' ? MAX_NAME_LENGTH : MAX_TEXT_LENGTH),
    );
    if (tooLong || brand.length > MAX_TEXT_LENGTH) {
      const field = tooLong ?? 'brand';
      const max = field === 'name' ? MAX_NAME_LENGTH : MAX_TEXT_LENGTH;
      report(line, sku, `${field} is longer than ${max} characters`);
      continue;
    }
    const first = firstRowOfSku.get(sku);
    if (first !== undefined) {
      report(line, null, `SKU ${sku} is already on row ${first}; the row is skipped`);
      continue;
    }
    firstRowOfSku.set(sku, line);
    rows.push({ ...value, brand, ...skuPartsOf(sku, value.color, value.size) });
  }
  if (rows.length === 0) {
    throw new CatalogFileError(
      'no_rows',
      rowsRead === 0
        ? 'This file has a header but no products under it.'
        : `None of the ${rowsRead.toLocaleString('en-US')} rows can be imported; the first problem is on row ${problems[0]?.row ?? '?'}: ${problems[0]?.message ?? ''}.`,
    );
  }
  // A skipped row's SKU that another row imports is not at risk: only protect the ones the file does not carry.
  for (const sku of firstRowOfSku.keys()) skipped.delete(sku);
  const columns = Object.fromEntries(
    (['sku', 'name', 'color', 'size', 'category', 'brand'] as const).map((field) => {
      const at = column(field);
      return [field, at === undefined ? null : clean(headerRecord?.fields[at])];
    }),
  ) as Record<CatalogField, string | null>;
  return {
    kind,
    sheet,
    headerRow: headerRecord?.line ?? 1,
    columns,
    rows,
    rowsRead,
    problems,
    problemCount,
    skippedSkus: [...skipped],
  };
}

// ───────────────────────────── Against the catalog ─────────────────────────────

/** A product of the workspace's catalog, as a preview compares it. */
export interface ExistingProduct {
  sku: string;
  brand: string;
  name: string;
  color: string;
  size: string;
  category: string;
  retired: boolean;
  /** A quotation line or a PO line names it: a replace retires it instead of deleting it. */
  referenced: boolean;
}

export interface CatalogChangeCounts {
  /** SKUs the catalog does not have. */
  added: number;
  /** SKUs it has with other details (or retired, which the import restores). */
  changed: number;
  unchanged: number;
  /** With Replace: products not in the file, deleted. */
  removed: number;
  /** With Replace: products not in the file but named by quotations or POs, kept for them and no longer matched. */
  retired: number;
}

/** What Merge and Replace would do. Must agree with the import's SQL (src/services/catalog/apply-catalog-import.ts). */
export function countChanges(
  rows: readonly CatalogFileRow[],
  existing: readonly ExistingProduct[],
  skippedSkus: readonly string[],
): CatalogChangeCounts {
  const bySku = new Map(existing.map((product) => [product.sku, product]));
  const counts: CatalogChangeCounts = { added: 0, changed: 0, unchanged: 0, removed: 0, retired: 0 };
  const inFile = new Set<string>(skippedSkus);
  for (const row of rows) {
    inFile.add(row.sku);
    const product = bySku.get(row.sku);
    if (!product) counts.added++;
    else if (product.retired || differs(row, product)) counts.changed++;
    else counts.unchanged++;
  }
  for (const product of existing) {
    if (inFile.has(product.sku)) continue;
    if (!product.referenced) counts.removed++;
    else if (!product.retired) counts.retired++;
  }
  return counts;
}

function differs(row: CatalogFileRow, product: ExistingProduct): boolean {
  return (
    row.brand !== product.brand ||
    row.name !== product.name ||
    row.color !== product.color ||
    row.size !== product.size ||
    row.category !== product.category
  );
}
