import { describe, expect, it } from 'vitest';
import { buildStatusCard, type StatusCardModel, type StatusStage, type StatusSupplierRow } from './status-card.js';
import { HOSTILE, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const suppliers: StatusSupplierRow[] = [
  { name: 'Valden Textiles', status: 'active', latestTotal: 41650, leadTimeDays: 50, paymentTerms: '33/33/33' },
  {
    name: 'Alpine Premium',
    status: 'paused',
    reason: 'waiting for the buyer',
    latestTotal: 52000,
    leadTimeDays: 25,
    paymentTerms: '40/60',
  },
  {
    name: 'RapidGear Co',
    status: 'impasse',
    reason: 'Price gap exceeds threshold',
    latestTotal: null,
    leadTimeDays: 15,
    paymentTerms: '100',
  },
];

const card = (state: StatusStage, extra: Partial<StatusCardModel> = {}) =>
  buildStatusCard({ fileName: 'quote-march.xlsx', sharedBy: 'U0BUYER01', currency: 'USD', state, ...extra });

describe('buildStatusCard', () => {
  const stages: [StatusStage, string[]][] = [
    [{ stage: 'reading' }, ['Reading the quotation', 'quote-march.xlsx', '<@U0BUYER01>']],
    [{ stage: 'review', needsReview: 3, autoAccepted: 42 }, ['3 lines need a look', '42 lines matched']],
    [{ stage: 'review', needsReview: 1, autoAccepted: 1 }, ['1 line needs a look', '1 line matched']],
    [{ stage: 'ready', lineCount: 12 }, ['Ready to negotiate', 'All 12 lines']],
    [
      { stage: 'negotiating', round: 2, maxRounds: 4, suppliers },
      [
        'Round 2 of 4',
        '▰▰▱▱',
        'Valden Textiles',
        '$41,650.00',
        '50 days',
        '33/33/33',
        'paused',
        'impasse',
        'Price gap',
      ],
    ],
    [
      { stage: 'waiting', buyerId: 'U0BUYER01', askedBy: 'Alpine Premium', round: 1, maxRounds: 3, suppliers },
      ['Waiting for an answer', '<@U0BUYER01>, Alpine Premium asked', '▰▱▱'],
    ],
    [{ stage: 'deciding' }, ['Scoring the offers']],
    [
      { stage: 'decision', recommended: ['Valden Textiles', 'RapidGear Co'], total: 43210.5, isSplit: true },
      ['Recommendation ready', 'Split between *Valden Textiles* and *RapidGear Co*', '$43,210.50'],
    ],
    [
      {
        stage: 'approved',
        poNumber: 'PO-2026-0001',
        approvedBy: ['U0APPROV1', 'U0APPROV2'],
        approvedAt: new Date('2026-03-01T10:00:00Z'),
      },
      ['PO-2026-0001 approved', '<@U0APPROV1> and <@U0APPROV2>', '<!date^1772359200^'],
    ],
    [
      { stage: 'rejected', poNumber: 'PO-2026-0002', reason: 'Too expensive', rejectedBy: 'U0APPROV1' },
      ['PO-2026-0002 rejected', 'Too expensive', 'Rejected by <@U0APPROV1>'],
    ],
    [{ stage: 'failed', message: 'Parley reads .xlsx files.' }, ['Could not finish', 'Parley reads .xlsx files.']],
    [
      { stage: 'no_award', message: 'every possible award costs more than the walk-away' },
      ['No award within the mandate', 'Every possible award costs more than the walk-away.'],
    ],
    [{ stage: 'expired' }, ['Expired']],
  ];

  it.each(stages)('renders %o', (state, expected) => {
    const message = card(state);
    expectNoViolations(message, 'message');
    expect(message.blocks.length).toBeLessThanOrEqual(6);
    const text = visibleText(message);
    for (const e of expected) expect(text).toContain(e);
    expect(message.text).toContain('quote-march.xlsx');
  });

  it('shows negotiating progress as ▰/▱ and clamps odd rounds', () => {
    expect(visibleText(card({ stage: 'negotiating', round: 9, maxRounds: 4, suppliers: [] }))).toContain('▰▰▰▰');
    expect(visibleText(card({ stage: 'negotiating', round: 0, maxRounds: 4, suppliers: [] }))).toContain('▱▱▱▱');
  });

  it('escapes hostile file names, supplier names, reasons and error text', () => {
    const hostileRows = Array.from({ length: 30 }, () => ({
      name: HOSTILE.repeat(50),
      status: 'impasse' as const,
      reason: HOSTILE.repeat(50),
      latestTotal: 1,
      leadTimeDays: 1,
      paymentTerms: HOSTILE,
    }));
    const states: StatusStage[] = [
      { stage: 'negotiating', round: 1, maxRounds: 5, suppliers: hostileRows },
      { stage: 'waiting', buyerId: 'U0BUYER01', askedBy: HOSTILE, round: 1, maxRounds: 5, suppliers: hostileRows },
      { stage: 'decision', recommended: [HOSTILE.repeat(100)], total: 1 },
      { stage: 'rejected', poNumber: HOSTILE, reason: HOSTILE.repeat(200), rejectedBy: '<!channel>' },
      { stage: 'failed', message: HOSTILE.repeat(200) },
      { stage: 'no_award', message: HOSTILE.repeat(200) },
      { stage: 'expired', reason: HOSTILE },
    ];
    for (const state of states) {
      const message = card(state, { fileName: HOSTILE.repeat(100) });
      expectNoViolations(message, 'message');
      expectNoInjection(message);
    }
    expect(visibleText(card(states[0] as StatusStage))).toContain('…and 22 more suppliers');
  });
});
