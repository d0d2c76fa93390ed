// Column roles by content as well as by header. Header words alone leave ties and traps: an `Item` or `Ref` column
// holding 1, 2, 3… sits left of the real code column and wins because the leftmost wins; a `Unit` column full of
// prices reads as a unit of measure; a table with an amount column and two unnamed number columns never says which is
// the quantity. What the cells below the header hold settles each of these, the way a buyer glancing down the column
// does: unique catalog-shaped codes are SKUs, a 1..n run is line numbering, and the two numbers whose product is the
// line total are the quantity and the unit price.
import { parseNumber } from './numbers.js';
import type { SheetGrid } from './types.js';

/** How many data rows under a header are looked at: enough to see a pattern, few enough for a 3,000-line sheet. */
const SAMPLE_ROWS = 200;

export interface ColumnProfile {
  column: number;
  /** Non-empty cells looked at. */
  filled: number;
  /** Share of filled cells that read as numbers. */
  numeric: number;
  /** Share of filled cells that are whole numbers. */
  integers: number;
  /** Share of filled cells shaped like a product code ("KF001-FRG-M", "A-2291"): letters and digits, no spaces. */
  codes: number;
  /** Distinct values over filled cells. */
  unique: number;
  /** Average letters per filled cell: names and descriptions are wordy, codes and numbers are not. */
  letters: number;
  /** The cells are 1, 2, 3… (maybe with gaps or restarts): line numbers, not product identity. */
  lineNumbering: boolean;
  /** The numbers read, by sampled row (null where blank or not a number). */
  values: (number | null)[];
}

/** Letters and digits, no spaces, a letter and a digit both: how suppliers and catalogs write product codes. */
export function isCatalogCode(text: string): boolean {
  const value = text.trim();
  return /^[\p{L}\d][\p{L}\d\-_/.#]{2,39}$/u.test(value) && /\d/.test(value) && /\p{L}/u.test(value);
}

/** The rows under a header that hold anything, up to the sample size. */
export function sampleRows(sheet: SheetGrid, firstRow: number, columns: readonly number[]): number[] {
  const rows: number[] = [];
  for (let row = firstRow; row < sheet.rowCount && rows.length < SAMPLE_ROWS; row++) {
    if (sheet.hiddenRows.has(row)) continue;
    if (columns.some((c) => (sheet.cells[row]?.[c] ?? '').trim() !== '')) rows.push(row);
  }
  return rows;
}

export function profileColumn(sheet: SheetGrid, column: number, rows: readonly number[]): ColumnProfile {
  const texts = rows.map((row) => (sheet.cells[row]?.[column] ?? '').trim());
  const filledTexts = texts.filter((t) => t !== '');
  const values = texts.map((t) => (t === '' ? null : parseNumber(t)));
  const numbers = values.filter((v): v is number => v !== null);
  const filled = filledTexts.length;
  const share = (n: number) => (filled ? n / filled : 0);
  const integers = numbers.filter((v) => Number.isInteger(v));
  let steps = 0;
  for (let i = 1; i < integers.length; i++) {
    const step = (integers[i] ?? 0) - (integers[i - 1] ?? 0);
    // A restart at 1 (a new section) or a small gap (a deleted line) still reads as numbering.
    if ((step >= 1 && step <= 2) || integers[i] === 1) steps++;
  }
  const lineNumbering =
    filled >= 2 &&
    integers.length >= filled * 0.9 &&
    (integers[0] ?? 0) <= 10 &&
    steps >= (integers.length - 1) * 0.8 &&
    integers.every((v) => v >= 0 && v <= filled * 3 + 10);
  return {
    column,
    filled,
    numeric: share(numbers.length),
    integers: share(integers.length),
    codes: share(filledTexts.filter(isCatalogCode).length),
    unique: share(new Set(filledTexts).size),
    letters: share(filledTexts.reduce((sum, t) => sum + (t.match(/\p{L}/gu)?.length ?? 0), 0)),
    lineNumbering,
    values,
  };
}

/** 0–1: how much a column looks like a SKU column — unique codes, not line numbers. */
export function skuScore(profile: ColumnProfile): number {
  if (profile.filled === 0 || profile.lineNumbering) return 0;
  return profile.codes * (0.5 + 0.5 * profile.unique);
}

/** Whether a column is a description: words, not numbers, codes or line numbering. */
export function isWordy(profile: ColumnProfile): boolean {
  return (
    profile.filled > 0 && !profile.lineNumbering && profile.numeric < 0.5 && profile.codes < 0.5 && profile.letters >= 3
  );
}

/** Within a cent or 1 %: sheets round totals from prices with more decimals. */
const close = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.02, Math.abs(b) * 0.01);

/** Share of rows with a total where a × b gives it. */
export function productAgreement(a: ColumnProfile, b: ColumnProfile, total: ColumnProfile): number {
  let checked = 0;
  let agreeing = 0;
  total.values.forEach((t, i) => {
    const x = a.values[i];
    const y = b.values[i];
    if (t === null || t === 0 || x === null || x === undefined || y === null || y === undefined) return;
    checked++;
    if (close(x * y, t)) agreeing++;
  });
  return checked >= 2 ? agreeing / checked : 0;
}

export interface QuantityAndPrice {
  quantity: number;
  unitPrice: number;
}

/**
 * Which two number columns multiply to the line total on most rows, with the whole-number one as the quantity. Only
 * the open roles are searched: a column the header already named keeps its name.
 */
export function findQuantityAndPrice(
  total: ColumnProfile,
  candidates: readonly ColumnProfile[],
  known: { quantity: number | null; unitPrice: number | null },
): QuantityAndPrice | null {
  const numeric = candidates.filter((p) => p.column !== total.column && p.numeric >= 0.8 && !p.lineNumbering);
  const byColumn = (column: number | null) => numeric.find((p) => p.column === column) ?? null;
  const knownQuantity = byColumn(known.quantity);
  const knownPrice = byColumn(known.unitPrice);
  let best: { pair: QuantityAndPrice; agreement: number } | null = null;
  const consider = (quantity: ColumnProfile, price: ColumnProfile) => {
    if (quantity.column === price.column) return;
    const agreement = productAgreement(quantity, price, total);
    if (agreement >= 0.8 && (!best || agreement > best.agreement)) {
      best = { pair: { quantity: quantity.column, unitPrice: price.column }, agreement };
    }
  };
  if (knownQuantity) for (const p of numeric) consider(knownQuantity, p);
  else if (knownPrice) for (const q of numeric) consider(q, knownPrice);
  else {
    for (const a of numeric) {
      for (const b of numeric) {
        // Quantities are whole numbers more often than prices are.
        if (a.column < b.column) consider(a.integers >= b.integers ? a : b, a.integers >= b.integers ? b : a);
      }
    }
  }
  return (best as { pair: QuantityAndPrice } | null)?.pair ?? null;
}

/**
 * The code at the start of a "SKU + name" cell ("KF001-FRG-M Fleece jacket", "WB018 - Wind breaker"), or null when
 * the cell does not start with one. The rest of the cell is the description.
 */
export function leadingCode(text: string): { code: string; rest: string } | null {
  const match = /^\s*([\p{L}\d][\p{L}\d\-_/.#]{3,39})\s*(?:[-–—:|]\s+|\s+)(.*\p{L}.*)$/su.exec(text);
  const code = match?.[1]?.replace(/[-_/.]+$/, '');
  if (!match || !code || !isCatalogCode(code) || code.length < 4) return null;
  return { code, rest: (match[2] ?? '').trim() };
}
