import { describe, expect, it } from 'vitest';
import { EMPTY_TERMS, type ExtractedLine, type Extraction, type SheetExtraction } from './types.js';
import { maxSaneUnitPrice, validateExtraction } from './validator.js';

const line = (overrides: Partial<ExtractedLine> = {}): ExtractedLine => ({
  sheet: 'Quote',
  row: 10,
  rawSku: 'MC001-GLW-XL',
  description: 'Summit Insulated Jacket',
  color: null,
  size: null,
  quantity: 100,
  unitPrice: 25,
  totalPrice: 2500,
  discount: null,
  notes: null,
  tiers: [],
  columns: { sku: 1, description: 2, quantity: 3, unitPrice: 4, total: 5 },
  ...overrides,
});

const sheet = (lines: ExtractedLine[], overrides: Partial<SheetExtraction> = {}): SheetExtraction => ({
  sheet: lines[0]?.sheet ?? 'Quote',
  headerRow: 9,
  confidence: 0.95,
  lines,
  charges: [],
  statedTotal: null,
  supplierName: null,
  terms: EMPTY_TERMS,
  notes: [],
  ...overrides,
});

const workbook = (...sheets: SheetExtraction[]): Extraction => ({
  sheets,
  supplierName: null,
  terms: EMPTY_TERMS,
  notes: [],
  warnings: [],
});

const codes = (extraction: Extraction) => validateExtraction(extraction).lineFlags.map((f) => f.map((x) => x.code));

describe('validateExtraction', () => {
  it('passes lines that add up', () => {
    const result = validateExtraction(
      workbook(
        sheet([line(), line({ row: 11, rawSku: 'MC001-GLW-L', quantity: 3, unitPrice: 12.345, totalPrice: 37.04 })]),
      ),
    );
    expect(result).toEqual({ lineFlags: [[], []], sheetFlags: [] });
  });

  it('flags quantity × price ≠ total at the total cell', () => {
    const { lineFlags } = validateExtraction(workbook(sheet([line({ totalPrice: 2600 })])));
    expect(lineFlags[0]).toEqual([
      {
        code: 'arithmetic_mismatch',
        message: '100 × 25 = 2500, but the sheet says 2600.',
        sheet: 'Quote',
        row: 10,
        column: 5,
      },
    ]);
  });

  it('accepts a total stated before the discount column', () => {
    expect(codes(workbook(sheet([line({ unitPrice: 23.75, discount: 0.05, totalPrice: 2500 })])))).toEqual([[]]);
  });

  it('flags missing, zero and negative quantities and prices', () => {
    const extraction = workbook(
      sheet([
        line({ quantity: null, totalPrice: null }),
        line({ row: 11, quantity: 0, totalPrice: null }),
        line({ row: 12, quantity: -5, totalPrice: null }),
        line({ row: 13, unitPrice: null, totalPrice: null }),
        line({ row: 14, unitPrice: 0, totalPrice: null }),
      ]),
    );
    expect(codes(extraction)).toEqual([
      ['missing_quantity'],
      ['non_positive_quantity'],
      ['non_positive_quantity'],
      ['missing_price'],
      ['absurd_price'],
    ]);
  });

  it('flags a price far from the rest of the quotation (a total typed into the price cell)', () => {
    const lines = [20, 22, 25, 18, 2500].map((unitPrice, i) =>
      line({ row: 10 + i, rawSku: `MC00${i}-GLW-XL`, unitPrice, totalPrice: null }),
    );
    const { lineFlags } = validateExtraction(workbook(sheet(lines)));
    expect(lineFlags.map((flags) => flags.map((f) => f.code))).toEqual([[], [], [], [], ['absurd_price']]);
    expect(lineFlags[4]?.[0]).toMatchObject({ row: 14, column: 4 });
  });

  it('judges a price against its own currency: ₹18,000 is sane, $18,000 is not', () => {
    const lines = [line({ unitPrice: 18_000, totalPrice: null })];
    const inr = { ...workbook(sheet(lines)), terms: { ...EMPTY_TERMS, currency: 'INR' } };
    const usd = { ...workbook(sheet(lines)), terms: { ...EMPTY_TERMS, currency: 'USD' } };
    expect(validateExtraction(inr).lineFlags).toEqual([[]]);
    expect(validateExtraction(usd).lineFlags[0]?.map((f) => f.code)).toEqual(['absurd_price']);
    expect(maxSaneUnitPrice('VND')).toBeGreaterThan(maxSaneUnitPrice('INR'));
    expect(maxSaneUnitPrice(null)).toBe(maxSaneUnitPrice('USD'));
  });

  it('flags the same line quoted on two sheets, at the second one', () => {
    const extraction = workbook(sheet([line()]), sheet([line({ sheet: 'Jackets', row: 4 })]));
    const { lineFlags } = validateExtraction(extraction);
    expect(lineFlags[0]).toEqual([]);
    expect(lineFlags[1]).toEqual([
      expect.objectContaining({
        code: 'duplicate_line',
        sheet: 'Jackets',
        row: 4,
        message: expect.stringContaining('Quote row 10'),
      }),
    ]);
  });

  it('checks the sheet total with and without charges', () => {
    const lines = [line(), line({ row: 11, rawSku: 'MC001-GLW-L' })];
    const charges = [{ sheet: 'Quote', row: 13, description: 'Freight', amount: 300 }];
    const total = (amount: number) => ({ row: 14, column: 5, amount });
    expect(validateExtraction(workbook(sheet(lines, { charges, statedTotal: total(5000) }))).sheetFlags).toEqual([]);
    expect(validateExtraction(workbook(sheet(lines, { charges, statedTotal: total(5300) }))).sheetFlags).toEqual([]);
    expect(validateExtraction(workbook(sheet(lines, { charges, statedTotal: total(5900) }))).sheetFlags).toEqual([
      expect.objectContaining({ code: 'total_mismatch', sheet: 'Quote', row: 14, column: 5 }),
    ]);
  });
});
