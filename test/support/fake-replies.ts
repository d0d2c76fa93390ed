// Valid answers to every negotiation agent tool, at plausible lengths: a healthy Claude, for the fake Messages API.
import type { FakeResponder, RecordedRequest } from './fake-messages-api.js';

export const HEALTHY_MESSAGE =
  'Thanks for the update on MC004-LCH-L(Sawtooth Down Parka) and the other lines. We are comparing three offers ' +
  'this week and your price is competitive, but the payment schedule matters to us as much as the total. If you ' +
  'can move to 30/70 on the order as it stands and confirm the 25-day lead time in writing, I can recommend your ' +
  'offer to our buyer. We would also like the pre-production samples you mentioned before the bulk run starts, so ' +
  'quality can be signed off early.';

/** A supplier's reply as Claude voices the decided turn: in character, with no figure of its own. */
export const HEALTHY_REPLY =
  'Thank you, Alex, for walking us through the order in such detail. We have looked again at the parkas and the ' +
  'insulated jackets with our planning team, and the offer in front of you is the best we can do this week while ' +
  'keeping our quality standards. If you confirm the full quantities soon, we will reserve the production slot and ' +
  'send pre-production samples before the bulk run, so your team can sign off early.';

export const HEALTHY_BRIEF =
  'Push on MC004-LCH-L(Sawtooth Down Parka), the largest line at $23,730.00: ask for 4% off, citing RapidGear ' +
  'Co at $46,000.00 and 15 days. Offer 30/70 instead of 40/60 in return, which costs them about $180 in cash flow. ' +
  'Hold the 25-day lead time; it is their strongest card.';

/** A fake Claude that answers every agent tool validly: what a healthy API returns (tests and the benchmark). */
export const healthyNegotiationReplies: FakeResponder = (request: RecordedRequest) => {
  switch (request.tool_choice?.name) {
    case 'write_rfq':
      return {
        kind: 'tool',
        input: {
          opening: 'Hello from Alex at Valden Outdoor: we are placing our autumn outerwear order.',
          closing: 'Please quote unit prices per line, volume tiers, lead time and payment terms.',
          used_strategies: [],
        },
      };
    case 'write_turn':
      // A negotiating turn: the three briefs, then the message.
      return {
        kind: 'tool',
        input: {
          negotiator: HEALTHY_BRIEF,
          riskAnalyst: HEALTHY_BRIEF,
          productCost: HEALTHY_BRIEF,
          action: 'COUNTER_OFFER',
          message_text: HEALTHY_MESSAGE,
          ask: { targetTotal: null, leadTimeDays: null, paymentTerms: '30/70' },
          competitorCode: null,
          used_strategies: [],
        },
      };
    case 'record_brief':
      // A brief as the pillar prompt asks for it: up to 3 sentences and 400 characters, with numbers.
      return { kind: 'tool', input: { brief: HEALTHY_BRIEF } };
    case 'send_message':
      return {
        kind: 'tool',
        input: {
          action: 'COUNTER_OFFER',
          message_text: HEALTHY_MESSAGE,
          ask: { targetTotal: null, leadTimeDays: null, paymentTerms: '30/70' },
          competitorCode: null,
          used_strategies: [],
        },
      };
    case 'reply_to_buyer':
      // The supplier's reply is decided by code; Claude only words it.
      return { kind: 'tool', input: { message_text: HEALTHY_REPLY, used_strategies: [] } };
    default:
      return { kind: 'error', status: 400 };
  }
};
