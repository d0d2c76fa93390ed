import { describe, expect, it } from 'vitest';
import { ACTION, BLOCK, CALLBACK } from '../ids.js';
import { blockKitViolations } from './limits.js';
import {
  OFFER_MODAL_LINES_MAX,
  type OfferModalModel,
  buildOfferModal,
  offerModalRefCodec,
  offerPriceBlockId,
  parseOfferModal,
  parseUnitPrice,
} from './offer-modal.js';
import { HOSTILE, expectNoInjection } from '../../../test/support/views.js';

const model = (lines: number, over: Partial<OfferModalModel> = {}): OfferModalModel => ({
  negotiationId: 'cmnegotiation0001',
  negotiationSupplierId: 'cmnegsupplier0001',
  round: 2,
  brandName: 'Valden Outdoor',
  currency: 'USD',
  lines: Array.from({ length: lines }, (_, i) => ({
    sku: `MC00${i}-GLW-M`,
    description: `Summit Jacket ${i}`,
    quantity: 100 * (i + 1),
    lastUnitPrice: i === 0 ? 42.12 : i === 2 ? 42.125 : null,
  })),
  last: { leadTimeDays: 45, paymentTerms: '30/70' },
  ...over,
});

/** The modal's state as Slack sends it on submit: the prices by line, and the terms. */
function submitted(
  prices: (string | null)[],
  terms: Partial<Record<'lead' | 'terms' | 'valid' | 'notes', string>> = {},
) {
  const values: Record<string, Record<string, { type: string; value: string | null }>> = {};
  prices.forEach((price, index) => {
    values[offerPriceBlockId(index)] = { [ACTION.offerPrice]: { type: 'number_input', value: price } };
  });
  values[BLOCK.offerLeadTime] = { [ACTION.offerLeadTime]: { type: 'number_input', value: terms.lead ?? null } };
  values[BLOCK.offerPaymentTerms] = {
    [ACTION.offerPaymentTerms]: { type: 'plain_text_input', value: terms.terms ?? null },
  };
  values[BLOCK.offerValidity] = { [ACTION.offerValidity]: { type: 'number_input', value: terms.valid ?? null } };
  values[BLOCK.offerNotes] = { [ACTION.offerNotes]: { type: 'plain_text_input', value: terms.notes ?? null } };
  return values;
}

describe('buildOfferModal', () => {
  it('has a price input per line starting from the supplier’s own last price, and its terms, within limits', () => {
    const view = buildOfferModal(model(3));
    expect(view).not.toBeNull();
    if (!view) return;
    expect(view.callback_id).toBe(CALLBACK.offerModal);
    expect(offerModalRefCodec.decode(view.private_metadata)).toEqual({
      n: 'cmnegotiation0001',
      s: 'cmnegsupplier0001',
      r: 2,
    });
    const first = view.blocks.find((block) => block.block_id === offerPriceBlockId(0));
    expect(first).toMatchObject({
      type: 'input',
      optional: true,
      element: { type: 'number_input', is_decimal_allowed: true, initial_value: '42.12' },
    });
    const second = view.blocks.find((block) => block.block_id === offerPriceBlockId(1));
    expect(second).toMatchObject({ element: { type: 'number_input' } });
    expect(JSON.stringify(second)).not.toContain('initial_value');
    // A quoted price finer than a cent is not rounded by Parley: the supplier types its offer.
    const third = view.blocks.find((block) => block.block_id === offerPriceBlockId(2));
    expect(JSON.stringify(third)).not.toContain('initial_value');
    expect(JSON.stringify(view)).toContain('200 units · USD per unit');
    expect(blockKitViolations(view, 'modal')).toEqual([]);
  });

  it('carries up to its limit of lines within Slack’s 100 blocks; beyond that there is no modal', () => {
    const full = buildOfferModal(model(OFFER_MODAL_LINES_MAX));
    expect(full && blockKitViolations(full, 'modal')).toEqual([]);
    expect(buildOfferModal(model(OFFER_MODAL_LINES_MAX + 1))).toBeNull();
    expect(buildOfferModal(model(0))).toBeNull();
  });

  it('escapes what the quotation wrote and keeps hostile lines within limits', () => {
    const view = buildOfferModal(
      model(2, {
        brandName: HOSTILE,
        lines: [
          { sku: HOSTILE, description: HOSTILE.repeat(30), quantity: 5, lastUnitPrice: null },
          { sku: 'A', description: 'B', quantity: 1, lastUnitPrice: 1e-9 },
        ],
        last: { leadTimeDays: null, paymentTerms: HOSTILE.repeat(20) },
      }),
    );
    expect(view).not.toBeNull();
    if (!view) return;
    expect(blockKitViolations(view, 'modal')).toEqual([]);
    expectNoInjection(view);
  });
});

describe('parseOfferModal', () => {
  it('returns the offer as typed: empty lines not offered, nothing filled in', () => {
    expect(parseOfferModal(submitted(['42.12', null, '1,234.5'], { lead: '40', terms: 'T/T 30 days' }), 3)).toEqual({
      ok: true,
      value: {
        unitPrices: [42.12, null, 1234.5],
        leadTimeDays: 40,
        paymentTerms: 'T/T 30 days',
        validityDays: null,
        notes: null,
      },
    });
  });

  it('refuses malformed prices and terms with a field error where they were typed', () => {
    const result = parseOfferModal(submitted(['12.125', '-3', '0'], { lead: '0', valid: '999' }), 3);
    expect(result).toMatchObject({
      ok: false,
      errors: {
        [offerPriceBlockId(0)]: expect.stringContaining('to the cent'),
        [offerPriceBlockId(1)]: expect.any(String),
        [offerPriceBlockId(2)]: expect.stringContaining('above zero'),
        [BLOCK.offerLeadTime]: expect.any(String),
        [BLOCK.offerValidity]: expect.any(String),
      },
    });
  });

  it('refuses an offer of nothing', () => {
    expect(parseOfferModal(submitted([null, null]), 2)).toMatchObject({
      ok: false,
      errors: { [offerPriceBlockId(0)]: expect.stringContaining('at least one line') },
    });
  });

  it('reads unit prices to the cent, as a negotiation records offers', () => {
    expect(parseUnitPrice('0.01')).toEqual({ ok: true, value: 0.01 });
    expect(parseUnitPrice('0.0001')).toMatchObject({ ok: false });
    expect(parseUnitPrice('144854.10')).toEqual({ ok: true, value: 144854.1 });
    expect(parseUnitPrice('1e3')).toMatchObject({ ok: false });
    expect(parseUnitPrice('12,50 €')).toMatchObject({ ok: false });
  });
});
