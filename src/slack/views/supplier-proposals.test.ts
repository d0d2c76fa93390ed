// The offers Parley reads for a connected supplier — from its revised quotation, or (with a key) its words — as its
// thread shows them: the figures, what was left out, and Submit this offer until it is recorded or the round closed.
import { describe, expect, it } from 'vitest';
import { ACTION, quotationRefCodec, threadReplyRefCodec } from '../ids.js';
import { buildOfferFileProposal, buildWordsOfferProposal, type OfferFileModel } from './supplier-thread.js';
import { HOSTILE, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const file: OfferFileModel = {
  fileName: 'revised.xlsx',
  round: 2,
  currency: 'USD',
  requested: 16,
  priced: 15,
  total: 121800.3,
  leadTimeDays: 35,
  paymentTerms: '30/70',
  validityDays: null,
  unmatched: { count: 2, named: ['FRT-01', 'Sea freight'] },
  conflicting: ['MV001-CYB-XS'],
  otherCurrency: null,
  status: { kind: 'proposed', quotationId: 'cmquotation0001' },
};
const buttons = (m: { blocks: unknown[] }) =>
  m.blocks.flatMap((b) =>
    ((b as { elements?: { action_id?: string; value?: string }[] }).elements ?? []).filter((e) => e.action_id),
  );

describe('the offer read from a supplier’s file', () => {
  it('shows the figures, what it left out, and Submit this offer', () => {
    const m = buildOfferFileProposal(file);
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('*$121,800.30* for 15 of 16 lines · lead time 35 days · payment 30/70');
    expect(text).toContain('1 requested line not priced in the file: recorded as not offered.');
    expect(text).toContain('Priced twice at different prices, so left out: MV001-CYB-XS.');
    expect(text).toContain('2 lines of the file matched no requested line (FRT-01, Sea freight…)');
    const [submit] = buttons(m);
    expect(submit?.action_id).toBe(ACTION.offerFileSubmit);
    expect(quotationRefCodec.decode(submit?.value)).toEqual({ qt: 'cmquotation0001' });
  });

  it('has no button once submitted, for a closed round, in another currency or with nothing found', () => {
    for (const over of [
      { status: { kind: 'submitted' as const, by: 'U0WEI00001' } },
      { status: { kind: 'closed' as const } },
      { otherCurrency: 'EUR' },
      { priced: 0 },
    ]) {
      expect(buttons(buildOfferFileProposal({ ...file, ...over }))).toEqual([]);
    }
    expect(visibleText(buildOfferFileProposal({ ...file, otherCurrency: 'EUR' }))).toContain('quotes in EUR');
    expect(visibleText(buildOfferFileProposal({ ...file, status: { kind: 'submitted', by: 'U0WEI00001' } }))).toContain(
      'Submitted by <@U0WEI00001>',
    );
  });

  it('escapes a hostile file name and hostile cells', () => {
    const m = buildOfferFileProposal({
      ...file,
      fileName: HOSTILE,
      unmatched: { count: 1, named: [HOSTILE] },
      conflicting: [HOSTILE],
    });
    expectNoInjection(m);
    expectNoViolations(m, 'message');
  });
});

describe('the offer read in a supplier’s words', () => {
  it('thanks them, shows the offer with Submit this offer, and keeps the form for another one', () => {
    const m = buildWordsOfferProposal({
      ...file,
      buyerId: 'U0MAYA0001',
      offer: { n: 'cmnegotiation01', s: 'cmnegsupplier01', r: 2 },
      status: { kind: 'proposed', threadReplyId: 'cmthreadreply01' },
    });
    expectNoViolations(m, 'message');
    expect(visibleText(m)).toContain('passed to <@U0MAYA0001>. Parley read it as this offer for round 2:');
    const [submit, form] = buttons(m);
    expect(submit?.action_id).toBe(ACTION.wordsOfferSubmit);
    expect(threadReplyRefCodec.decode(submit?.value)).toEqual({ tr: 'cmthreadreply01' });
    expect(form?.action_id).toBe(ACTION.offerOpen);
    const recorded = buildWordsOfferProposal({
      ...file,
      buyerId: 'U0MAYA0001',
      offer: { n: 'cmnegotiation01', s: 'cmnegsupplier01', r: 2 },
      status: { kind: 'submitted', by: 'U0WEI00001' },
    });
    expect(buttons(recorded)).toEqual([]);
  });
});
