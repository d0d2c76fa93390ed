import ExcelJS, { type Worksheet } from 'exceljs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inflateEntry, readZipDirectory } from '../quotation/zip-archive.js';
import { toCents } from '../commerce/money.js';
import { describePaymentTerms } from '../commerce/payment-terms.js';
import { samplePurchaseOrder } from '../../test/support/po-fixture.js';
import {
  buildPurchaseOrderWorkbook,
  describePriceBreaks,
  type PurchaseOrderDocument,
  safeSheetName,
  SHEET_NAME_MAX_LENGTH,
  SUMMARY_SHEET_NAME,
} from './po-workbook.js';

async function load(data: Buffer): Promise<ExcelJS.Workbook> {
  // exceljs is typed to take an ArrayBuffer-like `Buffer`; a copy in a fresh ArrayBuffer satisfies it without a cast.
  const copy = new ArrayBuffer(data.length);
  new Uint8Array(copy).set(data);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(copy);
  return workbook;
}

function sheet(workbook: ExcelJS.Workbook, name: string): Worksheet {
  const found = workbook.getWorksheet(name);
  if (found === undefined) throw new Error(`no sheet ${name}`);
  return found;
}

/** The first row whose column A reads `label`. */
function rowOf(ws: Worksheet, label: string): number {
  for (let row = 1; row <= ws.rowCount; row++) if (ws.getCell(row, 1).value === label) return row;
  throw new Error(`no row labelled ${label} in ${ws.name}`);
}

/** The value next to a header-block label: column B for labels in A, F for labels in E. */
function headerValue(ws: Worksheet, label: string): unknown {
  for (let row = 1; row <= 12; row++) {
    if (ws.getCell(row, 1).value === label) return ws.getCell(row, 2).value;
    if (ws.getCell(row, 5).value === label) return ws.getCell(row, 6).value;
  }
  throw new Error(`no header ${label} in ${ws.name}`);
}

function formulaCell(value: unknown): { formula: string; result: unknown } {
  if (typeof value === 'object' && value !== null && 'formula' in value && typeof value.formula === 'string') {
    return { formula: value.formula, result: 'result' in value ? value.result : undefined };
  }
  throw new Error(`not a formula cell: ${JSON.stringify(value)}`);
}

async function sheetXml(data: Buffer, sheetNumber: number): Promise<string> {
  const entries = readZipDirectory(data, { maxEntries: 100 });
  const entry = entries.find((e) => e.name === `xl/worksheets/sheet${sheetNumber}.xml`);
  if (entry === undefined) throw new Error(`no sheet${sheetNumber}.xml`);
  return (await inflateEntry(data, entry)).toString('utf8');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('buildPurchaseOrderWorkbook', () => {
  const po = samplePurchaseOrder({ approvals: [{ by: 'Maya Lindqvist', at: '2026-03-02T14:05:00Z' }] });

  it('has a Summary sheet and one sheet per supplier allocation', async () => {
    const workbook = await load(await buildPurchaseOrderWorkbook(po));
    expect(workbook.worksheets.map((ws) => ws.name)).toEqual([
      SUMMARY_SHEET_NAME,
      'SUP-002 Orion Textiles',
      'SUP-003 Pacific Stitch Co.',
    ]);
    expect(workbook.creator).toBe('Parley');
    expect(workbook.created.toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });

  it('writes the PO header, one row per allocation, the totals and the approvals on the Summary', async () => {
    const ws = sheet(await load(await buildPurchaseOrderWorkbook(po)), SUMMARY_SHEET_NAME);
    expect(headerValue(ws, 'PO number')).toBe('PO-2026-0001');
    expect(headerValue(ws, 'Date')).toEqual(new Date('2026-03-02T00:00:00Z'));
    expect(headerValue(ws, 'Status')).toBe('Draft — awaiting approval');
    expect(headerValue(ws, 'Buyer')).toBe('Valden Outdoor');
    expect(headerValue(ws, 'Currency')).toBe('USD');
    expect(headerValue(ws, 'Incoterm')).toBe('FOB Shanghai');

    for (const allocation of po.allocations) {
      const row = rowOf(ws, allocation.supplier.code);
      expect(ws.getCell(row, 2).value).toBe(allocation.supplier.name);
      expect(ws.getCell(row, 3).value).toBe(allocation.share);
      expect(ws.getCell(row, 5)).toMatchObject({ value: allocation.leadTimeDays, numFmt: '0 "days"' });
      expect(ws.getCell(row, 6).value).toBe(allocation.fobCost);
      expect(ws.getCell(row, 7).value).toBe(allocation.cashFlowCost);
      expect(ws.getCell(row, 8).value).toBe(allocation.effectiveLandedCost);
    }

    const subtotal = rowOf(ws, 'Subtotal');
    const fob = formulaCell(ws.getCell(subtotal, 6).value);
    expect(fob.formula).toMatch(/^SUM\(F\d+:F\d+\)$/);
    expect(fob.result).toBe(po.totals.fobCost);
    expect(ws.getCell(rowOf(ws, 'Split-order overhead'), 8).value).toBe(po.totals.splitOverhead);
    const landed = formulaCell(ws.getCell(rowOf(ws, 'Effective landed cost'), 8).value);
    expect(landed.result).toBe(po.totals.effectiveLandedCost);
    expect(toCents(po.totals.fobCost) + toCents(po.totals.cashFlowCost) + toCents(po.totals.splitOverhead)).toBe(
      toCents(po.totals.effectiveLandedCost),
    );

    const approvals = rowOf(ws, 'Approved by');
    expect(ws.getCell(approvals + 1, 1).value).toBe('Maya Lindqvist');
    expect(ws.getCell(approvals + 1, 3).value).toEqual(new Date('2026-03-02T14:05:00Z'));
  });

  it("writes each supplier's header block, lines, SUM total with its cached result, and landed cost", async () => {
    const workbook = await load(await buildPurchaseOrderWorkbook(po));
    for (const [index, allocation] of po.allocations.entries()) {
      const ws = sheet(workbook, workbook.worksheets[index + 1]?.name ?? '');
      expect(headerValue(ws, 'PO number')).toBe(po.number);
      expect(headerValue(ws, 'Date')).toEqual(new Date('2026-03-02T00:00:00Z'));
      expect(headerValue(ws, 'Supplier')).toBe(`${allocation.supplier.name} (${allocation.supplier.code})`);
      expect(String(headerValue(ws, 'Payment terms'))).toMatch(new RegExp(`^${allocation.paymentTerms} \\(`));
      expect(headerValue(ws, 'Lead time')).toBe(allocation.leadTimeDays);
      expect(headerValue(ws, 'Incoterm')).toBe('FOB Shanghai');
      expect(headerValue(ws, 'Currency')).toBe('USD');

      const header = rowOf(ws, 'SKU');
      expect(ws.getRow(header).values).toEqual([
        undefined,
        'SKU',
        'Description',
        'Qty',
        'Unit price (USD)',
        'Line total (USD)',
        'Price breaks',
      ]);
      const total = rowOf(ws, 'Total');
      expect(total - header - 1).toBe(allocation.lines.length);
      allocation.lines.forEach((line, i) => {
        const row = header + 1 + i;
        expect(ws.getCell(row, 1).value).toBe(line.sku);
        expect(ws.getCell(row, 2).value).toBe(line.description);
        expect(ws.getCell(row, 3).value).toBe(line.quantity);
        expect(ws.getCell(row, 4).value).toBe(line.unitPrice);
        expect(ws.getCell(row, 5).value).toBe(line.lineTotal);
      });

      // The total is a live formula over the lines, and carries its result for viewers that do not calculate.
      const sum = formulaCell(ws.getCell(total, 5).value);
      expect(sum.formula).toBe(`SUM(E${header + 1}:E${total - 1})`);
      const linesInCents = allocation.lines.reduce((cents, line) => cents + toCents(line.lineTotal), 0);
      expect(typeof sum.result).toBe('number');
      expect(toCents(Number(sum.result))).toBe(linesInCents);
      expect(toCents(allocation.fobCost)).toBe(linesInCents);
      expect(formulaCell(ws.getCell(total, 3).value).result).toBe(allocation.lines.reduce((n, l) => n + l.quantity, 0));

      expect(formulaCell(ws.getCell(rowOf(ws, 'FOB cost'), 5).value).result).toBe(allocation.fobCost);
      expect(ws.getCell(rowOf(ws, 'Cash-flow cost'), 5).value).toBe(allocation.cashFlowCost);
      const landed = formulaCell(ws.getCell(rowOf(ws, 'Effective landed cost'), 5).value);
      expect(landed.result).toBe(allocation.effectiveLandedCost);
    }
  });

  it('formats money, quantities and shares, freezes the table heading and prints fit to width', async () => {
    const ws = sheet(await load(await buildPurchaseOrderWorkbook(po)), 'SUP-002 Orion Textiles');
    const header = rowOf(ws, 'SKU');
    expect(ws.getCell(header, 1).font.bold).toBe(true);
    expect(ws.getCell(header + 1, 3).numFmt).toBe('#,##0');
    expect(ws.getCell(header + 1, 4).numFmt).toBe('#,##0.00##');
    expect(ws.getCell(header + 1, 5).numFmt).toBe('#,##0.00');
    expect(headerValue(ws, 'Share of order')).toBe(po.allocations[0]?.share);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: header });
    expect(ws.pageSetup).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 });
    for (let c = 1; c <= 6; c++) expect(ws.getColumn(c).width).toBeGreaterThanOrEqual(10);
    expect(ws.getColumn(2).width).toBeGreaterThan(ws.getColumn(3).width ?? 0);
  });

  it.each(['=HYPERLINK("http://evil.example","click")', '+1+2', '-2+3', '@SUM(A1:A2)', "=cmd|'/c calc'!A0"])(
    'keeps a hostile description as text: %s',
    async (description) => {
      const hostile = samplePurchaseOrder();
      const first = hostile.allocations[0];
      const line = first?.lines[0];
      if (first === undefined || line === undefined) throw new Error('fixture has lines');
      const data = await buildPurchaseOrderWorkbook({
        ...hostile,
        allocations: [
          { ...first, lines: [{ ...line, description }, ...first.lines.slice(1)] },
          ...hostile.allocations.slice(1),
        ],
      });
      const ws = sheet(await load(data), 'SUP-002 Orion Textiles');
      const cell = ws.getCell(rowOf(ws, 'SKU') + 1, 2);
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.value).toBe(description);
      expect(cell.formula).toBeUndefined();
      // Text format: an edit in Excel or LibreOffice keeps it text.
      expect(cell.numFmt).toBe('@');
      // And in the file itself: the only formulas on the sheet are ours.
      const xml = await sheetXml(data, 2);
      const formulas = [...xml.matchAll(/<f>([^<]*)<\/f>/g)].map((m) => m[1]);
      expect(formulas.length).toBeGreaterThan(0);
      for (const formula of formulas) expect(formula).toMatch(/^(SUM\(|[A-Z]+\d+(\+[A-Z]+\d+)?$)/);
    },
  );

  it('gives the same bytes for the same PO, whatever the clock says', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T08:00:00Z'));
    const first = await buildPurchaseOrderWorkbook(po);
    vi.setSystemTime(new Date('2031-06-15T17:42:13Z'));
    const second = await buildPurchaseOrderWorkbook(po);
    expect(second.equals(first)).toBe(true);
    // And every entry of the archive carries the PO date (2026-03-02 in DOS format), not the time it was built.
    const dosDate = ((2026 - 1980) << 9) | (3 << 5) | 2;
    const end = first.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    let at = first.readUInt32LE(end + 16);
    for (let i = 0; i < first.readUInt16LE(end + 10); i++) {
      expect(first.readUInt16LE(at + 14)).toBe(dosDate);
      expect(first.readUInt16LE(first.readUInt32LE(at + 42) + 12)).toBe(dosDate);
      at += 46 + first.readUInt16LE(at + 28) + first.readUInt16LE(at + 30) + first.readUInt16LE(at + 32);
    }
  });

  it('refuses a PO whose amounts do not add up', async () => {
    const broken: PurchaseOrderDocument = {
      ...po,
      totals: { ...po.totals, effectiveLandedCost: po.totals.effectiveLandedCost + 0.01 },
    };
    await expect(buildPurchaseOrderWorkbook(broken)).rejects.toThrow(/effective landed cost/);
    const first = po.allocations[0];
    if (first === undefined) throw new Error('fixture has allocations');
    const badLines: PurchaseOrderDocument = {
      ...po,
      allocations: [{ ...first, fobCost: first.fobCost + 1 }, ...po.allocations.slice(1)],
    };
    await expect(buildPurchaseOrderWorkbook(badLines)).rejects.toThrow(/SUP-002 FOB/);
  });

  it('refuses a date that is not ISO 8601', async () => {
    await expect(buildPurchaseOrderWorkbook({ ...po, date: 'March 2, 2026' })).rejects.toThrow(RangeError);
  });

  it('writes a PO with no approvals, no incoterm and a single supplier', async () => {
    const single = samplePurchaseOrder();
    const only = single.allocations[1];
    if (only === undefined) throw new Error('fixture has two allocations');
    const one: PurchaseOrderDocument = {
      ...single,
      incoterm: null,
      allocations: [{ ...only, share: 1 }],
      totals: {
        fobCost: only.fobCost,
        cashFlowCost: only.cashFlowCost,
        splitOverhead: 0,
        effectiveLandedCost: only.effectiveLandedCost,
      },
      notes: [],
    };
    const workbook = await load(await buildPurchaseOrderWorkbook(one));
    expect(workbook.worksheets).toHaveLength(2);
    const ws = sheet(workbook, SUMMARY_SHEET_NAME);
    expect(headerValue(ws, 'Incoterm')).toBe('—');
    expect(ws.getCell(rowOf(ws, 'Approved by') + 1, 1).value).toBe('No approvals yet');
    expect(formulaCell(ws.getCell(rowOf(ws, 'Effective landed cost'), 8).value).result).toBe(only.effectiveLandedCost);
  });

  it('names sheets of awkward supplier names safely and uniquely', async () => {
    const base = samplePurchaseOrder();
    const [a, b] = base.allocations;
    if (a === undefined || b === undefined) throw new Error('fixture has two allocations');
    const name = "O'Brien [Group]: Outerwear/Knits*? Manufacturing Co., Ltd.";
    const awkward: PurchaseOrderDocument = {
      ...base,
      allocations: [
        { ...a, supplier: { code: 'SUP-9', name } },
        { ...b, supplier: { code: 'SUP-9', name } },
      ],
    };
    const data = await buildPurchaseOrderWorkbook(awkward);
    const workbook = await load(data);
    expect(workbook.worksheets.map((ws) => ws.name)).toEqual([
      SUMMARY_SHEET_NAME,
      'SUP-9 O\u2019Brien Group Outerwear K',
      'SUP-9 O\u2019Brien Group Outerwe (2)',
    ]);
    // The print titles refer to each sheet by its quoted name, which must stay one valid reference.
    const entry = readZipDirectory(data, { maxEntries: 100 }).find((e) => e.name === 'xl/workbook.xml');
    if (entry === undefined) throw new Error('no workbook.xml');
    const xml = (await inflateEntry(data, entry)).toString('utf8');
    const titles = [...xml.matchAll(/<definedName name="_xlnm.Print_Titles"[^>]*>([^<]*)<\/definedName>/g)];
    expect(titles).toHaveLength(3);
    for (const [, ref] of titles) expect(ref?.replace(/&apos;/g, "'")).toMatch(/^'[^']+'!\$\d+:\$\d+$/);
  });
});

describe('safeSheetName', () => {
  it('drops the characters Excel forbids and keeps within 31 characters', () => {
    const name = safeSheetName("SUP-001 A/B [Textiles]: *best*? \\ prices 'quoted' by a very long supplier name");
    expect(name.length).toBeLessThanOrEqual(SHEET_NAME_MAX_LENGTH);
    expect(name).not.toMatch(/[[\]:*?/\\]/);
    expect(name).toBe('SUP-001 A B Textiles best price');
    expect(safeSheetName("SUP-001 A/B [Textiles]: 'best'")).toBe('SUP-001 A B Textiles \u2019best\u2019');
  });

  it('makes names unique ignoring case, within the length limit', () => {
    expect(safeSheetName('Summary', ['Summary'])).toBe('Summary (2)');
    expect(safeSheetName('summary', ['Summary', 'summary (2)'])).toBe('summary (3)');
    const long = 'x'.repeat(40);
    const second = safeSheetName(long, [safeSheetName(long)]);
    expect(second).toBe(`${'x'.repeat(27)} (2)`);
    expect(second.length).toBe(SHEET_NAME_MAX_LENGTH);
  });

  it('avoids the reserved name, apostrophes, empty names and half a surrogate pair', () => {
    expect(safeSheetName('History')).toBe('History (2)');
    expect(safeSheetName("'Quoted'")).toBe('\u2019Quoted\u2019');
    expect(safeSheetName("O'Brien & Sons")).toBe('O\u2019Brien & Sons');
    expect(safeSheetName(' ::// ')).toBe('Sheet');
    expect(safeSheetName('tab\there\u0000')).toBe('tab here');
    const emoji = `${'a'.repeat(30)}😀`;
    expect(safeSheetName(emoji)).toBe('a'.repeat(30));
  });
});

describe('describing terms and breaks', () => {
  it('spells out the instalments', () => {
    expect(describePaymentTerms('100', { instalments: true })).toBe('100 (100% at order)');
    expect(describePaymentTerms('40/60', { instalments: true })).toBe('40/60 (40% at order, 60% at delivery)');
    expect(describePaymentTerms('33/33/33', { instalments: true })).toBe(
      '33/33/33 (33% at order, 33% midway, 33% at delivery)',
    );
    expect(describePaymentTerms('Net 30', { instalments: true })).toBe('Net 30');
  });

  it('lists price breaks by quantity', () => {
    expect(
      describePriceBreaks([
        { minQty: 1000, unitPrice: 11.2 },
        { minQty: 100, unitPrice: 12.4 },
        { minQty: 500, unitPrice: 11.9525 },
      ]),
    ).toBe('100+ 12.40 · 500+ 11.9525 · 1,000+ 11.20');
    expect(describePriceBreaks([])).toBe('—');
  });
});
