// What one agent turn shows in its round's message (round-message.ts): the words, cut to a glance, the offer code
// read, the one-line reason for a brand ask, and each action's label. The words are LLM output: the caller escapes.
import type { ActionType } from '../../negotiation/types.js';
import { days, money, signedPercent, terms } from './blocks.js';
import { ELLIPSIS, escapeTruncate, inline, oneLine } from './escape.js';

export interface AgentTurnOffer {
  total: number;
  /**
   * The same supplier's previous offer total, for the change; null on its first offer, and when the two cover other
   * lines (a total for fewer lines is no price cut).
   */
  previousTotal: number | null;
  leadTimeDays: number;
  paymentTerms: string;
  concessions: string[];
  /** How many of the quotation's lines the offer prices, when not all of them (a real supplier's "not offered"). */
  partial?: { offered: number; quoted: number } | null;
}

/** " for 12 of 16 lines": what a total that leaves lines out is the total of. */
export function partialLines(partial: { offered: number; quoted: number } | null | undefined): string {
  return partial && partial.offered < partial.quoted
    ? ` for ${partial.offered.toLocaleString('en-US')} of ${partial.quoted.toLocaleString('en-US')} lines`
    : '';
}

export const BRAND_AGENT_NAME = 'Alex';
/**
 * The pillar briefs are folded into one context line of at most this many characters: printed in full
 * under every brand turn they tripled the thread's length; the full briefs stay in the negotiation's report.
 */
export const WHY_THIS_ASK_MAX = 150;
/** The most words of an agent's turn the thread shows (the seed's synthesizer writes about this many). */
export const TURN_WORDS_MAX = 80;
const WHY_LABEL = '*Why this ask:* ';

export const ACTION_LABEL: Readonly<Record<ActionType, string>> = {
  ASK_INFO: 'Question',
  PROPOSE_OFFER: 'Offer',
  COUNTER_OFFER: 'Counter-offer',
  ACCEPT: 'Accepts',
  REJECT: 'Rejects',
  CONCEDE: 'Concession',
  TRADE: 'Trade-off',
  PROPOSE_PACKAGE: 'Package deal',
  REQUEST_CRITERIA: 'Asks for criteria',
  SUMMARIZE_VALIDATE: 'Summary',
  DEFER_AND_SCHEDULE: 'Defers',
  ESCALATE_TO_DECIDER: 'Escalates',
  WALK_AWAY: 'Walks away',
  TIMEOUT_END: 'Time out',
};

/** A supplier turn's offer as code read it: total (and the change), lead time, terms, concessions. */
export function offerContext(offer: AgentTurnOffer, currency: string): string[] {
  const change =
    offer.previousTotal !== null && offer.previousTotal > 0
      ? ` (${signedPercent((offer.total - offer.previousTotal) / offer.previousTotal)} vs their last offer)`
      : '';
  const parts = [
    `:moneybag: *${money(offer.total, currency)}*${partialLines(offer.partial)}${change}`,
    `:truck: ${days(offer.leadTimeDays)}`,
    `:credit_card: ${terms(offer.paymentTerms)}`,
  ];
  const concessions = offer.concessions
    .map((c) => oneLine(c))
    .filter((c) => c !== '')
    .slice(0, 5);
  if (concessions.length > 0) {
    parts.push(`:gift: ${concessions.map((c) => escapeTruncate(c, 120)).join('; ')}`);
  }
  return parts;
}

/** A pillar brief as the one "Why this ask" context line under a brand turn; nothing for an empty brief. */
export function whyThisAsk(brief: string | null | undefined): string[] {
  const why = brief?.trim() ?? '';
  return why ? [`${WHY_LABEL}${inline(why, WHY_THIS_ASK_MAX - WHY_LABEL.length)}`] : [];
}

/**
 * An agent's words as the thread shows them: at most `max` words (the seed's synthesizer: a turn reads
 * at a glance), cut after the last whole sentence that fits, or mid-sentence with "…" when even the first is longer.
 * The figures a turn carries are shown beside it by code (the offer, the ask), so a cut never hides a number. Raw text:
 * the caller escapes it.
 */
export function turnWords(text: string, max = TURN_WORDS_MAX): string {
  const words = text.split(/\s+/).filter((word) => word !== '');
  if (words.length <= max) return words.join(' ');
  const head = words.slice(0, max);
  // The last word that ends a sentence within the budget (not a decimal or an abbreviation inside a figure).
  for (let end = head.length - 1; end >= Math.floor(max / 2); end--) {
    if (/[.!?]["')\]]?$/.test(head[end] ?? '')) return head.slice(0, end + 1).join(' ');
  }
  return `${head.join(' ')}${ELLIPSIS}`;
}
