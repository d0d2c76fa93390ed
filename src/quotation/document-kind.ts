// What kind of document a workbook is. Buyers share more than quotations: invoices, delivery challans, purchase
// orders, RFQs with the price column still blank, price lists, comparison sheets with one price column per supplier
// and requirement lists. Read as one supplier's quote, each of them starts a wrong negotiation; named, the buyer is
// told in one sentence what Parley saw and what it can do with it.
import { z } from 'zod';
import { BUYER_PRICE, classifyHeader, normaliseHeader } from './header-detection.js';
import type { Extraction, SupplierColumn, WorkbookGrid } from './types.js';

export type { SupplierColumn };

/** A comparison's supplier columns as stored with the quotation; anything else reads as none. */
export const supplierColumnsSchema = z
  .array(z.object({ sheet: z.string(), column: z.number().int().min(0), name: z.string() }))
  .catch([]);

export type DocumentKind =
  'quotation' | 'price_list' | 'rfq' | 'purchase_order' | 'invoice' | 'delivery_note' | 'comparison' | 'requirements';

export interface DocumentKindResult {
  kind: DocumentKind;
  /** The suppliers of a comparison sheet, left to right, each with its price column (the buyer picks one). */
  supplierColumns: SupplierColumn[];
  /** The suppliers named down the rows of a register of many suppliers' orders; empty otherwise. */
  registerSuppliers?: string[];
  /** One sentence for the buyer when this is not a supplier's quotation; null for a quotation. */
  sentence: string | null;
}

/**
 * Title words, most specific first: "Proforma invoice" is a quote in all but name, so it comes before "invoice"; a
 * "Request for quotation" says quotation too, so that phrase comes first (one answered with prices is a quotation).
 */
const TITLES: [DocumentKind, RegExp][] = [
  ['rfq', /\brequest\s*for\s*(?:quotation|quote|proposal)\b|询价单/],
  ['quotation', /\bpro-?\s?forma\b|\bquotation\b|\bquote\b|\boffer\b|\bangebot\b|\bcotizaci[oó]n\b|报价|báo\s*giá/],
  ['comparison', /\bcomparison\b|\bcomparative\s*statement\b|\bbid\s*tab|\bprice\s*comparison\b|比价|对比/],
  // "Quotation in reply to RFQ-2025-07" or "your enquiry" is the supplier's answer: these words count only alone.
  ['rfq', /\brfq\b|\benquiry\b|\binquiry\b|询价/],
  [
    'delivery_note',
    /\bdelivery\s*(?:note|challan|order)\b|\bchallan\b|\bpacking\s*list\b|\bdispatch\s*note\b|送货单|装箱单/,
  ],
  ['invoice', /\b(?:tax\s*|commercial\s*)?invoice\b|\brechnung\b|\bfactura\b|发票|hóa\s*đơn/],
  [
    'purchase_order',
    /\bpurchase\s*order\b|\bp\.?\s?o\.?\s*(?:no|number|#)|\bbestellung\b|\borden\s*de\s*compra\b|采购单|订单/,
  ],
  ['requirements', /\brequirements?\b|\bbill\s*of\s*quantit|\bboq\b|\bindent\b|\bmaterial\s*list\b|需求/],
  ['price_list', /\bprice\s*list\b|\bpricelist\b|\bpreisliste\b|\blista\s*de\s*precios\b|价目表/],
];

/**
 * A supplier's column named by its place in the comparison: "Supplier A", "Vendor 1 price", "Bidder #2", "Offer III",
 * "Supplier: Acme". Only a short label or a name may follow the word: "Supplier SKU" or "Vendor code" is one
 * supplier's own column, not a second supplier.
 */
const NUMBERED_SUPPLIER =
  /^(?:supplier|vendor|bidder|offer|quote|quotation|party|lieferant|anbieter|proveedor|供应商|nhà\s*cung\s*cấp)\s*(?:#|no\.?)?\s*(?:[a-z]|\d{1,2}|[ivx]{1,4})(?![\p{L}\d])|^(?:supplier|vendor|bidder|party)\s*[:\-–]\s*\S/u;
/** A company's legal form: a header naming a company is a supplier's column. */
const COMPANY =
  /\b(?:co\.?,?\s*ltd|ltd|limited|inc|corp|gmbh|llc|pvt|plc|srl|jsc|enterprises?|industries|traders)\b\.?|有限公司|公司|công\s*ty/u;
/** The sheet's own summary of the offers: the lowest price, the L1 bidder, the best offer. Never a supplier. */
const BEST_OF =
  /\blowest\b|^l\s*-?\s*1\b|\bbest\s*(?:price|offer|rate|quote)\b|\bmin(?:imum)?\.?\s*(?:price|rate)\b|\bcheapest\b|最低/;
const PRICE_WORD = /\bprice\b|\brate\b|\bcost\b|单价|\bpreis\b|\bprecio\b|\bquoted\b|giá/;

/** The supplier in a header: "Supplier A Price (USD)" → "Supplier A", "Acme Ltd – Rate" → "Acme Ltd". */
function supplierName(header: string): string {
  const name = header
    .replace(/\([^)]*\)|（[^）]*）/g, ' ')
    .replace(/\b(?:unit\s*)?(?:price|rate|cost)\b|\bquoted\b|单价|\bpreis\b|\bprecio\b/gi, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s:\-–/|]+|[\s:\-–/|]+$/g, '')
    .trim();
  return (name || header.trim()).slice(0, 120);
}

/** A buyer figure (target, budget, last price) or the sheet's "lowest" column: over a price, yet no supplier. */
function isNotSupplier(normal: string): boolean {
  return BUYER_PRICE.test(normal) || BEST_OF.test(normal);
}

/** Whether a header cell names a supplier: by its place ("Supplier A"), by a company form, or as a name over a price. */
function namesSupplier(normal: string, overPrice: boolean): boolean {
  if (NUMBERED_SUPPLIER.test(normal) || COMPANY.test(normal)) return true;
  // A name with a price sub-header under it ("Acme" merged over "Unit Price | Amount"): a word that names no column.
  return overPrice && classifyHeader(normal) === null && /\p{L}{2}/u.test(normal) && !/\d{3}/.test(normal);
}

/**
 * Price columns headed by different suppliers: a comparison of offers. A supplier is named on the price header
 * itself ("Vendor 1 price") or on the row above, over a price sub-header (a company name merged over its columns);
 * a supplier's block may also hold an amount or a lead time, but its price is the column the buyer negotiates.
 */
export function supplierPriceColumns(workbook: WorkbookGrid): SupplierColumn[] {
  let best: SupplierColumn[] = [];
  for (const sheet of workbook.sheets) {
    for (let row = 0; row < Math.min(sheet.rowCount, 40); row++) {
      const cells = sheet.cells[row] ?? [];
      const below = sheet.cells[row + 1] ?? [];
      const found = new Map<string, SupplierColumn>();
      cells.forEach((cell, column) => {
        if (sheet.hiddenColumns.has(column)) return;
        const normal = normaliseHeader(cell);
        if (normal === '' || normal.length > 60 || isNotSupplier(normal)) return;
        const under = normaliseHeader(below[column] ?? '');
        const priceHere = PRICE_WORD.test(normal);
        const priceUnder = under !== '' && PRICE_WORD.test(under) && !isNotSupplier(under);
        if (!namesSupplier(normal, priceUnder && !priceHere)) return;
        // A supplier named with no price word anywhere ("Vendor 1" over its prices) counts only by its place.
        if (!priceHere && !priceUnder && !NUMBERED_SUPPLIER.test(normal)) return;
        const name = supplierName(cell);
        const key = name.toLowerCase();
        // A name merged over several columns: its first price column is the supplier's price.
        const seen = found.get(key);
        if (seen && (!priceUnder || PRICE_WORD.test(normaliseHeader(below[seen.column] ?? '')))) return;
        found.set(key, { sheet: sheet.name, column, name });
      });
      if (found.size > best.length) best = [...found.values()];
    }
  }
  return best.length >= 2 ? best : [];
}

/** A column naming the supplier of each row: a register of orders (or quotes) from many suppliers, not one quote. */
const SUPPLIER_COLUMN =
  /^(?:supplier|vendor|seller|party|bidder|manufacturer|factory)(?:\s*(?:name|code|id))?$|^(?:name\s*of\s*(?:the\s*)?(?:supplier|vendor|party))$|供应商|供货商|厂家|^lieferant(?:name)?$|^proveedor$|^fornecedor$|^fournisseur$|^nhà\s*cung\s*cấp$/u;
/** Three suppliers or more down one column is a register; one or two may be a quote naming its maker. */
const REGISTER_SUPPLIERS = 3;

/** The distinct suppliers named down a supplier column on the rows read as lines, in order of first appearance. */
function registerSuppliers(workbook: WorkbookGrid, extraction: Extraction): string[] {
  let best: string[] = [];
  for (const read of extraction.sheets) {
    const sheet = workbook.sheets.find((s) => s.name === read.sheet);
    if (!sheet || read.headerRow === null || read.lines.length === 0) continue;
    // The header band is one or two rows ending at headerRow (1-based).
    const band = [read.headerRow - 1, read.headerRow - 2].filter((r) => r >= 0);
    for (let column = 0; column < sheet.columnCount; column++) {
      if (!band.some((r) => SUPPLIER_COLUMN.test(normaliseHeader(sheet.cells[r]?.[column] ?? '')))) continue;
      const names = new Set<string>();
      for (const line of read.lines) {
        const name = (sheet.cells[line.row - 1]?.[column] ?? '').trim();
        if (name !== '') names.add(name);
      }
      if (names.size > best.length) best = [...names];
    }
  }
  return best.length >= REGISTER_SUPPLIERS ? best : [];
}

/** The title area of each sheet: the rows above its item table (or the first rows when it has none). */
function titleText(workbook: WorkbookGrid, extraction: Extraction): string {
  return workbook.sheets
    .flatMap((sheet) => {
      const header = extraction.sheets.find((s) => s.sheet === sheet.name)?.headerRow ?? 12;
      return sheet.cells.slice(0, Math.min(Math.max(header - 1, 1), 15)).flat();
    })
    .filter((cell) => cell.trim() !== '')
    .map(normaliseHeader)
    .join(' | ');
}

export function detectDocumentKind(workbook: WorkbookGrid, extraction: Extraction): DocumentKindResult {
  const title = titleText(workbook, extraction);
  const lines = extraction.sheets.flatMap((s) => s.lines);
  const supplierColumns = supplierPriceColumns(workbook);
  const titled = TITLES.find(([, pattern]) => pattern.test(title))?.[0] ?? null;
  const priced = lines.filter((l) => l.unitPrice !== null || l.tiers.length > 0).length;
  const quantified = lines.filter((l) => l.quantity !== null).length;

  const register = registerSuppliers(workbook, extraction);
  // A blank price column asks for prices (an RFQ); no price column at all lists what is needed (a requirements list).
  const priceColumn = lines.some((l) => l.columns.unitPrice !== undefined);

  let kind: DocumentKind;
  if (register.length > 0) {
    return {
      kind: 'purchase_order',
      supplierColumns: [],
      registerSuppliers: register,
      sentence: registerSentence(register, lines.length),
    };
  }
  if (supplierColumns.length >= 2) kind = 'comparison';
  else if (titled && titled !== 'quotation') kind = titled;
  else if (titled === 'quotation') kind = 'quotation';
  else if (lines.length > 0 && priced === 0) kind = quantified > 0 && priceColumn ? 'rfq' : 'requirements';
  else if (lines.length > 0 && quantified === 0) kind = 'price_list';
  else kind = 'quotation';
  // A titled RFQ whose prices are filled in is the supplier's answer to it: a quotation.
  if (kind === 'rfq' && lines.length > 0 && priced >= lines.length * 0.8) kind = 'quotation';
  return { kind, supplierColumns, sentence: sentenceFor(kind, lines.length, supplierColumns) };
}

/** How each sentence below starts: the bench and tests read the kind back from the warnings. */
const SENTENCE_STARTS: [DocumentKind, string][] = [
  ['price_list', 'This looks like a price list'],
  ['rfq', 'This looks like a request for quotation'],
  ['purchase_order', 'This looks like a purchase order'],
  ['invoice', 'This looks like an invoice'],
  ['delivery_note', 'This looks like a delivery note'],
  ['comparison', 'This is a comparison of'],
  ['requirements', 'This looks like a requirements list'],
];

/** Whether a warning is the sentence that says the workbook is not a quotation (the bench and tests read it back). */
export const isDocumentKindSentence = (warning: string) => /^This (?:looks like|is a comparison)/.test(warning);

/** The kind the warnings name, or 'quotation' when none says otherwise. */
export function documentKindInWarnings(warnings: readonly string[]): DocumentKind {
  for (const warning of warnings) {
    const found = SENTENCE_STARTS.find(([, start]) => warning.startsWith(start));
    if (found) return found[0];
  }
  return 'quotation';
}

function registerSentence(suppliers: string[], lines: number): string {
  const named = `${suppliers.slice(0, 5).join(', ')}${suppliers.length > 5 ? ', …' : ''}`;
  return (
    `This looks like a purchase order register of ${suppliers.length} suppliers (${named}; ` +
    `${lines === 1 ? '1 line' : `${lines} lines`}), not one supplier's quotation: its prices were agreed already. ` +
    `Share one supplier's quotation to negotiate with them.`
  );
}

function sentenceFor(kind: DocumentKind, lines: number, suppliers: SupplierColumn[]): string | null {
  const items = lines === 1 ? '1 line' : `${lines} lines`;
  switch (kind) {
    case 'quotation':
      return null;
    case 'price_list':
      return `This looks like a price list (${items}, no quantities): the prices are read, but there is no order to negotiate until quantities are added.`;
    case 'rfq':
      return `This looks like a request for quotation: its ${items} have no prices yet, so there is nothing to negotiate until a supplier fills them in.`;
    case 'purchase_order':
      return 'This looks like a purchase order, not a supplier quotation: its prices were agreed already.';
    case 'invoice':
      return 'This looks like an invoice, not a quotation: it bills an order that was already placed.';
    case 'delivery_note':
      return 'This looks like a delivery note (challan or packing list), not a quotation: it lists goods shipped.';
    case 'comparison': {
      const names = suppliers.map((s) => s.name);
      const listed = names.length > 7 ? `${names.slice(0, 7).join(', ')}…` : names.join(', ');
      return `This is a comparison of ${names.length} suppliers (${listed}): pick the supplier column to negotiate.`;
    }
    case 'requirements':
      return `This looks like a requirements list (${items}, no prices): it could be sent to suppliers as a request for quotation; share their quotations to negotiate.`;
  }
}
