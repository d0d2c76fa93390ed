import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { SKU_PATTERN } from './sku.js';

/** The brand's committed demo catalog (10,052 products), which `npm run seed` and a new workspace load. */
export const CATALOG_CSV = fileURLToPath(new URL('../../data/products.csv', import.meta.url));
export const CATALOG_BRAND = 'Valden Outdoor';
export const CATALOG_COLUMNS = ['brand', 'sku', 'name', 'color', 'size', 'category'] as const;

const text = z.string().trim().min(1, 'must not be empty');

export const catalogProductSchema = z.object({
  brand: z.literal(CATALOG_BRAND),
  sku: z.string().trim().regex(SKU_PATTERN, 'must look like STYLE-COLOR-SIZE, e.g. MC001-GLW-XL'),
  name: text,
  color: text,
  size: text,
  category: text,
});

export type CatalogProduct = z.infer<typeof catalogProductSchema>;

export interface CsvRecord {
  /** 1-based line the record starts on; a quoted field may carry it over several lines. */
  line: number;
  fields: string[];
}

/**
 * RFC 4180, tolerant of LF or lone CR line endings, a UTF-8 BOM and blank lines (spreadsheet exports have them).
 * `delimiter`: spreadsheets in locales with a decimal comma export `;`.
 */
export function parseCsvRecords(input: string, source: string, delimiter: ',' | ';' | '\t' = ','): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let atFieldStart = true;
  let inQuotes = false;
  let line = 1;
  let recordLine = 1;

  const endRecord = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0] !== '') records.push({ line: recordLine, fields });
    fields = [];
    field = '';
    atFieldStart = true;
  };

  const csv = input.startsWith('\uFEFF') ? input.slice(1) : input;
  for (let i = 0; i < csv.length; i++) {
    const ch = csv[i];
    if (inQuotes) {
      if (ch === '"' && csv[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        inQuotes = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"' && atFieldStart) {
      inQuotes = true;
      atFieldStart = false;
    } else if (ch === delimiter) {
      fields.push(field);
      field = '';
      atFieldStart = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && csv[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      field += ch;
      atFieldStart = false;
    }
  }
  if (inQuotes) throw new Error(`${source} line ${recordLine}: quoted field is never closed`);
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

/**
 * Parses the brand's product catalog. The header row may list the columns in any order and add others, which are
 * ignored. Throws on the first bad row, naming its line, because a half-loaded catalog would mis-match quotations.
 */
export function parseCatalogCsv(input: string, source = 'catalog CSV'): CatalogProduct[] {
  const [header, ...rows] = parseCsvRecords(input, source);
  if (!header) throw new Error(`${source}: file is empty, expected a header row: ${CATALOG_COLUMNS.join(',')}`);

  const names = header.fields.map((name) => name.trim().toLowerCase());
  const missing = CATALOG_COLUMNS.filter((column) => !names.includes(column));
  if (missing.length > 0) throw new Error(`${source} line ${header.line}: missing column(s) ${missing.join(', ')}`);

  const firstLineOfSku = new Map<string, number>();
  return rows.map(({ line, fields }) => {
    if (fields.length !== names.length) {
      throw new Error(`${source} line ${line}: has ${fields.length} fields, the header has ${names.length}`);
    }
    const raw = Object.fromEntries(CATALOG_COLUMNS.map((column) => [column, fields[names.indexOf(column)]]));
    const parsed = catalogProductSchema.safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
      throw new Error(`${source} line ${line}: ${problems.join('; ')}`);
    }
    const firstLine = firstLineOfSku.get(parsed.data.sku);
    if (firstLine !== undefined) {
      throw new Error(`${source} line ${line}: duplicate sku ${parsed.data.sku} (first on line ${firstLine})`);
    }
    firstLineOfSku.set(parsed.data.sku, line);
    return parsed.data;
  });
}

export async function readCatalogCsv(path: string): Promise<CatalogProduct[]> {
  return parseCatalogCsv(await readFile(path, 'utf8'), path);
}
