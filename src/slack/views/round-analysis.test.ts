import { describe, expect, it } from 'vitest';
import { type RoundAnalysisModel, buildRoundAnalysis } from './round-analysis.js';
import { HOSTILE, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const model: RoundAnalysisModel = {
  round: 2,
  maxRounds: 4,
  phase: 'post_curveball',
  currency: 'USD',
  rows: [
    {
      supplierCode: 'SUP-001',
      supplierName: 'Valden Textiles',
      total: 41650,
      leadTimeDays: 50,
      paymentTerms: '33/33/33',
      evaluation: 'PASS',
      status: 'active',
    },
    {
      supplierCode: 'SUP-002',
      supplierName: 'Alpine Premium',
      total: 50440,
      leadTimeDays: 25,
      paymentTerms: '40/60',
      evaluation: 'NEUTRAL',
      status: 'paused',
      reason: 'waiting for the buyer',
    },
    {
      supplierCode: 'SUP-003',
      supplierName: 'RapidGear Co',
      total: null,
      leadTimeDays: 15,
      paymentTerms: '100',
      evaluation: 'FAIL',
      status: 'impasse',
      reason: 'Price gap exceeds threshold',
    },
  ],
};

describe('buildRoundAnalysis', () => {
  it('shows one row per supplier with figures, evaluation and status, best offer highlighted', () => {
    const m = buildRoundAnalysis(model);
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('Round 2 of 4 — analysis');
    expect(text).toContain('after the curveball');
    expect(text).toContain(':star: *Valden Textiles* — *best offer*');
    expect(text).toContain('$41,650.00 · 50 days · 33/33/33');
    expect(text).toContain(':white_check_mark: meets target · active');
    expect(text).toContain(':large_yellow_circle: within walk-away · paused — waiting for the buyer');
    // No offer is not "above walk-away".
    expect(text).toContain(':x: no offer · impasse — Price gap exceeds threshold');
    expect(text).not.toMatch(/\b(PASS|NEUTRAL|FAIL)\b/);
    expect(text).toContain('— · 15 days');
    expect(text.match(/best offer/g)).toHaveLength(1);
    expect(m.text).toBe(
      'Round 2 of 4: 1 meets target, 1 within walk-away, 0 above walk-away. Best offer: Valden Textiles at $41,650.00.',
    );
  });

  it('names the target and walk-away the labels measure, and says which one Parley implied', () => {
    const text = visibleText(
      buildRoundAnalysis({
        ...model,
        limits: { targetTotal: 40_000, walkAwayTotal: 44_000, targetSet: true, walkAwaySet: false },
      }),
    );
    expect(text).toContain('target $40,000.00 · walk-away $44,000.00 (10% above the target: none set)');
    const quote = (walkAwayTotal: number) =>
      visibleText(
        buildRoundAnalysis({
          ...model,
          limits: { targetTotal: Math.min(41_650, walkAwayTotal), walkAwayTotal, targetSet: false, walkAwaySet: true },
        }),
      );
    expect(quote(45_000)).toContain('target $41,650.00 (the quote: none set) · walk-away $45,000.00');
    // A walk-away below the quote is the target too: it is named as what it is.
    expect(quote(1_000)).toContain('target $1,000.00 (the walk-away: none set) · walk-away $1,000.00');
  });

  it('says what an offer for fewer lines is the total of, and never calls it the best offer', () => {
    const [full, ...others] = model.rows;
    if (!full) throw new Error('no row');
    const partial = { ...full, supplierCode: 'SUP-004', supplierName: 'Dhaka Knit', total: 9000 };
    const m = buildRoundAnalysis({
      ...model,
      rows: [full, { ...partial, partial: { offered: 3, quoted: 16 } }, ...others],
    });
    const text = visibleText(m);
    expect(text).toContain('$9,000.00 for 3 of 16 lines · 50 days');
    expect(text).toContain(':star: *Valden Textiles* — *best offer*');
    expect(text).not.toContain('*Dhaka Knit* — *best offer*');
    expect(m.text).toContain('Best offer: Valden Textiles');
  });

  it('takes the best supplier from the model when given', () => {
    const text = visibleText(buildRoundAnalysis({ ...model, bestSupplierCode: 'SUP-002' }));
    expect(text).toContain(':star: *Alpine Premium* — *best offer*');
    expect(visibleText(buildRoundAnalysis({ ...model, bestSupplierCode: null }))).not.toContain('best offer');
  });

  it('labels figures Parley assumed, and says "100% upfront", not "100"', () => {
    const [first, , third] = model.rows;
    if (first === undefined || third === undefined) throw new Error('fixture rows missing');
    const text = visibleText(
      buildRoundAnalysis({ ...model, rows: [{ ...first, assumedLeadTime: true, assumedTerms: true }, third] }),
    );
    expect(text).toContain('not stated _(50 days assumed)_ · not stated _(33/33/33 assumed)_');
    expect(text).toContain('15 days · 100% upfront');
    expect(visibleText(buildRoundAnalysis(model))).not.toContain('assumed');
  });

  it('stays within limits with many hostile rows', () => {
    const rows = Array.from({ length: 80 }, (_, i) => ({
      ...model.rows[0],
      supplierCode: `S${i}`,
      supplierName: HOSTILE.repeat(100),
      paymentTerms: HOSTILE,
      reason: HOSTILE.repeat(100),
      total: 1000 + i,
      leadTimeDays: 10,
      evaluation: 'PASS' as const,
      status: 'impasse' as const,
    }));
    const m = buildRoundAnalysis({ ...model, rows });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
    expect(visibleText(m)).toContain('…and 60 more suppliers');
  });
});
