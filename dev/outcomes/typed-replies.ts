// What a buyer types in the thread instead of clicking a suggested answer: a short, realistic sentence per question
// topic, drawn by the seed. Some say something Parley can act on (a lead time, a deadline, a budget, one supplier, a
// required split), some only what a busy buyer says ("whatever is cheapest"), which must change nothing. The reply
// then takes the path a thread reply takes in Slack (services/negotiation/receive-thread-reply.ts): trimmed, cut to
// ANSWER_MAX, answering the question the buyer meant, through the engine's `answer` into `applyAnswer`.
import { impasseTopicSupplier } from '../../src/negotiation/impasse.js';

/** {days}: the lead time the question names; {budget}: a sum a little under the quote, written as a buyer would. */
export const TYPED_REPLIES = {
  lead_time: [
    '{days} days works',
    'yeah {days} days is fine, no rush on this one',
    '{days} days is ok but keep it under {budget}',
    'we need it within 5 weeks',
    'need delivery in under 30 days, the season starts early',
    'whatever is cheapest',
    'speed matters more than price for this drop',
  ],
  split_order: [
    'one supplier please',
    'whatever is cheapest',
    'fine to split if it saves money',
    "let's dual-source this one",
    'split only if it saves more than 5%',
  ],
  impasse: [
    'keep going, try a different angle',
    'drop them, we have other options',
    'stop, not worth more rounds',
    'give it one more go',
  ],
  other: ['whatever is cheapest', 'your call', 'keep it under {budget}'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

export type TypedTopic = keyof typeof TYPED_REPLIES;

export function typedTopic(topic: string | null): TypedTopic {
  if (impasseTopicSupplier(topic) !== null) return 'impasse';
  if (topic === 'lead_time' || topic === 'split_order') return topic;
  return 'other';
}

/**
 * The reply typed to one question: the seed and the question's position pick a sentence of its topic's bank, filled
 * from the question (the days it names) and the quote (a budget 3% under it, rounded as people round).
 */
export function typedReply(
  question: { topic: string | null; question: string },
  quoteTotal: number,
  seed: number,
  index: number,
): string {
  const bank: readonly string[] = TYPED_REPLIES[typedTopic(question.topic)];
  const template = bank[(seed * 7 + index * 3) % bank.length] ?? 'whatever is cheapest';
  const days = /\b(\d{1,3})[- ]day\b/.exec(question.question)?.[1] ?? /\b(\d{1,3}) days\b/.exec(question.question)?.[1];
  return template.replace('{days}', days ?? '45').replace('{budget}', spokenBudget(quoteTotal * 0.97));
}

/** "120k", "1.2m", "$8,500": how a buyer writes a sum in a chat. */
export function spokenBudget(amount: number): string {
  if (amount >= 1_000_000) return `${(Math.floor(amount / 100_000) / 10).toString()}m`;
  if (amount >= 20_000) return `${Math.floor(amount / 1_000).toString()}k`;
  return `$${(Math.floor(amount / 100) * 100).toLocaleString('en-US')}`;
}
