// Turns an upload into the small, canonical .xlsx package that exceljs is given — or a QuotationError saying why not.
//
// exceljs is only trusted to decode cells: shared strings, styles and number formats, rich text, formulas. Everything
// else it parses on the way is either unneeded or costly in ways a 6 KB file can trigger. It expands each data
// validation, defined name and merged range cell by cell (one dropdown on five whole columns: 5 s and 600 MB; 20,000
// merged ranges: 40 s, as its overlap check is quadratic), and its reconcile step throws on comments, drawings or
// hyperlinks whose parts are named unlike Excel's. So the package is rebuilt: our workbook.xml (worksheets only,
// placeholder names: exceljs refuses a sheet called "History" or one with a "/" in its name), our relationships, the original styles and
// shared strings, and each worksheet cut down to its root tag and <sheetData>. What the grid still needs from the rest —
// names and visibility, merged ranges, hidden rows and columns — is read here, with string scans on bytes we inflated
// under a cap.
import type { ReadLimits, QuotationError } from './errors.js';
import { type ZipEntry, ZipError, inflateEntry, readZipDirectory, writeStoredZip } from './zip-archive.js';
import * as reject from './xlsx-errors.js';

const MB = 1024 * 1024;

/**
 * Most bytes we inflate for one workbook: 200 MB, or 40 times the upload limit if that is less. A real 15 MB quotation
 * unpacks to 50–150 MB of XML (spreadsheet XML compresses 5–10×; images, the usual bulk, not at all), and exceljs needs
 * a few times the XML size in memory, so 200 MB keeps one read well under a gigabyte.
 */
export function inflateCap(limits: ReadLimits): number {
  return Math.min(200 * MB, 40 * limits.maxBytes);
}

/**
 * An entry that declares more than 10 MB at over 200:1 is a bomb whether or not we would read it: XML deflates 5–20:1,
 * a worksheet of repeated styled blanks perhaps 50:1; only padding reaches hundreds.
 */
const ABSURD_RATIO = 200;
const ABSURD_RATIO_MIN_BYTES = 10 * MB;
/** A workbook is a few dozen parts; even one with a picture per product stays in the hundreds. */
const MAX_ENTRIES = 10_000;
/**
 * exceljs builds an object for every <c> and <row> element, empty or not (about 300 bytes a cell), before we can
 * measure the grid. The grid may hold `maxCells` cells; allow twice that many elements for styled blanks around it.
 */
const ELEMENT_BUDGET_PER_CELL = 2;

const EXCEL_MAX_ROWS = 1_048_576;
const EXCEL_MAX_COLUMNS = 16_384;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const SPREADSHEETML = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const WORKSHEET_RELATIONSHIP = `${RELATIONSHIPS}/worksheet`;

const OLE2_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** An encrypted OOXML file is an OLE2 container holding `EncryptionInfo` and `EncryptedPackage` streams. */
const ENCRYPTION_INFO = Buffer.from('EncryptionInfo', 'utf16le');

/** 0-based, inclusive. */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** What the grid needs about a sheet that the canonical package leaves out. */
export interface SheetExtras {
  name: string;
  hidden: boolean;
  merges: CellRange[];
  /** 0-based. */
  hiddenRows: number[];
  hiddenColumns: number[];
}

export interface PreparedPackage {
  /** The canonical .xlsx for exceljs. Its worksheet with id n is `sheets[n - 1]`. */
  archive: ArrayBuffer;
  sheets: SheetExtras[];
}

// ───────────────────────────── Sniffing ─────────────────────────────

function rejectNonZip(data: Buffer): void {
  if (data.length >= 2 && data[0] === 0x50 && data[1] === 0x4b) return; // "PK"
  if (data.subarray(0, OLE2_SIGNATURE.length).equals(OLE2_SIGNATURE)) {
    throw data.includes(ENCRYPTION_INFO) ? reject.encrypted() : reject.notXlsx('xls');
  }
  // A PDF may carry a few bytes of junk before its header; readers allow 1 KB.
  if (data.subarray(0, 1024).includes('%PDF-')) throw reject.notXlsx('pdf');
  throw reject.notXlsx('other');
}

function fromZipError(error: unknown, cap: number): QuotationError {
  if (!(error instanceof ZipError)) return reject.corrupt(error);
  switch (error.problem) {
    case 'encrypted':
      return reject.encrypted();
    case 'inflates_larger':
      return reject.zipBomb('sizes_lie', cap);
    case 'too_many_entries':
      return reject.zipBomb('too_many_parts', cap);
    case 'malformed':
    case 'unsupported':
    case 'size_mismatch':
      return reject.corrupt(error);
  }
}

// ───────────────────────────── XML scraps ─────────────────────────────
// Tag scans, not a parser: OOXML is machine-written, its structure is fixed by the schema, and the markers we look for
// cannot occur inside text (a "<" there is always escaped). A file that fools a scan only fools itself: the worst
// outcome is exceljs failing to parse the result, which is reported as a damaged file.

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function decodeXml(text: string): string {
  return text.replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));/g, (match, dec, hex, named) => {
    if (typeof named === 'string') {
      const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
      return entities[named] ?? match;
    }
    const code = typeof dec === 'string' ? Number(dec) : Number.parseInt(String(hex), 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : match;
  });
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of tag.matchAll(ATTRIBUTE)) {
    const [, name, doubleQuoted, singleQuoted] = match;
    if (name !== undefined) found.set(name, decodeXml(doubleQuoted ?? singleQuoted ?? ''));
  }
  return found;
}

/** Start tags `<name …>` or `<name …/>` (no namespace prefix); a quoted attribute value may contain ">". */
function* startTags(xml: string, name: string): Generator<Map<string, string>> {
  const pattern = new RegExp(`<${name}(?=[\\s/>])(?:[^>"']|"[^"]*"|'[^']*')*>`, 'g');
  for (const match of xml.matchAll(pattern)) yield attributes(match[0]);
}

const isTrue = (value: string | undefined) => value === '1' || value === 'true';

function isNameEnd(byte: number | undefined): boolean {
  // ">", "/", space, tab, LF, CR
  return byte === 0x3e || byte === 0x2f || byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** Offset of the first `<name` start tag in data[from, to), or -1. */
function indexOfTag(data: Buffer, name: string, from: number, to = data.length): number {
  const needle = Buffer.from(`<${name}`, 'latin1');
  let at = data.indexOf(needle, from);
  while (at !== -1 && at < to) {
    if (isNameEnd(data[at + needle.length])) return at;
    at = data.indexOf(needle, at + needle.length);
  }
  return -1;
}

/** Offset of the ">" closing the tag that starts at `start`, skipping quoted attribute values; -1 when there is none. */
function endOfTag(data: Buffer, start: number): number {
  let quote = 0;
  for (let at = start; at < data.length; at++) {
    const byte = data[at];
    if (quote !== 0) {
      if (byte === quote) quote = 0;
    } else if (byte === 0x22 || byte === 0x27) {
      quote = byte;
    } else if (byte === 0x3e) {
      return at;
    }
  }
  return -1;
}

// ───────────────────────────── Cell references ─────────────────────────────

const CELL_REFERENCE = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/;

/** "A" → 1, "AB" → 28. */
function columnNumber(letters: string): number {
  let column = 0;
  for (const letter of letters.toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column;
}

/** 1 → "A", 28 → "AB". */
function columnLetters(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

function decodeCell(reference: string): { row: number; column: number } | null {
  const match = CELL_REFERENCE.exec(reference.trim());
  if (!match) return null;
  const [, letters = '', digits = ''] = match;
  const column = columnNumber(letters);
  const row = Number(digits);
  if (row < 1 || row > EXCEL_MAX_ROWS || column > EXCEL_MAX_COLUMNS) return null;
  return { row: row - 1, column: column - 1 };
}

function decodeRange(reference: string): CellRange | null {
  const [first = '', second = first, extra] = reference.split(':');
  if (extra !== undefined) return null;
  const from = decodeCell(first);
  const to = decodeCell(second);
  if (!from || !to) return null;
  return {
    top: Math.min(from.row, to.row),
    left: Math.min(from.column, to.column),
    bottom: Math.max(from.row, to.row),
    right: Math.max(from.column, to.column),
  };
}

// ───────────────────────────── Budgets ─────────────────────────────

class InflateBudget {
  private declared = 0;
  private readonly reserved = new Set<string>();

  constructor(readonly cap: number) {}

  /** Counts the entries' declared sizes before any is inflated, so a bomb is turned down without touching it. */
  reserve(entries: readonly ZipEntry[]): void {
    for (const entry of entries) {
      if (this.reserved.has(entry.name)) continue;
      this.reserved.add(entry.name);
      this.declared += entry.uncompressedSize;
    }
    if (this.declared > this.cap) throw reject.zipBomb('expands_too_much', this.cap);
  }
}

class ElementBudget {
  private spent = 0;

  constructor(
    private readonly allowed: number,
    private readonly maxCells: number,
  ) {}

  spend(elements: number): void {
    this.spent += elements;
    if (this.spent > this.allowed) throw reject.tooManyCells(null, this.maxCells);
  }
}

// ───────────────────────────── Parts ─────────────────────────────

interface WorkbookSheet {
  name: string;
  hidden: boolean;
  relationshipId: string;
}

function readWorkbookXml(xml: string): { sheets: WorkbookSheet[]; date1904: boolean } {
  const sheets: WorkbookSheet[] = [];
  for (const sheet of startTags(xml, 'sheet')) {
    // The relationship attribute is r:id by convention; any prefix bound to the relationships namespace is legal.
    const relationshipId = sheet.get('r:id') ?? [...sheet].find(([name]) => name.endsWith(':id'))?.[1];
    if (relationshipId === undefined) continue;
    const state = sheet.get('state');
    sheets.push({
      name: sheet.get('name') ?? `Sheet${sheets.length + 1}`,
      hidden: state === 'hidden' || state === 'veryHidden',
      relationshipId,
    });
  }
  let date1904 = false;
  for (const properties of startTags(xml, 'workbookPr')) date1904 = isTrue(properties.get('date1904'));
  return { sheets, date1904 };
}

interface Relationship {
  type: string;
  target: string;
}

function readRelationships(xml: string): Map<string, Relationship> {
  const found = new Map<string, Relationship>();
  for (const relationship of startTags(xml, 'Relationship')) {
    const id = relationship.get('Id');
    const target = relationship.get('Target');
    if (id === undefined || target === undefined || relationship.get('TargetMode') === 'External') continue;
    found.set(id, { type: relationship.get('Type') ?? '', target });
  }
  return found;
}

/** Resolves a relationship target against the folder of the part that points at it ("xl/"). */
function resolvePartName(folder: string, target: string): string {
  const path = target.startsWith('/') ? target : `${folder}${target}`;
  const segments: string[] = [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments.join('/');
}

class PartIndex {
  private readonly exact = new Map<string, ZipEntry>();
  private readonly folded = new Map<string, ZipEntry>();

  constructor(entries: readonly ZipEntry[]) {
    for (const entry of entries) {
      // A name listed twice: the later entry wins, as in JSZip.
      this.exact.set(entry.name, entry);
      this.folded.set(entry.name.toLowerCase(), entry);
    }
  }

  /** Part names are case-insensitive in OPC, and some writers percent-encode them in relationships only. */
  find(name: string): ZipEntry | undefined {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // Not percent-encoded after all.
    }
    return (
      this.exact.get(name) ??
      this.exact.get(decoded) ??
      this.folded.get(name.toLowerCase()) ??
      this.folded.get(decoded.toLowerCase())
    );
  }

  has(name: string): boolean {
    return this.find(name) !== undefined;
  }
}

function whyNotAWorkbook(parts: PartIndex): reject.NotXlsxKind {
  if (parts.has('xl/workbook.bin')) return 'xlsb';
  if (parts.has('content.xml') && parts.has('mimetype')) return 'ods';
  return 'zip';
}

// ───────────────────────────── Worksheets ─────────────────────────────

interface CutWorksheet {
  /** Root start tag + <sheetData> + end tag. */
  xml: Buffer;
  merges: CellRange[];
  hiddenRows: number[];
  hiddenColumns: number[];
}

const EMPTY_WORKSHEET = Buffer.from(`${XML_DECLARATION}<worksheet xmlns="${SPREADSHEETML}"><sheetData/></worksheet>`);

/** Counts `<name` start tags in data[from, to) without allocating. */
function countTags(data: Buffer, name: string, from = 0, to = data.length): number {
  const needle = Buffer.from(`<${name}`, 'latin1');
  let found = 0;
  for (let at = data.indexOf(needle, from); at !== -1 && at < to; at = data.indexOf(needle, at + needle.length)) {
    if (isNameEnd(data[at + needle.length])) found++;
  }
  return found;
}

/**
 * Counts `<c` start tags in data[from, to), and how many start with ` r=`: Excel and nearly every other writer put the
 * reference first, so when the counts match no cell lacks one. One native scan, no allocation.
 */
function countCells(data: Buffer, from: number, to: number): { cells: number; numbered: number } {
  const needle = Buffer.from('<c', 'latin1');
  let cells = 0;
  let numbered = 0;
  for (let at = data.indexOf(needle, from); at !== -1 && at < to; at = data.indexOf(needle, at + 2)) {
    if (!isNameEnd(data[at + 2])) continue;
    cells++;
    // " r="
    if (data[at + 2] === 0x20 && data[at + 3] === 0x72 && data[at + 4] === 0x3d) numbered++;
  }
  return { cells, numbered };
}

const ROW_NUMBER = /\sr\s*=\s*["'](\d+)["']/;
const CELL_COLUMN = /\sr\s*=\s*["']\$?([A-Za-z]{1,3})\$?\d*["']/;

/** Reads every <row> start tag in data[from, to): which rows are hidden, and whether any leaves out its number. */
function scanRows(
  data: Buffer,
  from: number,
  to: number,
  budget: ElementBudget,
): { hidden: number[]; unnumbered: boolean } {
  const hidden: number[] = [];
  const needle = Buffer.from('<row', 'latin1');
  let rowNumber = 0;
  let unnumbered = false;
  for (let at = data.indexOf(needle, from); at !== -1 && at < to; at = data.indexOf(needle, at + needle.length)) {
    if (!isNameEnd(data[at + needle.length])) continue;
    budget.spend(1);
    const end = endOfTag(data, at);
    if (end === -1 || end >= to) break;
    const tag = data.toString('latin1', at, end + 1);
    // r is optional: without it, a row follows the previous one.
    const number = ROW_NUMBER.exec(tag)?.[1];
    if (number === undefined) unnumbered = true;
    rowNumber = number === undefined ? rowNumber + 1 : Number(number);
    // exceljs keeps rows in an array indexed by number; one row past Excel's last makes every later walk over that
    // array take minutes (a forEach over a billion holes).
    if (rowNumber > EXCEL_MAX_ROWS) throw reject.corrupt();
    if (/\shidden\s*=\s*["'](?:1|true)["']/.test(tag) && rowNumber >= 1) hidden.push(rowNumber - 1);
  }
  return { hidden, unnumbered };
}

/**
 * `r` is optional on rows and cells (a row follows the previous row, a cell the previous cell) and some writers leave
 * it out, but exceljs throws on such a sheet. Writes the missing references into data[from, to). Only called when
 * some are missing, as it walks every tag.
 */
function addMissingReferences(data: Buffer, from: number, to: number): Buffer {
  const chunks: Buffer[] = [];
  let copied = from;
  let row = 0;
  let column = 0;
  const insert = (at: number, reference: string) => {
    chunks.push(data.subarray(copied, at), Buffer.from(` r="${reference}"`));
    copied = at;
  };
  for (let at = data.indexOf(0x3c, from); at !== -1 && at < to; at = data.indexOf(0x3c, at + 1)) {
    // "<row" or "<c", each followed by the end of the name
    const isRow = data[at + 1] === 0x72 && data[at + 2] === 0x6f && data[at + 3] === 0x77 && isNameEnd(data[at + 4]);
    const isCell = data[at + 1] === 0x63 && isNameEnd(data[at + 2]);
    if (!isRow && !isCell) continue;
    const end = endOfTag(data, at);
    if (end === -1 || end >= to) break;
    const tag = data.toString('latin1', at, end + 1);
    if (isRow) {
      const number = ROW_NUMBER.exec(tag)?.[1];
      row = number === undefined ? row + 1 : Number(number);
      column = 0;
      if (number === undefined) insert(at + 4, String(row));
    } else {
      const letters = CELL_COLUMN.exec(tag)?.[1];
      column = letters === undefined ? column + 1 : columnNumber(letters);
      if (letters === undefined) insert(at + 2, `${columnLetters(column)}${row}`);
    }
    at = end;
  }
  chunks.push(data.subarray(copied, to));
  return Buffer.concat(chunks);
}

function hiddenColumnsIn(prefix: string): number[] {
  const hidden = new Uint8Array(EXCEL_MAX_COLUMNS);
  let seen = 0;
  for (const column of startTags(prefix, 'col')) {
    // Excel writes at most one <col> per column; more than that is not a real file and not worth the time.
    if (++seen > EXCEL_MAX_COLUMNS) break;
    if (!isTrue(column.get('hidden'))) continue;
    const min = Number(column.get('min'));
    const max = Number(column.get('max') ?? min);
    if (!Number.isInteger(min) || !Number.isInteger(max)) continue;
    const first = Math.max(1, min);
    const last = Math.min(EXCEL_MAX_COLUMNS, max);
    if (first <= last) hidden.fill(1, first - 1, last);
  }
  const indexes: number[] = [];
  hidden.forEach((flag, index) => {
    if (flag) indexes.push(index);
  });
  return indexes;
}

function mergesIn(tail: string, budget: ElementBudget): CellRange[] {
  const merges: CellRange[] = [];
  for (const merge of startTags(tail, 'mergeCell')) {
    budget.spend(1);
    const range = decodeRange(merge.get('ref') ?? '');
    if (range) merges.push(range);
  }
  return merges;
}

/**
 * Keeps the worksheet's root tag (for its namespace declarations) and its <sheetData>, drops everything else, and
 * reads what the grid needs from what was dropped. Counts cell and row elements against the budget before exceljs
 * builds an object for each.
 */
function cutWorksheet(data: Buffer, budget: ElementBudget): CutWorksheet {
  const rootStart = indexOfTag(data, 'worksheet', 0);
  const rootEnd = rootStart === -1 ? -1 : endOfTag(data, rootStart);
  const dataStart = rootEnd === -1 ? -1 : indexOfTag(data, 'sheetData', rootEnd);
  // No root or no <sheetData> we recognise (say, namespace-prefixed tags, which exceljs cannot read either): the sheet
  // reads as empty rather than failing the workbook.
  if (dataStart === -1 || data[rootEnd - 1] === 0x2f) {
    return { xml: EMPTY_WORKSHEET, merges: [], hiddenRows: [], hiddenColumns: [] };
  }
  const dataTagEnd = endOfTag(data, dataStart);
  if (dataTagEnd === -1) throw reject.corrupt();
  let dataEnd: number;
  if (data[dataTagEnd - 1] === 0x2f) {
    dataEnd = dataTagEnd + 1;
  } else {
    const close = data.lastIndexOf('</sheetData>');
    if (close < dataTagEnd) throw reject.corrupt();
    dataEnd = close + '</sheetData>'.length;
  }

  const cells = countCells(data, dataTagEnd, dataEnd);
  budget.spend(cells.cells);
  const rows = scanRows(data, dataTagEnd, dataEnd, budget);
  const sheetData =
    !rows.unnumbered && cells.numbered === cells.cells
      ? data.subarray(dataStart, dataEnd)
      : Buffer.concat([data.subarray(dataStart, dataTagEnd + 1), addMissingReferences(data, dataTagEnd + 1, dataEnd)]);
  const hiddenColumns = hiddenColumnsIn(data.toString('utf8', rootEnd + 1, dataStart));
  const merges = mergesIn(data.toString('utf8', dataEnd), budget);

  const xml = Buffer.concat([
    Buffer.from(XML_DECLARATION),
    data.subarray(rootStart, rootEnd + 1),
    sheetData,
    Buffer.from('</worksheet>'),
  ]);
  return { xml, merges, hiddenRows: rows.hidden, hiddenColumns };
}

function canonicalWorkbookXml(sheetCount: number, date1904: boolean): string {
  const sheets = Array.from(
    { length: sheetCount },
    (_, index) => `<sheet name="Sheet${index + 1}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`,
  ).join('');
  const properties = date1904 ? '<workbookPr date1904="1"/>' : '';
  return `${XML_DECLARATION}<workbook xmlns="${SPREADSHEETML}" xmlns:r="${RELATIONSHIPS}">${properties}<sheets>${sheets}</sheets></workbook>`;
}

function canonicalRelationshipsXml(sheetCount: number): string {
  const relationships = Array.from(
    { length: sheetCount },
    (_, index) =>
      `<Relationship Id="rId${index + 1}" Type="${WORKSHEET_RELATIONSHIP}" Target="worksheets/sheet${index + 1}.xml"/>`,
  ).join('');
  return `${XML_DECLARATION}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">${relationships}</Relationships>`;
}

// ───────────────────────────── Entry point ─────────────────────────────

/**
 * Checks the upload is an .xlsx within the limits' inflation and element budgets and rebuilds it for exceljs. Throws
 * QuotationError (not_xlsx, encrypted, corrupt, zip_bomb, too_many_cells); the caller checks `maxBytes` first.
 */
export async function prepareXlsxPackage(data: Buffer, limits: ReadLimits): Promise<PreparedPackage> {
  rejectNonZip(data);
  const cap = inflateCap(limits);
  let entries: ZipEntry[];
  try {
    entries = readZipDirectory(data, { maxEntries: MAX_ENTRIES });
  } catch (error) {
    throw fromZipError(error, cap);
  }
  const parts = new PartIndex(entries);
  const workbookEntry = parts.find('xl/workbook.xml');
  if (!workbookEntry) throw reject.notXlsx(whyNotAWorkbook(parts));

  // Anything absurdly compressed is hostile, even a part we would never read.
  for (const entry of entries) {
    if (
      entry.uncompressedSize > ABSURD_RATIO_MIN_BYTES &&
      entry.uncompressedSize > ABSURD_RATIO * entry.compressedSize
    ) {
      throw reject.zipBomb('expands_too_much', cap);
    }
  }

  const budget = new InflateBudget(cap);
  const inflate = async (entry: ZipEntry) => {
    try {
      return await inflateEntry(data, entry);
    } catch (error) {
      throw fromZipError(error, cap);
    }
  };

  const relationshipsEntry = parts.find('xl/_rels/workbook.xml.rels');
  if (!relationshipsEntry) throw reject.corrupt();
  budget.reserve([workbookEntry, relationshipsEntry]);
  const workbook = readWorkbookXml((await inflate(workbookEntry)).toString('utf8'));
  const relationships = readRelationships((await inflate(relationshipsEntry)).toString('utf8'));

  // Worksheets only: chartsheets, dialog sheets and macro sheets have no cells to read.
  const sheets: { sheet: WorkbookSheet; entry: ZipEntry }[] = [];
  const taken = new Set<ZipEntry>();
  for (const sheet of workbook.sheets) {
    const relationship = relationships.get(sheet.relationshipId);
    if (!relationship?.type.endsWith('/worksheet')) continue;
    const entry = parts.find(resolvePartName('xl/', relationship.target));
    // Each worksheet is its own part. A second sheet naming a part already taken is not a real workbook, and would let
    // a 10 KB file list one big worksheet a thousand times: exceljs would parse every copy, past the element budget.
    if (!entry || taken.has(entry)) continue;
    taken.add(entry);
    sheets.push({ sheet, entry });
  }
  const partOfType = (suffix: string, fallback: string) => {
    const relationship = [...relationships.values()].find(({ type }) => type.endsWith(suffix));
    return parts.find(relationship ? resolvePartName('xl/', relationship.target) : fallback);
  };
  const sharedStrings = partOfType('/sharedStrings', 'xl/sharedStrings.xml');
  const styles = partOfType('/styles', 'xl/styles.xml');

  const needed = sheets.map(({ entry }) => entry);
  if (sharedStrings) needed.push(sharedStrings);
  if (styles) needed.push(styles);
  budget.reserve(needed);

  const elements = new ElementBudget(ELEMENT_BUDGET_PER_CELL * limits.maxCells, limits.maxCells);
  const files: { name: string; data: Buffer }[] = [
    { name: 'xl/workbook.xml', data: Buffer.from(canonicalWorkbookXml(sheets.length, workbook.date1904)) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(canonicalRelationshipsXml(sheets.length)) },
  ];
  const extras: SheetExtras[] = [];
  for (const [index, { sheet, entry }] of sheets.entries()) {
    const worksheet = cutWorksheet(await inflate(entry), elements);
    files.push({ name: `xl/worksheets/sheet${index + 1}.xml`, data: worksheet.xml });
    extras.push({
      name: sheet.name,
      hidden: sheet.hidden,
      merges: worksheet.merges,
      hiddenRows: worksheet.hiddenRows,
      hiddenColumns: worksheet.hiddenColumns,
    });
  }
  // exceljs also builds an object per shared string (and rich-text run) and per style record: 200 MB of tiny ones
  // would be millions, so they count against the same budget.
  if (sharedStrings) {
    const xml = await inflate(sharedStrings);
    elements.spend(countTags(xml, 'si') + countTags(xml, 'r'));
    files.push({ name: 'xl/sharedStrings.xml', data: xml });
  }
  if (styles) {
    const xml = await inflate(styles);
    elements.spend(
      ['xf', 'font', 'fill', 'border', 'numFmt', 'dxf'].reduce((sum, tag) => sum + countTags(xml, tag), 0),
    );
    files.push({ name: 'xl/styles.xml', data: xml });
  }

  return { archive: writeStoredZip(files), sheets: extras };
}
