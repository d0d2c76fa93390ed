// The discretion check before a send to a shared channel: every kind of leak is caught in the text and in every block
// shape, however it is written; nothing Parley really sends the quoting supplier is held back, while the same
// negotiations with competitors named are; hostile input neither crashes it nor takes long.
import { describe, expect, it } from 'vitest';
import { SIMULATED_SUPPLIERS } from '../config/business-rules.js';
import { chooseAnswer, engineMandate } from '../../dev/outcomes/play-scenario.js';
import { ANSWER_POLICIES, intendedMandate, MANDATE_KINDS, OUTCOME_MODES } from '../../dev/outcomes/scenarios.js';
import { exampleSetup } from '../../test/support/negotiation-fixtures.js';
import { sampleBaselines } from '../../test/support/sample-baselines.js';
import { createNegotiationAgents } from '../negotiation/agents/create-agents.js';
import { answerQuestion, askQuestion, type AskInfoState } from '../negotiation/ask-info.js';
import { createNegotiation, type NegotiationState } from '../negotiation/engine.js';
import { runUnattended } from '../negotiation/run-unattended.js';
import type { Offer } from '../negotiation/types.js';
import {
  confidentialFacts,
  describeLeaks,
  findLeaks,
  type Leak,
  MAX_BLOCK_DEPTH,
  MAX_BLOCK_FIELDS,
  type OutgoingMessage,
} from './discretion-check.js';

// ───────────────────────────── A negotiation with a secret of every kind ─────────────────────────────

function offer(code: string, total: number, prices: readonly number[], extra: Partial<Offer> = {}): Offer {
  const skus = ['MC001-BON-XL', 'KT004-EMR-M', 'MS005-EMR-XS'];
  return {
    supplierCode: code,
    round: 1,
    lines: prices.map((unitPrice, i) => ({ sku: skus[i] ?? 'MC001-BON-XL', quantity: 300, unitPrice, tiers: [] })),
    total,
    leadTimeDays: 30,
    paymentTerms: '30/70',
    incoterm: 'FOB',
    currency: 'USD',
    concessions: [],
    conditions: [],
    capacityShare: 1,
    ...extra,
  };
}

function answered(askInfo: AskInfoState, question: string, suggestedAnswers: string[], answer: string): AskInfoState {
  const asked = askQuestion(askInfo, { supplierCode: 'SUP-001', question, suggestedAnswers, topic: null });
  if (asked.kind !== 'queued') throw new Error('the question budget is used up');
  const result = answerQuestion(asked.state, asked.question.id, answer, 'U0BUYER01');
  if (result.kind !== 'answered') throw new Error('the question was not answered');
  return result.state;
}

/**
 * SUP-001 (the recipient, Ningbo Everbright) has quoted $18,926.00 at 50 days ($42.50, $8.20, $17.30 a unit) and been
 * asked $17,500.00 and 40 days. The figures of the others are chosen to exercise how numbers are written, not to add
 * up: the check does not re-total an offer. RapidGear's $8.20 equals the recipient's own by coincidence.
 */
function plantedState(names: Partial<Record<string, string>> = {}): NegotiationState {
  const setup = exampleSetup(7, {
    questionBudget: 5,
    buyerNotes: 'Launch slipped to March, so keep the Berlin flagship order quiet for now.',
    mandate: {
      targetTotal: 17_100,
      walkAwayTotal: 21_234.56,
      maxLeadTimeDays: 33,
      walkAwayUnitPrices: { 'MC001-BON-XL': 44.44 },
      minSplitSaving: 0.07,
    },
  });
  const { state } = createNegotiation({
    ...setup,
    profiles: setup.profiles.map((profile) => ({ ...profile, name: names[profile.code] ?? profile.name })),
  });
  let askInfo = answered(
    state.askInfo,
    'Split the order?',
    ['Yes, split the order', 'Prefer a single supplier'],
    'Yes, split the order',
  );
  askInfo = answered(
    askInfo,
    'Is a 50-day lead time acceptable?',
    ['Yes, 50 days is fine', 'Need delivery within 30 days'],
    'Our CFO signed off on the spring budget but wants two suppliers for safety',
  );
  askInfo = answered(askInfo, 'Anything else?', ['No', 'Yes'], 'Vietnam factory preferred strongly');
  const suppliers = { ...state.suppliers };
  const quoting = suppliers['SUP-001'];
  if (quoting === undefined) throw new Error('SUP-001 is missing');
  suppliers['SUP-001'] = {
    ...quoting,
    brandAsks: [{ round: 1, targetTotal: 17_500, leadTimeDays: 40, paymentTerms: null }],
  };
  const add = (code: string, offers: Offer[]) => {
    const supplier = suppliers[code];
    if (supplier === undefined) throw new Error(`${code} is missing`);
    suppliers[code] = { ...supplier, offers };
  };
  const alpine = offer('SUP-002', 144_854.1, [12.5, 33.33, 16.05], { leadTimeDays: 45, capacityShare: 0.6 });
  const tiered = alpine.lines.map((line, i) =>
    i === 0 ? { ...line, tiers: [{ minQty: 400, unitPrice: 11.75 }] } : line,
  );
  add('SUP-002', [{ ...alpine, lines: tiered }]);
  add('SUP-003', [offer('SUP-003', 17_000, [39.9, 8.2, 16.1], { leadTimeDays: 21 })]);
  return {
    ...state,
    suppliers,
    askInfo,
    curveball: {
      supplierCode: 'SUP-002',
      capacityShare: 0.6,
      afterRound: 1,
      impact: '',
      strategies: [],
      chosen: 'split',
    },
  };
}

const facts = confidentialFacts(plantedState(), 'SUP-001');
const leaksIn = (text: string, blocks?: unknown[]): Leak[] =>
  findLeaks(blocks === undefined ? { text } : { text: '', blocks }, facts);
const whats = (text: string): string[] => leaksIn(text).map((leak) => leak.what);

describe('what the recipient must not see', () => {
  it("lists the others, every figure of their offers and of the mandate, the buyer's words — not its own", () => {
    expect(facts.competitors.map((c) => c.name)).toEqual(['Alpine Premium', 'RapidGear Co']);
    const amounts = facts.amounts.map((figure) => figure.value);
    expect(amounts).toEqual(expect.arrayContaining([14_485_410, 1_250, 1_175, 1_700_000, 1_710_000, 2_123_456]));
    // The recipient's own figures and what it was asked, whoever else has them too.
    for (const own of [1_892_600, 4_250, 820, 1_750_000]) expect(amounts).not.toContain(own);
    expect(facts.days.map((figure) => figure.value).sort((a, b) => a - b)).toEqual([21, 33, 45]);
    expect(facts.shares.map((share) => `${share.topic} ${share.value}`)).toEqual(
      expect.arrayContaining(['capacity 60', 'capacity 40', 'split_saving 7']),
    );
    // A click on a suggested answer is Parley's words; what the buyer typed and noted is theirs.
    expect(facts.buyerWords.map((words) => words.text)).toEqual([
      'Our CFO signed off on the spring budget but wants two suppliers for safety',
      'Vietnam factory preferred strongly',
      'Launch slipped to March, so keep the Berlin flagship order quiet for now.',
    ]);
  });
});

// ───────────────────────────── (a) Planted leaks, in the text ─────────────────────────────

describe('a competitor named in the text', () => {
  it.each([
    ['We spoke with Alpine Premium yesterday.', 'names Alpine Premium'],
    ['ALPINE PREMIUM came in lower.', 'names Alpine Premium'],
    ['Alpîne Prémium came in lower.', 'names Alpine Premium'],
    ['Alpine-Premium came in lower.', 'names Alpine Premium'],
    ['The Alpine quote is lower.', 'names Alpine Premium'],
    ['SUP-002 is lower.', 'names Alpine Premium'],
    ['sup002 is lower.', 'names Alpine Premium'],
    ["RapidGear's quote is lower.", 'names RapidGear Co'],
    ['*Rapid*Gear is faster.', 'names RapidGear Co'],
    ['Rapid\u200BGear is faster.', 'names RapidGear Co'],
    ['Rapid\u00ADGear\uFEFF is faster.', 'names RapidGear Co'],
    ['See <https://example.com/quote|Alpine Premium> for details.', 'names Alpine Premium'],
    ['See <https://alpine-premium.example/quote|the other quote>.', 'names Alpine Premium'],
    ['_RAPIDGEAR_ ships sooner.', 'names RapidGear Co'],
  ])('%s', (text, what) => {
    expect(leaksIn(text)).toContainEqual({ kind: 'competitor_name', where: 'text', what });
  });

  it.each([
    'A competing supplier is 9% lower than yours.',
    'Rapid delivery matters; gear up for a busy season.',
    'The subalpine range is popular.',
    'Thanks, Ningbo Everbright. FOB Ningbo, MC001-BON-XL(Kestrel Insulated Parka).',
  ])('not in "%s"', (text) => {
    expect(leaksIn(text)).toEqual([]);
  });

  it("decodes Slack's escaping before matching: R&amp;D is R&D", () => {
    const ampersand = confidentialFacts(plantedState({ 'SUP-003': 'R&D Knit Co' }), 'SUP-001');
    expect(findLeaks({ text: 'R&amp;D Knit is faster.' }, ampersand).map((l) => l.what)).toEqual(['names R&D Knit Co']);
    expect(findLeaks({ text: '&lt;RapidGear&gt;' }, facts).map((l) => l.what)).toEqual(['names RapidGear Co']);
  });

  it('finds Chinese and German names, with and without accents or umlauts written out', () => {
    const state = plantedState({ 'SUP-002': '宁波永辉纺织有限公司', 'SUP-003': 'Müller Strickwaren GmbH' });
    const unicode = confidentialFacts(state, 'SUP-001');
    const names = (text: string) => findLeaks({ text }, unicode).map((leak) => leak.what);
    expect(names('我们收到了宁波永辉纺织的报价。')).toEqual(['names 宁波永辉纺织有限公司']);
    expect(names('宁波永辉 纺织*有限公司')).toEqual(['names 宁波永辉纺织有限公司']);
    expect(names('MÜLLER quoted less.')).toEqual(['names Müller Strickwaren GmbH']);
    expect(names('Muller Strickwaren quoted less.')).toEqual(['names Müller Strickwaren GmbH']);
    expect(names('Mueller quoted less.')).toEqual(['names Müller Strickwaren GmbH']);
    expect(names('We ship from 宁波港 on Monday.')).toEqual([]);
  });
});

describe('a figure of a competitor or of the mandate in the text, however it is written', () => {
  it.each([
    ['$144,854.10', "states Alpine Premium's total"],
    ['US$ 144,854.10', "states Alpine Premium's total"],
    ['144854.1', "states Alpine Premium's total"],
    ['144.854,10 €', "states Alpine Premium's total"],
    ['USD 144854.10', "states Alpine Premium's total"],
    ['144\u202F854,10 USD', "states Alpine Premium's total"],
    ['＄１４４，８５４．１０', "states Alpine Premium's total"],
    ['$12.50 a unit', "states Alpine Premium's unit price"],
    ['12.5', "states Alpine Premium's unit price"],
    ['12,50 €', "states Alpine Premium's unit price"],
    ['EUR 12,50', "states Alpine Premium's unit price"],
    ['$*12*.50', "states Alpine Premium's unit price"],
    ['from 400 units at 11.75', "states Alpine Premium's tier price"],
    ['ships within 45 days', "states Alpine Premium's lead time"],
    ['a 45-day lead time', "states Alpine Premium's lead time"],
    ['a lead time of 45', "states Alpine Premium's lead time"],
    ['ready in 3 weeks', "states RapidGear Co's lead time"],
    ['can fill only 60% of the order', "states Alpine Premium's capacity"],
    ['capped at 60 %', "states Alpine Premium's capacity"],
    ['0.6 of the order', "states Alpine Premium's capacity"],
    ['the other 40% of the volume', "states Alpine Premium's capacity"],
    ['a gap of $1,926.00', "states the gap to RapidGear Co's total"],
    ['$17,100.00 for the order', "states the buyer's target total"],
    ['about 17.1k', "states the buyer's target total"],
    ['USD 21,234.56', "states the buyer's walk-away total"],
    ['21.234,56 €', "states the buyer's walk-away total"],
    ['delivery within 33 days', "states the buyer's delivery deadline"],
    ['$44.44 a unit', "states the buyer's walk-away unit price"],
    ['a split must save 7%', 'states the saving the buyer wants from a split'],
  ])('%s', (text, what) => {
    expect(whats(text)).toContain(what);
  });

  it.each([
    // The recipient's own figures and the brand's asks to it, whoever else has the same number.
    "Thanks, we've reviewed your $18,926.00 offer at 50 days; MC001-BON-XL at $42.50, that line alone is $12,750.00.",
    "On KT004-EMR-M you're at $8.20 a unit.",
    'Our number is $17,500.00, 7.5% below where you are, and we need delivery within 40 days.',
    // Not a capacity share nor a split threshold: a price gap, a payment split, counts and codes.
    'A competing offer is 7% lower than yours; 60% is the largest line.',
    'Terms 30/70, round 2 of 4, 45 units of SUP-001 stock, 12 SKUs, a 24-month warranty, on 2026-12-01.',
    'Please include a 4.0/5 quality rating, version 1.2.50, ref MC001 and 125% volume tiers.',
  ])('not in "%s"', (text) => {
    expect(leaksIn(text)).toEqual([]);
  });
});

describe("the buyer's words", () => {
  it('six words in a row of what the buyer typed, or a short distinctive answer whole', () => {
    expect(leaksIn('Your CFO? Ours signed off on the spring budget already.')).toContainEqual({
      kind: 'buyer_answer',
      where: 'text',
      what: "repeats the buyer's answer to a question",
    });
    expect(whats('We hear a Vietnam factory preferred strongly by some.')).toEqual([
      "repeats the buyer's answer to a question",
    ]);
    expect(whats('Please keep the Berlin flagship order quiet.')).toEqual(["repeats the buyer's notes"]);
  });

  it('not five words of it, nor the words of an answer Parley suggested and the buyer clicked', () => {
    expect(leaksIn('It is off on the spring budget.')).toEqual([]);
    expect(leaksIn('A Vietnam factory is fine.')).toEqual([]);
    expect(leaksIn('Yes, split the order: we would prefer a single supplier.')).toEqual([]);
  });
});

describe('words internal by nature', () => {
  it.each([
    ['Our walk-away price is close.', 'walk-away'],
    ['The walk away total is set.', 'walk-away'],
    ["That is the buyer's walkaway.", 'walk-away'],
    ['This is our reservation price.', 'reservation price'],
    ['Our BATNA is strong.', 'BATNA'],
    ["It is outside the buyer's mandate.", 'mandate'],
    ['Your weighted score is 0.82.', 'score'],
    ['You scored well.', 'score'],
    ["Parley's recommendation is to split.", 'recommendation'],
    ['Here is the draft PO.', 'draft PO'],
    ['The purchase-order draft is ready.', 'draft PO'],
    ['Two simulated suppliers quoted.', 'simulated'],
    ['After the curveball we re-plan.', 'curveball'],
    ['After the capacity shock we re-plan.', 'curveball'],
    ['The negotiator brief says so.', 'brief'],
  ])('%s', (text, word) => {
    expect(leaksIn(text)).toContainEqual({
      kind: 'internal_word',
      where: 'text',
      what: `uses the internal word "${word}"`,
    });
  });

  // What Alex says to suppliers (agents/offline/phrases.ts).
  it.each([
    'Our number is firm; our target is a fair price and our budget is fixed.',
    "Next step: we'll draft the purchase order for internal approval and send it within 2 days.",
    "We're ready to issue the PO within 2 days once the numbers work. Please send the PO.",
    "If this doesn't work we will walk away from the deal.",
    "Your on-time record is part of our risk assessment; we're keeping two suppliers in play, so every point counts.",
  ])('not in "%s"', (text) => {
    expect(leaksIn(text)).toEqual([]);
  });
});

// ───────────────────────────── (a) Planted leaks, in every block shape ─────────────────────────────

describe('a leak in the blocks, at any depth', () => {
  const text = (value: string) => ({ type: 'mrkdwn', text: value });
  const plain = (value: string) => ({ type: 'plain_text', text: value });
  const shapes: [string, (value: string) => unknown[], string][] = [
    ['section text', (v) => [{ type: 'section', text: text(v) }], 'blocks[0].text.text'],
    ['section fields', (v) => [{ type: 'section', fields: [text('*Quote*'), text(v)] }], 'blocks[0].fields[1].text'],
    ['header', (v) => [{ type: 'divider' }, { type: 'header', text: plain(v) }], 'blocks[1].text.text'],
    ['context element', (v) => [{ type: 'context', elements: [text('Note'), text(v)] }], 'blocks[0].elements[1].text'],
    [
      'context image alt text',
      (v) => [{ type: 'context', elements: [{ type: 'image', image_url: 'https://x.example/a.png', alt_text: v }] }],
      'blocks[0].elements[0].alt_text',
    ],
    [
      'image title',
      (v) => [{ type: 'image', image_url: 'https://x.example/a.png', alt_text: 'chart', title: plain(v) }],
      'blocks[0].title.text',
    ],
    [
      'rich text',
      (v) => [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'Note: ' },
                { type: 'text', text: v, style: { bold: true } },
              ],
            },
          ],
        },
      ],
      'blocks[0].elements[0].elements[1].text',
    ],
    [
      'rich text link label',
      (v) => [
        {
          type: 'rich_text',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url: 'https://x.example', text: v }] }],
        },
      ],
      'blocks[0].elements[0].elements[0].text',
    ],
    [
      'rich text list',
      (v) => [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_list',
              style: 'bullet',
              elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: v }] }],
            },
          ],
        },
      ],
      'blocks[0].elements[0].elements[0].elements[0].text',
    ],
    [
      'table cell',
      (v) => [{ type: 'table', rows: [[{ type: 'raw_text', text: 'Supplier' }], [{ type: 'raw_text', text: v }]] }],
      'blocks[0].rows[1][0].text',
    ],
    [
      'button text',
      (v) => [{ type: 'actions', elements: [{ type: 'button', action_id: 'open', value: 'q1', text: plain(v) }] }],
      'blocks[0].elements[0].text.text',
    ],
    [
      // Not shown, but delivered to the supplier's client with the message.
      'button value',
      (v) => [{ type: 'actions', elements: [{ type: 'button', action_id: 'open', value: v, text: plain('Open') }] }],
      'blocks[0].elements[0].value',
    ],
    [
      'select option',
      (v) => [
        {
          type: 'section',
          text: text('Pick one'),
          accessory: { type: 'static_select', action_id: 'pick', options: [{ text: plain(v), value: 'a' }] },
        },
      ],
      'blocks[0].accessory.options[0].text.text',
    ],
  ];

  it.each(shapes)('%s', (_, blocks, where) => {
    const found = leaksIn('', blocks('*Alpine Premium* is at $144,854.10'));
    expect(found).toEqual([
      { kind: 'competitor_name', where, what: 'names Alpine Premium' },
      { kind: 'competitor_figure', where, what: "states Alpine Premium's total" },
    ]);
    expect(leaksIn('', blocks('Thanks for your quote of $18,926.00.'))).toEqual([]);
  });

  it('in the fallback text as well as in the blocks, and in a number that is no string', () => {
    const message: OutgoingMessage = {
      text: 'Our walk-away price stands.',
      blocks: [{ type: 'section', text: text('Thanks.'), extra: 144_854.1 }],
    };
    expect(findLeaks(message, facts)).toEqual([
      { kind: 'internal_word', where: 'text', what: 'uses the internal word "walk-away"' },
      { kind: 'competitor_figure', where: 'blocks[0].extra', what: "states Alpine Premium's total" },
    ]);
  });
});

// ───────────────────────────── Telling the buyer ─────────────────────────────

describe('what the buyer is told', () => {
  it('one short sentence naming what leaked, never the figure', () => {
    const found = leaksIn('Alpine Premium is at $144,854.10 and our walk-away price is $21,234.56.');
    const sentence = describeLeaks(found);
    expect(sentence).toBe(
      "Held back from the supplier: the message names Alpine Premium, states Alpine Premium's total, states the " +
        'buyer\'s walk-away total and uses the internal word "walk-away". The supplier\'s organisation sees ' +
        'everything posted in a shared channel.',
    );
    expect(sentence).not.toMatch(/144|21,234/);
    expect(describeLeaks([])).toBe('');
  });

  it('lists four things and counts the rest', () => {
    const sentence = describeLeaks(
      leaksIn('Alpine Premium, RapidGear, $144,854.10, 45 days, a draft PO, the mandate.'),
    );
    expect(sentence).toMatch(/ and 2 more things\. /);
  });
});

// ───────────────────────────── (d) Hostile input ─────────────────────────────

describe('hostile input: no crash, bounded time', () => {
  it('supplier names full of regular-expression characters', () => {
    const names = { 'SUP-002': 'A+B (Shenzhen) [Knit] Co.*', 'SUP-003': '.*' };
    const hostile = confidentialFacts(plantedState(names), 'SUP-001');
    expect(findLeaks({ text: 'Thanks for your quote of $18,926.00 (.*) [a+b]?' }, hostile)).toEqual([]);
    expect(findLeaks({ text: 'A+B (Shenzhen) [Knit] quoted.' }, hostile).map((l) => l.what)).toEqual([
      'names A+B (Shenzhen) [Knit] Co.*',
    ]);
    const odd = confidentialFacts(plantedState({ 'SUP-002': '\\', 'SUP-003': '' }), 'SUP-001');
    expect(findLeaks({ text: '\\ and nothing' }, odd)).toEqual([]);
  });

  it('a text of a megabyte, and pathological runs of digits, dots and brackets', () => {
    const started = performance.now();
    const long = 'We have your quote at $18,926.00, 50 days, 300 units. '.repeat(20_000) + 'Alpine Premium.';
    expect(leaksIn(long).map((leak) => leak.what)).toEqual(['names Alpine Premium']);
    for (const text of ['1.'.repeat(200_000), '9'.repeat(300_000), '<|>&amp;'.repeat(100_000), 'a'.repeat(500_000)])
      expect(leaksIn(text)).toEqual([]);
    // Linear work: well under this on a busy two-core machine.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('blocks nested past any real message are refused unread; within the limit a leak at the bottom is found', () => {
    let deep: unknown = { type: 'text', text: 'Alpine Premium' };
    for (let i = 0; i < 100_000; i++) deep = { type: 'rich_text_section', elements: [deep] };
    expect(leaksIn('', [deep]).map((leak) => leak.kind)).toEqual(['unchecked']);
    let shallow: unknown = { type: 'text', text: 'Alpine Premium' };
    for (let i = 0; i < MAX_BLOCK_DEPTH / 2 - 2; i++) shallow = { elements: [shallow] };
    expect(leaksIn('', [shallow]).map((leak) => leak.kind)).toEqual(['competitor_name']);
    const many = Array.from({ length: MAX_BLOCK_FIELDS + 1 }, () => 'Thanks.');
    expect(leaksIn('', many).map((leak) => leak.kind)).toEqual(['unchecked']);
  });

  it('fields that are no strings, and a cycle, before a leak', () => {
    const cyclic: Record<string, unknown> = { type: 'section' };
    cyclic['self'] = cyclic;
    const blocks = [
      null,
      undefined,
      true,
      3,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -0,
      1e21,
      10n,
      [[[]]],
      { type: 'section', text: { type: 'mrkdwn', text: null }, fields: 'not an array', elements: { 0: 7 } },
      new Date(0),
      cyclic,
      { type: 'section', text: { type: 'mrkdwn', text: 'Alpine Premium' } },
    ];
    // Read past all of it: the leak after the junk is found, where it is.
    expect(leaksIn('', blocks)).toEqual([
      { kind: 'competitor_name', where: 'blocks[13].text.text', what: 'names Alpine Premium' },
    ]);
  });
});

// ───────────────────────────── (b, c) What Parley really sends ─────────────────────────────

/**
 * The quoting supplier's brand messages from the offline engine, each checked with the facts of the step that wrote
 * it (the state the outbox will hold when it sends: offers made later do not exist yet). Every bundled sample Parley
 * negotiates (13, the 3,000-line file, alone takes as long as the rest), four negotiations each: 100, with seeds 1–100
 * and every mode × mandate × answer policy of the outcomes bench (75 combinations) at least once. That is a few
 * seconds; the outcomes bench and message-checks play many more seeds for their own checks.
 */
async function brandMessagesChecked(disclose: boolean, perSample: number) {
  const prefixes = Array.from({ length: 28 }, (_, i) => String(i + 1).padStart(2, '0')).filter((p) => p !== '13');
  // A file with no priced line is not negotiated (the outcomes bench: nothing_to_negotiate).
  const samples = sampleBaselines(prefixes).filter((sample) => sample.baseline.lines.length > 0);
  const checked: { where: string; text: string; leaks: Leak[]; competitors: string[] }[] = [];
  const combinations = new Set<string>();
  let withBuyerWords = 0;
  for (const [s, sample] of samples.entries()) {
    for (let k = 0; k < perSample; k++) {
      const i = s * perSample + k;
      const [mode, mandate, policy] = [
        OUTCOME_MODES[i % OUTCOME_MODES.length] ?? 'balanced',
        MANDATE_KINDS[Math.floor(i / OUTCOME_MODES.length) % MANDATE_KINDS.length] ?? 'none',
        ANSWER_POLICIES[Math.floor(i / 25) % ANSWER_POLICIES.length] ?? 'first',
      ];
      combinations.add(`${mode} ${mandate} ${policy}`);
      const seed = i + 1;
      let index = 0;
      const run = await runUnattended(
        {
          seed,
          brandName: 'Valden Outdoor',
          mode,
          maxRounds: 4,
          mandate: engineMandate(intendedMandate(mandate, sample.baseline)),
          buyerNotes: null,
          baseline: sample.baseline,
          profiles: [sample.quotedSupplier, ...SIMULATED_SUPPLIERS],
          discloseCompetitors: disclose,
        },
        createNegotiationAgents(null),
        {
          answers: 'auto',
          choose: (question) =>
            chooseAnswer(policy, question, { seed, index: index++, quoteTotal: sample.baseline.total }),
          onStep: ({ state, events }) => {
            for (const event of events) {
              if (event.type !== 'message' || event.role !== 'brand_agent' || event.supplierCode !== 'SUP-001')
                continue;
              const facts = confidentialFacts(state, 'SUP-001');
              checked.push({
                where: `${sample.name} seed ${seed} ${mode} ${mandate} ${policy} #${event.sequence}`,
                text: event.text,
                leaks: findLeaks({ text: event.text }, facts),
                competitors: facts.competitors.map((competitor) => competitor.name),
              });
            }
          },
        },
      );
      if (confidentialFacts(run.state, 'SUP-001').buyerWords.length > 0) withBuyerWords += 1;
    }
  }
  return { samples, checked, combinations, withBuyerWords };
}

describe('what Parley really sends the quoting supplier, over the bundled samples and many seeds', () => {
  it('holds back nothing with competitors unnamed (the default)', async () => {
    const { samples, checked, combinations, withBuyerWords } = await brandMessagesChecked(false, 4);
    expect(samples.length).toBeGreaterThanOrEqual(24);
    expect(combinations.size).toBe(OUTCOME_MODES.length * MANDATE_KINDS.length * ANSWER_POLICIES.length);
    expect(checked.length).toBeGreaterThan(300);
    // Not vacuous: typed answers gave the check buyer's words to look for.
    expect(withBuyerWords).toBeGreaterThan(0);
    const held = checked.filter((message) => message.leaks.length > 0);
    expect(held.slice(0, 3).map((m) => `${m.where}: ${describeLeaks(m.leaks)}\n${m.text}`)).toEqual([]);
  }, 60_000);

  it('holds back every message that names a competitor when the workspace allows naming them', async () => {
    const { checked } = await brandMessagesChecked(true, 1);
    const naming = checked.filter((message) => message.competitors.some((name) => message.text.includes(name)));
    expect(naming.length).toBeGreaterThan(10);
    for (const message of naming)
      expect(
        message.leaks.map((leak) => leak.kind),
        message.where,
      ).toContain('competitor_name');
    // And their figures, which the named phrases cite.
    expect(naming.filter((message) => message.leaks.some((l) => l.kind === 'competitor_figure')).length).toBe(
      naming.length,
    );
  }, 60_000);
});
