import { describe, expect, it } from 'vitest';
import { MATCH_REVIEW, SIMULATED_SUPPLIERS } from '../config/business-rules.js';
import { identifySupplier, normalizeSupplierName, supplierNameSimilarity } from './supplier-identification.js';

const suppliers = [
  { id: 's1', code: 'SUP-001', name: 'Ningbo Huamei Garment Co., Ltd.' },
  ...SIMULATED_SUPPLIERS.map(({ code, name }, i) => ({ id: `s${i + 2}`, code, name })),
  { id: 's4', code: 'SUP-004', name: '宁波华美服饰有限公司' },
  { id: 's5', code: 'SUP-005', name: 'Everest Textile Trading Limited' },
  { id: 's6', code: 'SUP-006', name: 'Everest Textile Industrial Limited' },
];

describe('normalizeSupplierName', () => {
  it.each([
    ['Ningbo Huamei Garment Co., Ltd.', ['ningbo', 'huamei', 'garment']],
    ['NINGBO HUAMEI GARMENT CO.,LTD', ['ningbo', 'huamei', 'garment']],
    ['Alpine Premium GmbH', ['alpine', 'premium']],
    ['RapidGear Co', ['rapidgear']],
    ['Summit Outdoor Supply, Inc.', ['summit', 'outdoor', 'supply']],
    ['Acme Trading LLC', ['acme']],
    ['Xiamen Industrial Limited', ['xiamen']],
    ['Smith & Sons Ltd', ['smith', 'and', 'sons']],
    ["O'Neill Textiles", ['oneill', 'textiles']],
    ['宁波华美服饰有限公司', ['宁波华美服饰']],
    ['ＡＬＰＩＮＥ　ＰＲＥＭＩＵＭ', ['alpine', 'premium']],
  ])('reads %j as %j', (name, words) => {
    expect(normalizeSupplierName(name)).toEqual(words);
  });

  it('keeps a name made only of legal words rather than compare nothing', () => {
    expect(normalizeSupplierName('Trading Co., Ltd.')).toEqual(['trading', 'co', 'ltd']);
  });
});

describe('supplierNameSimilarity', () => {
  it('is 1 for the same words, whatever the spacing', () => {
    expect(supplierNameSimilarity(['rapid', 'gear'], ['rapidgear'])).toBe(1);
  });

  it('forgives a slip in a long name, not a different name', () => {
    expect(supplierNameSimilarity(['ningbo', 'huamei', 'garments'], ['ningbo', 'huamei', 'garment'])).toBeGreaterThan(
      MATCH_REVIEW.autoAcceptAt,
    );
    expect(supplierNameSimilarity(['acme'], ['apex'])).toBeLessThan(MATCH_REVIEW.mustActBelow);
    expect(supplierNameSimilarity([], ['apex'])).toBe(0);
  });
});

describe('identifySupplier', () => {
  it('is unknown when the sheet names no supplier', () => {
    for (const name of [null, '', '   ']) {
      expect(identifySupplier(name, suppliers)).toEqual({
        status: 'unknown',
        supplier: null,
        confidence: 0,
        candidates: [],
      });
    }
  });

  it.each([
    ['Ningbo Huamei Garment Co., Ltd.', 'SUP-001'],
    ['NINGBO HUAMEI GARMENT CO LTD', 'SUP-001'],
    ['Ningbo Huamei Garment', 'SUP-001'],
    ['Ningbo Huamei Garments Co. Limited', 'SUP-001'],
    ['alpine premium', 'SUP-002'],
    ['Alpine Premium GmbH', 'SUP-002'],
    ['Rapid Gear Co., Ltd.', 'SUP-003'],
    ['RapidGear', 'SUP-003'],
    ['宁波华美服饰', 'SUP-004'],
    ['宁波华美服饰有限公司', 'SUP-004'],
    ['SUP-002', 'SUP-002'],
  ])('finds %j as the existing supplier %s', (name, code) => {
    const identified = identifySupplier(name, suppliers);
    expect(identified.status).toBe('existing');
    expect(identified.supplier?.code).toBe(code);
    expect(identified.confidence).toBeGreaterThanOrEqual(MATCH_REVIEW.autoAcceptAt);
    expect(identified.candidates[0]?.code).toBe(code);
  });

  it('calls a supplier nobody knows new, sure of it when nothing resembles it', () => {
    const identified = identifySupplier('Summit Outdoor Supply Inc.', suppliers);
    expect(identified).toEqual({ status: 'new', supplier: null, confidence: 1, candidates: [] });
  });

  it('calls a partial resemblance new, offering the resembling supplier to a human', () => {
    const identified = identifySupplier('Alpine Outfitters', suppliers);
    expect(identified.status).toBe('new');
    expect(identified.supplier).toBeNull();
    expect(identified.candidates.map((candidate) => candidate.code)).toEqual(['SUP-002']);
    expect(identified.candidates[0]?.confidence).toBeLessThan(MATCH_REVIEW.autoAcceptAt);
  });

  it('does not pick between two suppliers the name fits equally', () => {
    const identified = identifySupplier('Everest Textile', suppliers);
    expect(identified.status).toBe('new');
    expect(identified.supplier).toBeNull();
    expect(identified.confidence).toBeLessThan(MATCH_REVIEW.mustActBelow);
    expect(identified.candidates.map((candidate) => candidate.code).sort()).toEqual(['SUP-005', 'SUP-006']);
  });

  it('offers at most maxCandidates suppliers, best first', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ id: `m${i}`, code: `M-${i}`, name: `Harbor Knit ${i}` }));
    const identified = identifySupplier('Harbor Knit', many);
    expect(identified.candidates.length).toBeLessThanOrEqual(MATCH_REVIEW.maxCandidates);
    const confidences = identified.candidates.map((candidate) => candidate.confidence);
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
  });

  it('works with no suppliers at all', () => {
    expect(identifySupplier('Anyone Ltd', [])).toEqual({
      status: 'new',
      supplier: null,
      confidence: 1,
      candidates: [],
    });
  });
});
