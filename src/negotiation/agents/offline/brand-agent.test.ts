import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRng } from '../../../commerce/rng.js';
import { agentTurnSchema, type Baseline, type Offer } from '../../types.js';
import { cashCost } from '../brand-analysis.js';
import { formatSkuRef, wordCount } from '../format.js';
import {
  askInfoPayloadSchema,
  brandTurnSchema,
  readBrandAsk,
  readOfferDraft,
  type BrandTurnContext,
  type OtherSupplierView,
} from '../interfaces.js';
import { offlinePillars, offlineRfq, offlineSynthesize } from './brand-agent.js';
import { offlineSupplierTurn } from './supplier-agent.js';
import {
  BASELINE,
  brandContext,
  STRATEGIES,
  supplierContext,
  supplierProfile,
  toOffer,
} from '../../../../test/support/agents.js';

const SKU_REF = /[A-Z]{2}\d{3}-[A-Z0-9]{3}-[A-Z]+\([^)]+\)/;
const SEEDS = Array.from({ length: 30 }, (_, index) => index + 1);

/** Sample 01's eleven lines, as the reviewed quotation would hand them over. */
function sampleBaseline(): Baseline {
  const truth = z
    .object({
      items: z.array(
        z.object({ sku: z.string(), description: z.string(), quantity: z.number(), unitPrice: z.number() }),
      ),
    })
    .parse(
      JSON.parse(
        readFileSync(new URL('../../../../data/samples/01-clean-baseline.truth.json', import.meta.url), 'utf8'),
      ),
    );
  const lines = truth.items.map((item) => ({ ...item, tiers: [], notes: null }));
  return {
    supplierName: 'Quoted supplier',
    currency: 'USD',
    lines,
    total: lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0),
    paymentTerms: null,
    leadTimeDays: null,
    incoterm: null,
    moq: null,
    notes: [],
  };
}

/** Each supplier's opening offer, as the offline suppliers make it. */
function openingOffer(code: string, seed = 1): Offer {
  const turn = offlineSupplierTurn(supplierContext(code, { rng: createRng(seed) }));
  const draft = readOfferDraft(turn.action);
  if (draft === null) throw new Error(`${code} made no opening offer`);
  return toOffer(draft, code, 1);
}

function others(code: string, offers: Record<string, Offer | null>): OtherSupplierView[] {
  return ['SUP-001', 'SUP-002', 'SUP-003']
    .filter((other) => other !== code)
    .map((other) => ({ profile: supplierProfile(other), latestOffer: offers[other] ?? null }));
}

const OFFERS: Record<string, Offer> = {
  'SUP-001': openingOffer('SUP-001'),
  'SUP-002': openingOffer('SUP-002'),
  'SUP-003': openingOffer('SUP-003'),
};

/** Round 2 with the given supplier, its opening on the table, the others' openings as leverage. */
function roundTwo(
  code: string,
  seed: number,
  overrides: Partial<Omit<BrandTurnContext, 'supplier'>> = {},
): BrandTurnContext {
  const own = OFFERS[code];
  return brandContext(code, {
    history: { messages: [], offers: own === undefined ? [] : [own], brandAsks: [] },
    others: others(code, OFFERS),
    round: 2,
    phase: 'post_curveball',
    curveball: { supplierCode: 'SUP-002', supplierName: 'Alpine Premium', capacityShare: 0.6 },
    // Answered already, so these contexts test the counter rather than the question.
    clarifications: [
      { question: 'Is a 50-day lead time acceptable?', answer: 'Yes, 50 days is fine', topic: 'lead_time' },
      { question: 'Split the order?', answer: 'Yes, split the order', topic: 'split_order' },
    ],
    rng: createRng(seed),
    ...overrides,
  });
}

describe('offline brand: RFQ', () => {
  it('lists every line as SKU(Description) — Qty N and asks for a quote', () => {
    const baseline = sampleBaseline();
    for (const seed of SEEDS.slice(0, 5)) {
      const turn = offlineRfq(brandContext('SUP-002', { baseline, rng: createRng(seed) }));
      expect(turn.action.type).toBe('REQUEST_CRITERIA');
      for (const line of baseline.lines) {
        const qty = line.quantity.toLocaleString('en-US');
        expect(turn.message_text).toContain(`- ${formatSkuRef(line.sku, line.description)} — Qty ${qty}`);
      }
      expect(turn.message_text).toMatch(/lead time/i);
      expect(brandTurnSchema.parse(turn).action.payload.items).toHaveLength(baseline.lines.length);
    }
  });

  it('summarises the tail of a very long quotation instead of overflowing the message', () => {
    const line = BASELINE.lines[0];
    if (line === undefined) throw new Error('fixture has no lines');
    const lines = Array.from({ length: 120 }, (_, index) => ({
      ...line,
      sku: `MC${String(index).padStart(3, '0')}-LCH-L`,
    }));
    const turn = offlineRfq(brandContext('SUP-003', { baseline: { ...BASELINE, lines } }));
    expect(turn.message_text.length).toBeLessThanOrEqual(4_000);
    expect(turn.message_text).toMatch(/and \d+ more lines/);
    expect(turn.message_text).toContain('- MC000-LCH-L(Sawtooth Down Parka - Lichen - L) — Qty 300');
    expect(brandTurnSchema.parse(turn).action.payload.items).toHaveLength(120);
  });

  it('varies its wording with the seed and is identical for the same seed', () => {
    const texts = SEEDS.map((seed) => offlineRfq(brandContext('SUP-003', { rng: createRng(seed) })).message_text);
    expect(new Set(texts).size).toBeGreaterThan(3);
    expect(offlineRfq(brandContext('SUP-003', { rng: createRng(4) }))).toEqual(
      offlineRfq(brandContext('SUP-003', { rng: createRng(4) })),
    );
  });
});

describe('offline brand: pillar briefs', () => {
  it('gives three short briefs with real numbers', () => {
    for (const code of ['SUP-001', 'SUP-002', 'SUP-003']) {
      for (const seed of SEEDS.slice(0, 10)) {
        const briefs = offlinePillars(roundTwo(code, seed));
        for (const brief of [briefs.negotiator, briefs.riskAnalyst, briefs.productCost]) {
          expect(brief.length).toBeGreaterThan(20);
          expect(brief).toMatch(/\d/);
          const sentences = brief.split(/(?<=[.!?])\s+(?=[A-Z0-9])/).filter((s) => s.trim().length > 0);
          expect(sentences.length).toBeGreaterThanOrEqual(1);
          expect(sentences.length).toBeLessThanOrEqual(3);
        }
      }
    }
  });

  it('uses the competition, the curveball and the cost of cash', () => {
    const briefs = offlinePillars(roundTwo('SUP-003', 1));
    const cheapest = OFFERS['SUP-001']?.total ?? 0;
    expect(briefs.negotiator).toContain(cheapest.toLocaleString('en-US', { minimumFractionDigits: 2 }));
    expect(briefs.riskAnalyst).toMatch(/Alpine Premium is capped at 60%/);
    expect(briefs.productCost).toMatch(/capital at 8%/);
    expect(offlinePillars(roundTwo('SUP-002', 1)).riskAnalyst).toMatch(/only 60%/);
  });

  it('prices payment terms as DESIGN.md does', () => {
    expect(cashCost(42_000, '33/33/33', 50)).toBeCloseTo(230, 0);
    expect(cashCost(52_000, '40/60', 25)).toBeCloseTo(114, 0);
    expect(cashCost(46_000, '100', 15)).toBeCloseTo(151, 0);
  });

  it('refuses terms that do not add up to 100%, as the decision does, rather than rescale them', () => {
    // Read in proportion, 30/60 would be a third at order and two thirds at delivery: 30,000 × 8% × 40/3/365 ≈ $87.67,
    // a cost for a schedule the supplier never offered, and one the decision refuses to price.
    expect(cashCost(30_000, '30/60', 40)).toBeNull();
    expect(cashCost(30_000, '50/60', 40)).toBeNull();
    // Terms as suppliers word them are read the decision's way, not split on "/".
    expect(cashCost(20_000, '30% T/T deposit, balance before shipment', 40)).toBe(cashCost(20_000, '30/70', 40));
  });

  it('says the capital cost is unknown instead of arguing with a rescaled one', () => {
    const context = roundTwo('SUP-003', 1);
    const offers = context.history.offers.map((offer) => ({ ...offer, paymentTerms: '30/60' }));
    const briefs = offlinePillars({ ...context, history: { ...context.history, offers } });
    expect(briefs.productCost).toMatch(
      /30\/60 over \d+ days does not add up to 100%, so its capital cost is unknown\./,
    );
  });
});

describe('offline brand: synthesized message', () => {
  it('writes 80–100 words as Alex, with a SKU reference and numbers', () => {
    for (const code of ['SUP-001', 'SUP-002', 'SUP-003']) {
      for (const seed of SEEDS) {
        const context = roundTwo(code, seed);
        const turn = offlineSynthesize(context, offlinePillars(context));
        const words = wordCount(turn.message_text);
        expect(words).toBeGreaterThanOrEqual(80);
        expect(words).toBeLessThanOrEqual(100);
        expect(turn.message_text.length).toBeLessThanOrEqual(700);
        expect(turn.message_text).toMatch(SKU_REF);
        expect(turn.message_text).toMatch(/\$\d{1,3}(,\d{3})*\.\d{2}/);
        expect(turn.message_text).not.toMatch(/[*_`~<>]/);
        expect(() => agentTurnSchema.parse(turn)).not.toThrow();
      }
    }
  });

  it('counters with a structured ask and cites a cheaper competitor by name and number', () => {
    const context = roundTwo('SUP-003', 3);
    const turn = offlineSynthesize(context, offlinePillars(context));
    expect(turn.action.type).toBe('COUNTER_OFFER');
    const ask = readBrandAsk(turn.action);
    const current = OFFERS['SUP-003']?.total ?? 0;
    expect(ask?.targetTotal).toBeLessThan(current);
    const payload = brandTurnSchema.parse(turn).action.payload;
    expect(payload.competitor?.supplierCode).toBe('SUP-001');
    expect(turn.message_text).toContain('Quoted supplier');
    expect(turn.message_text).toContain(
      (OFFERS['SUP-001']?.total ?? 0).toLocaleString('en-US', { minimumFractionDigits: 2 }),
    );
  });

  it('tells the capped supplier about its 60% every time', () => {
    for (const seed of SEEDS) {
      const context = roundTwo('SUP-002', seed);
      expect(offlineSynthesize(context, offlinePillars(context)).message_text).toContain('60%');
    }
  });

  it('accepts an offer within the mandate target, and confirms a supplier that accepted', () => {
    const within = roundTwo('SUP-001', 1, { mandate: { targetTotal: 45_000, walkAwayTotal: 50_000 } });
    const accepted = offlineSynthesize(within, offlinePillars(within));
    expect(accepted.action.type).toBe('ACCEPT');
    expect(wordCount(accepted.message_text)).toBeGreaterThanOrEqual(60);
    expect(wordCount(accepted.message_text)).toBeLessThanOrEqual(120);

    const supplierSaidYes = roundTwo('SUP-003', 1, {
      history: {
        messages: [{ round: 2, from: 'supplier', text: 'Deal.', action: { type: 'ACCEPT', payload: {} } }],
        offers: OFFERS['SUP-003'] === undefined ? [] : [OFFERS['SUP-003']],
        brandAsks: [],
      },
    });
    expect(offlineSynthesize(supplierSaidYes, offlinePillars(supplierSaidYes)).action.type).toBe('ACCEPT');
  });

  it('is deterministic for a seed', () => {
    const a = roundTwo('SUP-002', 9);
    const b = roundTwo('SUP-002', 9);
    expect(offlineSynthesize(a, offlinePillars(a))).toEqual(offlineSynthesize(b, offlinePillars(b)));
  });

  it('credits only offered strategies, at least one per counter', () => {
    for (const seed of SEEDS) {
      const context = roundTwo('SUP-001', seed);
      const turn = offlineSynthesize(context, offlinePillars(context));
      expect(turn.used_strategies.length).toBeGreaterThan(0);
      for (const id of turn.used_strategies) expect(STRATEGIES).toContain(id);
    }
  });
});

describe('offline brand: ASK_INFO', () => {
  const unknownLead = (seed: number): BrandTurnContext => roundTwo('SUP-001', seed, { clarifications: [] });

  it('sometimes asks whether a long lead time is acceptable, with 2–4 suggested answers', () => {
    const turns = SEEDS.map((seed) => offlineSynthesize(unknownLead(seed), offlinePillars(unknownLead(seed))));
    const questions = turns.filter((turn) => turn.action.type === 'ASK_INFO');
    expect(questions.length).toBeGreaterThan(0);
    expect(questions.length).toBeLessThan(SEEDS.length);
    for (const question of questions) {
      const payload = askInfoPayloadSchema.parse(question.action.payload);
      expect(payload.topic).toBe('lead_time');
      expect(payload.suggestedAnswers.length).toBeGreaterThanOrEqual(2);
      expect(payload.suggestedAnswers.length).toBeLessThanOrEqual(4);
      expect(payload.question).toMatch(/50/);
    }
  });

  it('does not ask what the buyer already said, in notes or in an answer, nor twice', () => {
    for (const seed of SEEDS) {
      const noted = unknownLead(seed);
      const withNotes = { ...noted, buyerNotes: 'Need delivery within 30 days for the autumn launch.' };
      expect(offlineSynthesize(withNotes, offlinePillars(withNotes)).action.type).not.toBe('ASK_INFO');
      const asked = roundTwo('SUP-001', seed, {
        clarifications: [],
        history: {
          messages: [
            { round: 1, from: 'brand', text: 'q', action: { type: 'ASK_INFO', payload: { topic: 'lead_time' } } },
          ],
          offers: OFFERS['SUP-001'] === undefined ? [] : [OFFERS['SUP-001']],
          brandAsks: [],
        },
      });
      expect(offlineSynthesize(asked, offlinePillars(asked)).action.type).not.toBe('ASK_INFO');
    }
  });

  it('asks the capped supplier’s buyer about a split when nothing has been answered yet', () => {
    for (const seed of SEEDS.slice(0, 10)) {
      const context = roundTwo('SUP-002', seed, { clarifications: [] });
      const turn = offlineSynthesize(context, offlinePillars(context));
      expect(turn.action.type).toBe('ASK_INFO');
      const payload = askInfoPayloadSchema.parse(turn.action.payload);
      expect(payload.topic).toBe('split_order');
      expect(payload.question).toContain('60%');
      expect(payload.suggestedAnswers.length).toBeGreaterThanOrEqual(2);
    }
  });

  it('follows the answer: a required lead time becomes part of the ask', () => {
    const context = roundTwo('SUP-001', 2, {
      clarifications: [
        { question: 'Is a 50-day lead time acceptable?', answer: 'Need delivery within 30 days', topic: 'lead_time' },
      ],
    });
    const turn = offlineSynthesize(context, offlinePillars(context));
    expect(readBrandAsk(turn.action)?.leadTimeDays).toBe(30);
  });
});

describe('offline brand: asks stay within reason', () => {
  it('never asks the premium supplier for more than 8% in one round unless a cost-first target forces it', () => {
    for (const seed of SEEDS) {
      const polite = roundTwo('SUP-002', seed, { mode: 'cost', mandate: { targetTotal: 30_000, walkAwayTotal: null } });
      const ask = readBrandAsk(offlineSynthesize(polite, offlinePillars(polite)).action);
      const current = OFFERS['SUP-002']?.total ?? 0;
      expect(ask?.targetTotal).toBeGreaterThanOrEqual(current * 0.88 - 10);
      const balanced = roundTwo('SUP-002', seed, { mandate: { targetTotal: 30_000, walkAwayTotal: null } });
      const balancedAsk = readBrandAsk(offlineSynthesize(balanced, offlinePillars(balanced)).action);
      expect(balancedAsk?.targetTotal).toBeGreaterThanOrEqual(current * 0.92 - 10);
    }
  });
});
