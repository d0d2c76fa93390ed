// A connected supplier's side of a negotiation. In the buyer's own thread, each message Alex drafts for the supplier,
// with Send and Skip: nothing reaches the supplier before a person of the brand sends it. In the supplier's Slack
// Connect channel, one thread per negotiation: who is writing (an AI agent, for the brand, on behalf of the buyer),
// then each message sent, with the lines to quote and **Submit offer**. Everything there is read by another
// organisation: it names the brand, the buyer and this supplier's own lines, nothing else (the discretion check in
// src/outbox/supplier-channels.ts checks every call again before it is written).
import type { KnownBlock, ModalView } from '@slack/types';
import { ModalState, type ParseResult } from './modal-state.js';
import { ACTION, BLOCK, CALLBACK, draftRefCodec, quotationRefCodec, threadReplyRefCodec } from '../ids.js';
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
  terms,
} from './blocks.js';
import { channelMention, escapeTruncate, inline, label, mention, preformatted, quoted } from './escape.js';
import { OFFER_MODAL_LINES_MAX, offerButtonCodec, type OfferModalRef } from './offer-modal.js';

export interface SupplierDraftModel {
  negotiationId: string;
  /** The message's sequence in the negotiation: which draft a button is about. */
  sequence: number;
  supplierName: string;
  round: number;
  text: string;
}

/** In the buyer's thread: Alex's draft for a connected supplier, to send or skip. */
export function buildSupplierDraft(model: SupplierDraftModel): SlackMessage {
  const value = draftRefCodec.encode({ n: model.negotiationId, q: model.sequence });
  const supplier = inline(model.supplierName, 80);
  return {
    text: `Draft for ${inline(model.supplierName, 80)}: send it or skip it`,
    blocks: [
      section(
        `:pencil: *Draft for ${supplier}* (round ${model.round}), for its Slack Connect channel — the supplier sees ` +
          'nothing of it until you send it.',
      ),
      section(quoted(model.text, 2800)),
      actions(`draft:${model.sequence}`, [
        button({ text: 'Send to the supplier', actionId: ACTION.draftSend, value, style: 'primary' }),
        button({ text: 'Edit…', actionId: ACTION.draftEdit, value }),
        button({
          text: 'Skip',
          actionId: ACTION.draftSkip,
          value,
          confirm: {
            title: 'Skip this message?',
            text: `${model.supplierName} gets nothing this round, and the round goes on without its answer.`,
            confirm: 'Skip it',
            deny: 'Keep it',
          },
        }),
      ]),
    ],
  };
}

/** What became of a draft: sent (and waiting for the supplier until `replyBy`), skipped, or its round closed. */
export type DraftOutcome =
  /** `automatic`: sent by the workspace's auto-send setting, within the mandate, rather than by a click. */
  | { decision: 'sent'; channelId: string; replyBy: Date; replyDays: number; automatic?: boolean; edited?: boolean }
  | { decision: 'skipped' }
  /** Sent, then the round closed without the supplier's answer: by `closedBy`, or (null) at its reply-by time. */
  | { decision: 'closed'; channelId: string; closedBy: string | null }
  /** Sent, and answered through Submit offer by `answeredBy`, of the supplier. */
  | { decision: 'answered'; channelId: string; answeredBy: string };

/**
 * The draft once decided: what was sent (or that nothing was), by whom. A sent one waits for the supplier until its
 * reply-by time, with Close the round (go on without the supplier now) and Give more time; otherwise no buttons.
 */
export function buildSupplierDraftDecided(
  model: SupplierDraftModel & { by: string; outcome: DraftOutcome },
): SlackMessage {
  const supplier = inline(model.supplierName, 80);
  const { outcome } = model;
  const round = `round ${model.round}`;
  const words = section(quoted(model.text, 2800));
  if (outcome.decision === 'skipped') {
    return {
      text: `Skipped: not sent to ${inline(model.supplierName, 80)}`,
      blocks: [
        section(
          `:fast_forward: *Not sent to ${supplier}*: skipped by ${mention(model.by)}; ${round} goes on without its answer.`,
        ),
        words,
      ],
    };
  }
  const how =
    outcome.decision === 'sent' && outcome.automatic === true
      ? `automatically for ${mention(model.by)}: within the mandate`
      : outcome.decision === 'sent' && outcome.edited === true
        ? `by ${mention(model.by)}, as they edited it`
        : `by ${mention(model.by)}`;
  const sent = `:outbox_tray: *Sent to ${supplier}* in ${channelMention(outcome.channelId)} ${how} (${round}).`;
  if (outcome.decision === 'answered') {
    return {
      text: `Sent to ${inline(model.supplierName, 80)}; it answered`,
      blocks: [section(sent), words, context([`:inbox_tray: ${mention(outcome.answeredBy)} answered with an offer.`])],
    };
  }
  if (outcome.decision === 'closed') {
    const closed =
      outcome.closedBy === null
        ? `:hourglass: No answer from ${supplier} by its reply-by time: ${round} went on without it.`
        : `:fast_forward: ${mention(outcome.closedBy)} closed ${round} without ${supplier}'s answer.`;
    return {
      text: `Sent to ${inline(model.supplierName, 80)}; the round closed without its answer`,
      blocks: [section(sent), words, context([closed])],
    };
  }
  const value = draftRefCodec.encode({ n: model.negotiationId, q: model.sequence });
  return {
    text: `Sent to ${inline(model.supplierName, 80)}`,
    blocks: [
      section(sent),
      words,
      context([`Waiting for its offer until ${slackDate(outcome.replyBy)}; then ${round} goes on without it.`]),
      actions(`draft-sent:${model.sequence}`, [
        button({
          text: `Give ${plural(outcome.replyDays, 'more business day')}`,
          actionId: ACTION.draftExtend,
          value,
        }),
        button({
          text: 'Close the round without it',
          actionId: ACTION.draftCloseRound,
          value,
          confirm: {
            title: 'Close the round now?',
            text: `${model.supplierName}'s answer to this message will no longer count; the round goes on without it.`,
            confirm: 'Close it',
            deny: 'Keep waiting',
          },
        }),
      ]),
    ],
  };
}

/** In the supplier's thread: when to answer by, reminded, extended, or the round closed without its answer. */
export function buildSupplierReplyNotice(
  model: { kind: 'reminder' | 'extended'; replyBy: Date; round: number } | { kind: 'closed'; round: number },
): SlackMessage {
  if (model.kind === 'closed') {
    return {
      text: `Round ${model.round} closed without your offer`,
      blocks: [
        section(
          `:hourglass: Round ${model.round} closed without your offer. The buyer's next message comes with a new ` +
            '*Submit offer*.',
        ),
      ],
    };
  }
  const by = slackDate(model.replyBy);
  const text =
    model.kind === 'reminder'
      ? `:alarm_clock: A reminder: please submit your offer for round ${model.round} by ${by}, with *Submit offer* above.`
      : `:calendar: The buyer has given you until ${by} to submit your offer for round ${model.round}.`;
  return {
    text: model.kind === 'reminder' ? 'A reminder to submit your offer' : 'More time to answer',
    blocks: [section(text)],
  };
}

/** The supplier thread's first message: who writes, for whom, and how to answer. */
export function buildSupplierThreadStart(model: { brandName: string; supplierName: string; buyerId: string }) {
  const brand = inline(model.brandName, 80);
  return {
    text: `${inline(model.brandName, 80)} asks ${inline(model.supplierName, 80)} for an offer`,
    blocks: [
      section(
        `:handshake: *${brand}* asks *${inline(model.supplierName, 80)}* for an offer. I am ${BRAND_AGENT_NAME}, an AI ` +
          `agent negotiating for ${brand} on behalf of ${mention(model.buyerId)}, who approves every message before ` +
          'it is sent.',
      ),
      context(['Answer in this thread with *Submit offer*: what you submit is recorded exactly as you enter it.']),
    ],
  } satisfies SlackMessage;
}

export interface SupplierRequestModel {
  brandName: string;
  text: string;
  round: number;
  currency: string;
  lines: readonly { sku: string; description: string; quantity: number }[];
  /** What the Submit offer button opens the modal for. */
  offer: OfferModalRef;
  /** When the round goes on without the supplier's answer. */
  replyBy: Date;
}

/** One message the buyer sent, in the supplier's thread: its words, the lines to quote, and Submit offer. */
export function buildSupplierRequest(model: SupplierRequestModel): SlackMessage {
  const listed = preformatted(
    model.lines.map((line) => `${line.sku} · ${line.description} · ${quantity(line.quantity)} units`),
    2800,
  );
  const formFits = model.lines.length <= OFFER_MODAL_LINES_MAX;
  const blocks: KnownBlock[] = [
    section(`*${BRAND_AGENT_NAME}, for ${inline(model.brandName, 80)}* (round ${model.round}):`),
    section(escapeTruncate(model.text.trim(), 2900)),
  ];
  if (listed.text !== '') {
    blocks.push(section(`*${plural(model.lines.length, 'line')} to quote, in ${inline(model.currency, 8)}:*`));
    blocks.push(section(listed.text));
    if (listed.omitted > 0) blocks.push(context([`${plural(listed.omitted, 'more line')} not shown here.`]));
  }
  blocks.push(context([`Please answer by ${slackDate(model.replyBy)}: the round then goes on without your offer.`]));
  blocks.push(
    formFits
      ? submitOfferActions(model.offer)
      : context([
          `${plural(model.lines.length, 'line')} is more than the offer form takes (${OFFER_MODAL_LINES_MAX}): ` +
            `share your revised quotation in this thread instead — a spreadsheet with each line's SKU and your unit ` +
            `price (the attached ${LINES_FILE} has them all). Parley reads it and asks you to confirm the offer.`,
        ]),
  );
  if (formFits) {
    blocks.push(context(['Or share your revised quotation (a spreadsheet) in this thread: Parley reads it for you.']));
  }
  return { text: `${BRAND_AGENT_NAME}, for ${inline(model.brandName, 80)}: ${inline(model.text, 200)}`, blocks };
}

function submitOfferActions(offer: OfferModalRef) {
  return actions(`offer:${offer.r}`, [
    button({
      text: 'Submit offer',
      actionId: ACTION.offerOpen,
      value: offerButtonCodec.encode(offer),
      style: 'primary',
    }),
  ]);
}

/**
 * The answer to a supplier's words in its thread: kept and passed to the buyer, and — while the round waits for its
 * offer — the Submit offer button again, since only what is submitted there is recorded as an offer.
 */
export function buildSupplierWordsNoted(model: { buyerId: string; offer: OfferModalRef | null }): SlackMessage {
  const noted = `Thank you: your message is kept with this negotiation and passed to ${mention(model.buyerId)}.`;
  return {
    text: 'Your message was passed to the buyer',
    blocks: model.offer
      ? [section(`${noted} An offer is recorded only as you submit it here:`), submitOfferActions(model.offer)]
      : [section(`${noted} The buyer answers in this thread.`)],
  };
}

/** The most a buyer's edit of a draft may run to: it is sent in one section of the supplier's message. */
export const DRAFT_TEXT_MAX = 2900;

/** The draft in a modal, for the buyer to edit; Send sends it as they wrote it. The draft travels in private_metadata. */
export function buildDraftEditModal(model: {
  negotiationId: string;
  sequence: number;
  supplierName: string;
  text: string;
}): ModalView {
  return {
    type: 'modal',
    callback_id: CALLBACK.draftEditModal,
    private_metadata: draftRefCodec.encode({ n: model.negotiationId, q: model.sequence }),
    title: label('Edit the message', 24),
    submit: label('Send', 24),
    close: label('Cancel', 24),
    blocks: [
      section(`Sent to *${inline(model.supplierName, 80)}* in its Slack Connect channel exactly as you leave it here.`),
      {
        type: 'input',
        block_id: BLOCK.draftText,
        label: label('Message', 2000),
        element: {
          type: 'plain_text_input',
          action_id: ACTION.draftText,
          multiline: true,
          max_length: DRAFT_TEXT_MAX,
          initial_value: model.text.slice(0, DRAFT_TEXT_MAX),
        },
      },
      context([
        'Every message to a supplier is checked first: one naming another supplier or a mandate figure is held back.',
      ]),
    ],
  };
}

export function parseDraftEditModal(stateValues: unknown): ParseResult<{ text: string }> {
  const text = new ModalState(stateValues).text(BLOCK.draftText, ACTION.draftText);
  if (text === null || text.trim() === '')
    return { ok: false, errors: { [BLOCK.draftText]: 'Write the message, or cancel.' } };
  if (text.length > DRAFT_TEXT_MAX)
    return { ok: false, errors: { [BLOCK.draftText]: `At most ${DRAFT_TEXT_MAX} characters.` } };
  return { ok: true, value: { text } };
}

/** The lines to quote as a file in the supplier's thread, for a request the offer form cannot hold. */
export const LINES_FILE = 'lines-to-quote.csv';

/** What Parley read from a supplier's revised quotation, as the offer it proposes to record (or why none). */
export interface OfferFileModel extends ProposedOfferFigures {
  fileName: string;
  round: number;
  /** Lines of the file that are no line of the request (or carry no price), a few of them named. */
  unmatched: { count: number; named: string[] };
  conflicting: string[];
  otherCurrency: string | null;
  /** Where the offer stands: waiting for their confirmation, recorded (by whom), or the round no longer takes it. */
  status: { kind: 'proposed'; quotationId: string } | { kind: 'submitted'; by: string } | { kind: 'closed' };
}

/** The status card of a supplier's offer file, once read: the offer it proposes with Submit this offer, or why none. */
export function buildOfferFileProposal(model: OfferFileModel): SlackMessage {
  const file = `*${inline(model.fileName, 100)}*`;
  if (model.otherCurrency !== null) {
    const text =
      `:page_facing_up: ${file} quotes in ${inline(model.otherCurrency, 8)}; this request is in ` +
      `${inline(model.currency, 8)}. Share your prices in ${inline(model.currency, 8)}: nothing was recorded.`;
    return { text: `${inline(model.fileName, 100)}: another currency`, blocks: [section(text)] };
  }
  if (model.priced === 0) {
    const text =
      `:page_facing_up: Parley read ${file} but found none of the ${quantity(model.requested)} requested lines in ` +
      "it, by their SKUs or yours. Use the request's SKUs, or *Submit offer*: nothing was recorded.";
    return { text: `${inline(model.fileName, 100)}: no requested line found`, blocks: [section(text)] };
  }
  const notes: string[] = [];
  if (model.priced < model.requested) {
    notes.push(
      `${plural(model.requested - model.priced, 'requested line')} not priced in the file: recorded as not offered.`,
    );
  }
  if (model.conflicting.length > 0) {
    notes.push(
      `Priced twice at different prices, so left out: ${model.conflicting
        .slice(0, 5)
        .map((sku) => inline(sku, 40))
        .join(', ')}` +
        (model.conflicting.length > 5 ? ` and ${model.conflicting.length - 5} more` : '') +
        '.',
    );
  }
  if (model.unmatched.count > 0) {
    const named = model.unmatched.named.map((name) => inline(name, 40)).join(', ');
    notes.push(
      `${plural(model.unmatched.count, 'line')} of the file matched no requested line${named ? ` (${named}…)` : ''}.`,
    );
  }
  const heading = `:page_facing_up: Parley read ${file} as your offer for round ${model.round}:\n${offerFigures(model)}`;
  const blocks: KnownBlock[] = [section(heading)];
  if (notes.length > 0) blocks.push(context(notes));
  const { status } = model;
  const submit =
    status.kind === 'proposed'
      ? {
          kind: 'proposed' as const,
          actionId: ACTION.offerFileSubmit,
          value: quotationRefCodec.encode({ qt: status.quotationId }),
        }
      : status;
  blocks.push(...proposalStatus(submit, model.round, 'share a corrected file'));
  return { text: `${inline(model.fileName, 100)} read as your offer for round ${model.round}`, blocks };
}

/** An offer Parley read for a supplier (from its file or its words), as figures: "$X for 12 of 16 lines · …". */
export interface ProposedOfferFigures {
  currency: string;
  requested: number;
  priced: number;
  /** The priced lines at the requested quantities. */
  total: number;
  leadTimeDays: number | null;
  paymentTerms: string | null;
  validityDays: number | null;
}

function offerFigures(model: ProposedOfferFigures): string {
  return [
    `*${money(model.total, model.currency)}* for ${quantity(model.priced)} of ${plural(model.requested, 'line')}`,
    model.leadTimeDays === null ? 'lead time not stated' : `lead time ${days(model.leadTimeDays)}`,
    model.paymentTerms === null ? 'payment terms not stated' : `payment ${terms(model.paymentTerms)}`,
    ...(model.validityDays === null ? [] : [`valid ${plural(model.validityDays, 'day')}`]),
  ].join(' · ');
}

/** Under a proposed offer: its Submit this offer, or who submitted it, or that the round takes no more. */
function proposalStatus(
  status:
    { kind: 'proposed'; actionId: string; value: string } | { kind: 'submitted'; by: string } | { kind: 'closed' },
  round: number,
  orElse: string,
): KnownBlock[] {
  if (status.kind === 'proposed') {
    return [
      context([`Nothing is recorded until you submit it: check the figures, then submit, or ${orElse}.`]),
      actions(BLOCK.offerFile, [
        button({ text: 'Submit this offer', actionId: status.actionId, style: 'primary', value: status.value }),
      ]),
    ];
  }
  if (status.kind === 'submitted') {
    return [
      context([`:white_check_mark: Submitted by ${mention(status.by)}: recorded as your offer for round ${round}.`]),
    ];
  }
  return [context([`Round ${round} takes no more offers: the buyer's next message comes with a new request.`])];
}

/** What Parley read from a supplier's words as an offer, under the note that they were passed to the buyer. */
export interface WordsOfferModel extends ProposedOfferFigures {
  buyerId: string;
  round: number;
  /** The Submit offer form, for an offer other than the one read. */
  offer: OfferModalRef;
  status: { kind: 'proposed'; threadReplyId: string } | { kind: 'submitted'; by: string } | { kind: 'closed' };
}

/** The answer to a supplier's words once Claude read an offer in them: the offer, Submit this offer, and the form. */
export function buildWordsOfferProposal(model: WordsOfferModel): SlackMessage {
  const noted = `Thank you: your message is kept with this negotiation and passed to ${mention(model.buyerId)}.`;
  const { status } = model;
  const submit =
    status.kind === 'proposed'
      ? {
          kind: 'proposed' as const,
          actionId: ACTION.wordsOfferSubmit,
          value: threadReplyRefCodec.encode({ tr: status.threadReplyId }),
        }
      : status;
  const blocks: KnownBlock[] = [
    section(`${noted} Parley read it as this offer for round ${model.round}:\n${offerFigures(model)}`),
    ...proposalStatus(submit, model.round, 'use *Submit offer* for another one'),
  ];
  if (status.kind === 'proposed') blocks.push(submitOfferActions(model.offer));
  return { text: 'Your message was passed to the buyer, with the offer Parley read in it', blocks };
}
