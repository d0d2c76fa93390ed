// The deterministic structurer (seed 002 §6.1 stage 2, offline twin): turns a workbook's grids into quoted lines,
// charges, totals and terms without an LLM. It reads a sheet the way a careful buyer does — find the header by its
// words, read each row under it, skip totals and section titles, set charges apart, read the terms around the table,
// ignore what is hidden — and says how sure it is, so that only the sheets it is unsure of go to Claude.
import {
  classifyHeader,
  type ColumnMapping,
  createScanner,
  findItemTables,
  isSizeLabel,
  parsePriceBreak,
  type ItemTableHeader,
  visibleColumns,
} from './header-detection.js';
import { extractMetadata, labelKind, type TextUnit, textUnitsOfRow } from './metadata.js';
import { type Money, type NumberOptions, parseMoney, parseNumber, parsePercent, round } from './numbers.js';
import { leadingCode } from './column-roles.js';
import { detectDocumentKind, type SupplierColumn } from './document-kind.js';
import {
  isChargeLabel,
  isClosingDiscountLabel,
  isCodeLike,
  isTaxLabel,
  mightBeTotal,
  percentInLabel,
  totalKind,
  type TotalKind,
} from './row-kinds.js';
import { assembleSku, tierPriceAt } from './size-matrix.js';
import {
  isMeasurementLabel,
  isMeasurementValue,
  isSizeHeaderRow,
  isSpecLabel,
  isSubTableHeading,
  MAX_SUB_TABLE_WIDTH,
} from './sub-tables.js';
import {
  cellKey,
  EMPTY_TERMS,
  type ExtractedCharge,
  type ExtractedLine,
  type Extraction,
  type PriceTier,
  type QuotationTerms,
  type SheetExtraction,
  type SheetGrid,
  type WorkbookGrid,
} from './types.js';

/** Below this a sheet's reading is not trusted on its own: it goes to Claude (when a key is set) for a second one. */
export const STRUCTURER_CONFIDENCE_THRESHOLD = 0.8;
/** The name the ingestion pipeline uses for the same threshold. */
export const LLM_RESTRUCTURE_BELOW = STRUCTURER_CONFIDENCE_THRESHOLD;

export interface StructureOptions {
  /** The buyer's own names ("Valden Outdoor"): never taken for the supplier when a quote addresses them. */
  buyerNames?: string[];
  /**
   * The supplier column the buyer picked on a comparison sheet: its prices are the lines' prices, and its supplier
   * the quotation's.
   */
  priceColumn?: SupplierColumn;
}

export interface SheetStructure {
  extraction: SheetExtraction;
  warnings: string[];
}

interface TotalRow {
  kind: TotalKind;
  row: number;
  column: number;
  amount: number;
}

/** What the reading of one sheet's rows noticed, for the confidence score and the buyer's warnings. */
interface Tally {
  numericCells: number;
  readCells: number;
  unreadable: string[];
  /** Where a value was lost, so every warning names its cells: quantity cells left blank on priced lines… */
  missingQuantity: string[];
  /** …rows naming a product with neither quantity nor price… */
  incompleteRows: string[];
  /** …and quantity cells under the smallest price break. */
  belowSmallestBreak: string[];
  badDiscounts: string[];
  currencies: Map<string, number>;
  /**
   * Money-looking cells ("12.50", "$8") in the columns of a table that has no price column: a price column the header
   * did not name. With none, a priceless table is a list of needs, read completely.
   */
  strayMoney: number;
}

/** A cell that reads as money rather than a count, a code or a date: decimals in cents, or a currency mark. */
const MONEY_LIKE = /^[^\d-]{0,4}\d[\d,. ]*[.,]\d{2}(?!\d)|[$€£¥₹]/;

const FREE_OF_CHARGE = /^(?:foc|f\.o\.c\.?|free(?:\s*of\s*charge)?|n\/c|no\s*charge|免费)$/i;

/**
 * No quotation line states a quantity, price or amount of a billion or more: such a number is a misread (a barcode in
 * the wrong column) or a hostile file, and would not fit the quotation's database columns (an Int quantity, a
 * Decimal(14,4) price), failing the whole upload at the write. It reads as unreadable, so the line goes to review.
 */
const MAX_LINE_NUMBER = 1e9;
const isLineNumber = (value: number) => Number.isFinite(value) && Math.abs(value) < MAX_LINE_NUMBER;

export function columnLetter(column: number): string {
  let letters = '';
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

const cellRef = (row: number, column: number) => `${columnLetter(column)}${row + 1}`;

/** Whether the sheet writes decimals with a comma ("12,50", "1.234,50"): settles "1.234" and "12,500" on it. */
function inferDecimal(sheet: SheetGrid, columns: number[]): NumberOptions {
  let comma = 0;
  let dot = 0;
  for (let r = 0; r < sheet.rowCount; r++) {
    if (sheet.hiddenRows.has(r)) continue;
    for (const c of columns) {
      const text = sheet.cells[r]?.[c] ?? '';
      if (text === '' || text.length > 30 || !/\d[.,]\d/.test(text)) continue;
      if (/\d\.\d{3},\d/.test(text) || /(?:^|[^\d.,])\d{1,3},\d{1,2}(?!\d)/.test(text)) comma++;
      else if (/\d,\d{3}\.\d/.test(text) || /(?:^|[^\d.,])\d+\.\d{1,2}(?!\d)/.test(text)) dot++;
    }
  }
  return comma > dot ? { decimal: ',' } : {};
}

function emptySheet(sheet: SheetGrid, confidence: number): SheetExtraction {
  return {
    sheet: sheet.name,
    headerRow: null,
    confidence,
    lines: [],
    charges: [],
    statedTotal: null,
    supplierName: null,
    terms: { ...EMPTY_TERMS },
    notes: [],
  };
}

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/**
 * A table read with the picked supplier's column as its price. The columns right of it up to the next price header
 * are that supplier's block: its amount column (if any) is the line total; the other suppliers' prices and totals,
 * and any price breaks, are not this supplier's and are left unread.
 */
function withPriceColumn(sheet: SheetGrid, table: ItemTableHeader, column: number): ItemTableHeader {
  const band: string[] = [];
  for (let row = table.firstRow; row <= table.lastRow; row++) band.push(sheet.cells[row]?.[column] ?? '');
  if (band.every((cell) => cell.trim() === '')) return table;
  const lowest = (c: number) => {
    for (let row = table.lastRow; row >= table.firstRow; row--) {
      const kind = classifyHeader(sheet.cells[row]?.[c] ?? '')?.kind;
      if (kind) return kind;
    }
    return null;
  };
  let blockEnd = column + 1;
  while (blockEnd < sheet.columnCount && lowest(blockEnd) !== 'unitPrice') blockEnd++;
  const columns = table.columns;
  const inBlock = (c: number | null) => c !== null && c > column && c < blockEnd;
  let blockTotal: number | null = null;
  for (let c = column + 1; c < blockEnd && blockTotal === null; c++) if (lowest(c) === 'total') blockTotal = c;
  return {
    ...table,
    columns: {
      ...columns,
      unitPrice: column,
      listPrice: null,
      unitPriceIsNet: false,
      total: blockTotal,
      discount: inBlock(columns.discount) ? columns.discount : null,
      tiers: [],
      tierLabels: null,
    },
  };
}

/** Reads one sheet. Pure: the same grid always gives the same extraction. */
export function structureSheet(sheet: SheetGrid, options: StructureOptions = {}): SheetStructure {
  const name = sheet.name;
  if (sheet.hidden) {
    return { extraction: emptySheet(sheet, 1), warnings: [`Sheet '${name}' is hidden and was not read.`] };
  }
  const columns = visibleColumns(sheet);
  // Rows are read cell by cell many times over; the trimmed, visible texts of the row at hand are kept.
  let cachedRow = -1;
  let cachedTexts: string[] = [];
  const text = (row: number, column: number | null): string => {
    if (column === null) return '';
    if (row !== cachedRow) {
      const cells = sheet.cells[row] ?? [];
      const hiddenRow = sheet.hiddenRows.has(row);
      cachedTexts = cells.map((cell, c) => (hiddenRow || sheet.hiddenColumns.has(c) ? '' : cell.trim()));
      cachedRow = row;
    }
    return cachedTexts[column] ?? '';
  };
  /** A cell exactly as the sheet has it, spaces included (an OCR'd " WB018- CRN-XL" is evidence); '' when blank. */
  const written = (row: number, column: number | null): string =>
    text(row, column) === '' || column === null ? '' : (sheet.cells[row]?.[column] ?? '');
  const numberOptions = inferDecimal(sheet, columns);
  const scan = findItemTables(sheet, createScanner());
  const { repeatedHeaderRows } = scan;
  const chosen = options.priceColumn?.sheet === name ? options.priceColumn.column : null;
  const tables = chosen === null ? scan.tables : scan.tables.map((table) => withPriceColumn(sheet, table, chosen));

  const lines: ExtractedLine[] = [];
  const charges: ExtractedCharge[] = [];
  const totals: TotalRow[] = [];
  const closingDiscounts: { row: number; label: string; rate: number | null; amount: number | null }[] = [];
  /** Size charts and spec tables under a product line: their cells, and the line they were kept with (or none). */
  const subTables: { range: string; ownerRow: number | null }[] = [];
  const metaRows: number[] = [];
  const besideUnits: TextUnit[][] = [];
  const tally: Tally = {
    numericCells: 0,
    readCells: 0,
    unreadable: [],
    missingQuantity: [],
    incompleteRows: [],
    belowSmallestBreak: [],
    badDiscounts: [],
    currencies: new Map(),
    strayMoney: 0,
  };

  const readMoney = (row: number, column: number | null): Money | null => {
    const raw = text(row, column);
    if (raw === '' || column === null) return null;
    tally.numericCells++;
    const money = FREE_OF_CHARGE.test(raw) ? { amount: 0, currency: null } : parseMoney(raw, numberOptions);
    if (money === null || !isLineNumber(money.amount)) {
      tally.unreadable.push(`${cellRef(row, column)} "${raw.slice(0, 30)}"`);
      return null;
    }
    tally.readCells++;
    if (money.currency) tally.currencies.set(money.currency, (tally.currencies.get(money.currency) ?? 0) + 1);
    return money;
  };
  const readQuantity = (row: number, column: number | null): number | null => {
    const raw = text(row, column);
    if (raw === '' || column === null) return null;
    tally.numericCells++;
    const value = parseNumber(raw, numberOptions);
    if (value === null || !isLineNumber(value)) {
      tally.unreadable.push(`${cellRef(row, column)} "${raw.slice(0, 30)}"`);
      return null;
    }
    tally.readCells++;
    return value;
  };

  const firstTableRow = tables[0]?.firstRow ?? sheet.rowCount;
  for (let row = 0; row < firstTableRow; row++) metaRows.push(row);

  // A header with no product under it was a look-alike (a line of the letterhead naming "Product" and "Price"):
  // its rows are text, and the sheet's header is the first one that has lines.
  const readTables: ItemTableHeader[] = [];
  tables.forEach((table, index) => {
    const end = (tables[index + 1]?.firstRow ?? sheet.rowCount) - 1;
    const before = lines.length;
    readTable(table, end);
    if (lines.length > before) readTables.push(table);
    else for (let row = table.firstRow; row <= table.lastRow; row++) metaRows.push(row);
  });

  function readTable(table: ItemTableHeader, end: number): void {
    const m = table.columns;
    // Row by row: `text` keeps one row at hand, so going column by column over a two-row header would rebuild a row
    // for every cell — on a sheet 16,384 columns wide, 16,384² rebuilds (seconds per sheet).
    const inBand = new Set<number>();
    for (let r = table.firstRow; r <= table.lastRow; r++) for (const c of columns) if (text(r, c) !== '') inBand.add(c);
    const bandColumns = columns.filter((c) => inBand.has(c));
    const spanStart = bandColumns[0] ?? 0;
    const spanEnd = bandColumns.at(-1) ?? sheet.columnCount - 1;
    const outside = columns.filter((c) => c < spanStart || c > spanEnd);
    const valueColumns = [
      m.quantity,
      m.unitPrice,
      m.total,
      ...m.tiers.map((t) => t.column),
      ...m.sizes.map((s) => s.column),
    ].filter((c): c is number => c !== null);
    let previous: { sku: string; description: string } | null = null;
    const firstLine = lines.length;
    const priceless = m.unitPrice === null && m.tiers.length === 0 && m.total === null;
    const mapped = new Set([m.sku, m.description, m.color, m.size, m.quantity, ...m.sizes.map((s) => s.column)]);
    // Price breaks written as rows under their product: the product's line and the breaks gathered for it.
    const tierRows = new Map<ExtractedLine, PriceTier[]>();
    let tierOwner: ExtractedLine | null = null;
    const mergedDown = sheet.mergedFromAbove;
    const copiedFromAbove = (row: number, column: number | null) =>
      column !== null && mergedDown !== undefined && mergedDown.has(cellKey(row, column));

    // A size chart or spec table under a product (its rows and their cells), kept as that product's note.
    let subTable: { owner: ExtractedLine | null; rows: number[]; columns: number[]; parts: string[] } | null = null;
    const closeSubTable = () => {
      if (!subTable) return;
      const { owner, rows, columns: used, parts } = subTable;
      const range = `${cellRef(rows[0] ?? 0, Math.min(...used))}:` + `${cellRef(rows.at(-1) ?? 0, Math.max(...used))}`;
      if (owner) {
        const note = `Size/spec table ${range}: ${parts.join('; ')}`.slice(0, 300);
        owner.notes = owner.notes ? `${owner.notes}; ${note}` : note;
      }
      subTables.push({ range, ownerRow: owner?.row ?? null });
      subTable = null;
    };
    /** Whether the row belongs to a size chart or spec table rather than being an item (see sub-tables.ts). */
    const isSubTableRow = (texts: string[], ownCode: boolean): boolean => {
      if (ownCode || texts.length > MAX_SUB_TABLE_WIDTH) return false;
      if (isSizeHeaderRow(texts)) return true;
      // The label may sit anywhere in the row (columns come in any order): it is the row's one heading or measure word.
      const heading = texts.find(isSubTableHeading);
      const others = (label: string) => texts.filter((t) => t !== label);
      if (
        heading !== undefined &&
        others(heading).every((t) => isSizeLabel(t) || /^\d{1,2}$/.test(t) || (t.length <= 20 && !/\d/.test(t)))
      ) {
        return true;
      }
      // A measurement across the sizes stands out on its own; a spec row ("Fabric | 100% nylon") only inside a table.
      const measure = texts.find(isMeasurementLabel);
      if (measure !== undefined) {
        const values = others(measure);
        if (values.length >= 2 || (subTable && values.length >= 1)) {
          if (values.every(isMeasurementValue)) return true;
        }
      }
      const label = measure ?? texts.find(isSpecLabel);
      return (
        subTable !== null &&
        label !== undefined &&
        others(label).length > 0 &&
        others(label).every((t) => t.length <= 40)
      );
    };

    for (let row = table.lastRow + 1; row <= end; row++) {
      if (sheet.hiddenRows.has(row) || repeatedHeaderRows.has(row)) continue;
      const filled = columns.filter((c) => text(row, c) !== '');
      if (filled.length === 0) {
        closeSubTable();
        continue;
      }
      const texts = [...new Set(filled.map((c) => text(row, c)))];
      const isWord = (t: string) => parseNumber(t, numberOptions) === null;
      const skuText = text(row, m.sku);
      const descText = text(row, m.description);

      if (isSubTableRow(texts, isCodeLike(skuText) && !isSizeLabel(skuText))) {
        subTable ??= {
          owner: lines.length > firstLine ? (lines.at(-1) ?? null) : null,
          rows: [],
          columns: [],
          parts: [],
        };
        subTable.rows.push(row);
        subTable.columns.push(...filled);
        subTable.parts.push(filled.map((c) => text(row, c)).join(' '));
        continue;
      }
      closeSubTable();

      // A product written over several rows (name, fabric, packing) with its quantity and price merged down them:
      // the rows below the first only show the merged values again, and what they add is the product's detail.
      const lineAbove = lines.length > firstLine ? lines.at(-1) : undefined;
      const values = valueColumns.filter((c) => text(row, c) !== '');
      if (
        lineAbove &&
        values.length > 0 &&
        values.every((c) => copiedFromAbove(row, c)) &&
        (skuText === '' || copiedFromAbove(row, m.sku))
      ) {
        const detail = [...new Set(filled.filter((c) => !copiedFromAbove(row, c)).map((c) => text(row, c)))];
        if (detail.length) lineAbove.notes = [lineAbove.notes, ...detail].filter((t) => t).join('; ');
        continue;
      }

      const breakAt = m.tierLabels !== null ? parsePriceBreak(text(row, m.tierLabels)) : null;
      // "500+ pcs" in the quantity cell of a row with no product and a price of its own: a break under the line above.
      const breakInQuantity = m.tierLabels === null ? quantityBreak(text(row, m.quantity)) : null;
      if (breakInQuantity !== null && skuText === '' && descText === '' && tierOwner) {
        const price = readMoney(row, m.unitPrice);
        if (price) {
          tierRows.get(tierOwner)?.push({ minQty: breakInQuantity, unitPrice: price.amount });
          continue;
        }
      }
      if (breakAt !== null && skuText === '' && descText === '' && tierOwner) {
        const price = readMoney(row, m.unitPrice);
        if (price) {
          tierRows.get(tierOwner)?.push({ minQty: breakAt, unitPrice: price.amount });
          continue;
        }
      }
      const label = [skuText, descText].find((t) => t !== '' && isWord(t)) ?? texts.find(isWord) ?? '';

      if (texts.some(mightBeTotal)) {
        const total = texts
          .filter(isWord)
          .slice(0, 3)
          .map(totalKind)
          .find((kind) => kind !== null);
        // "Total Protection Jacket" with its own code and price is a product; a total has no product beside its label
        // (its amount may sit in the price column when the table has no amount column).
        const onlyLabel = [skuText, descText].every((t) => t === '' || totalKind(t) !== null);
        if (total && (onlyLabel || parseMoney(text(row, m.unitPrice), numberOptions) === null)) {
          const amount = totalAmount(row, m);
          if (amount) totals.push({ kind: total, ...amount });
          continue;
        }
      }

      // Tax and a closing discount under the table are money on the whole order, never items; a row with its own
      // product code beside the word is still a product.
      const ownCode = isCodeLike(skuText) && skuText !== label;
      if (!ownCode && isTaxLabel(label)) {
        charges.push({ sheet: name, row: row + 1, description: label, amount: chargeAmount(row, m, label) ?? null });
        continue;
      }
      if (!ownCode && isClosingDiscountLabel(label)) {
        const amount = chargeAmount(row, m, label);
        closingDiscounts.push({ row, label, rate: percentInLabel(label), amount: amount ?? null });
        continue;
      }

      if (isChargeLabel(label) && !(isCodeLike(skuText) && skuText !== label)) {
        const amount = chargeAmount(row, m, label);
        if (amount !== undefined) {
          charges.push({ sheet: name, row: row + 1, description: label, amount });
          continue;
        }
      }

      // "Payment: …", "Lead time | 45 days" under the table are terms, even where a value lands in a number column.
      const first = texts[0] ?? '';
      if (/^\D/.test(first) && labelKind(first.split(/[:：]/)[0] ?? first) !== null) {
        metaRows.push(row);
        continue;
      }

      if (isSectionTitle(row, filled, texts)) {
        previous = null;
        continue;
      }

      const hasValues = valueColumns.some((c) => text(row, c) !== '');
      const valuesAreText =
        hasValues &&
        valueColumns.every((c) => text(row, c) === '' || (text(row, c).length > 20 && /\s/.test(text(row, c))));
      let identity = { sku: written(row, m.sku), description: written(row, m.description) };
      const variant = text(row, m.color) !== '' || text(row, m.size) !== '';
      if (skuText === '' && descText === '' && variant && previous && hasValues) {
        // Suppliers write the style once and list its colours below it: the blank cells mean "same as above".
        identity = previous;
      }
      const identified = identity.sku !== '' || identity.description !== '';

      if (identified && hasValues && !valuesAreText) {
        lines.push(...readLines(row, m, identity));
        if (priceless) tally.strayMoney += filled.filter((c) => !mapped.has(c) && MONEY_LIKE.test(text(row, c))).length;
        const line = lines.at(-1);
        // Its own price is its first break: the labelled one, or (breaks in the quantity column) any quantity.
        const ownsBreaks = m.tierLabels === null || breakAt !== null;
        tierOwner = ownsBreaks && line !== undefined && line.unitPrice !== null && !line.tiers.length ? line : null;
        if (tierOwner) tierRows.set(tierOwner, [{ minQty: breakAt ?? 1, unitPrice: tierOwner.unitPrice ?? 0 }]);
        previous = identity;
        if (outside.length) besideUnits.push(textUnitsOfRow(sheet, row, outside));
        continue;
      }
      if (identified && !hasValues && isCodeLike(identity.sku) && identity.description !== '') {
        tally.incompleteRows.push(`row ${row + 1}`);
        continue;
      }
      if (!identified && hasValues && !texts.some(isWord)) continue;
      metaRows.push(row);
    }
    closeSubTable();
    for (const [line, rowTiers] of tierRows) applyTierRows(line, rowTiers);
  }

  /**
   * A price break written in a quantity cell ("500+ pcs", "≥1,000", "MOQ 3000"), or null — also for a plain quantity
   * ("500", "500 pcs"), which is an order, not a break.
   */
  function quantityBreak(raw: string): number | null {
    if (raw === '' || /^\d[\d,.]*\s*(?:pcs|pieces|pc|units|prs|pairs|sets|件)?\.?$/i.test(raw)) return null;
    return parsePriceBreak(raw);
  }

  /** A line whose breaks came as rows takes them as its tiers, priced at the break its quantity reaches. */
  function applyTierRows(line: ExtractedLine, rowTiers: PriceTier[]): void {
    const tiers = [...rowTiers]
      .sort((a, b) => a.minQty - b.minQty)
      .filter((tier, i, all) => i === 0 || all[i - 1]?.minQty !== tier.minQty);
    if (tiers.length < 2) return;
    const choice = tierPriceAt(tiers, line.quantity);
    if (!choice) return;
    if (choice.belowSmallest && line.quantity !== null) {
      tally.belowSmallestBreak.push(cellRef(line.row - 1, (line.columns.quantity ?? 1) - 1));
    }
    line.tiers = tiers;
    line.unitPrice = choice.unitPrice;
  }

  /** "JACKETS" across the table (a merged row fills every cell), or a bold or capitalised heading alone on its row. */
  function isSectionTitle(row: number, filled: number[], texts: string[]): boolean {
    if (texts.length !== 1) return false;
    const only = texts[0] ?? '';
    if (only.length > 50 || parseNumber(only, numberOptions) !== null || /[:：]/.test(only)) return false;
    const bold = filled.some((c) => sheet.bold.has(cellKey(row, c)));
    const upper = only === only.toUpperCase() && /\p{L}/u.test(only);
    return bold || upper || filled.length > 1;
  }

  function totalAmount(row: number, m: ColumnMapping): { row: number; column: number; amount: number } | null {
    const money = m.total !== null ? parseMoney(text(row, m.total), numberOptions) : null;
    if (money && m.total !== null) return { row: row + 1, column: m.total + 1, amount: money.amount };
    // Without a total column the amount is the rightmost number that is not a quantity.
    const quantityColumns = new Set([m.quantity, ...m.sizes.map((s) => s.column)]);
    for (let i = columns.length - 1; i >= 0; i--) {
      const column = columns[i];
      if (column === undefined || quantityColumns.has(column)) continue;
      const value = parseMoney(text(row, column), numberOptions);
      if (value) return { row: row + 1, column: column + 1, amount: value.amount };
    }
    return null;
  }

  /** A charge's amount, or undefined when the row states none (then it is text, not a charge). */
  function chargeAmount(row: number, m: ColumnMapping, label: string): number | undefined {
    const total = readMoney(row, m.total);
    if (total) return total.amount;
    const price = readMoney(row, m.unitPrice);
    const quantity = parseNumber(text(row, m.quantity), numberOptions);
    if (price && quantity !== null) return round(price.amount * quantity, 2);
    if (price) return price.amount;
    for (let i = columns.length - 1; i >= 0; i--) {
      const column = columns[i];
      if (column === undefined || column === m.quantity) continue;
      const raw = text(row, column);
      if (raw === label) continue;
      const value = parseMoney(raw, numberOptions);
      if (value) return value.amount;
    }
    // "Freight: US$ 350" in one cell; the currency mark tells money from "Samples: 2 pcs per style".
    const stated = /[:：]\s*(.+)$/.exec(label);
    const inLabel = stated?.[1] ? parseMoney(stated[1], numberOptions) : null;
    return inLabel?.currency ? inLabel.amount : undefined;
  }

  function readDiscount(row: number, m: ColumnMapping, listPrice: number | null): number | null {
    const raw = text(row, m.discount);
    if (raw === '' || m.discount === null) return null;
    tally.numericCells++;
    // A discount column holds a rate ("5%", "0.05", or a bare 5 under "Disc. %"), or an amount off ("$1.00").
    const money = /[$€£¥]|usd|eur|rmb/i.test(raw) ? parseMoney(raw, numberOptions) : null;
    let fraction: number | null;
    if (money && listPrice) fraction = round(Math.abs(money.amount) / listPrice, 6);
    else fraction = parsePercent(raw, { percentColumn: true });
    if (fraction === null) {
      tally.unreadable.push(`${cellRef(row, m.discount)} "${raw.slice(0, 30)}"`);
      return null;
    }
    tally.readCells++;
    fraction = Math.abs(fraction);
    if (fraction >= 1) {
      tally.badDiscounts.push(`${cellRef(row, m.discount)} "${raw.slice(0, 30)}"`);
      return null;
    }
    return fraction === 0 ? null : fraction;
  }

  function readLines(row: number, m: ColumnMapping, identity: { sku: string; description: string }): ExtractedLine[] {
    // A net price column with a blank cell: the list price and the discount still give it.
    const price =
      readMoney(row, m.unitPrice) ?? (m.unitPriceIsNet && m.listPrice !== null ? readMoney(row, m.listPrice) : null);
    const fromList = m.unitPriceIsNet && text(row, m.unitPrice) === '' && price !== null;
    const total = readMoney(row, m.total);
    const tierCells = m.tiers
      .map((tier) => ({ tier, money: readMoney(row, tier.column) }))
      .filter((t): t is { tier: (typeof m.tiers)[number]; money: Money } => t.money !== null && t.money.amount > 0);
    const tiers: PriceTier[] = tierCells.map((t) => ({ minQty: t.tier.minQty, unitPrice: t.money.amount }));
    const notes = [
      ...m.notes.map((c) => text(row, c)).filter((t) => t !== ''),
      ...m.attributes.filter((a) => text(row, a.column) !== '').map((a) => `${a.label}: ${text(row, a.column)}`),
    ];
    let rawSku = identity.sku !== '' ? identity.sku : null;
    let description = identity.description !== '' ? identity.description : null;
    if (m.sku === null && description !== null && isCodeLike(description)) {
      // A lone "Item" column full of codes is the SKU column under another name.
      rawSku = description;
      description = null;
    } else if (m.sku === null && description !== null) {
      // "KF001-FRG-M Fleece jacket": a combined cell's leading code is tried as the SKU; the words stay the name.
      const combined = leadingCode(description);
      if (combined) {
        rawSku = combined.code;
        description = combined.rest;
      }
    }
    const color = written(row, m.color) || null;

    const sizeCells = m.sizes
      .map((s) => ({ ...s, raw: text(row, s.column) }))
      .filter((s) => s.raw !== '' && !/^[-–—0]$/.test(s.raw));
    const quantities = sizeCells.map((s) => ({ ...s, quantity: readQuantity(row, s.column) }));
    const matrix = quantities.filter(
      (s): s is typeof s & { quantity: number } => s.quantity !== null && s.quantity > 0,
    );
    const rowQuantity = matrix.length ? matrix.reduce((sum, s) => sum + s.quantity, 0) : readQuantity(row, m.quantity);

    // Price breaks apply to the row's whole quantity (all sizes of a style together), as suppliers count them.
    const tierChoice = price === null && m.unitPrice === null ? tierPriceAt(tiers, rowQuantity) : null;
    if (tierChoice?.belowSmallest && rowQuantity !== null) {
      tally.belowSmallestBreak.push(m.quantity !== null ? cellRef(row, m.quantity) : `row ${row + 1}`);
    }
    const tierColumn = tierChoice
      ? tierCells.find((t) => t.money.amount === tierChoice.unitPrice)?.tier.column
      : undefined;
    const listPrice = price?.amount ?? tierChoice?.unitPrice ?? null;
    const discount = readDiscount(row, m, listPrice);
    const unitPrice =
      listPrice !== null && discount !== null && (!m.unitPriceIsNet || fromList)
        ? round(listPrice * (1 - discount), 4)
        : listPrice;
    const priceColumn = m.unitPrice ?? tierColumn ?? null;

    const base = {
      sheet: name,
      row: row + 1,
      description,
      color,
      unitPrice,
      discount,
      notes: notes.length ? notes.join('; ') : null,
      tiers,
    };
    const columnsOf = (quantityColumn: number | null) => ({
      ...(m.sku !== null ? { sku: m.sku + 1 } : {}),
      ...(m.description !== null ? { description: m.description + 1 } : {}),
      ...(quantityColumn !== null ? { quantity: quantityColumn + 1 } : {}),
      ...(priceColumn !== null ? { unitPrice: priceColumn + 1 } : {}),
      ...(m.discount !== null ? { discount: m.discount + 1 } : {}),
      ...(m.total !== null ? { total: m.total + 1 } : {}),
    });

    if (matrix.length) {
      return matrix.map((s) => ({
        ...base,
        rawSku: rawSku !== null ? assembleSku(rawSku, color, s.label) : null,
        size: s.label,
        quantity: s.quantity,
        // The row's total covers all its sizes; no one size has a stated total of its own.
        totalPrice: null,
        columns: columnsOf(s.column),
      }));
    }
    const hasQuantitySource = m.quantity !== null || m.sizes.length > 0;
    if (rowQuantity === null && hasQuantitySource && (unitPrice !== null || total !== null)) {
      tally.missingQuantity.push(m.quantity !== null ? cellRef(row, m.quantity) : `row ${row + 1}`);
    }
    return [
      {
        ...base,
        rawSku,
        size: written(row, m.size) || null,
        quantity: rowQuantity,
        totalPrice: total?.amount ?? null,
        columns: columnsOf(m.quantity),
      },
    ];
  }

  const discountWarnings = applyClosingDiscounts();

  /**
   * A discount stated once under the table comes off every line above it, so the negotiation starts from the net
   * price: the rate is the label's ("Less 5% discount") or the amount over the goods above it.
   */
  function applyClosingDiscounts(): string[] {
    const said: string[] = [];
    for (const closing of closingDiscounts) {
      const above = lines.filter((l) => l.row <= closing.row && l.unitPrice !== null);
      const goods = above.reduce((sum, l) => sum + (l.totalPrice ?? (l.quantity ?? 0) * (l.unitPrice ?? 0)), 0);
      const rate = closing.rate ?? (closing.amount !== null && goods > 0 ? Math.abs(closing.amount) / goods : null);
      if (rate === null || rate <= 0 || rate >= 1 || above.length === 0) {
        said.push(`The discount "${closing.label.slice(0, 40)}" on '${name}' row ${closing.row + 1} was not applied.`);
        continue;
      }
      const percent = `${round(rate * 100, 2)}%`;
      for (const line of above) {
        line.unitPrice = round((line.unitPrice ?? 0) * (1 - rate), 4);
        line.discount = round(1 - (1 - (line.discount ?? 0)) * (1 - rate), 6);
        const note = `Net of the closing ${percent} discount (row ${closing.row + 1})`;
        line.notes = line.notes ? `${line.notes}; ${note}` : note;
      }
      said.push(
        `The closing ${percent} discount on '${name}' row ${closing.row + 1} was applied to the unit price of ` +
          `${plural(above.length, 'line', 'lines')}.`,
      );
    }
    return said;
  }

  // ───────────── metadata, stated total, confidence, warnings ─────────────
  const unitsByRow = [
    ...metaRows.sort((a, b) => a - b).map((row) => textUnitsOfRow(sheet, row, columns)),
    ...besideUnits,
  ];
  const metadata = extractMetadata(unitsByRow, {
    titleRows: (readTables[0] ?? tables[0])?.firstRow ?? sheet.rowCount,
    buyerNames: options.buyerNames ?? [],
  });
  const terms: QuotationTerms = { ...metadata.terms };
  terms.currency ??= tables.find((t) => t.currency !== null)?.currency ?? majority(tally.currencies);

  const grand = totals.filter((t) => t.kind === 'grand').at(-1) ?? totals.filter((t) => t.kind === 'plain').at(-1);
  const statedTotal = grand ? { row: grand.row, column: grand.column, amount: grand.amount } : null;

  const warnings: string[] = [];
  const hiddenRows = [...sheet.hiddenRows].filter((r) => (sheet.cells[r] ?? []).some((cell) => cell.trim() !== ''));
  if (hiddenRows.length)
    warnings.push(`${plural(hiddenRows.length, 'hidden row', 'hidden rows')} on '${name}' ignored.`);
  const hiddenColumns = [...sheet.hiddenColumns]
    .filter((c) => sheet.cells.some((cells) => (cells[c] ?? '').trim() !== ''))
    .sort((a, b) => a - b);
  const lost = sheet.uncomputedFormulas ?? [];
  if (lost.length) {
    const cells = lost.slice(0, 3).map((f) => `${cellRef(f.row, f.column)} (=${f.formula.slice(0, 30)})`);
    warnings.push(
      `${plural(lost.length, 'formula', 'formulas')} on '${name}' had no saved value and could not be worked out, ` +
        `so ${lost.length === 1 ? 'its cell reads' : 'their cells read'} as empty: ${cells.join(', ')}${lost.length > 3 ? ', …' : ''}.`,
    );
  }
  if (hiddenColumns.length) {
    const letters = hiddenColumns.map(columnLetter).join(', ');
    warnings.push(`Hidden ${hiddenColumns.length === 1 ? 'column' : 'columns'} ${letters} on '${name}' ignored.`);
  }

  if (tables.length === 0) {
    const numbers = countMoneyLikeCells(sheet, columns, numberOptions);
    if (sheet.cells.some((cells) => cells.some((cell) => cell.trim() !== ''))) {
      warnings.push(`Sheet '${name}' has no item table.`);
    }
    // A sheet of words (terms, notes) has nothing to misread; a sheet full of numbers without a header may well hold
    // a table the header words did not reveal, and deserves a second reading.
    const extraction = emptySheet(sheet, numbers >= 6 ? 0.3 : 0.95);
    return {
      extraction: { ...extraction, supplierName: metadata.supplierName, terms, notes: metadata.notes },
      warnings,
    };
  }

  const mainTable = readTables[0] ?? tables[0];
  const pricesOnly =
    readTables.length > 0 && readTables.every((t) => t.columns.quantity === null && t.columns.sizes.length === 0);
  warnings.push(...tallyWarnings(name, tally, pricesOnly ? lines.length : 0), ...discountWarnings);
  warnings.push(...subTableWarnings(name, subTables));
  if (lines.length === 0) warnings.push(`The item table on '${name}' has a header but no readable lines.`);

  const confidence = scoreConfidence(readTables, lines, charges, statedTotal, tally);
  return {
    extraction: {
      sheet: name,
      headerRow: (mainTable?.lastRow ?? 0) + 1,
      confidence,
      lines,
      charges,
      statedTotal,
      supplierName: metadata.supplierName,
      terms,
      notes: metadata.notes,
    },
    warnings,
  };
}

/** Where the size charts and spec tables under products went: a product's note, or nowhere (none above them). */
function subTableWarnings(name: string, subTables: { range: string; ownerRow: number | null }[]): string[] {
  const kept = subTables.filter((t) => t.ownerRow !== null);
  const dropped = subTables.filter((t) => t.ownerRow === null);
  const ranges = (tables: typeof subTables) =>
    `${tables
      .slice(0, 3)
      .map((t) => t.range)
      .join(', ')}${tables.length > 3 ? ', …' : ''}`;
  const warnings: string[] = [];
  if (kept.length) {
    warnings.push(
      `${plural(kept.length, 'size or spec table', 'size or spec tables')} on '${name}' (${ranges(kept)}) ` +
        `${kept.length === 1 ? 'was kept as a note of the line' : 'were kept as notes of the lines'} above, not read as items.`,
    );
  }
  if (dropped.length) {
    warnings.push(
      `${plural(dropped.length, 'size or spec table', 'size or spec tables')} on '${name}' (${ranges(dropped)}) ` +
        `had no line above ${dropped.length === 1 ? 'it' : 'them'} and ${dropped.length === 1 ? 'was' : 'were'} ignored.`,
    );
  }
  return warnings;
}

/** Sentences for the buyer about what the rows of one sheet left unsure. */
function tallyWarnings(name: string, tally: Tally, pricesOnlyLines: number): string[] {
  const warnings: string[] = [];
  const one = (n: number, singular: string, several: string) => (n === 1 ? singular : several);
  const examples = (cells: string[]) => `${cells.slice(0, 3).join(', ')}${cells.length > 3 ? ', …' : ''}`;
  const missing = tally.missingQuantity.length;
  if (missing) {
    const verb = one(missing, 'looks like an item but has', 'look like items but have');
    warnings.push(
      `${plural(missing, 'row', 'rows')} on '${name}' ${verb} no quantity: ${examples(tally.missingQuantity)}.`,
    );
  }
  if (pricesOnlyLines) {
    const count = plural(pricesOnlyLines, 'line', 'lines');
    warnings.push(`The item table on '${name}' has no quantity column: its ${count} give prices only.`);
  }
  if (tally.incompleteRows.length) {
    const rows = plural(tally.incompleteRows.length, 'row', 'rows');
    warnings.push(
      `${rows} on '${name}' name a product but give no quantity or price: ${examples(tally.incompleteRows)}.`,
    );
  }
  if (tally.unreadable.length) {
    const cells = plural(tally.unreadable.length, 'cell', 'cells');
    warnings.push(`${cells} on '${name}' could not be read as numbers: ${examples(tally.unreadable)}.`);
  }
  if (tally.badDiscounts.length) {
    warnings.push(`Discounts of 100% or more on '${name}' were not applied: ${examples(tally.badDiscounts)}.`);
  }
  const below = tally.belowSmallestBreak.length;
  if (below) {
    warnings.push(
      `${plural(below, 'line', 'lines')} on '${name}' ${one(below, 'orders', 'order')} less than the smallest ` +
        `price break (${examples(tally.belowSmallestBreak)}); the smallest break's price was used.`,
    );
  }
  if (tally.currencies.size > 1) {
    const codes = [...tally.currencies.keys()].sort().join(', ');
    warnings.push(`Prices on '${name}' are in more than one currency (${codes}).`);
  }
  return warnings;
}

function majority(counts: Map<string, number>): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [key, count] of counts) {
    if (count > bestCount) {
      best = key;
      bestCount = count;
    }
  }
  return best;
}

function countMoneyLikeCells(sheet: SheetGrid, columns: number[], options: NumberOptions): number {
  let count = 0;
  for (let r = 0; r < sheet.rowCount && count < 6; r++) {
    if (sheet.hiddenRows.has(r)) continue;
    for (const c of columns) {
      const text = (sheet.cells[r]?.[c] ?? '').trim();
      if (text !== '' && parseNumber(text, options) !== null) count++;
    }
  }
  return count;
}

/** Within a cent or 0.2 %: sheets round line totals from prices with more decimals. */
const agrees = (expected: number, stated: number) =>
  Math.abs(expected - stated) <= Math.max(0.05, Math.abs(stated) * 0.002);

/**
 * 0–1. Starts from how clearly the header named the columns (and whether quantity and price were found at all), then
 * multiplies in the share of number cells that read cleanly, the share of lines with both quantity and price, and the
 * arithmetic: line totals against quantity × price, and the sheet's stated total against the sum of its lines.
 */
function scoreConfidence(
  tables: ItemTableHeader[],
  lines: ExtractedLine[],
  charges: ExtractedCharge[],
  statedTotal: SheetExtraction['statedTotal'],
  tally: Tally,
): number {
  if (lines.length === 0) return 0.3;
  const clarity = tables.reduce((sum, t) => sum + t.clarity, 0) / tables.length;
  const hasQuantity = tables.some((t) => t.columns.quantity !== null || t.columns.sizes.length > 0);
  const hasPrice = tables.some((t) => t.columns.unitPrice !== null || t.columns.tiers.length > 0);
  // A list of quantities with no price column and no money anywhere beside them (a requirements list) is read
  // completely: there is no price for Claude to find. Money in an unnamed column is a price column missed.
  const needsList = !hasPrice && hasQuantity && tally.strayMoney === 0 && lines.every((l) => l.quantity !== null);
  const header = (0.55 + 0.45 * clarity) * (hasQuantity ? 1 : 0.85) * (hasPrice || needsList ? 1 : 0.7);

  const parsed = tally.numericCells ? tally.readCells / tally.numericCells : 1;
  // A named price column left blank on every line (an RFQ) is read completely: there is no price for Claude to find.
  const pricesBlank = hasPrice && tally.unreadable.length === 0 && lines.every((l) => l.unitPrice === null);
  const complete =
    lines.filter((l) => l.quantity !== null && (pricesBlank || needsList || l.unitPrice !== null)).length /
    lines.length;
  const rowsLost = tally.incompleteRows.length / (lines.length + tally.incompleteRows.length);

  let checked = 0;
  let agreeing = 0;
  for (const line of lines) {
    if (line.quantity === null || line.unitPrice === null || line.totalPrice === null) continue;
    checked++;
    const net = line.quantity * line.unitPrice;
    const gross = line.discount ? net / (1 - line.discount) : net;
    if (agrees(net, line.totalPrice) || agrees(gross, line.totalPrice)) agreeing++;
  }
  let totalAgrees: boolean | null = null;
  if (statedTotal) {
    const goods = lines.reduce((sum, l) => sum + (l.totalPrice ?? (l.quantity ?? 0) * (l.unitPrice ?? 0)), 0);
    const extra = charges.reduce((sum, c) => sum + (c.amount ?? 0), 0);
    const tolerance = Math.max(1, Math.abs(statedTotal.amount) * 0.005);
    // After a closing discount the lines' net prices add up to the total, not their stated (gross) line totals.
    const net = lines.reduce((sum, l) => sum + (l.quantity ?? 0) * (l.unitPrice ?? 0), 0);
    totalAgrees = [goods, goods + extra, net, net + extra].some((t) => Math.abs(t - statedTotal.amount) <= tolerance);
  }
  const arithmetic = checked ? 0.6 + 0.4 * (agreeing / checked) : totalAgrees ? 1 : 0.95;
  const total = totalAgrees === false ? 0.8 : 1;

  const score = header * parsed * (0.5 + 0.5 * complete) * (1 - rowsLost * 0.5) * arithmetic * total;
  return round(Math.min(1, Math.max(0, score)), 2);
}

const TERM_NAMES: Record<keyof QuotationTerms, string> = {
  paymentTerms: 'payment terms',
  leadTimeDays: 'lead times',
  currency: 'currencies',
  incoterm: 'incoterms',
  moq: 'MOQs',
  validityDays: 'validity periods',
};

/** Reads every sheet, then gathers the supplier, terms and notes the whole workbook states. */
export function structureWorkbook(workbook: WorkbookGrid, options: StructureOptions = {}): Extraction {
  const results = workbook.sheets.map((sheet) => structureSheet(sheet, options));
  const sheets = results.map((r) => r.extraction);
  const warnings = results.flatMap((r) => r.warnings);

  // Terms come from any sheet (a separate "Terms" sheet is common); the first sheet to state one wins, and a second
  // sheet stating something else is worth the buyer's attention.
  const terms: QuotationTerms = { ...EMPTY_TERMS };
  const keys = Object.keys(TERM_NAMES) as (keyof QuotationTerms)[];
  for (const key of keys) {
    const stated = sheets.filter((s) => s.terms[key] !== null);
    const first = stated[0];
    if (!first) continue;
    Object.assign(terms, { [key]: first.terms[key] });
    const other = stated.find((s) => s.terms[key] !== first.terms[key]);
    if (other) {
      const values = `${String(first.terms[key])} vs ${String(other.terms[key])}`;
      warnings.push(
        `Sheets '${first.sheet}' and '${other.sheet}' state different ${TERM_NAMES[key]} (${values}); ` +
          `using '${first.sheet}'.`,
      );
    }
  }
  const withLines = sheets.filter((s) => s.lines.length > 0);
  const supplierName =
    options.priceColumn?.name ??
    withLines.find((s) => s.supplierName !== null)?.supplierName ??
    sheets.find((s) => s.supplierName !== null)?.supplierName ??
    null;
  const notes = [...new Set(sheets.flatMap((s) => s.notes))];
  if (withLines.length === 0 && sheets.length > 0) warnings.push('No item table was found in the workbook.');
  const extraction: Extraction = { sheets, supplierName, terms, notes, warnings };
  const chosen = options.priceColumn;
  if (chosen) {
    // The buyer picked a supplier of a comparison: from here on it is that supplier's quotation.
    warnings.unshift(
      `Prices read from ${chosen.name}'s column (${columnLetter(chosen.column)} on sheet '${chosen.sheet}') ` +
        'of a comparison sheet.',
    );
    return extraction;
  }
  // An invoice, RFQ or comparison read as one supplier's quote starts a wrong negotiation: the buyer is told first.
  const kind = detectDocumentKind(workbook, extraction);
  if (kind.sentence) warnings.unshift(kind.sentence);
  // A comparison is not negotiated until the buyer picks a supplier's column (see StructureOptions.priceColumn).
  if (kind.kind === 'comparison') {
    extraction.comparison = kind.supplierColumns;
    // The company over the first offer is one of several, not who quoted.
    extraction.supplierName = null;
  }
  return extraction;
}
