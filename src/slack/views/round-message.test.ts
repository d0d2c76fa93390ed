import { describe, expect, it } from 'vitest';
import { type RoundMessageModel, type RoundTurn, buildRoundMessage, turnSpeaker } from './round-message.js';
import { TURN_WORDS_MAX } from './agent-turn.js';
import { HOSTILE, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const words = (n: number, word = 'price') => Array.from({ length: n }, () => word).join(' ');

const brand: RoundTurn = {
  role: 'brand',
  supplierName: 'RapidGear Co',
  text: 'Thanks, RapidGear Co. A competing offer is 12% lower. To close, we need $124,590.00 for the order.',
  action: 'COUNTER_OFFER',
  ask: { total: 124590, leadTimeDays: null, paymentTerms: '50/50' },
  brief: 'Anchor on the cheaper offer and ask for $124,590.00.',
};
const supplier: RoundTurn = {
  role: 'supplier',
  supplierName: 'RapidGear Co',
  text: 'We can trim the price to $137,117.20 and ship in 15 days.',
  action: 'COUNTER_OFFER',
  offer: { total: 137117.2, previousTotal: 138745.4, leadTimeDays: 15, paymentTerms: '100', concessions: [] },
};
const model: RoundMessageModel = { round: 2, maxRounds: 4, currency: 'USD', turns: [brand, supplier] };

describe('buildRoundMessage', () => {
  it('shows each turn on one line under who said it, with the ask, why, and the offer beside it', () => {
    const text = visibleText(buildRoundMessage(model));
    expect(text).toContain('Round 2 of 4');
    expect(text).toContain('*Alex (AI agent) → RapidGear Co:* Thanks, RapidGear Co.');
    expect(text).toContain('asks $124,590.00, 50/50');
    expect(text).toContain('Why this ask:* Anchor on the cheaper offer');
    expect(text).toContain('*RapidGear Co (simulated):* We can trim the price');
    expect(text).toContain('$137,117.20');
    expect(text).toContain('15 days');
  });

  it('cuts a long turn to 80 words at a sentence end, or mid-sentence with an ellipsis', () => {
    const sentence = `${words(30)}.`;
    const long = { ...brand, text: `${sentence} ${sentence} ${sentence}` };
    const shown = visibleText(buildRoundMessage({ ...model, turns: [long] }));
    const line = shown.split('\n').find((l) => l.includes('→')) ?? '';
    expect(line.split(' ').filter((w) => w === 'price' || w === 'price.')).toHaveLength(60);
    const runOn = visibleText(buildRoundMessage({ ...model, turns: [{ ...brand, text: words(200) }] }));
    const runOnLine = runOn.split('\n').find((l) => l.includes('→')) ?? '';
    expect(runOnLine.match(/price/g)).toHaveLength(TURN_WORDS_MAX);
    expect(runOnLine.endsWith('…')).toBe(true);
  });

  it('lists the request for quotes once, without each request repeating the items, and names the attachment', () => {
    const rfq: RoundTurn = {
      role: 'brand',
      supplierName: 'Alpine Premium',
      text: 'Hi Alpine Premium, please quote:\n- A-1(Jacket) — Qty 5\n- and 2,990 more lines\nLead time and terms, please.',
      action: 'REQUEST_CRITERIA',
    };
    const m = buildRoundMessage({
      ...model,
      round: 1,
      request: {
        to: ['Alpine Premium'],
        lineCount: 3000,
        units: 12000,
        itemList: '- A-1(Jacket) — Qty 5\n- and 2,990 more lines: the full list is attached (rfq-lines.csv)',
        attachment: 'rfq-lines.csv',
      },
      turns: [rfq],
    });
    const text = visibleText(m);
    expect(text.match(/A-1\(Jacket\)/g)).toHaveLength(1);
    expect(text).toContain('Request for quotes* to Alpine Premium: 3,000 lines, 12,000 units');
    expect(text).toContain('attached below as rfq-lines.csv');
    expect(text).toContain('please quote: Lead time and terms, please.');
  });

  it('closes with the standing once the round is over', () => {
    const m = buildRoundMessage({
      ...model,
      standing: {
        round: 2,
        maxRounds: 4,
        phase: 'initial',
        currency: 'USD',
        rows: [
          {
            supplierCode: 'SUP-003',
            supplierName: 'RapidGear Co',
            total: 137117.2,
            leadTimeDays: 15,
            paymentTerms: '100',
            evaluation: 'NEUTRAL',
            status: 'active',
          },
        ],
      },
    });
    expect(visibleText(m)).toContain('best offer');
    expect(m.text).toContain('Best offer: RapidGear Co at $137,117.20');
  });

  it('stays within a message when a round has many turns, keeping the latest', () => {
    const turns = Array.from({ length: 60 }, (_, i) => ({ ...supplier, text: `Turn ${i} ${words(90, HOSTILE)}` }));
    const m = buildRoundMessage({ ...model, turns });
    expectNoViolations(m, 'message');
    expect(visibleText(m)).toContain('Turn 59');
    expect(visibleText(m)).not.toContain('Turn 0 ');
    expect(visibleText(m)).toMatch(/earlier turns of this round not shown/);
  });

  it('escapes agent words, names and briefs', () => {
    const hostile = { ...brand, supplierName: HOSTILE, text: HOSTILE, brief: HOSTILE };
    const m = buildRoundMessage({ ...model, turns: [hostile, { ...supplier, supplierName: HOSTILE, text: HOSTILE }] });
    expectNoInjection(m);
    expectNoViolations(m, 'message');
    expect(turnSpeaker({ role: 'supplier', supplierName: '' })).toBe('Supplier (simulated)');
  });
});
