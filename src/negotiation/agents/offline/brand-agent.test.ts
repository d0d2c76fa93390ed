import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRng } from '../../../commerce/rng.js';
import { agentTurnSchema, type Baseline, type Offer } from '../../types.js';
import { cashCost } from '../brand-analysis.js';
import { formatSkuRef, productName, wordCount } from '../format.js';
import { RFQ_LINES_FILE } from '../../format.js';
import {
  askInfoPayloadSchema,
  brandTurnSchema,
  readBrandAsk,
  readOfferDraft,
  type BrandTurnContext,
  type OtherSupplierView,
} from '../interfaces.js';
import { offlinePillars, offlineRfq, offlineSynthesize } from './brand-agent.js';
import { ANONYMOUS_COMPETITOR } from '../discretion.js';
import { formatMoney } from '../../../commerce/money.js';
import { assumedAsStated, leaks, wording, wrongParty } from '../../message-checks.js';
import { SUPPLIER_FACTS } from '../../facts.js';
import { sampleBaselines } from '../../../../test/support/sample-baselines.js';
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
        expect(turn.message_text).toContain(`- ${formatSkuRef(line.sku, productName(line.description))} — Qty ${qty}`);
      }
      expect(turn.message_text).toMatch(/lead time/i);
      expect(brandTurnSchema.parse(turn).action.payload.items).toHaveLength(baseline.lines.length);
    }
  });

  it('lists the top lines by spend of a long quotation and says the full list is attached', () => {
    const line = BASELINE.lines[0];
    if (line === undefined) throw new Error('fixture has no lines');
    // Spend grows with the index: the last ten lines are the largest.
    const lines = Array.from({ length: 120 }, (_, index) => ({
      ...line,
      sku: `MC${String(index).padStart(3, '0')}-LCH-L`,
      quantity: 100 + index,
    }));
    const turn = offlineRfq(brandContext('SUP-003', { baseline: { ...BASELINE, lines } }));
    expect(turn.message_text.length).toBeLessThanOrEqual(4_000);
    expect(turn.message_text).toContain(`- and 110 more lines: the full list is attached (${RFQ_LINES_FILE})`);
    expect(turn.message_text).toContain('- MC119-LCH-L(Sawtooth Down Parka) — Qty 219');
    expect(turn.message_text).toContain('- MC110-LCH-L(Sawtooth Down Parka) — Qty 210');
    expect(turn.message_text).not.toContain('MC109-LCH-L');
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

  it('counters with a structured ask and cites a cheaper competitor by how much lower it is, unnamed', () => {
    const context = roundTwo('SUP-003', 3);
    const turn = offlineSynthesize(context, offlinePillars(context));
    expect(turn.action.type).toBe('COUNTER_OFFER');
    const ask = readBrandAsk(turn.action);
    const current = OFFERS['SUP-003']?.total ?? 0;
    expect(ask?.targetTotal).toBeLessThan(current);
    const payload = brandTurnSchema.parse(turn).action.payload;
    // The supplier remembers only what it was told: a competing offer some whole percent lower, no name.
    expect(payload.competitor).toMatchObject({ supplierName: ANONYMOUS_COMPETITOR, anonymous: true });
    expect(payload.competitor?.total).toBeLessThan(current);
    expect(turn.message_text).not.toContain('Quoted supplier');
    expect(turn.message_text).not.toContain(formatMoney(OFFERS['SUP-001']?.total ?? 0, 'USD'));
    expect(turn.message_text).toMatch(/\d+% (?:lower|below|under)/);
  });

  it('names the cheaper competitor and its total when the workspace allows it', () => {
    const context = roundTwo('SUP-003', 3, { discloseCompetitors: true });
    const turn = offlineSynthesize(context, offlinePillars(context));
    const payload = brandTurnSchema.parse(turn).action.payload;
    expect(payload.competitor?.supplierCode).toBe('SUP-001');
    expect(payload.competitor?.total).toBe(OFFERS['SUP-001']?.total);
    expect(turn.message_text).toContain('Quoted supplier');
    expect(turn.message_text).toContain(formatMoney(OFFERS['SUP-001']?.total ?? 0, 'USD'));
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

describe('offline brand: honest facts and discretion', () => {
  const everything = { 'SUP-001': [...SUPPLIER_FACTS] };
  const usd = (amount: number) => formatMoney(amount, 'USD');

  it('asks for a lead time and terms the quotation left out, and never states the defaults as the supplier’s', () => {
    const quote = { ...BASELINE, leadTimeDays: null, paymentTerms: null };
    const quotation: Offer = { ...toOffer(readDraft('SUP-001'), 'SUP-001', 0, quote), leadTimeDays: 50 };
    for (const seed of SEEDS) {
      const context = brandContext('SUP-001', {
        baseline: quote,
        history: { messages: [], offers: [quotation], brandAsks: [] },
        others: others('SUP-001', OFFERS),
        assumedFacts: everything,
        rng: createRng(seed),
      });
      const briefs = offlinePillars(context);
      const turn = offlineSynthesize(context, briefs);
      if (turn.action.type === 'ASK_INFO') continue;
      expect(turn.message_text).toMatch(/does not state a lead time or payment terms|couldn't find a lead time/);
      expect(turn.action.payload['askFacts']).toEqual(['leadTimeDays', 'paymentTerms']);
      const figures = { ...supplierProfile('SUP-001'), leadTimeDays: 50 };
      expect(assumedAsStated(turn.message_text, figures, () => true)).toEqual([]);
      // The buyer sees the defaults scoring uses, labelled as such.
      expect(briefs.riskAnalyst).toContain('(assumed)');
    }
  });

  it('argues with a supplier that offers some lines about those lines, as shares of the whole order', () => {
    const own = OFFERS['SUP-001'];
    if (!own) throw new Error('an opening offer');
    // Only its two smallest lines: the order's biggest are not offered.
    const kept = [...own.lines].sort((a, b) => a.quantity * a.unitPrice - b.quantity * b.unitPrice).slice(0, 2);
    const partial: Offer = { ...own, lines: kept, total: kept.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0) };
    const left = new Set(own.lines.filter((line) => !kept.includes(line)).map((line) => line.sku));
    for (const seed of SEEDS) {
      const context = roundTwo('SUP-001', seed, {
        history: { messages: [], offers: [partial], brandAsks: [] },
        curveball: null,
      });
      const text = offlineSynthesize(context, offlinePillars(context)).message_text;
      for (const sku of left) expect(text, `seed ${seed}`).not.toContain(`${sku}(`);
      for (const [, share] of text.matchAll(/at (\d+(?:\.\d+)?)% of the (?:order|spend)/g)) {
        expect(Number(share), text).toBeLessThanOrEqual(100);
      }
    }
  });

  it('claims other suppliers in play only when another offer is on the table', () => {
    const alone = SEEDS.flatMap((seed) => {
      const context = roundTwo('SUP-001', seed, { others: [], curveball: null });
      return [offlineSynthesize(context, offlinePillars(context)).message_text];
    });
    for (const text of alone) expect(text).not.toMatch(/suppliers in play|other offers|competing offer/i);
    const beside = SEEDS.flatMap((seed) => {
      const context = roundTwo('SUP-001', seed, { curveball: null });
      return [offlineSynthesize(context, offlinePillars(context)).message_text];
    });
    expect(beside.some((text) => /suppliers in play/.test(text))).toBe(true);
  });

  it('asks the buyer about a lead time only when the supplier stated it', () => {
    for (const seed of SEEDS) {
      const context = roundTwo('SUP-001', seed, { clarifications: [], assumedFacts: { 'SUP-001': ['leadTimeDays'] } });
      const turn = offlineSynthesize(context, offlinePillars(context));
      expect(turn.action.payload['topic']).not.toBe('lead_time');
    }
  });

  it("never calls the supplier's own price what we would pay", () => {
    for (const code of ['SUP-001', 'SUP-002', 'SUP-003']) {
      for (const seed of SEEDS) {
        const context = roundTwo(code, seed);
        const turn = offlineSynthesize(context, offlinePillars(context));
        const own = OFFERS[code];
        const ask = readBrandAsk(turn.action);
        expect(wrongParty(turn.message_text, own === undefined ? [] : [own], ask?.targetTotal ?? null, usd)).toEqual(
          [],
        );
      }
    }
  });

  it("keeps the capped supplier's problem from the others unless the workspace allows it", () => {
    let told = 0;
    for (const code of ['SUP-001', 'SUP-003']) {
      for (const seed of SEEDS) {
        const context = roundTwo(code, seed);
        const text = offlineSynthesize(context, offlinePillars(context)).message_text;
        const found = leaks(text, {
          addressee: code,
          others: ['SUP-001', 'SUP-002', 'SUP-003'].filter((other) => other !== code),
          nameOf: (other) => supplierProfile(other).name,
          offersOf: (other) => (OFFERS[other] === undefined ? [] : [OFFERS[other]]),
          ownFigures: new Set(),
          cappedCode: 'SUP-002',
          money: usd,
        });
        expect(found).toEqual([]);
        const open = roundTwo(code, seed, { discloseCompetitors: true });
        if (/Alpine Premium/.test(offlineSynthesize(open, offlinePillars(open)).message_text)) told += 1;
      }
    }
    expect(told).toBeGreaterThan(0);
  });

  it('words a 3,000-line order without "all 3000 SKUs" or a 0% share', () => {
    const [large] = sampleBaselines(['13']);
    if (large === undefined) throw new Error('sample 13 is missing');
    const quotation: Offer = {
      ...toOffer(
        { ...readDraft('SUP-001'), lines: large.baseline.lines.map(({ sku, unitPrice }) => ({ sku, unitPrice })) },
        'SUP-001',
        0,
        large.baseline,
      ),
    };
    for (const seed of SEEDS.slice(0, 12)) {
      for (const mode of ['quality', 'cost', 'balanced'] as const) {
        const context = brandContext('SUP-001', {
          baseline: large.baseline,
          history: { messages: [], offers: [quotation], brandAsks: [] },
          mode,
          round: 1 + (seed % 3),
          rng: createRng(seed),
        });
        const briefs = offlinePillars(context);
        const texts = [offlineSynthesize(context, briefs).message_text, ...Object.values(briefs)];
        for (const text of texts) expect(wording(text, { supplierCode: 'SUP-001', sequence: null })).toEqual([]);
      }
    }
  });
});

/** A supplier's opening draft, for building offers over another baseline. */
function readDraft(code: string) {
  const draft = readOfferDraft(offlineSupplierTurn(supplierContext(code, { rng: createRng(1) })).action);
  if (draft === null) throw new Error(`${code} made no opening offer`);
  return draft;
}
