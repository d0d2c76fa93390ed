// The approved PO in a connected supplier's own channel, and what the supplier answers. The supplier sees only its own
// part of the order: its lines at its own prices, their total, its lead time, terms and Incoterm — never the other
// suppliers' parts, the landed-cost assumptions or the approvers' notes. Accept records who accepted and when; Query
// opens a modal whose question goes back to the buyer. In the buyer's thread: what the supplier answered or wrote.
import type { ModalView } from '@slack/types';
import { ACTION, BLOCK, CALLBACK, supplierPoRefCodec } from '../ids.js';
import { BRAND_AGENT_NAME } from './agent-turn.js';
import {
  type SlackMessage,
  actions,
  button,
  context,
  days,
  money,
  plural,
  quantity,
  section,
  slackDate,
} from './blocks.js';
import { inline, label, mention, plain, preformatted, quoted } from './escape.js';
import { ModalState, type ParseResult } from './modal-state.js';

/** An approved PO's part for one connected supplier: what its buttons and the query modal carry. */
export interface SupplierPoRef {
  purchaseOrderId: string;
  supplierId: string;
}

export interface SupplierPoModel extends SupplierPoRef {
  brandName: string;
  poNumber: string;
  supplierName: string;
  currency: string;
  items: readonly { sku: string; description: string; quantity: number; unitPrice: number; lineTotal: number }[];
  total: number;
  leadTimeDays: number;
  paymentTerms: string;
  incoterm: string | null;
  /** Who at the supplier accepted it, and when; null while it waits for the supplier. */
  accepted: { by: string; at: Date } | null;
}

/** The supplier's part of the approved PO, in its negotiation thread: with Accept and Query until accepted. */
export function buildSupplierPurchaseOrder(model: SupplierPoModel): SlackMessage {
  const cur = model.currency;
  const listed = preformatted(
    model.items.map(
      (item) =>
        `${item.sku} · ${item.description} · ${quantity(item.quantity)} × ${money(item.unitPrice, cur)} = ` +
        money(item.lineTotal, cur),
    ),
    2800,
  );
  const terms = [
    `Total ${money(model.total, cur)}`,
    `lead time ${days(model.leadTimeDays)}`,
    `payment ${inline(model.paymentTerms, 120)}`,
    ...(model.incoterm ? [inline(model.incoterm, 40)] : []),
  ].join(' · ');
  const value = supplierPoRefCodec.encode({ po: model.purchaseOrderId, s: model.supplierId });
  const po = inline(model.poNumber, 40);
  const brand = inline(model.brandName, 80);
  const blocks = [
    section(
      `:page_facing_up: *${po}*: ${brand} orders ${plural(model.items.length, 'line')} from ` +
        `*${inline(model.supplierName, 80)}*, at the prices you offered.`,
    ),
    section(listed.text),
    ...(listed.omitted > 0 ? [context([`${plural(listed.omitted, 'more line')} not shown here.`])] : []),
    section(terms),
    model.accepted
      ? context([`:white_check_mark: Accepted by ${mention(model.accepted.by)} · ${slackDate(model.accepted.at)}`])
      : actions(`po:${model.purchaseOrderId}`, [
          button({
            text: 'Accept PO',
            actionId: ACTION.poSupplierAccept,
            value,
            style: 'primary',
            confirm: {
              title: `Accept ${model.poNumber}?`,
              text: `${model.brandName} is told you accept this order as stated above.`,
              confirm: 'Accept',
              deny: 'Not yet',
            },
          }),
          button({ text: 'Query', actionId: ACTION.poSupplierQuery, value }),
        ]),
  ];
  const status = model.accepted ? 'accepted' : 'to accept';
  return { text: `${inline(model.poNumber, 40)} from ${inline(model.brandName, 80)}: ${status}`, blocks };
}

export const PO_QUERY_MAX = 2000;
const PO_QUERY_MIN = 3;

/** The supplier's question on its part of the PO; the PO and the supplier travel in private_metadata. */
export function buildPoQueryModal(model: SupplierPoRef & { poNumber: string; brandName: string }): ModalView {
  return {
    type: 'modal',
    callback_id: CALLBACK.poQueryModal,
    private_metadata: supplierPoRefCodec.encode({ po: model.purchaseOrderId, s: model.supplierId }),
    title: label('Query the order', 24),
    submit: label('Send', 24),
    close: label('Cancel', 24),
    blocks: [
      section(`Your question on *${inline(model.poNumber, 40)}* goes to the buyer at ${inline(model.brandName, 80)}.`),
      {
        type: 'input',
        block_id: BLOCK.poQueryText,
        label: label('Question', 2000),
        element: {
          type: 'plain_text_input',
          action_id: ACTION.poQueryText,
          multiline: true,
          min_length: PO_QUERY_MIN,
          max_length: PO_QUERY_MAX,
          placeholder: plain('e.g. can line 3 ship two weeks later?', 150),
        },
      },
    ],
  };
}

export function parsePoQueryModal(stateValues: unknown): ParseResult<{ text: string }> {
  const text = new ModalState(stateValues).text(BLOCK.poQueryText, ACTION.poQueryText);
  if (text === null || text.length < PO_QUERY_MIN) {
    return { ok: false, errors: { [BLOCK.poQueryText]: 'Write the question for the buyer.' } };
  }
  if (text.length > PO_QUERY_MAX) {
    return { ok: false, errors: { [BLOCK.poQueryText]: `Keep it under ${PO_QUERY_MAX} characters.` } };
  }
  return { ok: true, value: { text } };
}

/** In the supplier's thread: its query went to the buyer. */
export function buildPoQuerySent(model: { poNumber: string; by: string; buyerId: string; text: string }): SlackMessage {
  return {
    text: `Query on ${inline(model.poNumber, 40)} sent to the buyer`,
    blocks: [
      section(
        `:speech_balloon: ${mention(model.by)} asked about *${inline(model.poNumber, 40)}*; the question went to ` +
          `${mention(model.buyerId)}:`,
      ),
      section(quoted(model.text, 2800)),
    ],
  };
}

/**
 * In the buyer's thread: what a connected supplier answered or wrote — an acceptance of the PO, a query on it, or
 * words in its thread (kept; the supplier was given Submit offer to make them an offer).
 */
export type SupplierAnswerModel =
  | { kind: 'accepted'; supplierName: string; by: string; at: Date; poNumber: string }
  | { kind: 'query'; supplierName: string; by: string; poNumber: string; text: string; buyerId: string }
  | { kind: 'words'; supplierName: string; by: string; text: string };

export function buildSupplierAnswer(model: SupplierAnswerModel): SlackMessage {
  const supplier = inline(model.supplierName, 80);
  switch (model.kind) {
    case 'accepted':
      return {
        text: `${inline(model.supplierName, 80)} accepted ${inline(model.poNumber, 40)}`,
        blocks: [
          section(
            `:white_check_mark: *${supplier} accepted ${inline(model.poNumber, 40)}*: ${mention(model.by)}, ` +
              `${slackDate(model.at)}.`,
          ),
        ],
      };
    case 'query':
      return {
        text: `${inline(model.supplierName, 80)} has a query on ${inline(model.poNumber, 40)}`,
        blocks: [
          section(
            `:question: ${mention(model.buyerId)}, *${supplier}* has a query on *${inline(model.poNumber, 40)}* ` +
              `(${mention(model.by)}). Answer them in their channel.`,
          ),
          section(quoted(model.text, 2800)),
        ],
      };
    case 'words':
      return {
        text: `${inline(model.supplierName, 80)} wrote in its thread`,
        blocks: [
          section(`:speech_balloon: *${supplier}* wrote in its thread (${mention(model.by)}):`),
          section(quoted(model.text, 2800)),
          context([
            `${BRAND_AGENT_NAME} asked them to put it in an offer with *Submit offer*: words alone are not recorded as one.`,
          ]),
        ],
      };
  }
}
