import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  CatalogFileError,
  columnsOf,
  countChanges,
  type ExistingProduct,
  MAX_PROBLEMS_KEPT,
  readCatalogFile,
  skuPartsOf,
} from './catalog-file.js';

const MB = 1024 * 1024;

function read(text: string | Buffer, fileName = 'catalog.csv', maxRows?: number) {
  const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return readCatalogFile({ data, fileName, defaultBrand: 'Ridge & Co', maxBytes: 15 * MB, maxRows });
}

async function failure(promise: Promise<unknown>): Promise<CatalogFileError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof CatalogFileError)) throw new Error(`expected a CatalogFileError, got ${String(error)}`);
  return error;
}

async function xlsx(rows: (string | number)[][], sheetName = 'Products', before: string[] = []): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  if (before.length > 0) workbook.addWorksheet('Notes').addRow(before);
  const sheet = workbook.addWorksheet(sheetName);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const HEADER = 'sku,name,color,size,category';

describe('readCatalogFile: CSV', () => {
  it('reads the rows, upper-cases SKUs and gives every row the workspace brand', async () => {
    const file = await read(`${HEADER}\nmc001-glw-xl,Summit Jacket,Glacier White,XL,Jackets\n`);
    expect(file.kind).toBe('csv');
    expect(file.rows).toEqual([
      {
        sku: 'MC001-GLW-XL',
        brand: 'Ridge & Co',
        name: 'Summit Jacket',
        color: 'Glacier White',
        size: 'XL',
        category: 'Jackets',
        skuPrefix: 'MC001',
        colorCode: 'GLW',
        sizeCode: 'XL',
      },
    ]);
    expect(file.problemCount).toBe(0);
  });

  it('takes a UTF-8 BOM, CRLF endings, quoted commas and doubled quotes', async () => {
    const csv = `\uFEFF${HEADER}\r\n"JK-1","Parka, ""Storm"" edition",Black,M,Coats\r\n`;
    const [row] = (await read(csv)).rows;
    expect(row?.sku).toBe('JK-1');
    expect(row?.name).toBe('Parka, "Storm" edition');
  });

  it('reads semicolon-separated files (spreadsheets in decimal-comma locales) and Windows-1252 text', async () => {
    const csv = Buffer.from('Item code;Product name;Colour;Size;Category\nAB-1;Café Tee;Crème;S;Tops\n', 'latin1');
    const [row] = (await read(csv)).rows;
    expect(row).toMatchObject({ sku: 'AB-1', name: 'Café Tee', color: 'Crème' });
  });

  it('knows common header spellings, in any order, with extra columns and title rows above', async () => {
    const csv = [
      'Ridge & Co — product list 2027',
      '',
      'Notes,Colour Name,Item #,Product Description,Size,Product Type,Brand',
      'x,Navy,RC-100-NV-L,Trail Shirt,L,Shirts,Ridge Outdoor',
    ].join('\n');
    const file = await read(csv);
    expect(file.headerRow).toBe(3);
    expect(file.columns).toMatchObject({ sku: 'Item #', name: 'Product Description', color: 'Colour Name' });
    expect(file.rows[0]).toMatchObject({ sku: 'RC-100-NV-L', brand: 'Ridge Outdoor', category: 'Shirts' });
  });

  it('prefers the most specific header when several could name a field', () => {
    expect(columnsOf(['Description', 'Product name', 'SKU', 'Colour', 'Size', 'Category'])).toMatchObject({
      name: 1,
      sku: 2,
    });
  });

  it('names the missing columns of a file that is not a catalog', async () => {
    const error = await failure(read('sku,name,price\nA-1,Tee,9.99\n'));
    expect(error.code).toBe('missing_columns');
    expect(error.userMessage).toMatch(/no color, size, category columns/);
  });

  it('skips bad rows, naming their 1-based rows, and imports the rest', async () => {
    const csv = [
      HEADER, // row 1
      'A-1,Tee,Black,M,Tops', // 2
      'A-2,,Black,M,Tops', // 3: no name
      'A-1,Tee again,Black,L,Tops', // 4: duplicate
      '', // 5: blank, ignored
      '<!channel>,Tee,Black,M,Tops', // 6: not a SKU
      'A-3,Tee,Black,L,Tops', // 7
    ].join('\n');
    const file = await read(csv);
    expect(file.rows.map((row) => row.sku)).toEqual(['A-1', 'A-3']);
    expect(file.rowsRead).toBe(5);
    expect(file.problems).toEqual([
      { row: 3, sku: 'A-2', message: 'name is empty' },
      { row: 4, sku: null, message: 'SKU A-1 is already on row 2; the row is skipped' },
      { row: 6, sku: null, message: expect.stringMatching(/^SKU "<!CHANNEL>" must be letters and digits/) },
    ]);
    // A-2 is in the file but skipped: a replace must not delete it. A-1 is imported, so it is not protected twice.
    expect(file.skippedSkus).toEqual(['A-2']);
  });

  it('keeps the first problems and counts the rest', async () => {
    const bad = Array.from({ length: MAX_PROBLEMS_KEPT + 7 }, (_, i) => `B-${i},,Black,M,Tops`);
    const file = await read([HEADER, 'A-1,Tee,Black,M,Tops', ...bad].join('\n'));
    expect(file.problems).toHaveLength(MAX_PROBLEMS_KEPT);
    expect(file.problemCount).toBe(MAX_PROBLEMS_KEPT + 7);
    expect(file.problems[0]?.row).toBe(3);
  });

  it('refuses a file with no importable row, saying why', async () => {
    const error = await failure(read(`${HEADER}\nA-1,,Black,M,Tops\n`));
    expect(error.code).toBe('no_rows');
    expect(error.userMessage).toMatch(/row 2: name is empty/);
  });

  it('refuses too many rows, too many bytes, other file types and a broken quote', async () => {
    const many = [HEADER, ...Array.from({ length: 11 }, (_, i) => `A-${i},Tee,Black,M,Tops`)].join('\n');
    expect((await failure(read(many, 'catalog.csv', 10))).code).toBe('too_many_rows');
    const big = readCatalogFile({ data: Buffer.alloc(2 * MB), fileName: 'a.csv', defaultBrand: 'B', maxBytes: MB });
    expect((await failure(big)).code).toBe('too_large');
    expect((await failure(read('%PDF-1.7', 'catalog.pdf'))).code).toBe('not_supported');
    expect((await failure(read(`${HEADER}\n"A-1,Tee,Black,M,Tops\n`))).code).toBe('unreadable');
  });
});

describe('readCatalogFile: XLSX', () => {
  it('reads the first sheet that has a catalog header, with its rows numbered as the sheet shows them', async () => {
    const data = await xlsx(
      [
        ['Spring catalog'],
        ['SKU', 'Name', 'Color', 'Size', 'Category'],
        ['WB-22', 'Bottle', 'Steel', 'OS', 'Gear'],
        ['WB-23', '', 'Steel', 'OS', 'Gear'],
        ['MC001-GLW-XL', 'Summit Jacket', 'Glacier White', 'XL', 'Jackets'],
      ],
      'Products',
      ['just', 'notes'],
    );
    const file = await read(data, 'catalog.xlsx');
    expect(file.kind).toBe('xlsx');
    expect(file.sheet).toBe('Products');
    expect(file.headerRow).toBe(2);
    expect(file.rows.map((row) => row.sku)).toEqual(['WB-22', 'MC001-GLW-XL']);
    expect(file.problems).toEqual([{ row: 4, sku: 'WB-23', message: 'name is empty' }]);
  });

  it('reads a workbook by its bytes even when its name says .csv, and refuses a damaged one', async () => {
    const data = await xlsx([
      ['sku', 'name', 'color', 'size', 'category'],
      ['A-1', 'Tee', 'Black', 'M', 'Tops'],
    ]);
    expect((await read(data, 'catalog.csv')).rows).toHaveLength(1);
    const broken = Buffer.concat([data.subarray(0, 200), Buffer.alloc(200)]);
    expect((await failure(read(broken, 'catalog.xlsx'))).code).toBe('unreadable');
  });
});

describe('skuPartsOf', () => {
  it('takes Valden-shaped SKUs apart as the matcher always has', () => {
    expect(skuPartsOf('MC001-GLW-XL', 'Glacier White', 'XL')).toEqual({
      skuPrefix: 'MC001',
      colorCode: 'GLW',
      sizeCode: 'XL',
    });
  });

  it('derives the parts of any other brand’s SKU from its segments and the colour and size columns', () => {
    expect(skuPartsOf('JK-1001-BLK-XL', 'Obsidian Black', 'X-Large')).toEqual({
      skuPrefix: 'JK-1001',
      colorCode: 'OBSIDIANBLACK',
      sizeCode: 'XLARGE',
    });
    expect(skuPartsOf('RIDGE42', 'Navy', 'M')).toEqual({ skuPrefix: 'RIDGE42', colorCode: 'NAVY', sizeCode: 'M' });
    expect(skuPartsOf('AB-12', 'Navy', '9.5').skuPrefix).toBe('AB');
  });
});

describe('countChanges', () => {
  const product = (sku: string, extra: Partial<ExistingProduct> = {}): ExistingProduct => ({
    sku,
    brand: 'B',
    name: 'Tee',
    color: 'Black',
    size: 'M',
    category: 'Tops',
    retired: false,
    referenced: false,
    ...extra,
  });
  const row = (sku: string, name = 'Tee') => ({
    sku,
    brand: 'B',
    name,
    color: 'Black',
    size: 'M',
    category: 'Tops',
    ...skuPartsOf(sku, 'Black', 'M'),
  });

  it('counts new, changed, unchanged, and what a replace deletes or retires', () => {
    const existing = [
      product('A'),
      product('B'),
      product('C', { referenced: true }),
      product('D'),
      product('E', { retired: true }),
      product('F'),
    ];
    const counts = countChanges([row('A'), row('B', 'Tee v2'), row('E'), row('N')], existing, ['F']);
    expect(counts).toEqual({ added: 1, changed: 2, unchanged: 1, removed: 1, retired: 1 });
  });
});
