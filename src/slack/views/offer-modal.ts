// The supplier's **Submit offer** modal, opened from its negotiation thread in its own Slack Connect channel: a unit
// price per line (up to OFFER_MODAL_LINES_MAX lines; a longer quotation cannot be answered in the form), lead
// time, payment terms, validity and notes. What the parser returns is the offer exactly as the supplier typed it — no
// line filled in, no price moved: a line left empty is a line not offered. Line texts come from the quotation
// (untrusted) and are escaped here; the modal reaches another organisation, so it shows only the lines, their
// quantities and the supplier's own earlier prices, never anything of the brand's or another supplier's.
import type { InputBlock, KnownBlock, ModalView } from '@slack/types';
import type { SubmittedOffer } from '../../app-types.js';
import { z } from 'zod';
import { ACTION, BLOCK, BUTTON_VALUE_MAX, CALLBACK, PRIVATE_METADATA_MAX, idSchema, valueCodec } from '../ids.js';
import { context, section } from './blocks.js';
import { inline, label, plain } from './escape.js';
import { ModalState, type ParseResult, parseWhole } from './modal-state.js';

/**
 * Lines a modal carries beside its six other blocks within Slack's 100 (with room to spare). Each price starts at the
 * supplier's own last one, so a person changes only the lines they move; a longer quotation is answered otherwise.
 */
export const OFFER_MODAL_LINES_MAX = 90;
export const OFFER_NOTES_MAX = 2000;
export const PAYMENT_TERMS_MAX = 120;
export const LEAD_TIME_DAYS_MAX = 3650;
export const VALIDITY_DAYS_MAX = 365;

const offerRefSchema = z.strictObject({ n: idSchema, s: idSchema, r: z.number().int().min(1).max(99) });
/** The negotiation and supplier an offer modal is for, in its private_metadata (checked again on submit). */
export const offerModalRefCodec = valueCodec(offerRefSchema, PRIVATE_METADATA_MAX);
/** The same, on the supplier thread's Submit offer button that opens the modal. */
export const offerButtonCodec = valueCodec(offerRefSchema, BUTTON_VALUE_MAX);
export type OfferModalRef = NonNullable<ReturnType<typeof offerModalRefCodec.decode>>;

export interface OfferModalLine {
  sku: string;
  description: string;
  quantity: number;
  /** The supplier's own latest unit price for it (its quotation or last offer), shown as the field's starting value. */
  lastUnitPrice: number | null;
}

export interface OfferModalModel {
  negotiationId: string;
  negotiationSupplierId: string;
  round: number;
  brandName: string;
  currency: string;
  lines: OfferModalLine[];
  /** The supplier's own latest terms, as starting values. */
  last: { leadTimeDays: number | null; paymentTerms: string | null };
}

export function offerPriceBlockId(index: number): string {
  return `${BLOCK.offerPrice}:${index}`;
}

/**
 * The supplier's last price as the field's starting value, when it is whole cents: a negotiation records offers to the
 * cent (offers.ts, recordAsStated), so a finer quoted price (42.125) starts empty rather than rounded by Parley.
 */
function startingPrice(price: number | null): string | null {
  if (price === null || !(price > 0)) return null;
  const cents = Math.round(price * 100);
  return Math.abs(cents - price * 100) < 1e-6 ? String(cents / 100) : null;
}

function priceInput(line: OfferModalLine, index: number, currency: string): InputBlock {
  const what = `${line.sku} — ${line.description}`;
  const start = startingPrice(line.lastUnitPrice);
  return {
    type: 'input',
    block_id: offerPriceBlockId(index),
    optional: true,
    label: plain(what, 150),
    hint: label(`${line.quantity.toLocaleString('en-US')} units · ${currency} per unit · empty: not offered`, 2000),
    element: {
      type: 'number_input',
      action_id: ACTION.offerPrice,
      is_decimal_allowed: true,
      min_value: '0.01',
      ...(start === null ? {} : { initial_value: start }),
    },
  };
}

/** The modal, or null when the quotation has more lines than it can carry (the supplier answers with a workbook). */
export function buildOfferModal(model: OfferModalModel): ModalView | null {
  if (model.lines.length === 0 || model.lines.length > OFFER_MODAL_LINES_MAX) return null;
  const blocks: KnownBlock[] = [
    section(
      `Your offer to *${inline(model.brandName, 80)}*: a unit price for each line you offer, in ` +
        `*${inline(model.currency, 8)}*, and your terms. Leave a line empty to say you do not offer it.`,
    ),
    context(['What you submit is recorded exactly as you enter it, and shown to the buyer.']),
    ...model.lines.map((line, index) => priceInput(line, index, model.currency)),
    {
      type: 'input',
      block_id: BLOCK.offerLeadTime,
      optional: true,
      label: label('Lead time (days to ship the whole order)', 2000),
      element: {
        type: 'number_input',
        action_id: ACTION.offerLeadTime,
        is_decimal_allowed: false,
        min_value: '1',
        max_value: String(LEAD_TIME_DAYS_MAX),
        ...(model.last.leadTimeDays !== null ? { initial_value: String(model.last.leadTimeDays) } : {}),
      },
    },
    {
      type: 'input',
      block_id: BLOCK.offerPaymentTerms,
      optional: true,
      label: label('Payment terms', 2000),
      hint: label('For example 30/70, or T/T 30 days after B/L.', 2000),
      element: {
        type: 'plain_text_input',
        action_id: ACTION.offerPaymentTerms,
        max_length: PAYMENT_TERMS_MAX,
        ...(model.last.paymentTerms ? { initial_value: inline(model.last.paymentTerms, PAYMENT_TERMS_MAX) } : {}),
      },
    },
    {
      type: 'input',
      block_id: BLOCK.offerValidity,
      optional: true,
      label: label('Offer valid for (days)', 2000),
      element: {
        type: 'number_input',
        action_id: ACTION.offerValidity,
        is_decimal_allowed: false,
        min_value: '1',
        max_value: String(VALIDITY_DAYS_MAX),
      },
    },
    {
      type: 'input',
      block_id: BLOCK.offerNotes,
      optional: true,
      label: label('Notes', 2000),
      element: {
        type: 'plain_text_input',
        action_id: ACTION.offerNotes,
        multiline: true,
        max_length: OFFER_NOTES_MAX,
      },
    },
  ];
  return {
    type: 'modal',
    callback_id: CALLBACK.offerModal,
    private_metadata: offerModalRefCodec.encode({
      n: model.negotiationId,
      s: model.negotiationSupplierId,
      r: model.round,
    }),
    title: label('Submit offer', 24),
    submit: label('Submit offer', 24),
    close: label('Cancel', 24),
    blocks,
  };
}

/** A unit price a person typed: above zero, in whole cents (as offers are recorded), below a billion. */
export function parseUnitPrice(raw: string | null): { ok: true; value: number | null } | { ok: false; error: string } {
  if (raw === null) return { ok: true, value: null };
  const cleaned = raw.replace(/[,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) {
    return { ok: false, error: 'Enter a unit price like 12.5 or 12.45 (offers are recorded to the cent).' };
  }
  const value = Number(cleaned);
  if (!(value > 0)) return { ok: false, error: 'Enter a price above zero, or leave the line empty.' };
  if (value >= 1e9) return { ok: false, error: 'That price is too large.' };
  return { ok: true, value };
}

export function parseOfferModal(stateValues: unknown, lineCount: number): ParseResult<SubmittedOffer> {
  const state = new ModalState(stateValues);
  const errors: Record<string, string> = {};
  const unitPrices = Array.from({ length: lineCount }, (_, index) => {
    const parsed = parseUnitPrice(state.text(offerPriceBlockId(index), ACTION.offerPrice));
    if (parsed.ok) return parsed.value;
    errors[offerPriceBlockId(index)] = parsed.error;
    return null;
  });
  if (Object.keys(errors).length === 0 && lineCount > 0 && unitPrices.every((price) => price === null)) {
    errors[offerPriceBlockId(0)] = 'Enter a price for at least one line: an offer with none offers nothing.';
  }
  const leadTime = parseWhole(state.text(BLOCK.offerLeadTime, ACTION.offerLeadTime), 1, LEAD_TIME_DAYS_MAX);
  if (!leadTime.ok) errors[BLOCK.offerLeadTime] = leadTime.error;
  const validity = parseWhole(state.text(BLOCK.offerValidity, ACTION.offerValidity), 1, VALIDITY_DAYS_MAX);
  if (!validity.ok) errors[BLOCK.offerValidity] = validity.error;
  const paymentTerms = state.text(BLOCK.offerPaymentTerms, ACTION.offerPaymentTerms);
  if (paymentTerms !== null && paymentTerms.length > PAYMENT_TERMS_MAX) {
    errors[BLOCK.offerPaymentTerms] = `At most ${PAYMENT_TERMS_MAX} characters.`;
  }
  const notes = state.text(BLOCK.offerNotes, ACTION.offerNotes);
  if (notes !== null && notes.length > OFFER_NOTES_MAX)
    errors[BLOCK.offerNotes] = `At most ${OFFER_NOTES_MAX} characters.`;
  if (Object.keys(errors).length > 0 || !leadTime.ok || !validity.ok) return { ok: false, errors };
  return {
    ok: true,
    value: { unitPrices, leadTimeDays: leadTime.value, paymentTerms, validityDays: validity.value, notes },
  };
}
