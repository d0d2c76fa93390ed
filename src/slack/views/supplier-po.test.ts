// The supplier's side of a connected negotiation as Slack would show it: the approved PO with Accept / Query until
// accepted, the query modal, the notices of reply-by times, and the buyer's cards of a sent draft and what the
// supplier answered — within Block Kit's limits, and escaping every text that came from a file or a person.
import { describe, expect, it } from 'vitest';
import { ACTION, BLOCK, CALLBACK, supplierPoRefCodec } from '../ids.js';
import { HOSTILE, buttons, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';
import {
  buildPoQueryModal,
  buildSupplierAnswer,
  buildSupplierPurchaseOrder,
  parsePoQueryModal,
  type SupplierPoModel,
} from './supplier-po.js';
import {
  buildDraftEditModal,
  buildSupplierDraft,
  buildSupplierDraftDecided,
  buildSupplierReplyNotice,
  parseDraftEditModal,
} from './supplier-thread.js';

const VEST = {
  sku: 'MV001-CYB-XS',
  description: 'Boulder Fleece Vest',
  quantity: 130,
  unitPrice: 14.76,
  lineTotal: 1918.8,
};
const PO: SupplierPoModel = {
  purchaseOrderId: 'clpurchaseorder000000001',
  supplierId: 'clsupplier00000000000001',
  brandName: 'Valden Outdoor',
  poNumber: 'PO-2026-0001',
  supplierName: 'Ningbo Everbright',
  currency: 'USD',
  items: [
    VEST,
    { sku: 'UC005-LCH-L', description: 'Upland 3L Storm Shell', quantity: 100, unitPrice: 57.09, lineTotal: 5709 },
  ],
  total: 7627.8,
  leadTimeDays: 40,
  paymentTerms: '30/70',
  incoterm: 'FOB Ningbo',
  accepted: null,
};

describe('the approved PO in the supplier’s channel', () => {
  it('lists the supplier’s own lines and terms, with Accept PO and Query carrying its part', () => {
    const message = buildSupplierPurchaseOrder(PO);
    expectNoViolations(message, 'message');
    const text = visibleText(message);
    expect(text).toContain('130 × $14.76 = $1,918.80');
    expect(text).toContain('Total $7,627.80 · lead time 40 days · payment 30/70 · FOB Ningbo');
    expect(buttons(message).map((b) => b.actionId)).toEqual([ACTION.poSupplierAccept, ACTION.poSupplierQuery]);
    for (const button of buttons(message)) {
      expect(supplierPoRefCodec.decode(button.raw.value as string)).toEqual({
        po: PO.purchaseOrderId,
        s: PO.supplierId,
      });
    }
  });

  it('once accepted, says who and when and has nothing left to press', () => {
    const message = buildSupplierPurchaseOrder({ ...PO, accepted: { by: 'U0WEI00001', at: new Date(0) } });
    expect(buttons(message)).toEqual([]);
    expect(visibleText(message)).toContain('Accepted by <@U0WEI00001>');
  });

  it('escapes hostile line texts and names, and stays within the limits with many lines', () => {
    const items = Array.from({ length: 400 }, (_, i) => ({
      ...VEST,
      sku: `${HOSTILE}${i}`,
      description: HOSTILE,
    }));
    const message = buildSupplierPurchaseOrder({ ...PO, items, supplierName: HOSTILE, brandName: HOSTILE });
    expectNoViolations(message, 'message');
    expectNoInjection(message);
    expect(visibleText(message)).toMatch(/more lines? not shown/);
  });
});

describe('the query modal', () => {
  it('carries the part in its metadata and reads the question back', () => {
    const modal = buildPoQueryModal({
      purchaseOrderId: PO.purchaseOrderId,
      supplierId: PO.supplierId,
      poNumber: PO.poNumber,
      brandName: HOSTILE,
    });
    expectNoViolations(modal, 'modal');
    expectNoInjection(modal);
    expect(modal.callback_id).toBe(CALLBACK.poQueryModal);
    expect(supplierPoRefCodec.decode(modal.private_metadata)).toEqual({ po: PO.purchaseOrderId, s: PO.supplierId });
    const values = (value: string | null) => ({
      [BLOCK.poQueryText]: { [ACTION.poQueryText]: { type: 'plain_text_input', value } },
    });
    expect(parsePoQueryModal(values('  Can line 2 ship later?  '))).toEqual({
      ok: true,
      value: { text: 'Can line 2 ship later?' },
    });
    expect(parsePoQueryModal(values(null))).toMatchObject({
      ok: false,
      errors: { [BLOCK.poQueryText]: expect.any(String) },
    });
    expect(parsePoQueryModal(values('x'.repeat(2001)))).toMatchObject({ ok: false });
  });
});

describe('what the buyer sees of the supplier', () => {
  it('quotes a query and words as written, escaped', () => {
    for (const message of [
      buildSupplierAnswer({
        kind: 'query',
        supplierName: HOSTILE,
        by: 'U0WEI00001',
        poNumber: PO.poNumber,
        text: HOSTILE,
        buyerId: 'U0BUYER001',
      }),
      buildSupplierAnswer({ kind: 'words', supplierName: HOSTILE, by: 'U0WEI00001', text: HOSTILE }),
      buildSupplierAnswer({
        kind: 'accepted',
        supplierName: HOSTILE,
        by: 'U0WEI00001',
        at: new Date(0),
        poNumber: HOSTILE,
      }),
    ]) {
      expectNoViolations(message, 'message');
      expectNoInjection(message);
    }
  });

  it('shows a sent draft waiting until its reply-by time, with Give more time and Close the round', () => {
    const draft = {
      negotiationId: 'clnegotiation000000000001',
      sequence: 3,
      supplierName: 'Ningbo',
      round: 2,
      text: HOSTILE,
      by: 'U0BUYER001',
    };
    const replyBy = new Date('2026-12-07T15:30:00Z');
    const sent = buildSupplierDraftDecided({
      ...draft,
      outcome: { decision: 'sent', channelId: 'C0NINGBO01', replyBy, replyDays: 2 },
    });
    expectNoViolations(sent, 'message');
    expectNoInjection(sent);
    expect(buttons(sent).map((b) => b.actionId)).toEqual([ACTION.draftExtend, ACTION.draftCloseRound]);
    expect(visibleText(sent)).toContain(`<!date^${replyBy.getTime() / 1000}^`);
    const closed = buildSupplierDraftDecided({
      ...draft,
      outcome: { decision: 'closed', channelId: 'C0NINGBO01', closedBy: null },
    });
    expect(buttons(closed)).toEqual([]);
    expect(visibleText(closed)).toContain('No answer from Ningbo by its reply-by time');
    const skipped = buildSupplierDraftDecided({ ...draft, outcome: { decision: 'skipped' } });
    expect(buttons(skipped)).toEqual([]);
  });

  it('tells the supplier its reply-by time, reminded, extended or passed', () => {
    const replyBy = new Date('2026-12-07T15:30:00Z');
    expect(visibleText(buildSupplierReplyNotice({ kind: 'reminder', replyBy, round: 2 }))).toContain('A reminder');
    expect(visibleText(buildSupplierReplyNotice({ kind: 'extended', replyBy, round: 2 }))).toContain('given you until');
    expect(visibleText(buildSupplierReplyNotice({ kind: 'closed', round: 2 }))).toContain(
      'Round 2 closed without your offer',
    );
  });
});

describe('the buyer’s draft for a connected supplier', () => {
  const draft = {
    negotiationId: 'clnegotiation000000000001',
    sequence: 3,
    supplierName: HOSTILE,
    round: 2,
    text: HOSTILE,
  };

  it('offers Send, Edit… and Skip on the draft, and an edit modal carrying the draft', () => {
    const card = buildSupplierDraft(draft);
    expectNoViolations(card, 'message');
    expectNoInjection(card);
    expect(buttons(card).map((b) => b.actionId)).toEqual([ACTION.draftSend, ACTION.draftEdit, ACTION.draftSkip]);
    const modal = buildDraftEditModal({ ...draft, text: 'x'.repeat(5000) });
    expectNoViolations(modal, 'modal');
    expect(modal.callback_id).toBe(CALLBACK.draftEditModal);
    const values = (value: string | null) => ({
      [BLOCK.draftText]: { [ACTION.draftText]: { type: 'plain_text_input', value } },
    });
    expect(parseDraftEditModal(values('Thanks, Wei.'))).toEqual({ ok: true, value: { text: 'Thanks, Wei.' } });
    expect(parseDraftEditModal(values('   '))).toMatchObject({ ok: false });
    expect(parseDraftEditModal(values('x'.repeat(2901)))).toMatchObject({ ok: false });
  });
});
