import { describe, expect, it } from 'vitest';
import { formatTruthJson, quotationTruthSchema, type QuotationTruth } from './truth.js';

const valid: QuotationTruth = {
  file: '03-header-row-9.xlsx',
  documentKind: 'quotation',
  description: 'Header on row 9.',
  messes: [2],
  supplier: { name: 'Ningbo Everbright Garments Co., Ltd.' },
  terms: {
    paymentTerms: '30% deposit, 70% before shipment',
    leadTimeDays: 45,
    currency: 'USD',
    incoterm: 'FOB Ningbo',
    moq: 300,
    validityDays: 30,
  },
  items: [
    {
      sheet: 'Quotation',
      row: 12,
      sku: 'MC001-GLW-XL',
      rawSku: 'MC00l-GLW-XL',
      description: 'Summit Rain Shell',
      color: 'Glacier White',
      size: 'XL',
      quantity: 300,
      unitPrice: 12.35,
      tiers: [
        { minQty: 1, unitPrice: 12.35 },
        { minQty: 500, unitPrice: 11.9 },
      ],
    },
  ],
  charges: [{ description: 'Sea freight to Rotterdam', amount: 850 }],
  statedTotal: 4555,
};

const withItem = (change: Partial<QuotationTruth['items'][number]>): unknown => ({
  ...valid,
  items: valid.items.map((item) => ({ ...item, ...change })),
});

describe('quotationTruthSchema', () => {
  it('accepts a well-formed truth', () => {
    expect(quotationTruthSchema.parse(valid)).toEqual(valid);
  });

  it('rejects what would make a truth ambiguous', () => {
    expect(quotationTruthSchema.safeParse(withItem({ sku: 'MC00l-GLW-XL' })).success).toBe(false);
    expect(quotationTruthSchema.safeParse(withItem({ unitPrice: 12.345_67 })).success).toBe(false);
    expect(quotationTruthSchema.safeParse(withItem({ rawSku: null, description: null })).success).toBe(false);
    expect(quotationTruthSchema.safeParse(withItem({ quantity: 0 })).success).toBe(false);
    expect(
      quotationTruthSchema.safeParse(withItem({ tiers: [...(valid.items[0]?.tiers ?? [])].reverse() })).success,
    ).toBe(false);
    expect(quotationTruthSchema.safeParse({ ...valid, messes: [17] }).success).toBe(false);
    expect(quotationTruthSchema.safeParse({ ...valid, terms: { ...valid.terms, currency: 'US$' } }).success).toBe(
      false,
    );
    expect(quotationTruthSchema.safeParse({ ...valid, extra: true }).success).toBe(false);
  });

  it('accepts an item not in the catalog', () => {
    expect(quotationTruthSchema.safeParse(withItem({ sku: null })).success).toBe(true);
  });
});

describe('formatTruthJson', () => {
  it('writes one item per line and parses back to the same truth', () => {
    const json = formatTruthJson(valid);
    expect(JSON.parse(json)).toEqual(valid);
    expect(json.split('\n').filter((line) => line.includes('"sheet":"Quotation"'))).toHaveLength(1);
    expect(json.endsWith('}\n')).toBe(true);
  });
});
