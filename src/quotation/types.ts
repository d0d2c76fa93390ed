// The shapes that flow through ingestion: XLSX reader → structurer → validator → matcher → parseQuotation().
// Positions are 1-based (sheet row and column numbers as a person sees them in Excel); arrays are 0-based.

// ───────────────────────────── Reader output ─────────────────────────────

/** One worksheet flattened to text: merged ranges filled, numbers in canonical form ("1234.5"), dates as ISO. */
export interface SheetGrid {
  name: string;
  /** 0-based position of the sheet in the workbook. */
  index: number;
  /** The sheet's own state is hidden or veryHidden. */
  hidden: boolean;
  /** cells[r][c] is sheet row r+1, column c+1; '' when empty. Rectangular: every row has `columnCount` entries. */
  cells: string[][];
  rowCount: number;
  columnCount: number;
  /** `${r},${c}` (0-based) of bold cells: likely headers or totals. */
  bold: ReadonlySet<string>;
  /** 0-based indexes. */
  hiddenRows: ReadonlySet<number>;
  hiddenColumns: ReadonlySet<number>;
  /**
   * `${r},${c}` of cells that show a merged range's text from a row above (a quantity or price merged down over a
   * product's second and third rows): the value belongs to the range's first row, not to this one.
   */
  mergedFromAbove?: ReadonlySet<string>;
  /** Formulas saved without a value that could not be worked out (0-based positions): values lost, to report. */
  uncomputedFormulas?: UncomputedFormula[];
}

export interface UncomputedFormula {
  row: number;
  column: number;
  formula: string;
}

export interface WorkbookGrid {
  sheets: SheetGrid[];
}

export const cellKey = (row: number, column: number) => `${row},${column}`;

// ───────────────────────────── Structurer output ─────────────────────────────

export interface PriceTier {
  minQty: number;
  unitPrice: number;
}

/** The columns a line's values came from (1-based), so a validation flag can point at the cell. */
export interface LineColumns {
  sku?: number;
  description?: number;
  quantity?: number;
  unitPrice?: number;
  discount?: number;
  total?: number;
}

/** One quoted product line. A size-run matrix row becomes one line per size with a quantity. */
export interface ExtractedLine {
  sheet: string;
  /** 1-based sheet row the line came from. */
  row: number;
  /** The SKU as the sheet wrote it (for a size-run matrix: style + colour + size assembled), or null. */
  rawSku: string | null;
  description: string | null;
  color: string | null;
  size: string | null;
  quantity: number | null;
  /** Net unit price: after any discount column or discount note has been applied. */
  unitPrice: number | null;
  /** The line total as the sheet states it (null when absent). */
  totalPrice: number | null;
  /** Discount applied to get `unitPrice`, as a fraction (0.05 = 5%), when there was one. */
  discount: number | null;
  notes: string | null;
  /** Quantity price breaks, ascending by minQty. */
  tiers: PriceTier[];
  columns: LineColumns;
}

/** Freight, samples, tooling, packaging: money on the quote that is not a product. */
export interface ExtractedCharge {
  sheet: string;
  row: number;
  description: string;
  amount: number | null;
}

export interface QuotationTerms {
  paymentTerms: string | null;
  leadTimeDays: number | null;
  /** ISO 4217 code, e.g. "USD", "EUR". */
  currency: string | null;
  /** Incoterm with place when given, e.g. "FOB Ningbo". */
  incoterm: string | null;
  moq: number | null;
  validityDays: number | null;
}

export const EMPTY_TERMS: QuotationTerms = {
  paymentTerms: null,
  leadTimeDays: null,
  currency: null,
  incoterm: null,
  moq: null,
  validityDays: null,
};

export interface SheetExtraction {
  sheet: string;
  /** 1-based header row of the item table, or null when the sheet has none. */
  headerRow: number | null;
  /** How sure the structurer is that it read this sheet right, 0–1. */
  confidence: number;
  lines: ExtractedLine[];
  charges: ExtractedCharge[];
  /** The sheet's own grand total (a TOTAL row), to check the lines against. */
  statedTotal: { row: number; column: number; amount: number } | null;
  supplierName: string | null;
  terms: QuotationTerms;
  notes: string[];
}

export interface Extraction {
  sheets: SheetExtraction[];
  supplierName: string | null;
  terms: QuotationTerms;
  notes: string[];
  warnings: string[];
  /**
   * A comparison sheet's suppliers, each with its price column, when no column was picked: the lines were read with
   * the leftmost price and are not one supplier's quotation until the buyer picks.
   */
  comparison?: SupplierColumn[];
}

/** One supplier's price column on a comparison sheet: what the buyer picks to negotiate. */
export interface SupplierColumn {
  sheet: string;
  /** 0-based column of the supplier's unit price. */
  column: number;
  /** The supplier as the sheet names it ("Supplier A", "Acme Textiles Ltd"): the quotation's supplier once picked. */
  name: string;
}

// ───────────────────────────── Validator output ─────────────────────────────

export type FlagCode =
  | 'arithmetic_mismatch'
  | 'total_mismatch'
  | 'non_positive_quantity'
  | 'missing_quantity'
  | 'missing_price'
  | 'absurd_price'
  | 'duplicate_line'
  | 'llm_disagreement';

export interface ValidationFlag {
  code: FlagCode;
  message: string;
  sheet: string;
  /** 1-based. */
  row: number;
  /** 1-based, when one cell is to blame. */
  column: number | null;
}
