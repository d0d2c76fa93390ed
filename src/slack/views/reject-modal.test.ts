import { describe, expect, it } from 'vitest';
import { REJECT_REASON_MAX as DOMAIN_MAX } from '../../decision/purchase-order-rules.js';
import { ACTION, BLOCK, CALLBACK, poRefCodec } from '../ids.js';
import { REJECT_REASON_MAX, buildRejectModal, parseRejectModal } from './reject-modal.js';
import { HOSTILE, elements, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const PO = 'clpurchaseorder0000000001';

const values = (reason: string | null) => ({
  [BLOCK.rejectReason]: { [ACTION.rejectReason]: { type: 'plain_text_input', value: reason } },
});

describe('buildRejectModal', () => {
  it('asks for a required reason of at most 500 chars, with the PO in private_metadata', () => {
    const view = buildRejectModal({ poId: PO, version: 4, poNumber: 'PO-2026-0001' });
    expectNoViolations(view, 'modal');
    expect(view.callback_id).toBe(CALLBACK.rejectModal);
    expect(poRefCodec.decode(view.private_metadata)).toEqual({ po: PO, v: 4 });
    expect(view.submit?.text).toBe('Reject');
    expect(visibleText(view)).toContain('Reject *PO-2026-0001*?');
    const input = view.blocks.find((b) => b.type === 'input') as { optional?: boolean } | undefined;
    expect(input?.optional).toBeUndefined();
    const reason = elements(view).find((e) => e.actionId === ACTION.rejectReason);
    expect(reason?.raw).toMatchObject({ multiline: true, max_length: 500 });
    expect(REJECT_REASON_MAX).toBe(DOMAIN_MAX);
  });

  it('escapes a hostile PO number', () => {
    const view = buildRejectModal({ poId: PO, version: 0, poNumber: HOSTILE });
    expectNoViolations(view, 'modal');
    expectNoInjection(view);
  });
});

describe('parseRejectModal', () => {
  it('returns the trimmed reason', () => {
    expect(parseRejectModal(values('  Lead time too long  '))).toEqual({
      ok: true,
      value: { reason: 'Lead time too long' },
    });
  });

  it('wants a reason, not too short nor too long', () => {
    for (const bad of [null, '', '   ', 'no']) {
      const result = parseRejectModal(values(bad));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(Object.keys(result.errors)).toEqual([BLOCK.rejectReason]);
    }
    expect(parseRejectModal(values('x'.repeat(501))).ok).toBe(false);
    expect(parseRejectModal(values('x'.repeat(500))).ok).toBe(true);
    expect(parseRejectModal(undefined).ok).toBe(false);
  });
});
