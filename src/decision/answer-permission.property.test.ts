// A permission never reduces what may be awarded. "Yes, split the order" answers "are you open to splitting?": it
// may let a split in, it must never rule the single-supplier award out. Checked as a property of the real award over
// many seeded orders, offers and mandates: whatever was feasible before such an answer is feasible after it.
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../commerce/rng.js';
import type { PresetMode } from '../config/business-rules.js';
import { applyAnswer, createMandate, type Mandate, type MandateInput } from '../negotiation/mandate.js';
import { baselineOf, NO_FREIGHT_OR_DUTY, offerOf, PROFILES } from '../../test/support/decide-fixtures.js';
import { decide, type DecisionInput } from './decide.js';

const SPLIT_QUESTION = {
  id: 'q2',
  topic: 'split_order',
  question:
    'Alpine Premium can now fill only 60% of the order. Are you open to splitting the order between two suppliers?',
};

/** How buyers say yes to the split question: each a permission, none a requirement. */
const PERMISSIONS = [
  'Yes, split the order',
  'Yes',
  'ok',
  'Sure, split it',
  'Split between the two is fine',
  'happy to split',
  'Split only if it saves money',
] as const;

const SKUS = ['A', 'B', 'C', 'D'];
const MODES: readonly PresetMode[] = ['cost', 'quality', 'speed', 'cashflow', 'balanced'];

function randomInput(rng: Rng): { input: DecisionInput; mandate: MandateInput } {
  const prices = Object.fromEntries(SKUS.map((sku) => [sku, rng.int(40, 120)]));
  const baseline = baselineOf(prices);
  const offer = (code: string, level: [number, number], leadTimeDays: number) =>
    offerOf(
      code,
      Object.fromEntries(
        SKUS.map((sku) => [
          sku,
          Math.round((prices[sku] ?? 1) * (level[0] + (level[1] - level[0]) * rng.next()) * 100) / 100,
        ]),
      ),
      { leadTimeDays, paymentTerms: rng.pick(['0/100', '30/70', '100']) },
    );
  const quotation = offerOf('SUP-001', prices);
  const finalOffers = [
    offer('SUP-001', [0.88, 1], rng.int(20, 60)),
    offer('SUP-002', [0.7, 1.3], rng.int(15, 40)),
    offer('SUP-003', [0.85, 1.15], rng.int(10, 30)),
  ];
  const mandate: MandateInput = {
    walkAwayTotal: rng.next() < 0.4 ? Math.round(baseline.total * (0.85 + 0.2 * rng.next())) : null,
    maxLeadTimeDays: rng.next() < 0.3 ? rng.int(15, 45) : null,
    sourcing: rng.pick(['any', 'any', 'single', 'split'] as const),
  };
  return {
    input: {
      mode: rng.pick(MODES),
      baseline,
      profiles: PROFILES,
      incotermCosts: NO_FREIGHT_OR_DUTY,
      quotation,
      finalOffers,
      capacityCaps: rng.next() < 0.7 ? { 'SUP-002': 0.6 } : {},
    },
    mandate,
  };
}

/** An earlier answer may have set the sourcing too (a requirement to split is one), not only the start modal. */
function afterEarlierAnswer(mandate: Mandate, rng: Rng): Mandate {
  if (rng.next() < 0.5) return mandate;
  const earlier = rng.pick(['We must split', 'Prefer a single supplier', 'Split only if it saves more than 5%']);
  return applyAnswer(mandate, { ...SPLIT_QUESTION, id: 'q1' }, earlier).mandate;
}

describe('a permission to split never reduces the feasible set', () => {
  it('whatever could be awarded before "yes, split" can be awarded after it, over many seeds', () => {
    let feasibleBefore = 0;
    let opened = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const rng = createRng(seed);
      const { input, mandate: start } = randomInput(rng);
      // Half the runs start from a modal that left sourcing open, so the answers have something to govern.
      const before = afterEarlierAnswer(createMandate(rng.next() < 0.5 ? { ...start, sourcing: 'any' } : start), rng);
      const permission = rng.pick(PERMISSIONS);
      const after = applyAnswer(before, SPLIT_QUESTION, permission).mandate;
      const label = `seed ${seed}: ${before.sourcing} then "${permission}" → ${after.sourcing}`;

      // Never a requirement: the sourcing after is the one before or looser.
      expect(after.sourcing === before.sourcing || after.sourcing === 'any', label).toBe(true);

      const outcomeBefore = decide({ ...input, mandate: before });
      const outcomeAfter = decide({ ...input, mandate: after });
      if (outcomeBefore.ok) {
        feasibleBefore++;
        expect(outcomeAfter.ok, label).toBe(true);
        // The best award can only stay or get better once more awards are allowed.
        if (outcomeAfter.ok && input.mode === 'cost' && after.minSplitSaving === before.minSplitSaving) {
          expect(outcomeAfter.numbers.allocation.effectiveLandedCost, label).toBeLessThanOrEqual(
            outcomeBefore.numbers.allocation.effectiveLandedCost + 0.01,
          );
        }
      } else if (outcomeAfter.ok) opened++;
    }
    // The grid covers both: awards that stay feasible, and answers that let an award in.
    expect(feasibleBefore).toBeGreaterThan(100);
    expect(opened).toBeGreaterThan(0);
  });
});
