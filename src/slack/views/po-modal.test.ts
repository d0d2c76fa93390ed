import { describe, expect, it } from 'vitest';
import { ACTION, CALLBACK, poRefCodec } from '../ids.js';
import { type PoModalAllocation, type PoModalModel, buildPoModal } from './po-modal.js';
import { HOSTILE, buttons, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const PO = 'clpurchaseorder0000000001';

function items(n: number, text = 'Insulated Winter Jacket') {
  return Array.from({ length: n }, (_, i) => ({
    sku: `MB013-0BS-${i}`,
    description: text,
    quantity: 120,
    unitPrice: 32.5,
    lineTotal: 3900,
  }));
}

function allocation(name: string, n: number, extra: Partial<PoModalAllocation> = {}): PoModalAllocation {
  return {
    supplierName: name,
    share: 0.6,
    paymentTerms: '40/60',
    leadTimeDays: 25,
    incoterm: 'FOB',
    fobCost: 28080,
    cashFlowCost: 68.5,
    effectiveLandedCost: 28148.5,
    items: items(n),
    ...extra,
  };
}

function model(
  extra: Partial<PoModalModel['po']> = {},
  viewer: PoModalModel['viewer'] = { canApprove: true },
): PoModalModel {
  return {
    po: {
      id: PO,
      number: 'PO-2026-0001',
      status: 'draft',
      version: 3,
      currency: 'USD',
      fobCost: 46800,
      cashFlowCost: 120,
      splitOverhead: 2340,
      effectiveLandedCost: 49260,
      approvals: [{ approverSlackUserId: 'U0APPROV1', approvedAt: new Date('2026-03-01T10:00:00Z') }],
      rejectedReason: null,
      rejectedBySlackUserId: null,
      allocations: [
        allocation('Alpine Premium', 3),
        allocation('RapidGear Co', 2, { share: 0.4, paymentTerms: '100' }),
      ],
      ...extra,
    },
    decisionSummary: 'Split 60/40 between Alpine Premium and RapidGear Co.',
    approvalsRequired: 2,
    viewer,
  };
}

describe('buildPoModal', () => {
  it('shows the PO for an approver: figures, allocations, lines, approvals, Approve and Reject…', () => {
    const view = buildPoModal(model());
    expectNoViolations(view, 'modal');
    expect(view.title.text).toBe('Purchase order');
    expect(view.callback_id).toBe(CALLBACK.poModal);
    expect(view.submit?.text).toBe('Approve');
    expect(poRefCodec.decode(view.private_metadata)).toEqual({ po: PO, v: 3 });
    const text = visibleText(view);
    for (const s of [
      'PO-2026-0001',
      'Draft — waiting for approval',
      'Split 60/40 between',
      '$46,800.00',
      '$2,340.00',
      '$49,260.00',
      '*Alpine Premium*\n60% of the order',
      '40/60 · 25 days · FOB',
      '$68.50',
      '$28,148.50',
      'MB013-0BS-0  Insulated Winter Jacket',
      '120 × $32.50 = $3,900.00',
      '1 of 2 approvals: <@U0APPROV1>',
      // Terms as people say them, not "100".
      '100% upfront · 25 days',
    ]) {
      expect(text).toContain(s);
    }
    const reject = buttons(view).find((b) => b.actionId === ACTION.poReject);
    expect(reject?.text).toBe('Reject…');
    expect(poRefCodec.decode(reject?.value)).toEqual({ po: PO, v: 3 });
    expect(text).not.toContain('more line');
  });

  it('is read-only (no submit, no Reject…) for someone who may not approve, saying why', () => {
    const view = buildPoModal(
      model({}, { canApprove: false, reason: 'Only the configured approvers can approve purchase orders.' }),
    );
    expectNoViolations(view, 'modal');
    expect(view.submit).toBeUndefined();
    expect(buttons(view)).toHaveLength(0);
    expect(visibleText(view)).toContain('Read-only. Only the configured approvers can approve purchase orders.');
  });

  it('is read-only once approved or rejected', () => {
    const rejected = buildPoModal(
      model({ status: 'rejected', rejectedReason: 'Too expensive', rejectedBySlackUserId: 'U0APPROV2' }),
    );
    expectNoViolations(rejected, 'modal');
    expect(rejected.submit).toBeUndefined();
    const text = visibleText(rejected);
    expect(text).toContain('Rejected by <@U0APPROV2>');
    expect(text).toContain('Too expensive');
    expect(text).toContain('no longer waiting for approval');
    const approved = buildPoModal(model({ status: 'approved' }));
    expect(approved.submit).toBeUndefined();
    expect(visibleText(approved)).toContain(':white_check_mark: Approved');
  });

  it('with thousands of lines shows what fits and counts the rest', () => {
    const view = buildPoModal(
      model({ allocations: [allocation('Alpine Premium', 4000), allocation('RapidGear Co', 3000, { share: 0.4 })] }),
    );
    expectNoViolations(view, 'modal');
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const text = visibleText(view);
    // Both allocations appear, each with some lines.
    expect(text).toContain('*Alpine Premium*');
    expect(text).toContain('*RapidGear Co*');
    const shown = (text.match(/= \$3,900\.00/g) ?? []).length;
    expect(shown).toBeGreaterThan(100);
    const more = /…and ([\d,]+) more lines in the PO workbook/.exec(text);
    expect(Number(more?.[1]?.replace(/,/g, ''))).toBe(7000 - shown);
  });

  it('escapes hostile SKUs, descriptions and names', () => {
    const long = HOSTILE.repeat(100);
    const hostile = allocation(long, 500, { paymentTerms: long, incoterm: long });
    hostile.items = items(500, long).map((it) => ({ ...it, sku: long }));
    const view = buildPoModal({
      ...model({
        allocations: [hostile, hostile, hostile],
        number: long,
        status: 'rejected',
        rejectedReason: long,
        rejectedBySlackUserId: '<!channel>',
      }),
      decisionSummary: long,
    });
    expectNoViolations(view, 'modal');
    expectNoInjection(view);
    // A cell cannot close the code fence of a line table early.
    for (const block of view.blocks as { type: string; text?: { text?: string } }[]) {
      const text = block.type === 'section' ? (block.text?.text ?? '') : '';
      if (text.startsWith('```')) expect(text.split('```')).toHaveLength(3);
    }
  });
});

describe('the PO modal’s alert', () => {
  it('names dual approval, the premium accepted and the assumptions, in one alert block at the top', () => {
    const view = buildPoModal({
      ...model(),
      attention: { premiumOverQuote: 1200, assumptions: ['RapidGear Co: lead time', '<!channel>: terms'] },
    });
    expectNoViolations(view, 'modal');
    expectNoInjection(view);
    const alerts = view.blocks.filter((b) => b.type === 'alert');
    expect(alerts).toHaveLength(1);
    expect(view.blocks.findIndex((b) => b.type === 'alert')).toBe(1);
    const text = visibleText({ blocks: alerts });
    expect(text).toContain('two different approvers');
    expect(text).toContain('$1,200.00 more');
    expect(text).toContain('RapidGear Co: lead time; &lt;!channel&gt;: terms');
    expect(alerts[0]).toMatchObject({ level: 'warning' });
  });

  it('shows none when nothing needs attention, or once the PO is no longer a draft', () => {
    const quiet = buildPoModal({
      ...model(),
      approvalsRequired: 1,
      attention: { premiumOverQuote: 0, assumptions: [] },
    });
    expect(quiet.blocks.some((b) => b.type === 'alert')).toBe(false);
    const approved = buildPoModal({ ...model({ status: 'approved' }), attention: { premiumOverQuote: 5 } });
    expect(approved.blocks.some((b) => b.type === 'alert')).toBe(false);
    const assumedOnly = buildPoModal({
      ...model(),
      approvalsRequired: 1,
      attention: { assumptions: ['A: lead time'] },
    });
    expect(assumedOnly.blocks.find((b) => b.type === 'alert')).toMatchObject({ level: 'info' });
  });
});
