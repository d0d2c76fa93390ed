import { describe, expect, it } from 'vitest';
import { ACTION } from '../ids.js';
import { HOME_LIST_MAX, buildAppHome } from './app-home.js';
import { HOSTILE, buttons, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const LINK = 'https://acme.slack.com/archives/C0123/p1700000000000100';

describe('buildAppHome', () => {
  it('lists negotiations, questions and POs with jump buttons', () => {
    const view = buildAppHome({
      userId: 'U0BUYER01',
      negotiations: [
        { title: 'quote-march.xlsx · Valden Textiles', stage: 'Negotiating · round 2 of 4', permalink: LINK },
      ],
      questions: [{ askedBy: 'Alpine Premium', question: 'Two batches OK?', permalink: LINK }],
      purchaseOrders: [
        {
          number: 'PO-2026-0001',
          supplierNames: ['Alpine Premium', 'RapidGear Co'],
          total: 46800,
          currency: 'USD',
          approvals: '1 of 2 approvals',
          permalink: LINK,
        },
      ],
    });
    expectNoViolations(view, 'home');
    const text = visibleText(view);
    for (const s of [
      'Your active negotiations (1)',
      '*quote-march.xlsx · Valden Textiles*\nNegotiating · round 2 of 4',
      'Questions waiting for you (1)',
      '*Alpine Premium* asks: Two batches OK?',
      'POs waiting for your approval (1)',
      '*PO-2026-0001* · $46,800.00 · Alpine Premium, RapidGear Co\n1 of 2 approvals',
    ]) {
      expect(text).toContain(s);
    }
    const b = buttons(view);
    expect(b).toHaveLength(3);
    expect(b.every((x) => x.url === LINK && x.actionId === ACTION.openThread && x.text === 'Open thread')).toBe(true);
  });

  it('shows empty states', () => {
    const view = buildAppHome({ userId: 'U0BUYER01', negotiations: [], questions: [], purchaseOrders: [] });
    expectNoViolations(view, 'home');
    const text = visibleText(view);
    expect(text).toContain('Nothing in progress');
    expect(text).toContain('No questions for you');
    expect(text).toContain('No purchase orders waiting for you');
    expect(buttons(view)).toHaveLength(0);
  });

  it('caps long lists within 100 blocks, skips bad links, and escapes everything', () => {
    const many = 200;
    const view = buildAppHome({
      userId: 'U0BUYER01',
      negotiations: Array.from({ length: many }, () => ({
        title: HOSTILE.repeat(50),
        stage: HOSTILE,
        permalink: LINK,
      })),
      questions: Array.from({ length: many }, () => ({
        askedBy: HOSTILE,
        question: HOSTILE.repeat(100),
        permalink: 'javascript:alert(1)',
      })),
      purchaseOrders: Array.from({ length: many }, () => ({
        number: HOSTILE,
        supplierNames: [HOSTILE, HOSTILE, HOSTILE, HOSTILE],
        total: 1,
        currency: 'USD',
        approvals: HOSTILE,
        permalink: null,
      })),
    });
    expectNoViolations(view, 'home');
    expectNoInjection(view);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(visibleText(view)).toContain(`…and ${many - HOME_LIST_MAX} more`);
    expect(buttons(view)).toHaveLength(HOME_LIST_MAX);
  });
});
