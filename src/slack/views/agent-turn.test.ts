import { describe, expect, it } from 'vitest';
import { ACTION_TYPES } from '../../negotiation/types.js';
import { ACTION_LABEL, type AgentTurnModel, WHY_THIS_ASK_MAX, buildAgentTurn } from './agent-turn.js';
import { HOSTILE, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const offer = {
  total: 50440,
  previousTotal: 52000,
  leadTimeDays: 25,
  paymentTerms: '40/60',
  concessions: ['free samples', 'expedited QC'],
};

const supplierTurn: AgentTurnModel = {
  role: 'supplier',
  brandName: 'Valden Outdoor',
  supplierName: 'Alpine Premium',
  text: 'We can meet you at $50,440 if you confirm this week.',
  action: 'COUNTER_OFFER',
  round: 2,
  maxRounds: 4,
  currency: 'USD',
  offer,
};

const pillars = {
  negotiator: 'Anchor on the RapidGear offer.',
  riskAnalyst: 'Alpine has the best defect rate; do not lose them.',
  productCost: 'Landed cost gap is 4%.',
};

const brandTurn: AgentTurnModel = {
  role: 'brand',
  brandName: 'Valden Outdoor',
  supplierName: 'Alpine Premium',
  text: 'RapidGear quotes 15 days. Can you match $48,000?',
  action: 'COUNTER_OFFER',
  round: 2,
  maxRounds: 4,
  currency: 'USD',
  pillars,
};

describe('buildAgentTurn', () => {
  it('posts a supplier turn under the supplier name, labelled simulated, with its offer', () => {
    const m = buildAgentTurn(supplierTurn);
    expectNoViolations(m, 'message');
    expect(m.username).toBe('Alpine Premium (simulated)');
    expect(m.icon_emoji).toBe(':factory:');
    const text = visibleText(m);
    expect(text).toContain('We can meet you at $50,440');
    expect(text).toContain('*Counter-offer* · Round 2 of 4');
    expect(text).toContain('$50,440.00');
    expect(text).toContain('−3.0% vs their last offer');
    expect(text).toContain('25 days');
    expect(text).toContain('40/60');
    expect(text).toContain('free samples; expedited QC');
    expect(m.text).toContain('Alpine Premium (simulated) (Counter-offer, round 2)');
  });

  it('a first offer shows no change', () => {
    const m = buildAgentTurn({ ...supplierTurn, offer: { ...offer, previousTotal: null } });
    expect(visibleText(m)).not.toContain('vs their last offer');
  });

  it('posts a brand turn as "Alex (AI agent) · Brand" with the briefs folded into one "Why this ask" line', () => {
    const m = buildAgentTurn(brandTurn);
    expectNoViolations(m, 'message');
    expect(m.username).toBe('Alex (AI agent) · Valden Outdoor');
    expect(m.icon_emoji).toBe(':handshake:');
    const text = visibleText(m);
    expect(text).toContain('to Alpine Premium');
    const why = m.blocks.filter((b) => JSON.stringify(b).includes('Why this ask'));
    expect(why).toHaveLength(1);
    expect(text).toContain('*Why this ask:* Anchor on the RapidGear offer.');
    // The risk and cost briefs are not printed under every turn any more.
    expect(text).not.toContain('Alpine has the best defect rate');
    expect(text).not.toContain('Landed cost gap');
    expect(text).not.toContain(':moneybag:');
  });

  it('keeps the "Why this ask" line within WHY_THIS_ASK_MAX however long the brief', () => {
    const long = 'Anchor hard & fast on the rival quote, '.repeat(30);
    const m = buildAgentTurn({ ...brandTurn, pillars: { ...pillars, negotiator: long } });
    const line = m.blocks
      .flatMap((b) => (b.type === 'context' ? b.elements : []))
      .map((e) => ('text' in e ? e.text : ''))
      .find((t) => t.startsWith('*Why this ask:*'));
    expect(line?.length).toBeLessThanOrEqual(WHY_THIS_ASK_MAX);
    expect(line?.length).toBeGreaterThan(WHY_THIS_ASK_MAX - 20);
  });

  it('falls back to another brief when the negotiator said nothing, and omits the line when none did', () => {
    const fallback = buildAgentTurn({ ...brandTurn, pillars: { ...pillars, negotiator: '  ' } });
    expect(visibleText(fallback)).toContain('*Why this ask:* Landed cost gap is 4%.');
    const none = buildAgentTurn({ ...brandTurn, pillars: { negotiator: '', riskAnalyst: '', productCost: '' } });
    expect(JSON.stringify(none.blocks)).not.toContain('Why this ask');
  });

  it('labels every action type', () => {
    for (const action of ACTION_TYPES) {
      expect(ACTION_LABEL[action].length).toBeGreaterThan(0);
      expectNoViolations(buildAgentTurn({ ...brandTurn, action }), 'message');
    }
  });

  it('escapes and truncates hostile LLM output and names', () => {
    const long = HOSTILE.repeat(400);
    for (const base of [supplierTurn, brandTurn]) {
      const m = buildAgentTurn({
        ...base,
        text: long,
        supplierName: long,
        brandName: long,
        offer: { total: 1, previousTotal: 2, leadTimeDays: 1, paymentTerms: long, concessions: Array(20).fill(long) },
        pillars: { negotiator: long, riskAnalyst: long, productCost: long },
      });
      expectNoViolations(m, 'message');
      expectNoInjection({ text: m.text, blocks: m.blocks });
      expect(m.username.length).toBeLessThanOrEqual(80);
      // However long the name, what the speaker is survives the cut.
      expect(m.username).toMatch(base.role === 'brand' ? /^Alex \(AI agent\)/ : /\(simulated\)$/);
    }
  });

  it('shows payment terms as people say them: "100% upfront", not "100"', () => {
    const text = visibleText(buildAgentTurn({ ...supplierTurn, offer: { ...offer, paymentTerms: '100' } }));
    expect(text).toContain('100% upfront');
    expect(text).not.toMatch(/:credit_card: 100(?!%)/);
  });
});
