import { afterEach, describe, expect, it } from 'vitest';
import { type FakeMessagesApi, startFakeClaude } from '../../test/support/fake-messages-api.js';
import { type DecisionNumbers, decide } from './decide.js';
import { formatMoney } from '../commerce/money.js';
import {
  curveballInput,
  freightInput,
  landedCostInput,
  numbersOf,
  seedSuppliersInput,
} from '../../test/support/decide-fixtures.js';
import {
  DECISION_PURPOSE,
  type DecisionText,
  extractFigures,
  uncheckedFigures,
  writeDecision,
  repeatedReasons,
  writeDeterministic,
} from './write-decision.js';

const curveball = numbersOf(decide(curveballInput()));
const landed = numbersOf(decide(landedCostInput()));
const freight = numbersOf(decide(freightInput()));
const scored = [
  numbersOf(decide(seedSuppliersInput('quality'))),
  numbersOf(decide(seedSuppliersInput('cashflow', { termsConceded: true, curveball: true }))),
];

const allText = (text: Omit<DecisionText, 'writer'>) => [
  text.summary,
  ...Object.values(text.keyPoints),
  text.tradeOffs,
  text.cheapestNotChosenReason ?? '',
];

/** What Claude might write for the curveball decision, every figure taken from the numbers. */
const faithful = {
  summary:
    'Award 51.4% of the order to Ningbo Everbright and 48.6% to Alpine Premium: effective landed cost $18,375.00, ' +
    'which saves $1,625 (8.1%) against the quote’s $20,000 landed.',
  keyPoints: {
    price: 'Negotiation put $3,500 (17.5%) on the table; on price the award captures $2,500 (12.5%) of it.',
    quality: 'Alpine Premium is rated 4.7/5, Ningbo Everbright 4.0/5.',
    leadTime: 'Everything arrives in 30 days.',
    cashFlow: 'All offers are paid on delivery (0/100), so there is no cash-flow cost.',
    risk: 'Alpine Premium can fill only 60% of the order after its capacity shock; the split adds $875 of overhead.',
  },
  tradeOffs:
    'The split costs $1,000 (6.1%) more FOB than Alpine Premium’s $16,500 offer, which cannot be placed whole.',
  cheapestNotChosenReason:
    'Alpine Premium is cheapest at $16,500.00 but can fill at most 60%; the split at $18,375 beats Ningbo Everbright ' +
    'alone at $18,600.',
};

describe('writeDeterministic', () => {
  it('states the award, its landed cost and both kinds of savings in sentences finance can check', () => {
    const text = writeDeterministic(curveball);
    expect(text.writer).toBe('deterministic');
    expect(text.summary).toBe(
      'Award 51.4% to Ningbo Everbright and 48.6% to Alpine Premium: effective landed cost $18,375.00 ' +
        "(FOB $17,500.00 + cash-flow cost $0.00 + split overhead $875.00). Against the quote's landed cost of " +
        '$20,000.00 the award saves $1,625.00 (8.1%); the best final offer was $3,500.00 (17.5%) below the ' +
        'quotation. The order is complete in 30 days.',
    );
    // Awarded savings are landed (the split's overhead counts), the saving on price beside them, said once.
    expect(text.keyPoints.price).toContain(
      'Identified savings $3,500.00 (17.5%) = quoted $20,000.00 − best final offer $16,500.00. ' +
        "Awarded savings $1,625.00 (8.1%) = the quote's landed cost $20,000.00 − the award's $18,375.00; on price " +
        'alone it saves $2,500.00 (12.5%).',
    );
    expect(text.keyPoints.price).not.toContain('On landed cost');
    expect(text.keyPoints.price).toContain('Cost avoidance $1,500.00');
    expect(text.keyPoints.risk).toContain('Alpine Premium can fill at most 60% of the order value.');
    expect(text.keyPoints.risk).toContain('2 suppliers to manage, and a 5% split overhead ($875.00).');
    expect(text.cheapestNotChosenReason).toBe(
      "Alpine Premium's final offer ($16,500.00) is the lowest, but it is not the whole award: Alpine Premium can " +
        "fill at most 60% of the order value; Alpine Premium still gets 48.6% of the order; the award's FOB of " +
        "$17,500.00 is $1,000.00 (6.1%) above Alpine Premium's $16,500.00; the split still wins after its 5% " +
        'overhead ($875.00): $18,375.00 against $18,600.00 for the best single supplier.',
    );
    // Codes are for machines; the buyer reads names.
    expect(text.tradeOffs).not.toMatch(/SUP-00\d/);
  });

  it('writes a single award, the cash-flow reason and a trade-off', () => {
    const text = writeDeterministic(landed);
    expect(text.summary).toMatch(/^Award the whole order to RapidGear Co: effective landed cost \$42,392\.71 /);
    expect(text.keyPoints.cashFlow).toContain('Ningbo Everbright $460.27 (100% upfront, 50 days before delivery)');
    expect(text.cheapestNotChosenReason).toMatch(
      /^Ningbo Everbright's final offer \(\$42,000\.00\) is the lowest, but it is not chosen: /,
    );
    expect(text.keyPoints.leadTime).toBe(
      'Lead times: RapidGear Co 25 days, Ningbo Everbright 50 days and Alpine Premium 25 days. ' +
        'The whole order arrives in 25 days.',
    );
  });

  it("labels Parley's assumptions wherever it cites them, and names them in the summary", () => {
    const assumed: DecisionNumbers = {
      ...landed,
      assumedFacts: { 'SUP-001': ['leadTimeDays', 'onTimeDeliveryRate', 'qualityRating'] },
    };
    const text = writeDeterministic(assumed);
    expect(text.summary).toMatch(
      /Not stated by Ningbo Everbright, assumed for scoring: lead time 50 days, on-time delivery rate 90\.0% and quality rating 4\.0\/5\.$/,
    );
    expect(text.keyPoints.leadTime).toContain('Ningbo Everbright not stated (50 days assumed)');
    expect(text.keyPoints.risk).toContain('Ningbo Everbright 90.0% (assumed)');
    expect(text.keyPoints.quality).toContain('Ningbo Everbright 4.0/5 (assumed)');
    // The suppliers' own figures are not labelled.
    expect(text.keyPoints.leadTime).toContain('RapidGear Co 25 days');
    expect(writeDeterministic(landed).summary).not.toContain('assumed for scoring');
    expect(uncheckedFigures(allText(text), assumed)).toEqual([]);
  });

  it('passes its own figure check: every figure it writes is a computed one', () => {
    for (const numbers of [curveball, landed, freight, ...scored])
      expect(uncheckedFigures(allText(writeDeterministic(numbers)), numbers)).toEqual([]);
  });

  it('outside cost mode says what the award pays over the cheapest and what for, once', () => {
    const [quality, capped] = scored;
    if (quality === undefined || capped === undefined) throw new Error('the scored fixtures are missing');
    // Why the cheapest offer is not the award is its own section, and is said nowhere else.
    const premium = (numbers: DecisionNumbers) => {
      const amount = numbers.cheapestNotChosen?.landedDifference;
      if (amount === undefined || amount === null) throw new Error('the cheapest offer is chosen');
      return formatMoney(amount, numbers.currency);
    };
    const qualityText = writeDeterministic(quality);
    expect(qualityText.cheapestNotChosenReason).toContain(`is ${premium(quality)} above Ningbo Everbright's`);
    expect(qualityText.cheapestNotChosenReason).toContain('quality mode pays for a better score');
    expect(qualityText.summary).not.toContain(premium(quality));
    expect(qualityText.tradeOffs).not.toContain(premium(quality));
    const cappedText = writeDeterministic(capped);
    expect(cappedText.cheapestNotChosenReason).toContain(`is ${premium(capped)} above Ningbo Everbright's`);
    // That an even better-scoring award was over the mode's limit is another reason: the summary says it, once.
    expect(cappedText.summary).toMatch(
      /In cashflow mode the best-scoring award \(.+\) would cost .+ above the mode's 10% limit\./,
    );
    expect(cappedText.summary).not.toContain(premium(capped));
    for (const numbers of scored) expect(repeatedReasons(writeDeterministic(numbers), numbers)).toEqual([]);
    // In cost mode, nothing of the kind.
    expect(writeDeterministic(curveball).summary).not.toMatch(/ mode /);
  });
});

describe('the figure check', () => {
  it('reads money, percentages, abbreviations and ratios, and skips codes and SKUs', () => {
    const { figures, ratios } = extractFigures(
      'SUP-002 ships MC001-BON-XL (PO-2026-0001) for $48.2K, 12.3% less, in a 21-day window at 30/70 and 4.7/5.',
    );
    expect(figures.map((f) => [f.text, Math.round(f.value * 1e6) / 1e6, f.percent])).toEqual([
      ['$48.2K', 48_200, false],
      ['12.3%', 0.123, true],
      ['21', 21, false],
    ]);
    expect(ratios).toEqual(['30/70', '4.7/5']);
  });

  it('accepts a figure rounded as written and rejects one that is off', () => {
    const ok = [
      '$18,375.00',
      '$18,375',
      '$18.4K',
      'USD 17,500',
      '12.5%',
      '13%',
      '48.6 percent',
      '30 days',
      '0/100',
      // Comparisons computed by code: SUP-001 alone vs the split, and the two offers' gap.
      '$225 less',
      '$2,100',
    ];
    expect(uncheckedFigures(ok, curveball)).toEqual([]);
    expect(uncheckedFigures(['$18,375.01', '$18,380', '12.6%', '31 days', '40/60', '4.5/5'], curveball)).toEqual([
      '$18,375.01',
      '$18,380',
      '12.6%',
      '31',
      '40/60',
      '4.5/5',
    ]);
  });
});

describe('the figure check knows landed cost beyond price', () => {
  it('accepts the quote’s landed cost, charges, freight, duty and the comparisons with them; rejects others', () => {
    // Figures of the hand-worked example (decide-fixtures freightInput): the quote lands at $12,300, RapidGear at
    // $10,800 ($1,500 less, 12.2%), Ningbo Everbright at $11,940 with $300 charges, $776 freight and $1,164 duty;
    // the award is $800 (8%) dearer on price; the Incoterm's rates are 8% and 12%.
    const ok = [
      '$12,300.00',
      '$1,500',
      '12.2%',
      '$11,940',
      '$300',
      '$776',
      '$1,164',
      '$800 more on price',
      '8%',
      '12%',
      // Ningbo Everbright against the quote's landed cost: $360 less.
      '$360',
    ];
    expect(uncheckedFigures(ok, freight)).toEqual([]);
    expect(uncheckedFigures(['$12,400', '$777', '$1,165', '$1,499'], freight)).toEqual([
      '$12,400',
      '$777',
      '$1,165',
      '$1,499',
    ]);
  });

  it('says an award above the quote costs more, and a best offer above it is above, never "saves -$…"', () => {
    const { savings } = curveball;
    const text = writeDeterministic({
      ...curveball,
      savings: {
        ...savings,
        identified: { ...savings.identified, amount: -500, share: -0.025 },
        awarded: { ...savings.awarded, amount: -1000, share: -0.05 },
      },
    });
    expect(text.summary).toContain('the award costs $1,000.00 (5.0%) more');
    expect(text.summary).toContain('the best final offer was $500.00 (2.5%) above the quotation');
    expect(text.summary).not.toMatch(/saves -|-\$/);
  });

  it('says an award dearer on price but cheaper landed is both, each with its sign', () => {
    const text = writeDeterministic(freight);
    expect(text.summary).toContain("Against the quote's landed cost of $12,300.00 the award saves $1,500.00 (12.2%)");
    expect(text.keyPoints.price).toContain('on price alone it costs $800.00 (8.0%) more');
    expect(text.summary).toContain('(DDP $10,800.00 + cash-flow cost $0.00)');
  });
});

describe('writeDecision with Claude (real SDK, fake Messages API)', () => {
  let api: FakeMessagesApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('uses Claude’s text when every figure in it is a computed one', async () => {
    // The writer asks the fast tier, whatever model that is configured to be.
    const models = { fastModel: 'fast-model-under-test', reasoningModel: 'reasoning-model-under-test' };
    const fake = await startFakeClaude(() => ({ kind: 'tool', input: faithful }), models);
    api = fake.api;
    const text = await writeDecision(curveball, { llm: fake.llm });
    expect(text).toEqual({ ...faithful, writer: 'llm' });

    const request = api.requests[0];
    expect(request?.model).toBe('fast-model-under-test');
    expect(request?.tool_choice).toEqual({ type: 'tool', name: 'write_decision' });
    expect(request?.system).toMatch(/every figure is computed by code/);
    const prompt = JSON.stringify(request?.messages);
    expect(prompt).toContain('18375');
    expect(prompt).toContain('reasonFacts');
    expect(DECISION_PURPOSE).toBe('decision.write');
  });

  it('rejects a text with an invented figure and writes the deterministic one', async () => {
    const invented = { ...faithful, summary: `${faithful.summary} Alpine Premium also throws in a $1,250 rebate.` };
    const fake = await startFakeClaude(() => ({ kind: 'tool', input: invented }));
    api = fake.api;
    const reasons: string[] = [];
    const text = await writeDecision(curveball, { llm: fake.llm, onFallback: (reason) => reasons.push(reason) });
    expect(text).toEqual(writeDeterministic(curveball));
    expect(reasons).toEqual(['the text has figures the decision does not: $1,250']);
  });

  it('rejects a text that changes a share or drops the cheapest-not-chosen reason', async () => {
    const changedShare = { ...faithful, summary: faithful.summary.replace('51.4%', '55%') };
    const noReason = { ...faithful, cheapestNotChosenReason: null };
    const replies = [changedShare, noReason];
    const fake = await startFakeClaude((_request, index) => ({ kind: 'tool', input: replies[index] }));
    api = fake.api;
    const reasons: string[] = [];
    const onFallback = (reason: string) => reasons.push(reason);
    expect((await writeDecision(curveball, { llm: fake.llm, onFallback })).writer).toBe('deterministic');
    expect((await writeDecision(curveball, { llm: fake.llm, onFallback })).writer).toBe('deterministic');
    expect(reasons).toEqual([
      'the text has figures the decision does not: 55%',
      'the text does not say why the cheapest offer is not the award',
    ]);
  });

  it('falls back to the deterministic writer when Claude is overloaded (529)', async () => {
    const fake = await startFakeClaude(() => ({ kind: 'error', status: 529, type: 'overloaded_error' }));
    api = fake.api;
    const errors: unknown[] = [];
    const text = await writeDecision(landed, { llm: fake.llm, onFallback: (_reason, error) => errors.push(error) });
    expect(text).toEqual(writeDeterministic(landed));
    expect(String(errors[0])).toMatch(/529/);
  });

  it('writes deterministically without an LLM', async () => {
    expect(await writeDecision(curveball, { llm: null })).toEqual(writeDeterministic(curveball));
  });
});
