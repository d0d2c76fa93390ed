import { describe, expect, it } from 'vitest';
import { createRng } from '../../../commerce/rng.js';
import { PRICE_RANGES } from '../../../config/business-rules.js';
import { agentTurnSchema, type Offer } from '../../types.js';
import { baselineValue } from './concessions.js';
import { readOfferDraft, supplierTurnSchema, type CompetitorMention, type SupplierTurn } from '../interfaces.js';
import { offlineSupplierTurn } from './supplier-agent.js';
import { BASELINE, brandAction, STRATEGIES, supplierContext, toOffer } from '../../../../test/support/agents.js';

const VALUE = baselineValue(BASELINE);

interface SupplierRun {
  turns: SupplierTurn[];
  offers: Offer[];
}

interface RunOptions {
  seed: number;
  maxRounds?: number;
  /** Rounds in which the brand cites a competitor at this share of the baseline. */
  leverage?: { rounds: readonly number[]; factor: number };
  /** The brand's asked total as a share of the baseline, per round. */
  askFactor?: (round: number) => number | null;
  curveballFrom?: number;
  strategies?: readonly string[];
}

/** One supplier against a scripted brand: an RFQ in round 1, then counters with the given asks and citations. */
function runSupplier(code: string, options: RunOptions): SupplierRun {
  const rng = createRng(options.seed);
  const maxRounds = options.maxRounds ?? 4;
  const run: SupplierRun = { turns: [], offers: [] };
  const messages: { round: number; from: 'brand' | 'supplier'; text: string; action: SupplierTurn['action'] }[] = [];
  const asks: { round: number; targetTotal: number | null; leadTimeDays: null; paymentTerms: null }[] = [];
  const mentions: CompetitorMention[] = [];
  for (let round = 1; round <= maxRounds; round += 1) {
    const factor = round === 1 ? null : (options.askFactor?.(round) ?? null);
    const action =
      round === 1
        ? { type: 'REQUEST_CRITERIA' as const, payload: {} }
        : brandAction({ round, targetTotal: factor === null ? null : Math.round(VALUE * factor) });
    if (round > 1)
      asks.push({
        round,
        targetTotal: factor === null ? null : Math.round(VALUE * factor),
        leadTimeDays: null,
        paymentTerms: null,
      });
    if (options.leverage?.rounds.includes(round) === true) {
      mentions.push({
        round,
        supplierCode: 'SUP-009',
        supplierName: 'Rival Mills',
        total: VALUE * options.leverage.factor,
        leadTimeDays: 30,
        paymentTerms: '30/70',
      });
    }
    const turn = offlineSupplierTurn(
      supplierContext(code, {
        history: { messages: [...messages], offers: [...run.offers], brandAsks: [...asks] },
        latestBrandMessage: { text: 'Your move.', action },
        round,
        maxRounds,
        phase: options.curveballFrom !== undefined && round >= options.curveballFrom ? 'post_curveball' : 'initial',
        competitorMentions: [...mentions],
        curveball:
          options.curveballFrom !== undefined && round >= options.curveballFrom
            ? { capacityShare: 0.6, reason: 'line capacity' }
            : null,
        suggestedStrategies: options.strategies ?? [...STRATEGIES],
        rng,
      }),
    );
    run.turns.push(turn);
    messages.push({ round, from: 'supplier', text: turn.message_text, action: turn.action });
    const draft = readOfferDraft(turn.action);
    if (draft !== null && turn.action.type !== 'REJECT') run.offers.push(toOffer(draft, code, round));
    if (turn.action.type === 'REJECT' || turn.action.type === 'WALK_AWAY' || turn.action.type === 'ACCEPT') break;
  }
  return run;
}

const factorOf = (offer: Offer): number => offer.total / VALUE;
const SEEDS = Array.from({ length: 40 }, (_, index) => index + 1);

describe('offline supplier: determinism', () => {
  it('gives the same turn for the same context and seed', () => {
    for (const code of ['SUP-001', 'SUP-002', 'SUP-003']) {
      const options = { seed: 11, leverage: { rounds: [3], factor: 0.9 }, askFactor: () => 0.9, curveballFrom: 2 };
      expect(runSupplier(code, options)).toEqual(runSupplier(code, options));
    }
  });

  it('varies with the seed', () => {
    const texts = new Set(
      SEEDS.slice(0, 10).map((seed) =>
        runSupplier('SUP-003', { seed })
          .turns.map((t) => t.message_text)
          .join('|'),
      ),
    );
    expect(texts.size).toBeGreaterThan(5);
  });
});

describe('offline supplier: SUP-001, the quoting factory', () => {
  it('opens at the quoted baseline, its lead time and terms', () => {
    const [opening] = runSupplier('SUP-001', { seed: 1, maxRounds: 1 }).turns;
    expect(opening?.action.type).toBe('PROPOSE_OFFER');
    const draft = opening === undefined ? null : readOfferDraft(opening.action);
    expect(draft?.lines.map((line) => line.unitPrice)).toEqual(BASELINE.lines.map((line) => line.unitPrice));
    expect(draft?.leadTimeDays).toBe(50);
    expect(draft?.paymentTerms).toBe('33/33/33');
  });

  it('concedes price in decreasing steps', () => {
    for (const seed of SEEDS) {
      const totals = runSupplier('SUP-001', { seed, maxRounds: 5 }).offers.map((offer) => offer.total);
      const steps = totals.slice(1).map((total, index) => (totals[index] ?? total) - total);
      expect(steps.every((step) => step > 0)).toBe(true);
      for (let index = 1; index < steps.length; index += 1) {
        expect(steps[index]).toBeLessThan(steps[index - 1] ?? Infinity);
      }
    }
  });

  it('never goes below its floor, however hard it is pushed, and may end the talks when pushed repeatedly', () => {
    const endings = new Set<string>();
    for (const seed of SEEDS) {
      const run = runSupplier('SUP-001', {
        seed,
        maxRounds: 5,
        askFactor: () => 0.6,
        leverage: { rounds: [2, 3, 4, 5], factor: 0.7 },
      });
      for (const offer of run.offers) expect(factorOf(offer)).toBeGreaterThanOrEqual(PRICE_RANGES.cheapest.min);
      const types = run.turns.map((turn) => turn.action.type);
      // The first push below the floor is answered with a counter; only the second may be refused.
      expect(types[1]).toBe('COUNTER_OFFER');
      endings.add(types.at(-1) ?? '');
    }
    expect(endings.has('REJECT') || endings.has('WALK_AWAY')).toBe(true);
    expect(endings.has('COUNTER_OFFER')).toBe(true);
  });
});

describe('offline supplier: SUP-002, the premium house', () => {
  it('opens at 1.30–1.35× the baseline on its own terms', () => {
    for (const seed of SEEDS) {
      const [offer] = runSupplier('SUP-002', { seed, maxRounds: 1 }).offers;
      expect(offer?.leadTimeDays).toBe(25);
      expect(offer?.paymentTerms).toBe('40/60');
      const factor = offer === undefined ? 0 : factorOf(offer);
      expect(factor).toBeGreaterThanOrEqual(1.3);
      expect(factor).toBeLessThanOrEqual(1.351);
    }
  });

  it('never discounts more than 5% off its opening, and stays inside its price range', () => {
    for (const seed of SEEDS) {
      const run = runSupplier('SUP-002', {
        seed,
        maxRounds: 5,
        askFactor: () => 1.05,
        leverage: { rounds: [2, 3, 4, 5], factor: 0.9 },
      });
      const opening = run.offers[0];
      if (opening === undefined) throw new Error('no opening');
      for (const offer of run.offers) {
        expect(offer.total).toBeGreaterThanOrEqual(opening.total * 0.95 - 0.01);
        expect(factorOf(offer)).toBeGreaterThanOrEqual(PRICE_RANGES.expensive.min);
        expect(factorOf(offer)).toBeLessThanOrEqual(PRICE_RANGES.expensive.max);
      }
    }
  });

  it('gives non-price concessions before price', () => {
    for (const seed of SEEDS) {
      const [opening, second] = runSupplier('SUP-002', { seed, maxRounds: 4, askFactor: () => 1.25 }).offers;
      expect(second?.total).toBe(opening?.total);
      expect(second?.concessions.some((text) => /sample|warranty/i.test(text))).toBe(true);
    }
  });

  it('after the curveball offers at most 60% of the order and says so every turn', () => {
    for (const seed of SEEDS) {
      const run = runSupplier('SUP-002', { seed, curveballFrom: 2, askFactor: () => 1.25 });
      for (const [index, turn] of run.turns.entries()) {
        if (index === 0) continue;
        expect(readOfferDraft(turn.action)?.capacityShare).toBeLessThanOrEqual(0.6);
        expect(turn.message_text).toContain('60%');
      }
    }
  });
});

describe('offline supplier: SUP-003, the fast restructurer', () => {
  it('opens around 1.10× the baseline, 15 days, 100% upfront', () => {
    for (const seed of SEEDS) {
      const [offer] = runSupplier('SUP-003', { seed, maxRounds: 1 }).offers;
      const factor = offer === undefined ? 0 : factorOf(offer);
      expect(factor).toBeGreaterThanOrEqual(1.08);
      expect(factor).toBeLessThanOrEqual(1.121);
      expect(offer?.paymentTerms).toBe('100');
      expect(offer?.leadTimeDays).toBe(15);
    }
  });

  it('changes terms before price: its first counter restructures and does not cut the price', () => {
    for (const seed of SEEDS) {
      const [opening, second] = runSupplier('SUP-003', { seed, askFactor: () => 1.0 }).offers;
      if (opening === undefined || second === undefined) throw new Error('missing offers');
      expect(second.total).toBeGreaterThanOrEqual(opening.total);
      const tierAdded = second.lines.some((line) => line.tiers.some((tier) => tier.minQty > line.quantity));
      expect(second.paymentTerms !== '100' || tierAdded || second.leadTimeDays < 15).toBe(true);
    }
  });

  it('stays inside its price range and its 10% maximum discount', () => {
    for (const seed of SEEDS) {
      const run = runSupplier('SUP-003', { seed, maxRounds: 5, leverage: { rounds: [2, 3, 4, 5], factor: 0.9 } });
      const opening = run.offers[0];
      if (opening === undefined) throw new Error('no opening');
      for (const offer of run.offers) {
        expect(factorOf(offer)).toBeGreaterThanOrEqual(PRICE_RANGES.mid.min);
        expect(factorOf(offer)).toBeLessThanOrEqual(PRICE_RANGES.mid.max);
        expect(offer.total).toBeGreaterThanOrEqual(opening.total * 0.9 - 0.01);
      }
    }
  });
});

describe('offline supplier: reactions', () => {
  it('concedes more when the brand cites a lower competitor', () => {
    for (const code of ['SUP-001', 'SUP-002', 'SUP-003']) {
      for (const seed of SEEDS) {
        const plain = runSupplier(code, { seed, maxRounds: 4 }).offers.slice(0, 2);
        const pressed = runSupplier(code, { seed, maxRounds: 4, leverage: { rounds: [2], factor: 0.8 } }).offers.slice(
          0,
          2,
        );
        const give = (offers: Offer[]): number => (offers[0]?.total ?? 0) - (offers[1]?.total ?? 0);
        expect(give(pressed)).toBeGreaterThan(give(plain));
        expect(pressed[1]?.total).toBeLessThan(plain[1]?.total ?? 0);
      }
    }
  });

  it('concedes more in the last round than with rounds to spare', () => {
    for (const seed of SEEDS) {
      const twoRounds = runSupplier('SUP-001', { seed, maxRounds: 2 }).offers;
      const fourRounds = runSupplier('SUP-001', { seed, maxRounds: 4 }).offers;
      expect(twoRounds[1]?.total).toBeLessThan(fourRounds[1]?.total ?? 0);
    }
  });

  it('accepts an ask it would have beaten anyway, at the asked price', () => {
    const run = runSupplier('SUP-001', { seed: 5, maxRounds: 2, askFactor: () => 0.99 });
    const accept = run.turns[1];
    expect(accept?.action.type).toBe('ACCEPT');
    expect(run.offers[1]?.total).toBeCloseTo(VALUE * 0.99, -1);
  });

  it('confirms the standing offer unchanged when the brand accepts it', () => {
    const opening = runSupplier('SUP-003', { seed: 2, maxRounds: 1 }).offers[0];
    if (opening === undefined) throw new Error('no opening');
    const turn = offlineSupplierTurn(
      supplierContext('SUP-003', {
        history: { messages: [], offers: [opening], brandAsks: [] },
        latestBrandMessage: { text: 'Deal.', action: { type: 'ACCEPT', payload: { acceptedTotal: opening.total } } },
        round: 2,
      }),
    );
    expect(turn.action.type).toBe('ACCEPT');
    expect(readOfferDraft(turn.action)?.lines).toEqual(opening.lines);
    expect(turn.message_text).toContain('$');
  });
});

describe('offline supplier: the turn itself', () => {
  const allTurns = (): SupplierTurn[] =>
    ['SUP-001', 'SUP-002', 'SUP-003'].flatMap((code) =>
      SEEDS.slice(0, 15).flatMap(
        (seed) =>
          runSupplier(code, { seed, curveballFrom: 2, askFactor: () => 0.95, leverage: { rounds: [3], factor: 0.85 } })
            .turns,
      ),
    );

  it('is valid seed 001 action JSON with an offer payload', () => {
    for (const turn of allTurns()) {
      expect(() => agentTurnSchema.parse(turn)).not.toThrow();
      expect(() => supplierTurnSchema.parse(turn)).not.toThrow();
      if (['PROPOSE_OFFER', 'COUNTER_OFFER', 'ACCEPT'].includes(turn.action.type)) {
        expect(readOfferDraft(turn.action)).not.toBeNull();
      }
    }
  });

  it('writes plain text under 700 characters, with numbers and SKUs as SKU(Description)', () => {
    for (const turn of allTurns()) {
      const text = turn.message_text;
      expect(text.length).toBeLessThanOrEqual(700);
      expect(text).not.toMatch(/[*_`~<>]/);
      expect(text).toMatch(/\d/);
      expect(text).not.toMatch(/[A-Z]{2}\d{3}-[A-Z0-9]{3}-[A-Z]+ \(/);
      if (turn.action.type === 'PROPOSE_OFFER' || turn.action.type === 'COUNTER_OFFER') {
        expect(text).toMatch(/[A-Z]{2}\d{3}-[A-Z0-9]{3}-[A-Z]+\([^)]+\)/);
      }
    }
  });

  it('reports the offered strategies it used: a subset, at least one on every offer', () => {
    for (const turn of allTurns()) {
      for (const id of turn.used_strategies) expect(STRATEGIES).toContain(id);
      if (turn.action.type === 'PROPOSE_OFFER' || turn.action.type === 'COUNTER_OFFER') {
        expect(turn.used_strategies.length).toBeGreaterThan(0);
      }
    }
    const bare = runSupplier('SUP-002', { seed: 3, strategies: [] }).turns;
    expect(bare.every((turn) => turn.used_strategies.length === 0)).toBe(true);
  });
});
