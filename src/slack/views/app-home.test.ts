import type { HomeView } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { ACTION } from '../ids.js';
import {
  type AppHomeModel,
  HOME_HISTORY_MAX,
  HOME_LIST_MAX,
  type HomePastNegotiation,
  type HomePastPurchaseOrder,
  buildAppHome,
} from './app-home.js';
import { HOSTILE, buttons, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const LINK = 'https://acme.slack.com/archives/C0123/p1700000000000100';
const NO_HISTORY = { pastNegotiations: [], pastPurchaseOrders: [] };
/** The items' "Open thread" buttons (the tab has others, e.g. the catalog's). */
const threadButtons = (view: HomeView) => buttons(view).filter((b) => b.actionId === ACTION.openThread);
const DAY = 86_400_000;
const AT = new Date('2026-11-20T10:00:00Z');

function pastNegotiation(i: number, overrides: Partial<HomePastNegotiation> = {}): HomePastNegotiation {
  return {
    title: `quote-${i}.xlsx`,
    supplierName: 'Valden Textiles',
    status: 'Completed',
    award: { poNumber: `PO-2026-${String(i).padStart(4, '0')}`, total: 1000 + i, currency: 'USD' },
    at: new Date(AT.getTime() - i * DAY),
    permalink: `${LINK}${i}`,
    ...overrides,
  };
}

function pastPurchaseOrder(i: number, overrides: Partial<HomePastPurchaseOrder> = {}): HomePastPurchaseOrder {
  return {
    number: `PO-2026-${String(i).padStart(4, '0')}`,
    status: i % 2 === 0 ? 'Approved' : 'Rejected',
    total: 2000 + i,
    currency: 'EUR',
    supplierNames: ['Alpine Premium', 'RapidGear Co'],
    at: new Date(AT.getTime() - i * DAY),
    permalink: `${LINK}${i}`,
    ...overrides,
  };
}

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
      ...NO_HISTORY,
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
    const b = threadButtons(view);
    expect(b).toHaveLength(3);
    expect(b.every((x) => x.url === LINK && x.actionId === ACTION.openThread && x.text === 'Open thread')).toBe(true);
  });

  it('shows empty states', () => {
    const view = buildAppHome({
      userId: 'U0BUYER01',
      negotiations: [],
      questions: [],
      purchaseOrders: [],
      ...NO_HISTORY,
    });
    expectNoViolations(view, 'home');
    const text = visibleText(view);
    expect(text).toContain('Nothing in progress');
    expect(text).toContain('No questions for you');
    expect(text).toContain('No purchase orders waiting for you');
    expect(text).toContain('No finished negotiations yet.');
    expect(text).toContain('No purchase orders yet.');
    expect(threadButtons(view)).toHaveLength(0);
    // The catalog and the suppliers in Slack Connect, for whoever may change them (the modals say who may).
    expect(buttons(view).map((b) => b.actionId)).toEqual(
      expect.arrayContaining([ACTION.catalogOpen, ACTION.suppliersOpen]),
    );
  });

  it('tells an approver they approve, and everyone on a fresh install how the first approver is made', () => {
    const home = (role?: 'approver' | 'no_approver_yet' | 'member') =>
      visibleText(
        buildAppHome({ userId: 'U0BUYER01', role, negotiations: [], questions: [], purchaseOrders: [], ...NO_HISTORY }),
      );
    expect(home('approver')).toContain('You approve purchase orders here');
    expect(home('no_approver_yet')).toContain('the first workspace admin to open this Home becomes the approver');
    for (const text of [home('member'), home()]) {
      expect(text).not.toContain('You approve');
      expect(text).not.toContain('Nobody approves');
    }
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
      pastNegotiations: Array.from({ length: many }, (_, i) =>
        pastNegotiation(i, { title: HOSTILE.repeat(50), supplierName: HOSTILE, status: HOSTILE }),
      ),
      pastPurchaseOrders: Array.from({ length: many }, (_, i) =>
        pastPurchaseOrder(i, { number: HOSTILE, supplierNames: [HOSTILE, HOSTILE, HOSTILE, HOSTILE] }),
      ),
    });
    expectNoViolations(view, 'home');
    expectNoInjection(view);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(visibleText(view)).toContain(`…and ${many - HOME_LIST_MAX} more`);
    expect(threadButtons(view)).toHaveLength(HOME_LIST_MAX);
  });

  it('lists the last 20 past negotiations and POs, newest first, with status, amount, date and thread link', () => {
    const model: AppHomeModel = {
      userId: 'U0BUYER01',
      negotiations: [],
      questions: [],
      purchaseOrders: [],
      pastNegotiations: Array.from({ length: 26 }, (_, i) => pastNegotiation(i + 1)),
      pastPurchaseOrders: Array.from({ length: 27 }, (_, i) => pastPurchaseOrder(i + 1)),
    };
    const view = buildAppHome(model);
    expectNoViolations(view, 'home');
    const text = visibleText(view);
    expect(text).toContain('Past negotiations');
    expect(text).toContain(
      `• <${LINK}1|quote-1.xlsx> · Valden Textiles · *Completed* · PO-2026-0001: $1,001.00 · <!date^${
        (AT.getTime() - DAY) / 1000
      }^{date_short_pretty} at {time}|2026-11-19 10:00 UTC>`,
    );
    expect(text).toContain(`• <${LINK}2|PO-2026-0002> · *Approved* · EUR 2,002.00 · Alpine Premium, RapidGear Co · `);
    expect(text).toContain(`• <${LINK}3|PO-2026-0003> · *Rejected* · EUR 2,003.00`);
    // 20 of each, in the order given (newest first), and nothing older.
    expect(text).toContain(`|quote-${HOME_HISTORY_MAX}.xlsx>`);
    expect(text).not.toContain(`|quote-${HOME_HISTORY_MAX + 1}.xlsx>`);
    expect(text.indexOf('|quote-1.xlsx>')).toBeLessThan(text.indexOf('|quote-2.xlsx>'));
    expect(text).toContain(`|PO-2026-00${HOME_HISTORY_MAX}>`);
    expect(text).not.toContain(`|PO-2026-00${HOME_HISTORY_MAX + 1}>`);
  });

  it('says when a past negotiation led to no PO, and shows a line without a link when there is no thread', () => {
    const view = buildAppHome({
      userId: 'U0BUYER01',
      negotiations: [],
      questions: [],
      purchaseOrders: [],
      pastNegotiations: [pastNegotiation(1, { status: 'Expired', award: null, permalink: null, supplierName: null })],
      pastPurchaseOrders: [],
    });
    expectNoViolations(view, 'home');
    expect(visibleText(view)).toContain('• *quote-1.xlsx* · *Expired* · no purchase order · ');
  });

  it('stays within 100 blocks with every list and history full', () => {
    const full = (n: number) => Array.from({ length: n }, (_, i) => i);
    const view = buildAppHome({
      userId: 'U0BUYER01',
      negotiations: full(30).map((i) => ({ title: `n${i}`, stage: 'Negotiating', permalink: LINK })),
      questions: full(30).map((i) => ({ askedBy: `s${i}`, question: 'q?', permalink: LINK })),
      purchaseOrders: full(30).map((i) => ({
        number: `PO-${i}`,
        supplierNames: ['A'],
        total: 1,
        currency: 'USD',
        approvals: '0 of 1 approvals',
        permalink: LINK,
      })),
      // Long lines: the histories take more than one section each.
      pastNegotiations: full(30).map((i) =>
        pastNegotiation(i, { title: 'x'.repeat(200), supplierName: 'y'.repeat(200) }),
      ),
      pastPurchaseOrders: full(30).map((i) => pastPurchaseOrder(i, { supplierNames: ['z'.repeat(200)] })),
    });
    expectNoViolations(view, 'home');
    expect(view.blocks.length).toBeLessThanOrEqual(100);
  });
});
