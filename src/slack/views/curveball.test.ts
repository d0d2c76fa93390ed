import { describe, expect, it } from 'vitest';
import { ACTION, actionIdPattern, curveballChoiceCodec } from '../ids.js';
import { type CurveballModel, buildCurveball } from './curveball.js';
import { HOSTILE, buttons, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const NEG = 'clnegotiation000000000001';

const model: CurveballModel = {
  negotiationId: NEG,
  supplierName: 'Alpine Premium',
  capacityShare: 0.6,
  afterRound: 1,
  impact: 'Alpine was the quality pick; 40% of the order needs another home, adding about $1,200.',
  strategies: [
    {
      id: 'split_60_40',
      title: 'Split 60/40',
      detail: 'Alpine takes what it can; RapidGear the rest.',
      allocation: [
        { supplierName: 'Alpine Premium', share: 0.6 },
        { supplierName: 'RapidGear Co', share: 0.4 },
      ],
      recommended: true,
    },
    {
      id: 'all_valden',
      title: 'All to Valden',
      detail: 'Cheapest, slowest.',
      allocation: [{ supplierName: 'Valden Textiles', share: 1 }],
      recommended: false,
    },
    {
      id: 'wait',
      title: 'Wait for capacity',
      detail: 'Ask Alpine for a later date.',
      allocation: [],
      recommended: false,
    },
  ],
};

describe('buildCurveball', () => {
  it('says what happened, the impact, and offers the strategies as buttons', () => {
    const m = buildCurveball(model);
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('Curveball after round 1');
    expect(text).toContain('Alpine Premium can now fill only 60% of the order.');
    expect(text).toContain('adding about $1,200');
    expect(text).toContain('*Split 60/40* _(recommended)_ — Alpine Premium 60% / RapidGear Co 40%');
    expect(text).toContain('*All to Valden* — Valden Textiles 100%');
    const b = buttons(m);
    expect(b.map((x) => x.text)).toEqual(['Split 60/40 (recommended)', 'All to Valden', 'Wait for capacity']);
    expect(b.map((x) => x.style)).toEqual(['primary', undefined, undefined]);
    expect(b.every((x) => actionIdPattern(ACTION.curveballChoose).test(x.actionId ?? ''))).toBe(true);
    expect(b.map((x) => curveballChoiceCodec.decode(x.value)?.s)).toEqual(['split_60_40', 'all_valden', 'wait']);
    expect(curveballChoiceCodec.decode(b[0]?.value)?.n).toBe(NEG);
  });

  it('after the choice shows the strategy and who chose, without buttons', () => {
    const m = buildCurveball({ ...model, chosen: { strategyId: 'all_valden', by: 'U0BUYER01' } });
    expectNoViolations(m, 'message');
    expect(buttons(m)).toHaveLength(0);
    const text = visibleText(m);
    expect(text).toContain(':white_check_mark: *All to Valden*');
    expect(text).toContain('Chosen by <@U0BUYER01>');
    expect(text).not.toContain('Split 60/40');
    expect(m.text).toContain('Going with All to Valden');

    const byDefault = visibleText(buildCurveball({ ...model, chosen: { strategyId: 'split_60_40', by: null } }));
    expect(byDefault).toContain('the recommended default applied');
  });

  it('escapes hostile strategy text and caps the number of strategies', () => {
    const long = HOSTILE.repeat(200);
    const strategies = Array.from({ length: 6 }, (_, i) => ({
      id: `s${i}`,
      title: long,
      detail: long,
      allocation: Array.from({ length: 10 }, () => ({ supplierName: long, share: 0.1 })),
      recommended: i === 0,
    }));
    const m = buildCurveball({ ...model, supplierName: long, impact: long, strategies });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
    expect(buttons(m)).toHaveLength(3);
    expect(buttons(m)[0]?.text?.endsWith('(recommended)')).toBe(true);
    const chosen = buildCurveball({
      ...model,
      supplierName: long,
      impact: long,
      strategies,
      chosen: { strategyId: 's1', by: '<!here>' },
    });
    expectNoViolations(chosen, 'message');
    expectNoInjection(chosen);
  });
});
