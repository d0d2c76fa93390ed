// Paying more than the quote takes the buyer's click: the offer of an award above the quote's landed cost,
// with its button, under the recommendation or the no-award message; the note that an award includes a premium the
// buyer accepted; and the message that nothing can be awarded within the mandate, with the closest options. Figures
// and the button's words come from the decision (decide.ts); names are escaped here.
import type { ContextBlock, KnownBlock } from '@slack/types';
import { ACTION, BLOCK, premiumChoiceCodec } from '../ids.js';
import { type SlackMessage, actions, button, context, days, money, section } from './blocks.js';
import { escapeTruncate, inline, mention } from './escape.js';

/** An award above the quote the buyer may accept with one click (decide.ts PremiumOption, plus where it belongs). */
export interface PremiumOffer {
  negotiationId: string;
  /** The offer's stable id: the click is checked against a fresh decision with it. */
  optionId: string;
  /** The button's words, from the decision: "Pay $1,547.01 more for 33 days sooner?". */
  question: string;
  names: string[];
  effectiveLandedCost: number;
  leadTimeDays: number;
  /** Above the quote's landed cost. */
  overQuote: number;
  quoteLandedCost: number | null;
}

/** The premium the buyer accepted, shown with an award above the quote. */
export interface AcceptedPremium {
  by: string;
  /** The most the award may cost above the quote's landed cost. */
  amountOverQuote: number;
}

export interface NoAwardOption {
  names: string[];
  effectiveLandedCost: number;
  leadTimeDays: number;
  /** What it breaks, in the decision's words ("$1,200.00 above the $40,000.00 walk-away"); empty when nothing. */
  violations: string[];
}

export interface NoAwardModel {
  currency: string;
  /** Why nothing can be awarded, in the decision's words. */
  why: string;
  closest: NoAwardOption[];
  premium: PremiumOffer | null;
}

const CLOSEST_MAX = 5;

function names(list: readonly string[]): string {
  const shown = list.map((n) => `*${inline(n, 60)}*`);
  return shown.length <= 1 ? (shown[0] ?? '—') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1) ?? ''}`;
}

/** The offer and its button: what the premium award is, what it costs over the quote, and that it needs consent. */
export function premiumBlocks(offer: PremiumOffer, currency: string): KnownBlock[] {
  const quote = offer.quoteLandedCost === null ? '' : ` of ${money(offer.quoteLandedCost, currency)}`;
  return [
    section(
      `:bulb: *With your consent:* ${names(offer.names)}, ${money(offer.effectiveLandedCost, currency)} landed, ` +
        `complete in ${days(offer.leadTimeDays)}. That is ${money(offer.overQuote, currency)} above the quote's ` +
        `landed cost${quote}; Parley awards more than the quote only when you accept.`,
    ),
    actions(BLOCK.decisionPremium, [
      button({
        text: offer.question,
        actionId: ACTION.decisionAcceptPremium,
        value: premiumChoiceCodec.encode({ n: offer.negotiationId, p: offer.optionId }),
        confirm: {
          title: 'Pay above the quote?',
          text:
            `${offer.names.join(' and ')} at up to ${money(offer.overQuote, currency)} above the quote's landed cost. ` +
            'A new recommendation and purchase order draft replace the current ones; nothing is ordered until an ' +
            'approver approves it.',
          confirm: 'Accept',
          deny: 'Cancel',
        },
      }),
    ]),
  ];
}

/** ":white_check_mark: Includes a premium of up to $X above the quote, accepted by @maya." */
export function acceptedPremiumNote(accepted: AcceptedPremium, currency: string): ContextBlock {
  return context([
    `:white_check_mark: Costs more than the quote: up to ${money(accepted.amountOverQuote, currency)} above its ` +
      `landed cost, accepted by ${mention(accepted.by)}.`,
  ]);
}

/** Nothing can be awarded within the mandate: why, the closest options, and the premium that would make an award. */
export function buildNoAward(model: NoAwardModel): SlackMessage {
  const cur = model.currency;
  const said = model.why.trim().replace(/\.$/, '') || 'no award meets the mandate';
  const why = escapeTruncate(`${said.charAt(0).toUpperCase()}${said.slice(1)}.`, 1000);
  const lines = model.closest.slice(0, CLOSEST_MAX).map((option) => {
    const breaks = option.violations.length === 0 ? 'meets the mandate' : option.violations.join('; ');
    return (
      `• ${names(option.names)}: ${money(option.effectiveLandedCost, cur)} landed, ${days(option.leadTimeDays)}. ` +
      escapeTruncate(breaks, 400)
    );
  });
  const blocks: KnownBlock[] = [
    section(`:no_entry_sign: *No award within your mandate.* ${why}`, BLOCK.decisionNoAward),
    ...(lines.length > 0 ? [section(`*Closest options*\n${lines.join('\n')}`)] : []),
    ...(model.premium === null ? [] : premiumBlocks(model.premium, cur)),
    context([
      model.premium === null
        ? 'No purchase order was drafted. Start a new negotiation with a different mandate to try again.'
        : 'No purchase order was drafted: accept the premium above for one, or start again with another mandate.',
    ]),
  ];
  return { text: `No award within your mandate: ${why}`, blocks };
}
