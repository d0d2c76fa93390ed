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
    expect(text).toContain(':white_check_mark: PASS · active');
    expect(text).toContain(':large_yellow_circle: NEUTRAL · paused — waiting for the buyer');
    expect(text).toContain(':x: FAIL · impasse — Price gap exceeds threshold');
    expect(text).toContain('— · 15 days');
    expect(text.match(/best offer/g)).toHaveLength(1);
    expect(m.text).toBe('Round 2 of 4: 1 PASS, 1 NEUTRAL, 1 FAIL. Best offer: Valden Textiles at $41,650.00.');
  });

  it('takes the best supplier from the model when given', () => {
    const text = visibleText(buildRoundAnalysis({ ...model, bestSupplierCode: 'SUP-002' }));
    expect(text).toContain(':star: *Alpine Premium* — *best offer*');
    expect(visibleText(buildRoundAnalysis({ ...model, bestSupplierCode: null }))).not.toContain('best offer');
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
