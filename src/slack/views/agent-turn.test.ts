// An agent turn as its round's message shows it (the only place turns are shown).
import { describe, expect, it } from 'vitest';
import { ACTION_TYPES } from '../../negotiation/types.js';
import { ACTION_LABEL, WHY_THIS_ASK_MAX, turnWords } from './agent-turn.js';
import { type RoundTurn, buildRoundMessage } from './round-message.js';
import { HOSTILE, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const offer = {
  total: 50440,
  previousTotal: 52000,
  leadTimeDays: 25,
  paymentTerms: '40/60',
  concessions: ['free samples', 'expedited QC'],
};

const supplierTurn: RoundTurn = {
  role: 'supplier',
  supplierName: 'Alpine Premium',
  text: 'We can meet you at $50,440 if you confirm this week.',
  action: 'COUNTER_OFFER',
  offer,
};

const brandTurn: RoundTurn = {
  role: 'brand',
  supplierName: 'Alpine Premium',
  text: 'RapidGear quotes 15 days. Can you match $48,000?',
  action: 'COUNTER_OFFER',
  brief: 'Anchor on the RapidGear offer.',
};

const shown = (turn: RoundTurn) => buildRoundMessage({ round: 2, maxRounds: 4, currency: 'USD', turns: [turn] });

describe('an agent turn in its round', () => {
  it('shows a supplier turn under the supplier name, labelled simulated, with its offer', () => {
    const m = shown(supplierTurn);
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('*Alpine Premium (simulated):* We can meet you at $50,440');
    expect(text).toContain('*Counter-offer*');
    expect(text).toContain('$50,440.00');
    expect(text).toContain('−3.0% vs their last offer');
    expect(text).toContain('25 days');
    expect(text).toContain('40/60');
    expect(text).toContain('free samples; expedited QC');
  });

  it('says how many lines an offer that leaves some out prices', () => {
    const text = visibleText(shown({ ...supplierTurn, offer: { ...offer, partial: { offered: 12, quoted: 1200 } } }));
    expect(text).toContain('$50,440.00* for 12 of 1,200 lines');
    expect(visibleText(shown(supplierTurn))).not.toMatch(/ of \d+ lines/);
  });

  it('a first offer shows no change', () => {
    expect(visibleText(shown({ ...supplierTurn, offer: { ...offer, previousTotal: null } }))).not.toContain(
      'vs their last offer',
    );
  });

  it('shows a brand turn as "Alex (AI agent) → supplier" with one "Why this ask" line and no offer', () => {
    const m = shown(brandTurn);
    const text = visibleText(m);
    expect(text).toContain('*Alex (AI agent) → Alpine Premium:* RapidGear quotes 15 days.');
    expect(m.blocks.filter((b) => JSON.stringify(b).includes('Why this ask'))).toHaveLength(1);
    expect(text).toContain('*Why this ask:* Anchor on the RapidGear offer.');
    expect(text).not.toContain(':moneybag:');
  });

  it('keeps the "Why this ask" line within WHY_THIS_ASK_MAX however long the brief, and omits an empty one', () => {
    const m = shown({ ...brandTurn, brief: 'Anchor hard & fast on the rival quote, '.repeat(30) });
    const line = m.blocks
      .flatMap((b) => (b.type === 'context' ? b.elements : []))
      .map((e) => ('text' in e ? e.text : ''))
      .find((t) => t.startsWith('*Why this ask:*'));
    expect(line?.length).toBeLessThanOrEqual(WHY_THIS_ASK_MAX);
    expect(line?.length).toBeGreaterThan(WHY_THIS_ASK_MAX - 20);
    expect(JSON.stringify(shown({ ...brandTurn, brief: '  ' }).blocks)).not.toContain('Why this ask');
  });

  it('labels every action type', () => {
    for (const action of ACTION_TYPES) {
      expect(ACTION_LABEL[action].length).toBeGreaterThan(0);
      expectNoViolations(shown({ ...brandTurn, action }), 'message');
    }
  });

  it('escapes and truncates hostile LLM output and names', () => {
    const long = HOSTILE.repeat(400);
    for (const base of [supplierTurn, brandTurn]) {
      const m = shown({
        ...base,
        text: long,
        supplierName: long,
        offer: { total: 1, previousTotal: 2, leadTimeDays: 1, paymentTerms: long, concessions: Array(20).fill(long) },
        brief: long,
      });
      expectNoViolations(m, 'message');
      expectNoInjection({ text: m.text, blocks: m.blocks });
      // However long the name, what the speaker is survives the cut.
      expect(visibleText(m)).toMatch(base.role === 'brand' ? /\*Alex \(AI agent\) → / : /\(simulated\):\*/);
    }
  });

  it('shows payment terms as people say them: "100% upfront", not "100"', () => {
    const text = visibleText(shown({ ...supplierTurn, offer: { ...offer, paymentTerms: '100' } }));
    expect(text).toContain('100% upfront');
    expect(text).not.toMatch(/:credit_card: 100(?!%)/);
  });
});

describe('turnWords', () => {
  it('keeps a short turn whole and cuts a long one after the last sentence that fits', () => {
    expect(turnWords('Two words.')).toBe('Two words.');
    const sentence = `${'word '.repeat(29)}end.`;
    expect(turnWords(`${sentence} ${sentence} ${sentence}`, 80)).toBe(`${sentence} ${sentence}`);
    expect(turnWords('a '.repeat(100), 80)).toBe(`${'a '.repeat(80).trim()}…`);
  });
});
