import { describe, expect, it } from 'vitest';
import { ACTION, poIdCodec } from '../ids.js';
import { type DecisionModel, buildDecision } from './decision.js';
import { HOSTILE, buttons, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const PO = 'clpurchaseorder0000000001';

const alpineScore = {
  supplierName: 'Alpine Premium',
  rank: 1,
  score: 82.1,
  price: 55,
  quality: 100,
  leadTime: 90,
  terms: 70,
  reliability: 95,
};
const alpineOffer = {
  supplierName: 'Alpine Premium',
  total: 50440,
  cashFlowCost: 114.2,
  effectiveLandedCost: 50554.2,
  leadTimeDays: 25,
  paymentTerms: '40/60',
};

const model: DecisionModel = {
  currency: 'USD',
  modeLabel: 'Balanced',
  recommendation: {
    shares: [
      { supplierName: 'Alpine Premium', share: 0.6 },
      { supplierName: 'RapidGear Co', share: 0.4 },
    ],
    isSplit: true,
    forcedSplit: true,
    leadTimeDays: 25,
    awardedTotal: 46800,
    awardedLandedCost: 49350.25,
  },
  summary: 'Split 60/40 between Alpine Premium and RapidGear Co for $46,800.00 FOB.',
  tradeOffs: 'Two suppliers to coordinate; 5% split overhead.',
  cheapestNotChosenReason: 'Valden Textiles is cheapest but takes 50 days and scores lowest on quality.',
  scores: [
    {
      supplierName: 'RapidGear Co',
      rank: 2,
      score: 78.4,
      price: 70,
      quality: 60,
      leadTime: 100,
      terms: 50,
      reliability: 80,
    },
    alpineScore,
    {
      supplierName: 'Valden Textiles',
      rank: 3,
      score: 65,
      price: 100,
      quality: 40,
      leadTime: 20,
      terms: 85,
      reliability: 60,
    },
  ],
  offers: [
    alpineOffer,
    {
      supplierName: 'RapidGear Co',
      total: 46000,
      cashFlowCost: 152,
      effectiveLandedCost: 46152,
      leadTimeDays: 15,
      paymentTerms: '100',
    },
    {
      supplierName: 'Valden Textiles',
      total: 41650,
      cashFlowCost: 229,
      effectiveLandedCost: 41879,
      leadTimeDays: 50,
      paymentTerms: '33/33/33',
    },
  ],
  savings: {
    baselineTotal: 52000,
    identified: { amount: 10350, share: 0.199, bestOfferName: 'Valden Textiles' },
    awarded: { amount: 5200, share: 0.1 },
  },
  excluded: [{ supplierName: 'Old Supplier', reason: 'walked away' }],
  purchaseOrder: { id: PO, number: 'PO-2026-0001', approverIds: ['U0APPROV1', 'U0APPROV2'] },
};

describe('buildDecision', () => {
  it('shows the recommendation, prose, score and cost tables, savings and the PO button', () => {
    const m = buildDecision(model);
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('Split the order: *Alpine Premium* 60% · *RapidGear Co* 40%');
    expect(text).toContain('no single supplier can fill the whole order');
    expect(text).toContain('$46,800.00 FOB · $49,350.25 landed · complete in 25 days · Balanced mode');
    expect(text).toContain('Split 60/40 between Alpine Premium');
    // The scores are a `table` block now: one row per supplier, best first, after the header.
    const scores = m.blocks.find((b) => b.type === 'table');
    const cells =
      scores && 'rows' in scores ? scores.rows.map((row) => row.map((c) => ('text' in c ? c.text : ''))) : [];
    expect(cells[0]).toEqual(['Supplier', 'Score', 'Price', 'Quality', 'Lead time', 'Terms', 'Reliability']);
    expect(cells).toContainEqual(['Alpine Premium', '82', '55', '100', '90', '70', '95']);
    // Best rank first.
    expect(text.indexOf('Alpine Premium     ')).toBeLessThan(text.indexOf('RapidGear Co       '));
    expect(text).toMatch(/Valden Textiles\s+\$41,650\.00\s+\$229\.00\s+\$41,879\.00\s+50d\s+33\/33\/33/);
    expect(text).toContain('Savings vs the quoted $52,000.00');
    expect(text).toContain('Identified: $10,350.00 (19.9%), best offer from Valden Textiles');
    expect(text).toContain('Awarded: $5,200.00 (10.0%)');
    expect(text).toContain('*Why not the cheapest?*\nValden Textiles is cheapest');
    expect(text).toContain('*Trade-offs*\nTwo suppliers');
    expect(text).toContain('Left out: Old Supplier (walked away)');
    const b = buttons(m);
    expect(b).toHaveLength(1);
    expect(b[0]?.actionId).toBe(ACTION.decisionOpenPo);
    expect(b[0]?.style).toBe('primary');
    expect(poIdCodec.decode(b[0]?.value)).toEqual({ po: PO });
    expect(m.text).toBe(
      'Recommendation: split between Alpine Premium, RapidGear Co, $46,800.00 (saves $5,200.00 vs quoted). ' +
        ':bell: <@U0APPROV1> and <@U0APPROV2>: PO-2026-0001 is waiting for your approval.',
    );
  });

  it('says an award above the quote costs more, never "saves -$…"', () => {
    const m = buildDecision({
      ...model,
      savings: { ...model.savings, awarded: { amount: -462769, share: -0.12 } },
    });
    expect(m.text).toContain('(costs $462,769.00 more than the quote)');
    expect(m.text).not.toMatch(/saves -|-\$/);
    expect(visibleText(m)).toContain('Awarded: costs $462,769.00 (12.0%) more than the quote');
    expect(visibleText(m)).not.toContain('-$');
  });

  it('says when even the best final offer is above the quote, never "Identified: -$…"', () => {
    const m = buildDecision({
      ...model,
      savings: {
        ...model.savings,
        identified: { amount: -1250, share: -0.024, bestOfferName: 'Valden Textiles' },
        awarded: { amount: -3100, share: -0.0596 },
      },
    });
    const text = visibleText(m);
    expect(text).toContain(
      "Identified: none, the best offer (Valden Textiles's) costs $1,250.00 (2.4%) more than the quote",
    );
    expect(text).toContain('Awarded: costs $3,100.00 (6.0%) more than the quote');
    expect(m.text).toContain('(costs $3,100.00 more than the quote)');
    expect(`${text}\n${m.text}`).not.toMatch(/-\$|saves -|\(-/);
  });

  it('@-mentions the approvers the draft PO waits for, in the blocks and the notification text', () => {
    const m = buildDecision(model);
    expect(visibleText(m)).toContain(
      ':bell: <@U0APPROV1> and <@U0APPROV2>: *PO-2026-0001* is waiting for your approval.',
    );
    expect(m.text).toContain('<@U0APPROV1> and <@U0APPROV2>');
  });

  it('says who can set approvers when none are, and mentions nobody', () => {
    const m = buildDecision({ ...model, purchaseOrder: { id: PO, number: 'PO-2026-0001', approverIds: [] } });
    expectNoViolations(m, 'message');
    expect(visibleText(m)).toContain('No approvers are set for this workspace yet');
    expect(visibleText(m)).toContain('a workspace admin can add them with `/parley settings`');
    expect(JSON.stringify(m)).not.toContain('<@');
  });

  it('shows what the AI calls cost, and none when the offline agents negotiated', () => {
    const claude = visibleText(buildDecision({ ...model, aiCost: { usd: 0.1432, calls: 37 } }));
    expect(claude).toContain('AI cost of this negotiation: $0.14 over 37 calls.');
    expect(visibleText(buildDecision({ ...model, aiCost: { usd: 0, calls: 0 } }))).toContain(
      'AI cost: none (the offline agents negotiated).',
    );
    expect(visibleText(buildDecision({ ...model, aiCost: { usd: 0.001, calls: 1 } }))).toContain(
      'under $0.01 over 1 call',
    );
    expect(visibleText(buildDecision(model))).not.toContain('AI cost');
  });

  it('marks assumed lead times and terms in the cost table, and says terms as people do', () => {
    const offers = model.offers.map((o) =>
      o.supplierName === 'Valden Textiles' ? { ...o, assumedLeadTime: true, assumedTerms: true } : o,
    );
    const text = visibleText(buildDecision({ ...model, offers }));
    expect(text).toMatch(/Valden Textiles\s+\$41,650\.00\s+\$229\.00\s+\$41,879\.00\s+50d\*\s+33\/33\/33\*/);
    expect(text).toContain('* assumed: the supplier has not stated it');
    expect(text).toMatch(/RapidGear Co\s+.*15d\s+100% upfront/);
    expect(visibleText(buildDecision(model))).not.toContain('* assumed');
  });

  it('single supplier, no cheapest section, no PO yet', () => {
    const m = buildDecision({
      ...model,
      recommendation: {
        ...model.recommendation,
        shares: [{ supplierName: 'Valden Textiles', share: 1 }],
        isSplit: false,
        forcedSplit: false,
      },
      cheapestNotChosenReason: null,
      purchaseOrder: null,
    });
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('Buy from *Valden Textiles*');
    expect(text).not.toContain('Why not the cheapest');
    expect(text).toContain('being drafted');
    expect(buttons(m)).toHaveLength(0);
  });

  it('escapes hostile writer prose and names and stays within limits', () => {
    const long = HOSTILE.repeat(300);
    const rows = Array.from({ length: 40 }, (_, i) => ({ ...alpineScore, supplierName: long, rank: i + 1 }));
    const offers = Array.from({ length: 40 }, () => ({ ...alpineOffer, supplierName: long, paymentTerms: long }));
    const m = buildDecision({
      ...model,
      modeLabel: long,
      summary: long,
      tradeOffs: long,
      cheapestNotChosenReason: long,
      scores: rows,
      offers,
      recommendation: {
        ...model.recommendation,
        shares: Array.from({ length: 10 }, () => ({ supplierName: long, share: 0.1 })),
      },
      savings: { ...model.savings, identified: { ...model.savings.identified, bestOfferName: long } },
      excluded: Array.from({ length: 10 }, () => ({ supplierName: long, reason: long })),
      currency: 'EUR',
    });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
    expect(visibleText(m)).toContain('EUR 46,800.00');
  });
});

describe('the lines × suppliers table', () => {
  const line = (i: number) => ({
    sku: `SKU-${i}`,
    quantity: 10 + i,
    unitPrices: [12.5, i % 2 === 0 ? null : 11.25],
    awarded: [
      { supplierName: 'Alpine Premium', share: 0.6 },
      { supplierName: 'RapidGear Co', share: 0.4 },
    ],
  });

  it('is a paged data_table: final unit price per supplier, awarded supplier and share, ≤ 100 rows', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => line(i));
    const m = buildDecision({
      ...model,
      lines: { suppliers: ['Alpine Premium', '<!channel> Co'], rows, totalLines: 3000 },
    });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
    const table = m.blocks.find((b) => b.type === 'data_table');
    expect(table && 'page_size' in table ? table.page_size : undefined).toBe(10);
    const cells = table && 'rows' in table ? table.rows.map((row) => row.map((c) => ('text' in c ? c.text : ''))) : [];
    expect(cells).toHaveLength(101);
    expect(cells[0]).toEqual(['SKU', 'Qty', 'Alpine Premium (unit)', '&lt;!channel&gt; Co (unit)', 'Awarded', 'Share']);
    expect(cells[1]).toEqual(['SKU-0', '10', '$12.50', '—', 'Alpine Premium + RapidGear Co', '60% + 40%']);
    expect(visibleText(m)).toContain('2,900 more are in the PO workbook');
  });

  it('counts hidden lines nobody was awarded apart from those in the PO workbook', () => {
    const rows = Array.from({ length: 150 }, (_, i) => (i >= 140 ? { ...line(i), awarded: [] } : line(i)));
    const m = buildDecision({ ...model, lines: { suppliers: ['Alpine Premium'], rows, totalLines: 150 } });
    expect(visibleText(m)).toContain(
      'The 100 largest lines shown; 40 more are in the PO workbook, and 10 more were not awarded to anyone.',
    );
  });

  it('says "not awarded" on a line nobody was awarded', () => {
    const m = buildDecision({
      ...model,
      lines: { suppliers: ['Alpine Premium'], rows: [{ ...line(1), awarded: [] }], totalLines: 1 },
    });
    const table = m.blocks.find((b) => b.type === 'data_table');
    const cells = table && 'rows' in table ? table.rows.map((row) => row.map((c) => ('text' in c ? c.text : ''))) : [];
    expect(cells[1]?.slice(-2)).toEqual(['not awarded', '—']);
  });
});
