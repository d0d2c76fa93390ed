import zlib from 'node:zlib';

import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';

import { type QuotationErrorCode, type ReadLimits, QuotationError } from './errors.js';
import { type SheetGrid, cellKey } from './types.js';
import { readLimitsFrom, readWorkbook } from './xlsx-reader.js';

const MB = 1024 * 1024;
const LIMITS: ReadLimits = { maxBytes: 15 * MB, maxRowsPerSheet: 20_000, maxCells: 500_000 };

async function xlsx(build: (workbook: ExcelJS.Workbook) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  build(workbook);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function sheetOf(grid: { sheets: SheetGrid[] }, index = 0): SheetGrid {
  const sheet = grid.sheets[index];
  if (!sheet) throw new Error(`no sheet ${index}`);
  return sheet;
}

/** What a buyer reads: a sentence, with none of the internals a crash would leak. */
function expectReadableSentence(message: string): void {
  expect(message).toMatch(/^[A-Z"][^\n]{30,400}[.]$/);
  expect(message).not.toMatch(/undefined|null|NaN|\[object|Error\b|\bat \S+:\d+/);
}

async function expectRejected(
  reading: Promise<unknown>,
  code: QuotationErrorCode,
): Promise<QuotationError | undefined> {
  const error = await reading.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(QuotationError);
  if (!(error instanceof QuotationError)) return undefined;
  expect(error.code).toBe(code);
  expectReadableSentence(error.userMessage);
  return error;
}

// ───────────────────────────── A hand-written ZIP, for packages exceljs would never write ─────────────────────────────

interface ZipPart {
  name: string;
  /** Deflated by the writer, unless `deflated` is given. */
  data?: Buffer | string;
  /** Already deflated bytes, written as they are. */
  deflated?: Buffer;
  /** The uncompressed size to declare (defaults to the true one). */
  size?: number;
  /** Declare a different uncompressed size in the local header only. */
  localSize?: number;
  /** Write the sizes ZIP64-style, in extra fields. */
  zip64?: boolean;
}

function zip64Extra(uncompressed: number, compressed: number): Buffer {
  const extra = Buffer.alloc(20);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(16, 2);
  extra.writeBigUInt64LE(BigInt(uncompressed), 4);
  extra.writeBigUInt64LE(BigInt(compressed), 12);
  return extra;
}

function buildZip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const raw = Buffer.from(part.data ?? '');
    const compressed = part.deflated ?? zlib.deflateRawSync(raw);
    const size = part.size ?? raw.length;
    const localSize = part.localSize ?? size;
    const name = Buffer.from(part.name);
    const localExtra = part.zip64 ? zip64Extra(localSize, compressed.length) : Buffer.alloc(0);
    const centralExtra = part.zip64 ? zip64Extra(size, compressed.length) : Buffer.alloc(0);
    const field = (value: number) => (part.zip64 ? 0xffffffff : value);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(part.zip64 ? 45 : 20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(field(compressed.length), 18);
    local.writeUInt32LE(field(localSize), 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(localExtra.length, 28);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(45, 4);
    central.writeUInt16LE(part.zip64 ? 45 : 20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(field(compressed.length), 20);
    central.writeUInt32LE(field(size), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(centralExtra.length, 30);
    central.writeUInt32LE(offset, 42);

    locals.push(local, name, localExtra, compressed);
    centrals.push(central, name, centralExtra);
    offset += local.length + name.length + localExtra.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const NAMESPACES =
  'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const RELATIONSHIP = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The workbook and its relationships; `sheets` as [name, relationship type, target]. */
function packageParts(sheets: [string, string, string][]): ZipPart[] {
  const sheetTags = sheets
    .map(([name], index) => `<sheet name="${name}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`)
    .join('');
  const relationships = sheets
    .map(
      ([, type, target], index) =>
        `<Relationship Id="rId${index + 1}" Type="${RELATIONSHIP}/${type}" Target="${target}"/>`,
    )
    .join('');
  return [
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0"?><workbook ${NAMESPACES}><sheets>${sheetTags}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships}</Relationships>`,
    },
  ];
}

const worksheetXml = (sheetData: string, after = '') =>
  `<?xml version="1.0"?><worksheet ${NAMESPACES}><sheetData>${sheetData}</sheetData>${after}</worksheet>`;

/** A one-sheet package whose worksheet part is `xl/worksheets/sheet1.xml`. */
function oneSheetPackage(sheet: Omit<ZipPart, 'name'>): ZipPart[] {
  return [
    ...packageParts([['Quote', 'worksheet', 'worksheets/sheet1.xml']]),
    { name: 'xl/worksheets/sheet1.xml', ...sheet },
  ];
}

let zeros: { deflated: Buffer; size: number } | undefined;
/** 16 MB of zeros deflate to about 16 KB: the classic bomb payload, built once. */
function deflatedZeros(): { deflated: Buffer; size: number } {
  zeros ??= { deflated: zlib.deflateRawSync(Buffer.alloc(16 * MB)), size: 16 * MB };
  return zeros;
}

// ───────────────────────────── Reading ─────────────────────────────

describe('readLimitsFrom', () => {
  it('turns the environment’s megabytes into bytes', () => {
    expect(readLimitsFrom({ MAX_UPLOAD_MB: 15, MAX_SHEET_ROWS: 20_000, MAX_WORKBOOK_CELLS: 500_000 })).toEqual(LIMITS);
    expect(readLimitsFrom({ MAX_UPLOAD_MB: 0.5, MAX_SHEET_ROWS: 1, MAX_WORKBOOK_CELLS: 1 }).maxBytes).toBe(512 * 1024);
  });
});

describe('readWorkbook: cells to text', () => {
  it('fills a merged title block across its range, bold included', async () => {
    const data = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet('Quote');
      sheet.mergeCells('A1:D2');
      sheet.getCell('A1').value = 'ACME Trading Co. — Quotation';
      sheet.getCell('A1').font = { bold: true };
      sheet.getCell('A4').value = 'SKU';
    });
    const sheet = sheetOf(await readWorkbook(data, LIMITS));
    expect(sheet.cells.slice(0, 2)).toEqual([
      Array(4).fill('ACME Trading Co. — Quotation'),
      Array(4).fill('ACME Trading Co. — Quotation'),
    ]);
    expect(sheet.cells[3]).toEqual(['SKU', '', '', '']);
    for (let row = 0; row < 2; row++) {
      for (let column = 0; column < 4; column++) expect(sheet.bold.has(cellKey(row, column))).toBe(true);
    }
  });

  it('records which cells show a merged value from a row above (a quantity merged down over a product’s rows)', async () => {
    const data = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet('Quote');
      sheet.getRow(1).values = ['SKU', 'Description', 'Qty'];
      sheet.getRow(2).values = ['MJ014-BLK-M', 'Alpine shell jacket', 300];
      sheet.getCell('B3').value = 'Fabric: 100% nylon';
      sheet.mergeCells('C2:C3');
      sheet.mergeCells('A2:A3');
    });
    const sheet = sheetOf(await readWorkbook(data, LIMITS));
    expect(sheet.cells[2]).toEqual(['MJ014-BLK-M', 'Fabric: 100% nylon', '300']);
    expect([...(sheet.mergedFromAbove ?? [])].sort()).toEqual([cellKey(2, 0), cellKey(2, 2)]);
  });

  it('blanks a merged range whose top-left cell is empty, and trims what that leaves empty', async () => {
    const data = buildZip(
      oneSheetPackage({
        data: worksheetXml(
          // B1 keeps a value Excel would have cleared when merging A1:C1.
          '<row r="1"><c r="B1" t="inlineStr"><is><t>stale</t></is></c></row>' +
            '<row r="2"><c r="A2" t="inlineStr"><is><t>Tent</t></is></c></row>',
          '<mergeCells count="1"><mergeCell ref="A1:C1"/></mergeCells>',
        ),
      }),
    );
    const sheet = sheetOf(await readWorkbook(data, LIMITS));
    expect(sheet.cells).toEqual([[''], ['Tent']]);
    expect([sheet.rowCount, sheet.columnCount]).toEqual([2, 1]);
  });

  it('marks bold cells, and rich text only when every visible run is bold', async () => {
    const data = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet('Quote');
      sheet.getRow(1).values = ['SKU', 'Description', 'Qty'];
      sheet.getRow(1).font = { bold: true };
      sheet.getCell('A2').value = {
        richText: [
          { text: 'Unit ', font: { bold: true } },
          { text: 'price', font: { bold: true } },
        ],
      };
      sheet.getCell('B2').value = { richText: [{ text: 'Partly ', font: { bold: true } }, { text: 'bold' }] };
      sheet.getCell('C2').value = 'plain';
    });
    const sheet = sheetOf(await readWorkbook(data, LIMITS));
    expect([...sheet.bold].sort()).toEqual(['0,0', '0,1', '0,2', '1,0']);
    expect(sheet.cells[1]).toEqual(['Unit price', 'Partly bold', 'plain']);
  });

  it('writes numbers canonically, dates as ISO, booleans as TRUE/FALSE, strings trimmed', async () => {
    const data = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet('Quote');
      sheet.getRow(1).values = [1234.5, 0.1 + 0.2, 4012345678901, -0, 1e-7, 2.675 * 100];
      sheet.getCell('A1').numFmt = '"$"#,##0.00';
      sheet.getCell('B1').numFmt = '0%';
      sheet.getRow(2).values = [new Date(Date.UTC(2024, 2, 5)), new Date(Date.UTC(2024, 2, 5, 14, 30)), true, false];
      sheet.getRow(3).values = ['  Cotton\r\n  blend \n', '\u00a0 padded\t'];
      sheet.getCell('A4').value = { text: 'Spec sheet', hyperlink: 'https://example.com/spec.pdf' };
      sheet.getCell('B4').value = {
        richText: [{ text: 'Lead time: ' }, { text: '30 days', font: { italic: true } }],
      };
    });
    const sheet = sheetOf(await readWorkbook(data, LIMITS));
    expect(sheet.cells[0]).toEqual(['1234.5', '0.3', '4012345678901', '0', '1e-7', '267.5']);
    expect(sheet.cells[1]).toEqual(['2024-03-05', '2024-03-05T14:30:00', 'TRUE', 'FALSE', '', '']);
    expect(sheet.cells[2]?.slice(0, 2)).toEqual(['Cotton blend', 'padded']);
    expect(sheet.cells[3]?.slice(0, 2)).toEqual(['Spec sheet', 'Lead time: 30 days']);
  });

  it('reads formulas and shared formulas as their cached results, and errors as their text', async () => {
    const data = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet('Quote');
      sheet.getRow(1).values = ['Qty', 'Price', 'Total'];
      sheet.getRow(2).values = [5, 5, { formula: 'A2*B2', result: 25 }];
      sheet.getRow(3).values = [6, 5, { sharedFormula: 'C2', result: 30 }];
      sheet.getCell('D2').value = { formula: 'A2/0', result: { error: '#DIV/0!' } };
      sheet.getCell('D3').value = { error: '#N/A' };
      sheet.getCell('E2').value = { formula: '0.1+0.2', result: 0.30000000000000004 };
      sheet.getCell('E3').value = { formula: 'TODAY()', result: new Date(Date.UTC(2024, 0, 31)) };
      sheet.getCell('F2').value = { formula: 'A2&"pcs"', result: 'five pcs ' };
      sheet.getCell('F3').value = { formula: 'SUM(A1:A9)' };
    });
    const sheet = sheetOf(await readWorkbook(data, LIMITS));
    expect(sheet.cells).toEqual([
      ['Qty', 'Price', 'Total', '', '', ''],
      ['5', '5', '25', '#DIV/0!', '0.3', 'five pcs'],
      ['6', '5', '30', '#N/A', '2024-01-31', '11'],
    ]);
  });

  it('works out simple formulas saved without a value, and lists the ones it cannot with their cells', async () => {
    const data = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet('Quote');
      sheet.getRow(1).values = ['Qty', 'Rate', 'Amount'];
      sheet.getRow(2).values = [10, 2.5, { formula: 'A2*B2' } as ExcelJS.CellFormulaValue];
      sheet.getRow(3).values = [4, 3, { formula: '$A3*$B3*(1-10%)' } as ExcelJS.CellFormulaValue];
      sheet.getCell('C4').value = { formula: 'SUM(C2:C3)' } as ExcelJS.CellFormulaValue;
      sheet.getCell('C5').value = { formula: 'VLOOKUP(A2,Prices!A:B,2,0)' } as ExcelJS.CellFormulaValue;
    });
    const sheet = sheetOf(await readWorkbook(data, LIMITS));
    expect(sheet.cells.map((row) => row[2])).toEqual(['Amount', '25', '10.8', '35.8']);
    expect(sheet.uncomputedFormulas).toEqual([{ row: 4, column: 2, formula: 'VLOOKUP(A2,Prices!A:B,2,0)' }]);
  });

  it('keeps a string that looks like a formula as text, never evaluating it', async () => {
    const data = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet('Quote');
      sheet.getCell('A1').value = '=HYPERLINK("https://evil.example","Click")';
      sheet.getCell('A2').value = '=1+1';
    });
    const sheet = sheetOf(await readWorkbook(data, LIMITS));
    expect(sheet.cells).toEqual([['=HYPERLINK("https://evil.example","Click")'], ['=1+1']]);
  });

  it('reports hidden rows, hidden columns and hidden sheets', async () => {
    const data = await xlsx((workbook) => {
      const visible = workbook.addWorksheet('Quote');
      visible.getRow(1).values = ['a', 'b', 'c', 'd'];
      visible.getRow(2).values = ['e', 'f', 'g', 'h'];
      visible.getRow(3).values = ['i', 'j', 'k', 'l'];
      visible.getRow(2).hidden = true;
      visible.getColumn(3).hidden = true;
      // Hidden but beyond the data: not part of the grid.
      visible.getRow(40).hidden = true;
      visible.getColumn(30).hidden = true;
      workbook.addWorksheet('Costing', { state: 'hidden' }).getCell('A1').value = 'margin';
      workbook.addWorksheet('Lists', { state: 'veryHidden' }).getCell('A1').value = 'EUR';
    });
    const grid = await readWorkbook(data, LIMITS);
    const quote = sheetOf(grid, 0);
    expect(quote.hidden).toBe(false);
    expect([...quote.hiddenRows]).toEqual([1]);
    expect([...quote.hiddenColumns]).toEqual([2]);
    expect(grid.sheets.map((sheet) => [sheet.name, sheet.hidden])).toEqual([
      ['Quote', false],
      ['Costing', true],
      ['Lists', true],
    ]);
  });

  it('keeps every worksheet in workbook order, empty ones included', async () => {
    const data = await xlsx((workbook) => {
      workbook.addWorksheet('Cover').getCell('B2').value = 'Quotation Q-1042';
      workbook.addWorksheet('Notes');
      workbook.addWorksheet('Lines & Prices').getCell('A1').value = 'SKU';
    });
    const grid = await readWorkbook(data, LIMITS);
    expect(grid.sheets.map(({ name, index, rowCount, columnCount }) => [name, index, rowCount, columnCount])).toEqual([
      ['Cover', 0, 2, 2],
      ['Notes', 1, 0, 0],
      ['Lines & Prices', 2, 1, 1],
    ]);
    expect(sheetOf(grid, 1).cells).toEqual([]);
  });

  it('trims trailing empty rows and columns, keeps leading ones, and stays rectangular', async () => {
    const data = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet('Quote');
      sheet.getCell('B2').value = 'SKU';
      sheet.getCell('C3').value = 12;
      // Only formatting, blanks and whitespace beyond the data.
      sheet.getCell('H20').value = '   ';
      sheet.getCell('F9').value = '';
      sheet.getCell('K40').font = { bold: true };
      sheet.getCell('Z2').value = { formula: 'A1', result: '' };
    });
    const sheet = sheetOf(await readWorkbook(data, LIMITS));
    expect(sheet.rowCount).toBe(3);
    expect(sheet.columnCount).toBe(3);
    expect(sheet.cells).toEqual([
      ['', '', ''],
      ['', 'SKU', ''],
      ['', '', '12'],
    ]);
    expect(sheet.cells.every((row) => row.length === sheet.columnCount)).toBe(true);
    expect(sheet.bold.size).toBe(0);
  });

  it('reads dates in a workbook that counts from 1904', async () => {
    const data = await xlsx((workbook) => {
      workbook.properties.date1904 = true;
      workbook.addWorksheet('Quote').getCell('A1').value = new Date(Date.UTC(2025, 5, 30));
    });
    expect(sheetOf(await readWorkbook(data, LIMITS)).cells).toEqual([['2025-06-30']]);
  });

  it('reads a package exceljs would trip on: unusual part names, no styles, inline strings, rows without numbers', async () => {
    const data = buildZip([
      ...packageParts([
        ['Price &amp; Terms', 'worksheet', '/xl/worksheets/Prices.xml'],
        ['Chart', 'chartsheet', 'chartsheets/sheet1.xml'],
        // exceljs itself refuses both names.
        ['History', 'worksheet', 'worksheets/back.xml'],
        ['Q1/Q2 prices', 'worksheet', 'worksheets/back2.xml'],
      ]),
      {
        name: 'xl/worksheets/Prices.xml',
        data: worksheetXml(
          '<row><c t="inlineStr"><is><t>SKU</t></is></c><c t="inlineStr"><is><t>Price</t></is></c></row>' +
            '<row><c t="inlineStr"><is><t>X-1</t></is></c><c><v>9.5</v></c></row>',
        ),
      },
      { name: 'xl/chartsheets/sheet1.xml', data: '<chartsheet/>' },
      { name: 'xl/worksheets/back.xml', data: worksheetXml('<row r="3"><c r="B3" t="b"><v>1</v></c></row>') },
      { name: 'xl/worksheets/back2.xml', data: worksheetXml('<row r="3"><c r="B3" t="b"><v>1</v></c></row>') },
    ]);
    const grid = await readWorkbook(data, LIMITS);
    expect(grid.sheets.map((sheet) => [sheet.name, sheet.index, sheet.cells])).toEqual([
      [
        'Price & Terms',
        0,
        [
          ['SKU', 'Price'],
          ['X-1', '9.5'],
        ],
      ],
      [
        'History',
        1,
        [
          ['', ''],
          ['', ''],
          ['', 'TRUE'],
        ],
      ],
      [
        'Q1/Q2 prices',
        2,
        [
          ['', ''],
          ['', ''],
          ['', 'TRUE'],
        ],
      ],
    ]);
  });

  it('reads a worksheet part once, however many sheets name it', async () => {
    // Excel gives every sheet its own part. A 10 KB file naming one part a thousand times would have exceljs parse
    // every copy, outside the element budget (which counts each part once).
    const sheets = Array.from({ length: 1000 }, (_, i): [string, string, string] => [
      `Copy ${i + 1}`,
      'worksheet',
      'worksheets/sheet1.xml',
    ]);
    const data = buildZip([
      ...packageParts(sheets),
      {
        name: 'xl/worksheets/sheet1.xml',
        data: worksheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>SKU</t></is></c></row>'),
      },
    ]);
    const started = performance.now();
    const grid = await readWorkbook(data, LIMITS);
    expect(grid.sheets.map((sheet) => sheet.name)).toEqual(['Copy 1']);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('stays fast on legal structures exceljs expands cell by cell: whole-column dropdowns, names, 20,000 merges', async () => {
    const rows = Array.from(
      { length: 20_000 },
      (_, row) => `<row r="${row + 1}"><c r="A${row + 1}" t="inlineStr"><is><t>line ${row + 1}</t></is></c></row>`,
    ).join('');
    const merges = Array.from({ length: 20_000 }, (_, row) => `<mergeCell ref="A${row + 1}:C${row + 1}"/>`).join('');
    const validations =
      '<dataValidations count="1"><dataValidation type="list" sqref="D1:H1048576"><formula1>"a,b"</formula1></dataValidation></dataValidations>';
    const parts = oneSheetPackage({
      data: worksheetXml(rows, `<mergeCells count="20000">${merges}</mergeCells>${validations}`),
    });
    const workbookPart = parts[0];
    if (workbookPart) {
      workbookPart.data = String(workbookPart.data).replace(
        '</sheets>',
        '</sheets><definedNames><definedName name="Everything">Quote!$A$1:$XFD$1048576</definedName></definedNames>',
      );
    }
    const started = performance.now();
    const sheet = sheetOf(await readWorkbook(buildZip(parts), LIMITS));
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(sheet.rowCount).toBe(20_000);
    expect(sheet.cells[19_999]).toEqual(['line 20000', 'line 20000', 'line 20000']);
  });
});

// ───────────────────────────── Rejecting ─────────────────────────────

describe('readWorkbook: files it turns down', () => {
  it('turns down a PDF', async () => {
    const pdf = Buffer.from('%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');
    const error = await expectRejected(readWorkbook(pdf, LIMITS), 'not_xlsx');
    expect(error?.userMessage).toContain('PDF');
  });

  it('turns down a CSV', async () => {
    const csv = Buffer.from('SKU,Description,Qty,Unit price\nX-1,Tent,10,99.50\n');
    const error = await expectRejected(readWorkbook(csv, LIMITS), 'not_xlsx');
    expect(error?.userMessage).toContain('.xlsx');
  });

  it('turns down a legacy .xls (OLE2) and says to save it as .xlsx', async () => {
    const xls = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(xls);
    Buffer.from('Workbook', 'utf16le').copy(xls, 1024);
    const error = await expectRejected(readWorkbook(xls, LIMITS), 'not_xlsx');
    expect(error?.userMessage).toContain('.xls');
  });

  it('recognises a password-protected .xlsx (OLE2 holding EncryptionInfo)', async () => {
    const protectedXlsx = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(protectedXlsx);
    Buffer.from('EncryptionInfo', 'utf16le').copy(protectedXlsx, 1152);
    Buffer.from('EncryptedPackage', 'utf16le').copy(protectedXlsx, 1280);
    const error = await expectRejected(readWorkbook(protectedXlsx, LIMITS), 'encrypted');
    expect(error?.userMessage).toContain('password');
  });

  it('turns down a ZIP that is not a spreadsheet', async () => {
    const docx = buildZip([{ name: 'word/document.xml', data: '<w:document/>' }]);
    await expectRejected(readWorkbook(docx, LIMITS), 'not_xlsx');
  });

  it('calls a truncated .xlsx corrupt', async () => {
    const data = await xlsx((workbook) => {
      workbook.addWorksheet('Quote').getCell('A1').value = 'SKU';
    });
    await expectRejected(readWorkbook(data.subarray(0, Math.floor(data.length / 2)), LIMITS), 'corrupt');
  });

  it('calls broken worksheet XML corrupt', async () => {
    const data = buildZip(oneSheetPackage({ data: worksheetXml('<row r="1"><c r="A1"><v>1</v></row>') }));
    await expectRejected(readWorkbook(data, LIMITS), 'corrupt');
  });

  it('refuses an XML entity bomb in the shared strings quickly', async () => {
    const entities = Array.from(
      { length: 8 },
      (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`,
    ).join('');
    const sharedStrings = `<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY lol0 "lol">${entities}]><sst ${NAMESPACES}><si><t>&lol8;</t></si></sst>`;
    const data = buildZip([
      ...packageParts([
        ['Quote', 'worksheet', 'worksheets/sheet1.xml'],
        ['Strings', 'sharedStrings', 'sharedStrings.xml'],
      ]),
      { name: 'xl/worksheets/sheet1.xml', data: worksheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c></row>') },
      { name: 'xl/sharedStrings.xml', data: sharedStrings },
    ]);
    const started = performance.now();
    await expectRejected(readWorkbook(data, LIMITS), 'corrupt');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('calls an entry whose local header disagrees with the directory about its size corrupt', async () => {
    const xml = worksheetXml('<row r="1"><c r="A1"><v>1</v></c></row>');
    const data = buildZip(oneSheetPackage({ data: xml, localSize: Buffer.byteLength(xml) + 1000 }));
    await expectRejected(readWorkbook(data, LIMITS), 'corrupt');
  });

  it('calls a row past Excel’s last row corrupt, quickly', async () => {
    const data = buildZip(
      oneSheetPackage({ data: worksheetXml('<row r="2000000000"><c r="A2000000000"><v>1</v></c></row>') }),
    );
    const started = performance.now();
    await expectRejected(readWorkbook(data, LIMITS), 'corrupt');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('turns down a file over the size limit before reading it', async () => {
    const data = await xlsx((workbook) => {
      workbook.addWorksheet('Quote').getCell('A1').value = 'SKU';
    });
    const error = await expectRejected(readWorkbook(data, { ...LIMITS, maxBytes: 1000 }), 'too_large');
    expect(error?.userMessage).toContain('up to 1 KB');
  });

  it('turns down a sheet with more rows than the limit, naming the sheet', async () => {
    const data = await xlsx((workbook) => {
      workbook.addWorksheet('Cover').getCell('A1').value = 'Quotation';
      const lines = workbook.addWorksheet('Lines');
      for (let row = 1; row <= 30; row++) lines.getCell(row, 1).value = `SKU-${row}`;
    });
    const error = await expectRejected(readWorkbook(data, { ...LIMITS, maxRowsPerSheet: 25 }), 'too_many_rows');
    expect(error?.userMessage).toContain('"Lines" has 30 rows');
  });

  it('turns down a workbook whose sheets together exceed the cell limit', async () => {
    const data = await xlsx((workbook) => {
      for (const name of ['A', 'B']) {
        const sheet = workbook.addWorksheet(name);
        for (let row = 1; row <= 5; row++) sheet.getRow(row).values = [1, 2, 3, 4, 5];
      }
    });
    // 25 cells a sheet: the first fits in 40, the second does not.
    const error = await expectRejected(readWorkbook(data, { ...LIMITS, maxCells: 40 }), 'too_many_cells');
    expect(error?.userMessage).toContain('50 cells');
  });

  it('turns down a sheet of styled blanks before exceljs builds an object for each', async () => {
    const row = '<c s="1"/>'.repeat(100);
    const rows = Array.from({ length: 3000 }, (_, index) => `<row r="${index + 1}">${row}</row>`).join('');
    const data = buildZip(
      oneSheetPackage({ data: worksheetXml(`${rows}<row r="3001"><c r="A3001"><v>1</v></c></row>`) }),
    );
    await expectRejected(readWorkbook(data, { ...LIMITS, maxCells: 100_000 }), 'too_many_cells');
  });

  it('turns down a workbook whose sheets are all empty', async () => {
    const data = await xlsx((workbook) => {
      workbook.addWorksheet('Sheet1');
      workbook.addWorksheet('Sheet2').getCell('C3').value = '   ';
      workbook.addWorksheet('Sheet3').getCell('A1').font = { bold: true };
    });
    await expectRejected(readWorkbook(data, LIMITS), 'empty');
  });
});

describe('readWorkbook: zip bombs', () => {
  it('turns down an entry declaring 300 MB without inflating it, in well under a second', async () => {
    // The "deflated" bytes are not even valid deflate: inflating them would have failed as corrupt instead.
    const data = buildZip(oneSheetPackage({ deflated: Buffer.alloc(2 * MB, 0x5a), size: 300 * MB }));
    const started = performance.now();
    const error = await expectRejected(readWorkbook(data, LIMITS), 'zip_bomb');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error?.userMessage).toContain('200 MB');
  });

  it('turns down an entry compressed over 200:1, even one that declares its size honestly', async () => {
    const data = buildZip(oneSheetPackage(deflatedZeros()));
    const started = performance.now();
    await expectRejected(readWorkbook(data, LIMITS), 'zip_bomb');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('stops inflating an entry at its declared size when the declaration is a lie', async () => {
    const { deflated } = deflatedZeros();
    const data = buildZip(oneSheetPackage({ deflated, size: 4096 }));
    const started = performance.now();
    const error = await expectRejected(readWorkbook(data, LIMITS), 'zip_bomb');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error?.userMessage).toContain('sizes do not add up');
  });

  it('reads ZIP64 sizes and turns down an entry declaring 5 GB', async () => {
    const data = buildZip(oneSheetPackage({ deflated: Buffer.alloc(MB, 0x5a), size: 5 * 1024 * MB, zip64: true }));
    await expectRejected(readWorkbook(data, LIMITS), 'zip_bomb');
  });

  it('counts every part it reads against the cap, with a cap scaled down for a small upload limit', async () => {
    // Three 900 KB sheets are fine alone; together they exceed 40 × a 64 KB upload limit (2.5 MB).
    const xml = worksheetXml(`<row r="1"><c r="A1" t="inlineStr"><is><t>${'x'.repeat(900 * 1024)}</t></is></c></row>`);
    const sheet = { deflated: Buffer.alloc(8 * 1024, 0x5a), size: Buffer.byteLength(xml) };
    const data = buildZip([
      ...packageParts([
        ['A', 'worksheet', 'worksheets/sheet1.xml'],
        ['B', 'worksheet', 'worksheets/sheet2.xml'],
        ['C', 'worksheet', 'worksheets/sheet3.xml'],
      ]),
      { name: 'xl/worksheets/sheet1.xml', ...sheet },
      { name: 'xl/worksheets/sheet2.xml', ...sheet },
      { name: 'xl/worksheets/sheet3.xml', ...sheet },
    ]);
    const error = await expectRejected(readWorkbook(data, { ...LIMITS, maxBytes: 64 * 1024 }), 'zip_bomb');
    expect(error?.userMessage).toContain('2.5 MB');
  });
});
