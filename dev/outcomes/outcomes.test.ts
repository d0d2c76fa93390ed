import { beforeAll, describe, expect, it } from 'vitest';
import { QUOTED_SUPPLIER_DEFAULTS, SCORING_WEIGHTS, SIMULATED_SUPPLIERS } from '../../src/config/business-rules.js';
import type { NegotiationEvent } from '../../src/negotiation/engine.js';
import type { Baseline, Offer } from '../../src/negotiation/types.js';
import {
  type AwardFigures,
  findInventedFacts,
  findLeaks,
  ignoredAnswers,
  isAboveWalkAway,
  isOverQuote,
  missesDeadline,
  type NegotiationRecord,
  readAnswer,
  splitDespiteSingleSource,
} from './detectors.js';
import { bundledSamples, outcomeFigures, playScenarios, prepareSamples } from './outcomes-bench.js';
import type { PreparedSample } from './play-scenario.js';
import { scenarioGrid } from './scenarios.js';

const ISSUE_KEYS = [
  'scenarios',
  'dealRate',
  'buyerSurplusShare',
  'medianSavingsVsQuote',
  'awardsAboveWalkAway',
  'awardsMissingDeadline',
  'answersIgnored',
  'overQuoteWithoutConsent',
  'inventedFacts',
  'leaks',
  'curveballBindingShare',
  'impasseShare',
  'earlyTerminationOffered',
];

describe('the outcomes benchmark', () => {
  let samples: PreparedSample[];
  beforeAll(async () => {
    ({ prepared: samples } = await prepareSamples(['02-title-block-header-row-9.xlsx']));
  });

  it('plays only what Parley would negotiate: not an RFQ, a requirements list or an unpicked comparison', async () => {
    const files = ['24-rfq-blank-prices.xlsx', '26-supplier-comparison.xlsx', '27-requirements-list.xlsx'];
    const { prepared, unplayed } = await prepareSamples(['01-clean-baseline.xlsx', ...files]);
    expect(prepared.map((sample) => sample.file)).toEqual(['01-clean-baseline.xlsx']);
    expect(unplayed.map((sample) => sample.file)).toEqual(files);
    expect(unplayed[0]?.why).toMatch(/quantity and a price/);
    expect(unplayed[1]?.why).toMatch(/comparison/);
  });

  // A few seconds: every bundled sample read, and one negotiation played on each (the bench crashed on a new sample
  // with no priced line, and CI does not run the bench).
  it('plays one scenario on every bundled sample it prepares, to the end', async () => {
    const { prepared, unplayed } = await prepareSamples(await bundledSamples());
    expect(prepared.length + unplayed.length).toBeGreaterThanOrEqual(27);
    const scenarios = scenarioGrid({
      samples: prepared.map((sample) => sample.file),
      seedsPerCell: 1,
      modes: ['balanced'],
      mandates: ['none'],
      answers: ['typed'],
    });
    const outcomes = await playScenarios(scenarios, prepared);
    expect(outcomes.map((outcome) => outcome.status)).not.toContain('waiting');
    expect(outcomes).toHaveLength(prepared.length);
  }, 60_000);

  it('plays a handful of scenarios and reports the issue’s figures, and only those', async () => {
    const scenarios = scenarioGrid({ samples: [samples[0]?.file ?? ''], seedsPerCell: 1 }).filter(
      (scenario) => scenario.mode === 'balanced',
    );
    expect(scenarios.length).toBe(15);
    const outcomes = await playScenarios(scenarios, samples);
    const figures = outcomeFigures(outcomes);
    expect(Object.keys(JSON.parse(JSON.stringify(figures)) as object)).toEqual(ISSUE_KEYS);
    expect(figures.scenarios).toBe(15);
    for (const key of ['dealRate', 'curveballBindingShare', 'impasseShare'] as const) {
      expect(figures[key]).toBeGreaterThanOrEqual(0);
      expect(figures[key]).toBeLessThanOrEqual(1);
    }
    for (const key of ['awardsAboveWalkAway', 'answersIgnored', 'leaks', 'inventedFacts'] as const)
      expect(Number.isInteger(figures[key])).toBe(true);
    // Every scenario completes, the typed buyer's too: a deal, or a decision that nothing can be awarded.
    expect(outcomes.every((outcome) => outcome.status !== 'waiting')).toBe(true);
  });

  it('the typed buyer’s replies go through the answer path and into the mandate', async () => {
    const scenarios = scenarioGrid({ samples: [samples[0]?.file ?? ''], seedsPerCell: 1, answers: ['typed'] }).filter(
      (scenario) => scenario.mandate === 'none',
    );
    const outcomes = await playScenarios(scenarios, samples);
    expect(outcomes.every((outcome) => outcome.status !== 'waiting')).toBe(true);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.questionsAsked, 0)).toBeGreaterThan(0);
  });
});

// ───────────────────────────── Detectors on constructed violations ─────────────────────────────

const baseline: Baseline = {
  supplierName: 'Ningbo Everbright Garments Co., Ltd.',
  currency: 'USD',
  lines: [
    { sku: 'MJ001-BLK-M', description: 'Alpine Shell', quantity: 100, unitPrice: 50, tiers: [], notes: null },
    { sku: 'MJ002-RED-L', description: 'Ridge Fleece', quantity: 100, unitPrice: 30, tiers: [], notes: null },
  ],
  total: 8_000,
  paymentTerms: null,
  leadTimeDays: null,
  incoterm: null,
  moq: null,
  notes: [],
};
const quoted = { ...QUOTED_SUPPLIER_DEFAULTS, name: baseline.supplierName };
const [alpine, rapid] = SIMULATED_SUPPLIERS;

function offer(supplierCode: string, factor: number, round = 1, leadTimeDays = 50): Offer {
  const lines = baseline.lines.map((line) => ({
    sku: line.sku,
    quantity: line.quantity,
    unitPrice: Math.round(line.unitPrice * factor * 100) / 100,
    tiers: [],
  }));
  return {
    supplierCode,
    round,
    lines,
    total: lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0),
    leadTimeDays,
    paymentTerms: '33/33/33',
    incoterm: null,
    currency: 'USD',
    concessions: [],
    conditions: [],
    capacityShare: 1,
  };
}

const record: NegotiationRecord = {
  baseline,
  profiles: [quoted, ...SIMULATED_SUPPLIERS],
  suppliers: { 'SUP-001': { offers: [offer('SUP-001', 1, 0)] } },
};

let sequence = 0;
function message(to: string, text: string, role: 'brand_agent' | 'supplier_agent' = 'brand_agent'): NegotiationEvent {
  return {
    type: 'message',
    sequence: ++sequence,
    round: 2,
    supplierCode: to,
    role,
    speaker: role === 'brand_agent' ? 'Alex' : to,
    text,
    action: { type: 'COUNTER_OFFER', payload: {} },
    usedStrategies: [],
    pillarBriefs: null,
  };
}

const extracted = (value: Offer): NegotiationEvent => ({
  type: 'offer_extracted',
  round: value.round,
  supplierCode: value.supplierCode,
  offer: value,
  adjustments: [],
});

describe('leaks', () => {
  const alpineOffer = offer(alpine?.code ?? '', 1.3);
  const curveball: NegotiationEvent = {
    type: 'curveball',
    curveball: {
      supplierCode: alpine?.code ?? '',
      capacityShare: 0.6,
      afterRound: 1,
      impact: 'capped',
      strategies: [],
      chosen: 'split',
    },
  };

  it('finds a competitor named, its total quoted and its capacity problem told, in a message to another supplier', () => {
    const leaks = findLeaks(
      record,
      [
        extracted(alpineOffer),
        curveball,
        message('SUP-001', `Alpine Premium is at ${'$10,400.00'}; with their capacity capped at 60%, volume is open.`),
      ],
      { disclosureAllowed: false },
    );
    expect(leaks.map((leak) => leak.kind).sort()).toEqual(['capacity', 'name', 'total']);
    expect(leaks.every((leak) => leak.about === alpine?.code && leak.to === 'SUP-001')).toBe(true);
  });

  it('finds a competitor’s exact unit price, but not the addressee’s own', () => {
    const leaks = findLeaks(
      record,
      [extracted(alpineOffer), message('SUP-001', 'A competing bid has MJ001-BLK-M at $65.00; yours is $50.00.')],
      { disclosureAllowed: false },
    );
    expect(leaks).toEqual([expect.objectContaining({ kind: 'price', about: alpine?.code })]);
  });

  it('lets through what discretion allows: a relative gap, a product named like a supplier, its own figures', () => {
    const leaks = findLeaks(
      record,
      [
        extracted(alpineOffer),
        curveball,
        message(
          'SUP-001',
          'A competing offer is 12% lower. The Alpine Shell line matters most. Can you confirm capacity?',
        ),
        message(alpine?.code ?? '', 'Alpine Premium, your $10,400.00 with capacity capped at 60% needs firm dates.'),
      ],
      { disclosureAllowed: false },
    );
    expect(leaks).toEqual([]);
  });

  it('finds nothing when the workspace allows disclosure', () => {
    const events = [extracted(alpineOffer), message('SUP-001', 'Alpine Premium is at $10,400.00.')];
    expect(findLeaks(record, events, { disclosureAllowed: true })).toEqual([]);
    expect(findLeaks(record, events, { disclosureAllowed: false })).toHaveLength(2);
  });
});

describe('invented facts', () => {
  it('flags a lead time, terms and delivery record stated as the quoting supplier’s when it never stated them', () => {
    const invented = findInventedFacts(
      record,
      [
        message('SUP-001', 'RapidGear Co ships in 15 days against your 50. Your 33/33/33 terms tie up cash.'),
        message(rapid?.code ?? '', 'Ningbo Everbright has a 90% on-time record and 3% defects.'),
      ],
      null,
    );
    expect(invented.map((fact) => fact.fact).sort()).toEqual([
      'defect rate',
      'lead time',
      'on-time rate',
      'payment terms',
    ]);
  });

  it('accepts what the supplier said itself, and figures that belong to someone else', () => {
    const invented = findInventedFacts(
      record,
      [
        message('SUP-001', 'We ship in 50 days on 33/33/33.', 'supplier_agent'),
        message('SUP-001', 'RapidGear Co ships in 15 days against your 50, on 33/33/33.'),
        message(rapid?.code ?? '', 'You ship in 15 days with a 93% on-time record.'),
      ],
      null,
    );
    expect(invented).toEqual([]);
  });

  it('takes an offer the supplier made in its own turn as stating its lead time and terms', () => {
    const own = offer('SUP-001', 0.95, 1);
    const text = 'RapidGear Co ships in 15 days against your 50, on 33/33/33.';
    expect(findInventedFacts(record, [message('SUP-001', text)], null)).toHaveLength(2);
    expect(findInventedFacts(record, [extracted(own), message('SUP-001', text)], null)).toEqual([]);
    // The quotation itself (round 0) states nothing the sheet did not.
    expect(findInventedFacts(record, [extracted(offer('SUP-001', 1, 0)), message('SUP-001', text)], null)).toHaveLength(
      2,
    );
  });

  it('accepts a figure labelled as an assumption', () => {
    const invented = findInventedFacts(
      record,
      [
        message('SUP-001', 'Your 50-day lead time (assumed) and 33/33/33 (assumed) are what we score you on.'),
        message(
          rapid?.code ?? '',
          'Ningbo Everbright: 90% on-time (assumed), 3% defects (assumed), an assumed 50 days.',
        ),
        message(rapid?.code ?? '', 'Ningbo Everbright: 90% on-time (assumed), 3% defects.'),
      ],
      null,
    );
    expect(invented).toEqual([expect.objectContaining({ fact: 'defect rate', where: String(sequence) })]);
  });

  it('reads the recommendation as the quoting supplier’s words when it alone is awarded', () => {
    const text = { text: 'Award the whole order. The order arrives in 50 days.', quotedAloneAwarded: true };
    expect(findInventedFacts(record, [], text)).toEqual([expect.objectContaining({ fact: 'lead time' })]);
    expect(findInventedFacts(record, [], { ...text, quotedAloneAwarded: false })).toEqual([]);
  });
});

describe('the award against the mandate and the answers', () => {
  const cheapSlow = {
    supplierCode: 'SUP-001',
    name: 'Ningbo',
    total: 100_000,
    leadTimeDays: 45,
    qualityRating: 4,
    onTimeDeliveryRate: 0.9,
    defectRate: 0.03,
    cashFlowCost: 300,
    effectiveLandedCost: 100_300,
    canFillAlone: true,
    capacityShare: 1,
  };
  const dearFast = {
    ...cheapSlow,
    supplierCode: 'SUP-003',
    name: 'RapidGear Co',
    total: 114_000,
    leadTimeDays: 12,
    cashFlowCost: 150,
    effectiveLandedCost: 114_150,
  };
  const awardedFast: AwardFigures = {
    weights: SCORING_WEIGHTS.balanced,
    allocation: { effectiveLandedCost: 114_150, fob: 114_000, charges: 0 },
    award: [{ supplierCode: 'SUP-003', share: 1, fob: 114_000, cashFlowCost: 150, leadTimeDays: 12 }],
    offers: [cheapSlow, dearFast],
  };
  const none = { targetTotal: null, walkAwayTotal: null, maxLeadTimeDays: null, singleSource: false };

  it('reads what an answer asks for', () => {
    expect(readAnswer('Yes, 45 days is fine').acceptedLeadTimeDays).toBe(45);
    expect(readAnswer('Need delivery within 21 days').maxLeadTimeDays).toBe(21);
    expect(readAnswer('Prefer a single supplier').singleSource).toBe(true);
    expect(readAnswer('Split only if it saves more than 5%').splitMinSaving).toBeCloseTo(0.05);
    expect(readAnswer('Speed matters more than price')).toEqual({
      acceptedLeadTimeDays: null,
      maxLeadTimeDays: null,
      singleSource: false,
      splitMinSaving: null,
      budget: null,
      requireSplit: false,
    });
  });

  it('reads what buyers type as well as the buttons', () => {
    expect(readAnswer('45 days works').acceptedLeadTimeDays).toBe(45);
    expect(readAnswer('45 days is not fine').acceptedLeadTimeDays).toBeNull();
    expect(readAnswer('we need it within 5 weeks').maxLeadTimeDays).toBe(35);
    expect(readAnswer('need delivery in under 30 days, the season starts early').maxLeadTimeDays).toBe(30);
    expect(readAnswer('45 days is ok but keep it under 120k').budget).toBe(120_000);
    expect(readAnswer('keep it under 1.2m').budget).toBe(1_200_000);
    expect(readAnswer('keep it under $8,500').budget).toBe(8_500);
    expect(readAnswer('under 30 days').budget).toBeNull();
    expect(readAnswer('one supplier please').singleSource).toBe(true);
    expect(readAnswer("let's dual-source this one").requireSplit).toBe(true);
    expect(readAnswer('fine to split if it saves money').requireSplit).toBe(false);
  });

  it('flags a premium paid for the lead time the buyer accepted', () => {
    const question = 'Is a 45-day lead time acceptable?';
    const answers = [{ question, answer: 'Yes, 45 days is fine' }];
    expect(ignoredAnswers(answers, awardedFast, none)).toEqual([
      expect.objectContaining({ why: expect.stringContaining('for lead time') as unknown }),
    ]);
    // The same award is fine when the buyer said speed matters, and when the fast supplier is also better made.
    expect(ignoredAnswers([{ question, answer: 'Speed matters more than price' }], awardedFast, none)).toEqual([]);
    const better = { ...awardedFast, offers: [cheapSlow, { ...dearFast, qualityRating: 4.7 }] };
    expect(ignoredAnswers(answers, better, none)).toEqual([]);
  });

  it('flags an award slower than the buyer’s answer or a split against it', () => {
    const slow: AwardFigures = {
      ...awardedFast,
      award: [{ supplierCode: 'SUP-001', share: 1, fob: 100_000, cashFlowCost: 300, leadTimeDays: 45 }],
    };
    const late = ignoredAnswers([{ question: 'q', answer: 'Need delivery within 30 days' }], slow, none);
    expect(late).toHaveLength(1);
    const split = {
      ...awardedFast,
      award: [
        { supplierCode: 'SUP-001', share: 0.5, fob: 50_000, cashFlowCost: 150, leadTimeDays: 45 },
        { supplierCode: 'SUP-003', share: 0.5, fob: 57_000, cashFlowCost: 75, leadTimeDays: 12 },
      ],
    };
    expect(ignoredAnswers([{ question: 'q', answer: 'Prefer a single supplier' }], split, none)).toHaveLength(1);
    // Against a single-source start mandate, a split never stands: no answer loosens what the start modal set.
    const single = { ...none, singleSource: true };
    expect(splitDespiteSingleSource(split, single)).toBe(true);
    expect(splitDespiteSingleSource(split, none)).toBe(false);
    expect(splitDespiteSingleSource(awardedFast, single)).toBe(false);
    // A split the buyer required is flagged when the award gives the order to one supplier.
    expect(ignoredAnswers([{ question: 'q', answer: "let's dual-source this one" }], awardedFast, none)).toHaveLength(
      1,
    );
    expect(ignoredAnswers([{ question: 'q', answer: 'We must split' }], split, none)).toEqual([]);
    expect(ignoredAnswers([{ question: 'q', answer: 'We must split' }], awardedFast, single)).toEqual([]);
  });

  it('checks the walk-away, the deadline and the quote', () => {
    expect(isAboveWalkAway(awardedFast, { ...none, walkAwayTotal: 110_000 })).toBe(true);
    expect(isAboveWalkAway(awardedFast, { ...none, walkAwayTotal: 114_000 })).toBe(false);
    expect(missesDeadline(awardedFast, { ...none, maxLeadTimeDays: 10 })).toBe(true);
    expect(missesDeadline(awardedFast, { ...none, maxLeadTimeDays: 12 })).toBe(false);
    expect(isOverQuote(awardedFast, 112_000, false)).toBe(true);
    expect(isOverQuote(awardedFast, 112_000, true)).toBe(false);
    expect(isOverQuote(awardedFast, 114_150, false)).toBe(false);
  });
});
