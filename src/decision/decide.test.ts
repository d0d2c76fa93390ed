import { describe, expect, it } from 'vitest';
import { createOfflineBrandAgent } from '../negotiation/agents/offline-brand.js';
import { createOfflineSupplierAgent } from '../negotiation/agents/offline-supplier.js';
import { runUnattended } from '../negotiation/run-unattended.js';
import { decide, decisionInputFromState } from './decide.js';
import { baselineOf, curveballInput, landedCostInput, numbersOf, offerOf, PROFILES } from './decide-fixtures.js';

describe('decide', () => {
  it('splits when the curveball caps the cheapest supplier, and says why the cheapest is not the whole award', () => {
    const numbers = numbersOf(decide(curveballInput()));
    const plan = numbers.allocation;
    expect(numbers.recommendation.supplierCodes).toEqual(['SUP-001', 'SUP-002']);
    expect(numbers.recommendation).toMatchObject({ isSplit: true, forcedSplit: false, leadTimeDays: 30 });
    expect(numbers.award.map((a) => [a.supplierCode, a.lines.map((l) => l.sku), a.fob])).toEqual([
      ['SUP-001', ['A'], 9_000],
      ['SUP-002', ['B'], 8_500],
    ]);
    expect(numbers.recommendation.shares.map((s) => s.share)).toEqual([0.5143, 0.4857]);
    expect(plan).toMatchObject({ fob: 17_500, cashFlowCost: 0, splitOverhead: 875, effectiveLandedCost: 18_375 });
    expect(plan.bestSingle).toEqual({ supplierCode: 'SUP-001', effectiveLandedCost: 18_600 });
    // The cap is the curveball's, not the offer's: SUP-002's offer itself said 100%.
    expect(numbers.offers.find((o) => o.supplierCode === 'SUP-002')).toMatchObject({
      capacityShare: 0.6,
      canFillAlone: false,
    });
    expect(numbers.award[1]?.lines[0]).toMatchObject({ description: 'Item B', quantity: 100, unitPrice: 85 });

    expect(numbers.cheapestNotChosen).toMatchObject({
      cheapestCode: 'SUP-002',
      cheapestName: 'Alpine Premium',
      cheapestTotal: 16_500,
      chosenCodes: ['SUP-001', 'SUP-002'],
      fobPremium: 1_000,
      fobPremiumShare: 0.0606,
      landedDifference: null,
    });
    expect(numbers.cheapestNotChosen?.reasonFacts).toEqual([
      'Alpine Premium can fill at most 60% of the order value',
      'Alpine Premium still gets 48.6% of the order',
      "the award's FOB of $17,500.00 is $1,000.00 (6.1%) above Alpine Premium's $16,500.00",
      'the split still wins after its 5% overhead ($875.00): $18,375.00 against $18,600.00 for the best single supplier',
    ]);
  });

  it('computes identified, awarded and landed savings and cost avoidance against the quotation, by hand', () => {
    const { savings } = numbersOf(decide(curveballInput()));
    // Identified: quoted $20,000 − the lowest final offer (SUP-002, $16,500) = $3,500, 17.5%.
    expect(savings.identified).toEqual({
      amount: 3_500,
      share: 0.175,
      bestOfferCode: 'SUP-002',
      bestOfferTotal: 16_500,
    });
    // Awarded: quoted $20,000 − the award's FOB $17,500 = $2,500, 12.5%.
    expect(savings.awarded).toEqual({ amount: 2_500, share: 0.125, awardedFob: 17_500 });
    // Landed: the quotation is paid on delivery (no cash-flow cost), the award carries the $875 overhead.
    expect(savings.landed).toMatchObject({ baselineLandedCost: 20_000, awardedLandedCost: 18_375, amount: 1_625 });
    expect(savings.landed?.share).toBeCloseTo(0.08125, 3);
    // Cost avoidance: the awarded lines at the awarded suppliers' opening prices: SUP-001 A 100 × $100 + SUP-002 B
    // 100 × $90 = $19,000, less the award's $17,500.
    expect(savings.costAvoidance).toEqual({ openingFob: 19_000, amount: 1_500, share: 0.0789 });
  });

  it('awards the cheapest supplier alone when nothing caps it, with no reason to give', () => {
    const numbers = numbersOf(decide(curveballInput({ capacityCaps: {} })));
    expect(numbers.recommendation.supplierCodes).toEqual(['SUP-002']);
    expect(numbers.cheapestNotChosen).toBeNull();
    expect(numbers.savings.identified.amount).toBe(numbers.savings.awarded.amount);
  });

  it('explains a cheapest offer that loses on landed cost once cash-flow cost counts (seed §10 terms)', () => {
    const numbers = numbersOf(decide(landedCostInput()));
    expect(numbers.recommendation.supplierCodes).toEqual(['SUP-003']);
    const byCode = Object.fromEntries(numbers.offers.map((o) => [o.supplierCode, o]));
    expect(byCode['SUP-001']).toMatchObject({ cashFlowCost: 460.27, effectiveLandedCost: 42_460.27 });
    expect(byCode['SUP-003']).toMatchObject({ cashFlowCost: 92.71, effectiveLandedCost: 42_392.71 });
    expect(numbers.cheapestNotChosen).toMatchObject({
      cheapestCode: 'SUP-001',
      chosenCodes: ['SUP-003'],
      fobPremium: 300,
      landedDifference: -67.56,
    });
    expect(numbers.cheapestNotChosen?.reasonFacts).toContain(
      "counting cash-flow cost, the award's effective landed cost of $42,392.71 is $67.56 below Ningbo Everbright's " +
        '$42,460.27 (paying 100% upfront, 50 days before delivery, ties up capital costing $460.27)',
    );
    // Quoted $45,000: identified = 45,000 − 42,000; awarded = 45,000 − 42,300.
    expect(numbers.savings.identified.amount).toBe(3_000);
    expect(numbers.savings.awarded.amount).toBe(2_700);
    // The quotation's own 33/33/33 over 50 days: 45,000 × 8% × (50 + 25 + 0)/3/365 = $246.58.
    expect(numbers.baseline.cashFlowCost).toBe(246.58);
  });

  it('in a scored mode names the scores that outweigh a small price premium', () => {
    const numbers = numbersOf(
      decide({
        mode: 'quality',
        baseline: baselineOf({ A: 450 }),
        profiles: PROFILES,
        finalOffers: [offerOf('SUP-001', { A: 420 }), offerOf('SUP-002', { A: 425 })],
      }),
    );
    expect(numbers.recommendation.supplierCodes).toEqual(['SUP-002']);
    const facts = numbers.cheapestNotChosen?.reasonFacts ?? [];
    expect(
      facts.some((f) =>
        /^in quality mode Alpine Premium scores [\d.]+ against Ningbo Everbright's [\d.]+ \(quality 94 vs 80/.test(f),
      ),
    ).toBe(true);
    expect(facts).toContain(
      "the award's effective landed cost of $42,500.00 is $500.00 above Ningbo Everbright's $42,000.00, a premium " +
        'the quality mode weighs against quality, speed, terms and reliability',
    );
  });

  it('refuses to decide with no offers, or when no allocation covers the order', () => {
    expect(decide(curveballInput({ finalOffers: [] }))).toMatchObject({ ok: false, error: 'no_offers' });
    const uncovered = decide(curveballInput({ baseline: baselineOf({ A: 100, B: 100, C: 100 }) }));
    expect(uncovered).toMatchObject({ ok: false, error: 'no_allocation' });
    if (!uncovered.ok) expect(uncovered.message).toMatch(/No supplier can take 1 line \(C\)/);
  });

  it('is deterministic: the same input in another order gives the same numbers', () => {
    const input = curveballInput();
    const shuffled = { ...input, finalOffers: [...input.finalOffers].reverse() };
    expect(decide(shuffled)).toEqual(decide(input));
  });

  it('decides a real negotiation: the curveball cap holds and the allocations add up', async () => {
    const baseline = baselineOf({ 'MC001-BON-XL': 42.5, 'KT004-EMR-M': 8.2, 'PT002-OLV-32': 31 });
    const { state } = await runUnattended(
      {
        seed: 7,
        brandName: 'Valden Outdoor',
        mode: 'cost',
        maxRounds: 4,
        mandate: { targetTotal: null, walkAwayTotal: null },
        buyerNotes: null,
        baseline,
        profiles: [...PROFILES],
      },
      { brand: createOfflineBrandAgent(), supplier: () => createOfflineSupplierAgent() },
      { answers: 'auto' },
    );
    expect(state.curveball?.supplierCode).toBe('SUP-002');
    const input = decisionInputFromState(state);
    expect(input.capacityCaps).toEqual({ 'SUP-002': 0.6 });
    const numbers = numbersOf(decide(input));
    const cents = (x: number) => Math.round(x * 100);
    expect(numbers.award.reduce((sum, a) => sum + cents(a.fob), 0)).toBe(cents(numbers.allocation.fob));
    for (const a of numbers.award) if (a.supplierCode === 'SUP-002') expect(a.share).toBeLessThanOrEqual(0.6);
    expect(numbers.savings.awarded.amount).toBe((cents(baseline.total) - cents(numbers.allocation.fob)) / 100);
  });
});
