// The contradiction checks: each finds the mistake it was written for (in the words that were seen), and a whole
// negotiation of every bundled sample, over many seeds and every mode, says none of them.
import { describe, expect, it } from 'vitest';
import { SIMULATED_SUPPLIERS } from '../config/business-rules.js';
import { decide, decisionInputFromState } from '../decision/decide.js';
import { repeatedReasons, writeDeterministic } from '../decision/write-decision.js';
import { sampleBaselines } from '../../test/support/sample-baselines.js';
import { createNegotiationAgents } from './agents/create-agents.js';
import type { NegotiationEvent, NegotiationState } from './engine.js';
import {
  assumedAsStated,
  checkNegotiation,
  countViolations,
  currencyFormats,
  leakAndInventedCounts,
  leaks,
  type Violation,
  wording,
  wrongParty,
} from './message-checks.js';
import { runUnattended } from './run-unattended.js';
import type { Offer } from './types.js';
import { formatMoney } from '../commerce/money.js';

const usd = (amount: number) => formatMoney(amount, 'USD');
const here = { supplierCode: 'SUP-001', sequence: 1 };

function offer(total: number, unitPrice: number, overrides: Partial<Offer> = {}): Offer {
  return {
    supplierCode: 'SUP-001',
    round: 1,
    lines: [{ sku: 'UC005-CRN-L', quantity: 270, unitPrice, tiers: [] }],
    total,
    leadTimeDays: 45,
    paymentTerms: '30/70',
    incoterm: 'FOB',
    currency: 'USD',
    concessions: [],
    conditions: [],
    capacityShare: 1,
    ...overrides,
  };
}

describe('each check finds the mistake it is for', () => {
  it("a price attributed to the wrong party: the supplier's unit price as what we'd pay", () => {
    const theirs = [offer(122_449, 59.12)];
    const seen =
      "On UC005-CRN-L(Upland 3L Storm Shell) (270 units) we'd pay $59.12 a unit; that line alone is $15,962.40.";
    expect(wrongParty(seen, theirs, 113_630, usd).map((v) => v.kind)).toEqual(['wrongPartyPrice']);
    const fixed =
      "On UC005-CRN-L(Upland 3L Storm Shell) (270 units) you're at $59.12 a unit; that line alone is $15,962.40.";
    expect(wrongParty(fixed, theirs, 113_630, usd)).toEqual([]);
    // "your" must be one of the supplier's figures; the ask is the brand's own and may be said as such.
    expect(wrongParty("We've reviewed your $118,420.70 offer.", theirs, null, usd)).toHaveLength(1);
    expect(wrongParty('Our number is $113,630.00; that means UC005-CRN-L at $54.86.', theirs, 113_630, usd)).toEqual(
      [],
    );
  });

  it('a share written as 0%, and "all N SKUs" over 50', () => {
    expect(wording('UC005-LCH-XL is the biggest line at 0% of the order.', here)[0]?.kind).toBe('zeroShare');
    expect(wording('It is 0.4% of the order; 10% of the spend.', here)).toEqual([]);
    expect(wording('Please include pre-production samples for all 3000 SKUs.', here)[0]?.kind).toBe('allSkusOverLimit');
    expect(wording('Please include pre-production samples for all 3,000 SKUs.', here)).toHaveLength(1);
    expect(wording('Samples for all 16 SKUs, and capacity for all 4,250 units.', here)).toEqual([]);
  });

  it("a competitor's name, exact price or capacity problem in a message to another supplier", () => {
    const context = {
      addressee: 'SUP-003',
      others: ['SUP-001', 'SUP-002'],
      nameOf: (code: string) => ({ 'SUP-001': 'Ningbo Everbright', 'SUP-002': 'Alpine Premium' })[code] ?? code,
      offersOf: (code: string) => (code === 'SUP-001' ? [offer(118_420.7, 57.17)] : []),
      ownFigures: new Set<string>(),
      cappedCode: 'SUP-002',
      money: usd,
    };
    const seen =
      'We have a competing offer from Ningbo Everbright at $118,420.70, a gap of $21,337.10. ' +
      'Alpine Premium can only cover 60%, so the other 40% needs a reliable home.';
    expect(leaks(seen, context).map((v) => v.detail)).toEqual([
      'names Ningbo Everbright',
      "quotes Ningbo Everbright's $118,420.70",
      'names Alpine Premium',
      "tells of Alpine Premium's capacity problem",
    ]);
    expect(leaks('For context, a competing offer is 15% lower than yours.', context)).toEqual([]);
    // The same words to the capped supplier itself are about its own capacity.
    expect(leaks('With your capacity at 60%, we need firm dates.', { ...context, addressee: 'SUP-002' })).toEqual([]);
  });

  it("an assumed figure stated as the supplier's, only while it is an assumption", () => {
    const figures = {
      leadTimeDays: 50,
      paymentTerms: '33/33/33',
      onTimeDeliveryRate: 0.9,
      defectRate: 0.03,
      qualityRating: 4,
    };
    const all = () => true;
    expect(assumedAsStated('RapidGear Co ships in 15 days against your 50.', figures, all)).toHaveLength(1);
    expect(assumedAsStated("We've reviewed your offer at 50 days and 33/33/33.", figures, all)).toHaveLength(2);
    expect(assumedAsStated('We weigh your 90% on-time record against the others.', figures, all)).toHaveLength(1);
    expect(assumedAsStated('Your 4.0/5 quality rating is part of the decision.', figures, all)).toHaveLength(1);
    expect(assumedAsStated('Your quotation does not state a lead time; please confirm it.', figures, all)).toEqual([]);
    // "instead of 50/50" is terms, not a 50-day lead time.
    expect(
      assumedAsStated('On terms, 30/70 instead of 50/50 would help.', figures, (f) => f === 'leadTimeDays'),
    ).toEqual([]);
    // Once the supplier has stated its lead time, "your 50" is its own word.
    expect(assumedAsStated('Another supplier ships in 15 days against your 50.', figures, () => false)).toEqual([]);
  });

  it('more than one way of writing money in one thread', () => {
    const seen = ['Quote: CNY 2,094,500.00.', 'Now CN¥2,118,543.27.', 'About 1,122,652 CNY must go elsewhere.'];
    const found = currencyFormats(seen, 'CNY');
    expect(found).toHaveLength(1);
    expect(found[0]?.excerpt).toContain('CN¥2,118,543.27');
    expect(found[0]?.excerpt).toContain('1,122,652 CNY');
    expect(currencyFormats(['Quote: CNY 2,094,500.00; SKU 12 and MOQ 300.', 'Now CNY 5.10.'], 'CNY')).toEqual([]);
    expect(currencyFormats(['$41,650.00 and $41,650'], 'USD')).toHaveLength(1);
  });
});

// ───────────────────────────── Every sample, many seeds ─────────────────────────────

const MODES = ['cost', 'balanced', 'quality', 'speed', 'cashflow'] as const;
const SEEDS = Array.from({ length: 20 }, (_, index) => index + 1);
/** Two modes per seed, rotating: every mode plays every sample on 8 of the 20 seeds. */
const modesFor = (seed: number) => [MODES[seed % MODES.length], MODES[(seed + 2) % MODES.length]] as const;

async function play(
  sample: ReturnType<typeof sampleBaselines>[number],
  seed: number,
  mode: (typeof MODES)[number],
  discloseCompetitors = false,
): Promise<{ state: NegotiationState; events: NegotiationEvent[] }> {
  return runUnattended(
    {
      seed,
      brandName: 'Valden Outdoor',
      mode,
      maxRounds: 4,
      mandate: { targetTotal: null, walkAwayTotal: null },
      buyerNotes: null,
      baseline: sample.baseline,
      profiles: [sample.quotedSupplier, ...SIMULATED_SUPPLIERS],
      discloseCompetitors,
    },
    createNegotiationAgents(null),
    { answers: 'auto' },
  );
}

describe('samples 01–12 × seeds 1–20 × every mode, offline', () => {
  const samples = sampleBaselines(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);

  // Over 10 s on a busy two-core machine: 12 samples × 20 seeds × every mode, negotiated in full.
  it('says nothing any check finds, in the messages or in the recommendation, and each reason once', async () => {
    expect(samples).toHaveLength(12);
    const found: Violation[] = [];
    const repeated: string[] = [];
    let runs = 0;
    for (const sample of samples) {
      for (const seed of SEEDS) {
        for (const mode of modesFor(seed)) {
          if (mode === undefined) continue;
          const { state, events } = await play(sample, seed, mode);
          const decided = decide(decisionInputFromState(state));
          const text = decided.ok ? writeDeterministic(decided.numbers) : null;
          const extraTexts = text
            ? [text.summary, ...Object.values(text.keyPoints), text.tradeOffs, text.cheapestNotChosenReason ?? '']
            : [];
          const where = `${sample.name} seed ${seed} ${mode}`;
          found.push(
            ...checkNegotiation(state, events, { extraTexts }).map((v) => ({
              ...v,
              excerpt: `${where}: ${v.excerpt}`,
            })),
          );
          if (decided.ok && text) repeated.push(...repeatedReasons(text, decided.numbers).map((r) => `${where}: ${r}`));
          runs += 1;
        }
      }
    }
    expect(runs).toBe(480);
    expect(found.slice(0, 10)).toEqual([]);
    expect(leakAndInventedCounts(found)).toEqual({ leaks: 0, inventedFacts: 0 });
    expect(repeated.slice(0, 10)).toEqual([]);
  }, 120_000);

  it("labels the quoting supplier's missing terms as unknown and asks for them in the first message", async () => {
    // Samples 01 and 10 state neither a lead time nor payment terms.
    for (const sample of samples.filter((s) => s.name.startsWith('01') || s.name.startsWith('10'))) {
      expect(sample.assumedFacts).toEqual(expect.arrayContaining(['leadTimeDays', 'paymentTerms']));
      const { events } = await play(sample, 3, 'cost');
      const first = events.find(
        (e) => e.type === 'message' && e.role === 'brand_agent' && e.supplierCode === sample.quotedSupplier.code,
      );
      expect(first?.type === 'message' ? first.text : '').toMatch(/does not state|couldn't find/);
      expect(first?.type === 'message' ? first.action.payload['askFacts'] : null).toEqual([
        'leadTimeDays',
        'paymentTerms',
      ]);
    }
  });

  it('names competitors to other suppliers only when the workspace allows it', async () => {
    const sample = samples.find((s) => s.name.startsWith('02'));
    if (sample === undefined) throw new Error('sample 02 is missing');
    const names = (events: NegotiationEvent[]) =>
      events.filter(
        (e) =>
          e.type === 'message' &&
          e.role === 'brand_agent' &&
          e.supplierCode !== sample.quotedSupplier.code &&
          e.text.includes(sample.quotedSupplier.name),
      ).length;
    let named = 0;
    for (const seed of [1, 2, 3, 4]) {
      const off = await play(sample, seed, 'balanced');
      expect(names(off.events)).toBe(0);
      const on = await play(sample, seed, 'balanced', true);
      named += names(on.events);
      // With the setting on, naming is no violation: the same messages pass the check.
      expect(countViolations(checkNegotiation(on.state, on.events)).competitorLeak).toBe(0);
    }
    expect(named).toBeGreaterThan(0);
  });
});
