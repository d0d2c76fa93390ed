import { describe, expect, it } from 'vitest';
import { type FileLine, offerFromFile } from './offer-from-file.js';

const requested = [{ sku: 'MV001-CYB-XS' }, { sku: 'MV001-CYB-S' }, { sku: 'WS004-TRT-L' }, { sku: 'KT012-ALB-L' }];
const line = (over: Partial<FileLine>): FileLine => ({
  rawSku: null,
  description: null,
  unitPrice: 10,
  reviewState: 'needs_review',
  match: { sku: null },
  ...over,
});
const terms = { paymentTerms: '30% deposit, 70% before shipment', leadTimeDays: 40, currency: 'USD', validityDays: 30 };

describe('offerFromFile', () => {
  it('prices each request line the file names, by the brand’s SKU, the supplier’s own or a sure match, and fills nothing', () => {
    const read = offerFromFile({
      requested,
      currency: 'USD',
      supplierSkus: new Map([['NB-7781', 'MV001-CYB-S']]),
      lines: [
        line({ rawSku: ' mv001-cyb-xs ', unitPrice: 18.5 }),
        line({ rawSku: 'NB-7781', unitPrice: 19.25 }),
        line({ rawSku: 'X-1', unitPrice: 22, reviewState: 'auto_accepted', match: { sku: 'WS004-TRT-L' } }),
        // A guess the matcher was unsure of is no line of the request.
        line({ rawSku: 'X-2', unitPrice: 9, match: { sku: 'KT012-ALB-L' } }),
        line({ rawSku: 'FREIGHT', description: 'Sea freight', unitPrice: 850 }),
      ],
      terms,
    });
    expect(read.offer).toEqual({
      unitPrices: [18.5, 19.25, 22, null],
      leadTimeDays: 40,
      paymentTerms: '30/70',
      validityDays: 30,
      notes: null,
    });
    expect(read.priced).toBe(3);
    expect(read.unmatched.map((u) => u.sku)).toEqual(['X-2', 'FREIGHT']);
    expect(read.otherCurrency).toBeNull();
  });

  it('leaves out a line priced twice at different prices, and keeps one priced twice alike', () => {
    const read = offerFromFile({
      requested,
      currency: 'USD',
      supplierSkus: new Map(),
      lines: [
        line({ rawSku: 'MV001-CYB-XS', unitPrice: 18.5 }),
        line({ rawSku: 'MV001-CYB-XS', unitPrice: 17 }),
        line({ rawSku: 'WS004-TRT-L', unitPrice: 22 }),
        line({ rawSku: 'WS004-TRT-L', unitPrice: 22.001 }),
        line({ rawSku: 'KT012-ALB-L', unitPrice: 0 }),
      ],
      terms: { ...terms, paymentTerms: 'T/T' },
    });
    expect(read.offer.unitPrices).toEqual([null, null, 22.001, null]);
    expect(read.conflicting).toEqual(['MV001-CYB-XS']);
    expect(read.offer.paymentTerms).toBeNull();
  });

  it('reads nothing as an offer from a file in another currency', () => {
    const read = offerFromFile({
      requested,
      currency: 'USD',
      supplierSkus: new Map(),
      lines: [line({ rawSku: 'MV001-CYB-XS', unitPrice: 18.5 })],
      terms: { ...terms, currency: 'EUR' },
    });
    expect(read.otherCurrency).toBe('EUR');
    expect(read.priced).toBe(0);
  });
});
