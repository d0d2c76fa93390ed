// One message per negotiation round, edited as its turns arrive (a message per turn made the default story
// 36 messages long). Each turn is one line of at most 80 words under who said it, with the figures code read beside
// it — a supplier's offer, the brand's ask and why it asks — and the round's standing closes the message once the
// round is over. Agents' words and names are LLM output or sheet text: escaped like any untrusted text.
import type { KnownBlock } from '@slack/types';
import type { ActionType } from '../../negotiation/types.js';
import type { SupplierCounterpart } from '../../config/business-rules.js';
import { AI_AGENT_SUFFIX, supplierPersonaLabel } from '../../negotiation/personas.js';
import {
  ACTION_LABEL,
  type AgentTurnOffer,
  BRAND_AGENT_NAME,
  offerContext,
  turnWords,
  whyThisAsk,
} from './agent-turn.js';
import {
  type SlackMessage,
  MESSAGE_BLOCKS_MAX,
  context,
  days,
  divider,
  header,
  money,
  plural,
  quantity,
  section,
  terms,
} from './blocks.js';
import { escapeTruncate, inline } from './escape.js';
import { type RoundAnalysisModel, roundStandingBlocks, roundStandingText } from './round-analysis.js';

export interface RoundTurn {
  role: 'brand' | 'supplier';
  /** The supplier speaking, or the one the brand agent addresses. */
  supplierName: string;
  /** Who speaks for it: an agent standing in (labelled simulated), or its own people. Absent: simulated. */
  counterpart?: SupplierCounterpart;
  text: string;
  action: ActionType;
  /** Supplier turns: the offer code extracted and checked. */
  offer?: AgentTurnOffer | null;
  /** Brand turns: what the brand asked for, as code read it from the action. */
  ask?: { total: number | null; leadTimeDays: number | null; paymentTerms: string | null } | null;
  /** Brand turns: the pillar brief behind the ask, shown as one "Why this ask" line. */
  brief?: string | null;
}

export interface RoundRequest {
  /** The suppliers the request for quotes went to. */
  to: string[];
  lineCount: number;
  units: number;
  /** The item list the request carried (every line, or the top lines by spend and where the rest is). */
  itemList: string;
  /** The attached full list's file name, when the quotation is too long to list. */
  attachment: string | null;
}

export interface RoundMessageModel {
  round: number;
  maxRounds: number;
  currency: string;
  /** Round 1: the request for quotes, listed once for every supplier it went to. */
  request?: RoundRequest | null;
  /** In the order they were said. */
  turns: RoundTurn[];
  /** Once the round is over: where every supplier stands. */
  standing?: RoundAnalysisModel | null;
}

const TURN_TEXT_MAX = 2000;
const REQUEST_LIST_MAX = 2600;

/**
 * "Alex (AI agent) → RapidGear Co" / "RapidGear Co (simulated)" / "Ningbo Everbright" (connected: its own people):
 * who speaks, saying what each speaker is.
 */
export function turnSpeaker(turn: Pick<RoundTurn, 'role' | 'supplierName' | 'counterpart'>): string {
  const supplier = inline(turn.supplierName, 80) || 'Supplier';
  return turn.role === 'brand'
    ? `${BRAND_AGENT_NAME}${AI_AGENT_SUFFIX} → ${supplier}`
    : supplierPersonaLabel(supplier, turn.counterpart);
}

/** A request's own words without its item list: the round's request block lists the items once for everyone. */
function withoutItemList(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s*[-•*]\s/.test(line))
    .join('\n');
}

function turnBlocks(turn: RoundTurn, currency: string): KnownBlock[] {
  const said = turn.action === 'REQUEST_CRITERIA' ? withoutItemList(turn.text) : turn.text;
  const words = escapeTruncate(turnWords(said), TURN_TEXT_MAX) || '_(no words)_';
  const tag = `*${ACTION_LABEL[turn.action]}*`;
  const facts =
    turn.role === 'supplier'
      ? [tag, ...(turn.offer ? offerContext(turn.offer, currency) : [])]
      : [`${tag}${askText(turn.ask, currency)}`, ...whyThisAsk(turn.brief)];
  return [section(`*${turnSpeaker(turn)}:* ${words}`), context(facts)];
}

/** " · asks $117,940.00, 30 days, 50/50": what the brand asked for, as code read it. */
function askText(ask: RoundTurn['ask'], currency: string): string {
  if (!ask) return '';
  const parts = [
    ask.total === null ? null : money(ask.total, currency),
    ask.leadTimeDays === null ? null : days(ask.leadTimeDays),
    ask.paymentTerms === null ? null : terms(ask.paymentTerms),
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? ` · asks ${parts.join(', ')}` : '';
}

function requestBlocks(request: RoundRequest): KnownBlock[] {
  const to = request.to.map((name) => inline(name, 80)).join(' and ');
  const blocks: KnownBlock[] = [
    section(
      `:incoming_envelope: *Request for quotes* to ${to || 'the suppliers'}: ${plural(request.lineCount, 'line')}, ` +
        `${quantity(request.units)} units\n${escapeTruncate(request.itemList, REQUEST_LIST_MAX)}`,
    ),
  ];
  if (request.attachment) {
    blocks.push(
      context([
        `:paperclip: The full list of ${plural(request.lineCount, 'line')} is attached below as ${inline(request.attachment, 80)}.`,
      ]),
    );
  }
  return blocks;
}

export function buildRoundMessage(model: RoundMessageModel): SlackMessage {
  const head: KnownBlock[] = [header(`Round ${model.round} of ${model.maxRounds}`)];
  if (model.request) head.push(...requestBlocks(model.request));
  const tail: KnownBlock[] = model.standing ? [divider(), ...roundStandingBlocks(model.standing)] : [];
  // The latest turns are kept when a round has more than a message can hold; the earlier ones are counted.
  const room = MESSAGE_BLOCKS_MAX - head.length - tail.length - 1;
  const perTurn = model.turns.map((turn) => turnBlocks(turn, model.currency));
  let shown = perTurn.length;
  while (shown > 0 && perTurn.slice(perTurn.length - shown).flat().length > room) shown--;
  const omitted = perTurn.length - shown;
  const body = perTurn.slice(omitted).flat();
  if (omitted > 0) body.unshift(context([`…${plural(omitted, 'earlier turn')} of this round not shown`]));
  const text = model.standing
    ? roundStandingText(model.standing)
    : `Round ${model.round} of ${model.maxRounds}: ${plural(model.turns.length, 'turn')} so far`;
  return { text, blocks: [...head, ...body, ...tail] };
}
