// Checks what the structurer extracted, the way a careful buyer would: does each line add up, does the sheet's total
// agree, are quantities and prices sane, is a line quoted twice? Every problem is a flag pointing at a cell
// (sheet, 1-based row and column); a flagged line loses confidence and goes to human review.
import type { ExtractedLine, Extraction, ValidationFlag } from './types.js';

/** Line totals are rounded to the cent, sometimes from a price with more decimals: allow that much drift. */
const lineTolerance = (total: number) => Math.max(0.05, Math.abs(total) * 0.002);
/** A stated grand total may include charges or not; within this it agrees. */
const totalTolerance = (total: number) => Math.max(1, Math.abs(total) * 0.005);
/** No apparel line costs less than a cent or more than this per unit, in US dollars. */
const MAX_SANE_UNIT_PRICE = 5_000;
/**
 * Roughly how many units of a currency buy a US dollar, rounded up: the sane range scales with it, so a ₹18,000 or
 * a 450,000 ₫ price is not absurd because a $18,000 one would be. Currencies not listed keep the dollar range.
 */
const UNITS_PER_USD: Record<string, number> = {
  INR: 100,
  VND: 30_000,
  IDR: 20_000,
  JPY: 200,
  KRW: 1_600,
  CNY: 8,
  RMB: 8,
  HKD: 8,
  TWD: 35,
  THB: 40,
  PHP: 60,
  PKR: 300,
  BDT: 130,
  LKR: 320,
  TRY: 45,
  MXN: 20,
  BRL: 6,
  ZAR: 20,
  SEK: 11,
  NOK: 11,
  DKK: 7,
  CZK: 25,
  HUF: 400,
  PLN: 4.5,
};

export function maxSaneUnitPrice(currency: string | null): number {
  return MAX_SANE_UNIT_PRICE * (UNITS_PER_USD[currency?.toUpperCase() ?? ''] ?? 1);
}
/** A price this many times away from the quotation's median is almost surely a misread (a total in the price cell). */
const OUTLIER_FACTOR = 25;

export interface ValidationResult {
  /** flags[i] belongs to extraction line i (lines in sheet order, all sheets concatenated). */
  lineFlags: ValidationFlag[][];
  /** Problems that belong to a sheet rather than one line (its stated total). */
  sheetFlags: ValidationFlag[];
}

export function allLines(extraction: Extraction): ExtractedLine[] {
  return extraction.sheets.flatMap((sheet) => sheet.lines);
}

export function validateExtraction(extraction: Extraction): ValidationResult {
  const lines = allLines(extraction);
  const medianPrice = median(lines.flatMap((line) => (line.unitPrice && line.unitPrice > 0 ? [line.unitPrice] : [])));
  const seen = new Map<string, ExtractedLine>();
  const maxPrice = maxSaneUnitPrice(extraction.terms.currency);

  const lineFlags = lines.map((line) => {
    const flags: ValidationFlag[] = [];
    const flag = (code: ValidationFlag['code'], message: string, column: number | undefined) =>
      flags.push({ code, message, sheet: line.sheet, row: line.row, column: column ?? null });

    if (line.quantity === null) flag('missing_quantity', 'No quantity could be read.', line.columns.quantity);
    else if (line.quantity <= 0)
      flag('non_positive_quantity', `Quantity ${line.quantity} is not positive.`, line.columns.quantity);

    if (line.unitPrice === null) flag('missing_price', 'No unit price could be read.', line.columns.unitPrice);
    else if (line.unitPrice <= 0 || line.unitPrice > maxPrice) {
      flag(
        'absurd_price',
        `Unit price ${line.unitPrice} is outside 0.01–${maxPrice}${extraction.terms.currency ? ` ${extraction.terms.currency}` : ''}.`,
        line.columns.unitPrice,
      );
    } else if (
      medianPrice &&
      (line.unitPrice > medianPrice * OUTLIER_FACTOR || line.unitPrice < medianPrice / OUTLIER_FACTOR)
    ) {
      flag(
        'absurd_price',
        `Unit price ${line.unitPrice} is far from the quotation's typical ${round(medianPrice, 2)}.`,
        line.columns.unitPrice,
      );
    }

    if (line.quantity !== null && line.unitPrice !== null && line.totalPrice !== null) {
      const expected = line.quantity * line.unitPrice;
      // A sheet may state the total before its discount column: that agrees too.
      const beforeDiscount = line.discount ? expected / (1 - line.discount) : expected;
      const off = (value: number) => Math.abs(value - (line.totalPrice ?? 0)) > lineTolerance(value);
      if (off(expected) && off(beforeDiscount)) {
        flag(
          'arithmetic_mismatch',
          `${line.quantity} × ${line.unitPrice} = ${round(expected, 2)}, but the sheet says ${line.totalPrice}.`,
          line.columns.total,
        );
      }
    }

    const key = duplicateKey(line);
    const first = key ? seen.get(key) : undefined;
    if (key && first) {
      flag('duplicate_line', `Same item, quantity and price as ${first.sheet} row ${first.row}.`, line.columns.sku);
    } else if (key) {
      seen.set(key, line);
    }
    return flags;
  });

  const sheetFlags = extraction.sheets.flatMap((sheet): ValidationFlag[] => {
    const stated = sheet.statedTotal;
    if (!stated || sheet.lines.length === 0) return [];
    const products = sum(sheet.lines.map((line) => line.totalPrice ?? (line.quantity ?? 0) * (line.unitPrice ?? 0)));
    const charges = sum(sheet.charges.map((charge) => charge.amount ?? 0));
    // A closing discount is applied to the net unit prices, so the net lines add up to a total stated after it.
    const net = sum(sheet.lines.map((line) => (line.quantity ?? 0) * (line.unitPrice ?? 0)));
    const agrees = [products, products + charges, net, net + charges].some(
      (total) => Math.abs(total - stated.amount) <= totalTolerance(total),
    );
    if (agrees) return [];
    return [
      {
        code: 'total_mismatch',
        message: `The lines add up to ${round(products, 2)} (${round(products + charges, 2)} with charges), but the sheet's total says ${stated.amount}.`,
        sheet: sheet.sheet,
        row: stated.row,
        column: stated.column,
      },
    ];
  });

  return { lineFlags, sheetFlags };
}

function duplicateKey(line: ExtractedLine): string | null {
  const identity = (line.rawSku ?? line.description ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (!identity) return null;
  return [identity, line.size ?? '', line.color ?? '', line.quantity ?? '', line.unitPrice ?? ''].join('|');
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? null) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
