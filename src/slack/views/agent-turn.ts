// One agent turn in the thread, posted under the agent's persona (chat.postMessage `username` / `icon_emoji`, which
// needs the chat:write.customize scope). The agent's words are LLM output: escaped like any untrusted text.
import type { ActionType } from '../../negotiation/types.js';
import { AI_AGENT_SUFFIX, SIMULATED_SUFFIX } from '../../negotiation/personas.js';
import { type SlackMessage, context, days, money, section, signedPercent, terms } from './blocks.js';
import { ELLIPSIS, escapeTruncate, inline, oneLine, truncate } from './escape.js';

export interface AgentTurnOffer {
  total: number;
  /** The same supplier's previous offer total, for the change; null on its first offer. */
  previousTotal: number | null;
  leadTimeDays: number;
  paymentTerms: string;
  concessions: string[];
}

export interface AgentTurnPillars {
  negotiator: string;
  riskAnalyst: string;
  productCost: string;
}

export interface AgentTurnModel {
  role: 'brand' | 'supplier';
  brandName: string;
  /** The supplier speaking, or the one the brand agent addresses. */
  supplierName: string;
  text: string;
  action: ActionType;
  round: number;
  maxRounds: number;
  currency: string;
  /** Supplier turns: the offer code extracted and checked. */
  offer?: AgentTurnOffer | null;
  /** Brand turns: what the three pillars advised before Alex wrote. */
  pillars?: AgentTurnPillars | null;
  /** Overrides the default persona emoji (e.g. one per supplier). */
  iconEmoji?: string;
}

export interface AgentTurnMessage extends SlackMessage {
  username: string;
  icon_emoji: string;
}

export const BRAND_AGENT_NAME = 'Alex';
/** Slack shows at most 80 characters of a custom username. */
const USERNAME_MAX = 80;
/**
 * The pillar briefs are folded into one context line of at most this many characters (issue 17): printed in full
 * under every brand turn they tripled the thread's length; the full briefs stay in the negotiation's report.
 */
export const WHY_THIS_ASK_MAX = 150;
/** The most words of an agent's turn the thread shows (issue 17; the seed's synthesizer writes about this many). */
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

/**
 * Persona names are shown as sender names, not parsed as mrkdwn, so they are only flattened and cut. Each says what
 * the speaker is — the brand's AI agent, or a simulated supplier — and a long name is cut before that label, never
 * the label itself.
 */
export function personaName(model: Pick<AgentTurnModel, 'role' | 'brandName' | 'supplierName'>): string {
  if (model.role === 'brand') {
    const head = `${BRAND_AGENT_NAME}${AI_AGENT_SUFFIX}`;
    const brand = truncate(oneLine(model.brandName), USERNAME_MAX - head.length - 3);
    return brand ? `${head} · ${brand}` : head;
  }
  const name = truncate(oneLine(model.supplierName), USERNAME_MAX - SIMULATED_SUFFIX.length) || 'Supplier';
  return `${name}${SIMULATED_SUFFIX}`;
}

/** A supplier turn's offer as code read it: total (and the change), lead time, terms, concessions. */
export function offerContext(offer: AgentTurnOffer, currency: string): string[] {
  const change =
    offer.previousTotal !== null && offer.previousTotal > 0
      ? ` (${signedPercent((offer.total - offer.previousTotal) / offer.previousTotal)} vs their last offer)`
      : '';
  const parts = [
    `:moneybag: *${money(offer.total, currency)}*${change}`,
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

/** The negotiator's brief (what the ask is for), cut so the whole line stays within WHY_THIS_ASK_MAX. */
function pillarContext(p: AgentTurnPillars): string[] {
  return whyThisAsk(p.negotiator.trim() || p.productCost.trim() || p.riskAnalyst.trim());
}

/** A pillar brief as the one "Why this ask" context line under a brand turn; nothing for an empty brief. */
export function whyThisAsk(brief: string | null | undefined): string[] {
  const why = brief?.trim() ?? '';
  return why ? [`${WHY_LABEL}${inline(why, WHY_THIS_ASK_MAX - WHY_LABEL.length)}`] : [];
}

/**
 * An agent's words as the thread shows them: at most `max` words (issue 17 and the seed's synthesizer: a turn reads
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

export function buildAgentTurn(model: AgentTurnModel): AgentTurnMessage {
  const username = personaName(model);
  const tag = ACTION_LABEL[model.action];
  const toWhom = model.role === 'brand' ? ` · to ${inline(model.supplierName, 60)}` : '';
  const body = escapeTruncate(turnWords(model.text), 2900) || '_(no words)_';
  const blocks = [section(body), context([`*${tag}* · Round ${model.round} of ${model.maxRounds}${toWhom}`])];
  if (model.role === 'supplier' && model.offer) blocks.push(context(offerContext(model.offer, model.currency)));
  const why = model.role === 'brand' && model.pillars ? pillarContext(model.pillars) : [];
  if (why.length > 0) blocks.push(context(why));
  return {
    username,
    icon_emoji: model.iconEmoji ?? (model.role === 'brand' ? ':handshake:' : ':factory:'),
    text: `${escapeTruncate(username, USERNAME_MAX)} (${tag}, round ${model.round}): ${inline(model.text, 300)}`,
    blocks,
  };
}
