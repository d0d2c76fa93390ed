// One fuzz case through the whole ingestion (parseQuotation, offline), classified: accepted, rejected with a typed
// code, or a crash. An accepted file is also checked for what would break the next step — the database write in
// recordParsedQuotation — because a quotation that parses but cannot be stored fails with an internal error, which is
// a crash from the buyer's side.
import { CatalogIndex, toCatalogEntries } from '../../src/catalog/catalog-index.js';
import { readCatalogCsv } from '../../src/catalog/products-csv.js';
import { CATALOG_CSV } from '../../src/catalog/products-csv.js';
import { type QuotationErrorCode, type ReadLimits, QuotationError } from '../../src/quotation/errors.js';
import { type ParsedQuotation, parseQuotation } from '../../src/quotation/parse-quotation.js';

/** Every code a rejection may carry; typed as a record so a new code in errors.ts must be added here. */
const KNOWN_CODES: Record<QuotationErrorCode, true> = {
  not_xlsx: true,
  encrypted: true,
  corrupt: true,
  empty: true,
  too_large: true,
  too_many_rows: true,
  too_many_cells: true,
  zip_bomb: true,
  no_item_table: true,
  download_timeout: true,
  nothing_to_negotiate: true,
};

export const QUOTATION_ERROR_CODES = Object.keys(KNOWN_CODES) as QuotationErrorCode[];

export function isKnownCode(code: unknown): code is QuotationErrorCode {
  return typeof code === 'string' && Object.hasOwn(KNOWN_CODES, code);
}

export type IngestOutcome =
  | { kind: 'accepted'; items: number }
  | { kind: 'rejected'; code: QuotationErrorCode }
  /** A thrown error that is not a QuotationError, a QuotationError with an unknown code, or an unstorable result. */
  | { kind: 'crash'; error: string };

export interface IngestDeps {
  catalog: CatalogIndex;
  limits: ReadLimits;
}

/** The upload limits Parley ships with (src/config/env.ts defaults). */
export const DEFAULT_FUZZ_LIMITS: ReadLimits = {
  maxBytes: 15 * 1024 * 1024,
  maxRowsPerSheet: 20_000,
  maxCells: 500_000,
};

const SUPPLIERS = [
  { id: 'sup-2', code: 'SUP-002', name: 'Alpine Premium' },
  { id: 'sup-3', code: 'SUP-003', name: 'RapidGear Co' },
];

export async function loadFuzzCatalog(kind: 'full' | 'empty'): Promise<CatalogIndex> {
  return CatalogIndex.build(kind === 'full' ? toCatalogEntries(await readCatalogCsv(CATALOG_CSV)) : []);
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const stack = (error.stack ?? '').split('\n').slice(1, 6).join('\n');
    return `${error.name}: ${error.message.slice(0, 500)}${stack ? `\n${stack}` : ''}`;
  }
  return `non-Error thrown: ${String(error).slice(0, 500)}`;
}

export async function ingestOnce(data: Buffer, deps: IngestDeps): Promise<IngestOutcome> {
  let parsed: ParsedQuotation;
  try {
    parsed = await parseQuotation({
      data,
      catalog: deps.catalog,
      suppliers: SUPPLIERS,
      limits: deps.limits,
      llm: null,
    });
  } catch (error) {
    if (!(error instanceof QuotationError)) return { kind: 'crash', error: describeError(error) };
    if (!isKnownCode(error.code))
      return { kind: 'crash', error: `QuotationError with an untyped code ${String(error.code)}` };
    if (typeof error.userMessage !== 'string' || error.userMessage.trim() === '') {
      return { kind: 'crash', error: `QuotationError ${error.code} without a message for the buyer` };
    }
    return { kind: 'rejected', code: error.code };
  }
  const problems = storageProblems(parsed);
  if (problems.length > 0)
    return { kind: 'crash', error: `accepted but not storable: ${problems.slice(0, 3).join('; ')}` };
  return { kind: 'accepted', items: parsed.items.length };
}

const INT4_MAX = 2_147_483_647;
/** Decimal(14, 4) and Decimal(16, 2): the QuotationItem money columns. */
const UNIT_PRICE_LIMIT = 1e10;
const TOTAL_PRICE_LIMIT = 1e14;

/**
 * What recordParsedQuotation could not write: numbers that are not finite or overflow their columns, and NUL
 * characters, which PostgreSQL refuses in text and JSON.
 */
export function storageProblems(parsed: ParsedQuotation): string[] {
  const problems: string[] = [];
  walk(parsed, '', (path, value) => {
    if (typeof value === 'number' && !Number.isFinite(value)) problems.push(`${path} is ${value}`);
    if (typeof value === 'string' && value.includes('\u0000')) problems.push(`${path} holds a NUL character`);
  });
  const int = (path: string, value: number | null) => {
    if (value !== null && Math.abs(Math.round(value)) > INT4_MAX) problems.push(`${path} ${value} overflows an Int`);
  };
  parsed.items.forEach((item, index) => {
    int(`items[${index}].quantity`, item.quantity);
    int(`items[${index}].row`, item.row);
    if (item.unitPrice !== null && Math.abs(item.unitPrice) >= UNIT_PRICE_LIMIT) {
      problems.push(`items[${index}].unitPrice ${item.unitPrice} overflows Decimal(14,4)`);
    }
    if (item.totalPrice !== null && Math.abs(item.totalPrice) >= TOTAL_PRICE_LIMIT) {
      problems.push(`items[${index}].totalPrice ${item.totalPrice} overflows Decimal(16,2)`);
    }
  });
  int('terms.leadTimeDays', parsed.terms.leadTimeDays);
  int('terms.moq', parsed.terms.moq);
  int('terms.validityDays', parsed.terms.validityDays);
  return problems;
}

function walk(value: unknown, path: string, visit: (path: string, value: unknown) => void): void {
  visit(path, value);
  if (value instanceof Set || value instanceof Map) return;
  if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`, visit));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key, visit);
  }
}
