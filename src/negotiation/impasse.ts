// Seed 000's impasse detection on offer totals: a negotiation with one supplier is deadlocked when any of five
// conditions holds. The first one in the seed's precedence becomes the primary reason, stored as the database's
// ImpasseReason; the details sentence is what the thread shows.
import { IMPASSE, ROUNDS } from '../config/business-rules.js';
import { formatMoney, formatPercent } from '../commerce/money.js';
import type { OfferTracker } from './offers.js';
import type { AgentTurn } from './types.js';

/** The values of the database enum ImpasseReason (a test keeps the two in step). */
export const IMPASSE_REASONS = ['max_rounds', 'rejected', 'no_progress', 'price_gap', 'lead_time'] as const;
export type ImpasseReason = (typeof IMPASSE_REASONS)[number];

export interface ImpasseConditions {
  maxRoundsReached: boolean;
  explicitRejection: boolean;
  noProgressInRounds: boolean;
  priceGapTooLarge: boolean;
  leadTimeUnacceptable: boolean;
}

export interface ImpasseResult {
  isImpasse: boolean;
  conditions: ImpasseConditions;
  /** The first condition that holds, in the seed's precedence; null when there is no impasse. */
  primaryReason: ImpasseReason | null;
  /** The seed's wording of primaryReason ("Explicit rejection by party"). */
  primaryReasonText: string | null;
  /** One sentence per condition that holds, in the same order. */
  details: string;
}

export interface ImpasseDetectorConfig {
  /** The negotiation's own round limit. */
  maxRounds: number;
  progressWindowSize: number;
  /** Relative gap, 0.25 = 25%. */
  priceGapThreshold: number;
  /** The buyer's longest acceptable lead time (the mandate's); null: no lead-time condition. */
  maxAcceptableLeadTimeDays: number | null;
}

export const DEFAULT_IMPASSE_CONFIG: Readonly<ImpasseDetectorConfig> = {
  maxRounds: ROUNDS.default,
  progressWindowSize: IMPASSE.progressWindowSize,
  priceGapThreshold: IMPASSE.priceGapThreshold,
  maxAcceptableLeadTimeDays: null,
};

export interface ImpasseInput {
  /** The round just completed, 1-based. */
  round: number;
  tracker: OfferTracker;
  /** A party ended the talks (WALK_AWAY, or REJECT that ends the negotiation): see isExplicitRejection. */
  explicitRejection?: boolean;
  /** The buyer's target total: the price-gap reference until the brand has made a counter-offer. */
  targetTotal?: number | null;
  /** Both sides accepted: running out of rounds is then no deadlock. */
  agreed?: boolean;
}

/** The seed's precedence: an explicit rejection explains more than a gap, a gap more than a stall, and so on. */
const PRECEDENCE: readonly (readonly [keyof ImpasseConditions, ImpasseReason])[] = [
  ['explicitRejection', 'rejected'],
  ['priceGapTooLarge', 'price_gap'],
  ['noProgressInRounds', 'no_progress'],
  ['maxRoundsReached', 'max_rounds'],
  ['leadTimeUnacceptable', 'lead_time'],
];

export const IMPASSE_REASON_TEXT: Readonly<Record<ImpasseReason, string>> = {
  rejected: 'Explicit rejection by party',
  price_gap: 'Price gap exceeds threshold',
  no_progress: 'No progress in recent rounds',
  max_rounds: 'Maximum rounds reached',
  lead_time: 'Lead time exceeds maximum',
};

export class ImpasseDetector {
  readonly config: Readonly<ImpasseDetectorConfig>;

  constructor(config: Partial<ImpasseDetectorConfig> = {}) {
    const merged = { ...DEFAULT_IMPASSE_CONFIG, ...config };
    if (!Number.isInteger(merged.maxRounds) || merged.maxRounds < 1) throw new RangeError('maxRounds must be ≥ 1');
    if (!Number.isInteger(merged.progressWindowSize) || merged.progressWindowSize < 2) {
      throw new RangeError('progressWindowSize must be ≥ 2');
    }
    if (!(merged.priceGapThreshold > 0)) throw new RangeError('priceGapThreshold must be positive');
    const leadLimit = merged.maxAcceptableLeadTimeDays;
    if (leadLimit !== null && !(leadLimit > 0)) throw new RangeError('maxAcceptableLeadTimeDays must be positive');
    this.config = merged;
  }

  detect(input: ImpasseInput): ImpasseResult {
    const conditions = this.evaluateConditions(input);
    const primaryReason = PRECEDENCE.find(([condition]) => conditions[condition])?.[1] ?? null;
    return {
      isImpasse: primaryReason !== null,
      conditions,
      primaryReason,
      primaryReasonText: primaryReason === null ? null : IMPASSE_REASON_TEXT[primaryReason],
      details: this.details(conditions, input),
    };
  }

  private evaluateConditions({ round, tracker, explicitRejection, targetTotal, agreed }: ImpasseInput) {
    const latest = tracker.latestFromSupplier();
    const gap = tracker.priceGap(targetTotal);
    return {
      maxRoundsReached: round >= this.config.maxRounds && agreed !== true,
      explicitRejection: explicitRejection === true,
      noProgressInRounds: !tracker.hasPriceImproved(this.config.progressWindowSize),
      priceGapTooLarge: gap !== null && gap > this.config.priceGapThreshold,
      leadTimeUnacceptable:
        latest !== null &&
        this.config.maxAcceptableLeadTimeDays !== null &&
        latest.offer.leadTimeDays > this.config.maxAcceptableLeadTimeDays,
    } satisfies ImpasseConditions;
  }

  private details(conditions: ImpasseConditions, { tracker, targetTotal }: ImpasseInput): string {
    const { maxRounds, progressWindowSize, priceGapThreshold, maxAcceptableLeadTimeDays } = this.config;
    const parts: string[] = [];
    if (conditions.explicitRejection) parts.push('Negotiation explicitly ended by one party.');
    const gap = tracker.priceGapDetails(targetTotal);
    if (conditions.priceGapTooLarge && gap) {
      parts.push(
        `Price gap of ${formatMoney(gap.absolute, gap.currency)} (${formatPercent(gap.relative, 0)} above ` +
          `${formatMoney(gap.referenceTotal, gap.currency)}) exceeds the ${formatPercent(priceGapThreshold, 0)} threshold.`,
      );
    }
    if (conditions.noProgressInRounds) parts.push(`No price improvement in the last ${progressWindowSize} offers.`);
    if (conditions.maxRoundsReached) parts.push(`Maximum ${maxRounds} rounds reached without agreement.`);
    const latest = tracker.latestFromSupplier();
    if (conditions.leadTimeUnacceptable && latest) {
      parts.push(`Lead time of ${latest.offer.leadTimeDays} days exceeds the ${maxAcceptableLeadTimeDays}-day limit.`);
    }
    return parts.join(' ');
  }
}

/** Seed 000's one-shot check. */
export function checkForImpasse(input: ImpasseInput, config?: Partial<ImpasseDetectorConfig>): ImpasseResult {
  return new ImpasseDetector(config).detect(input);
}

/**
 * Whether an agent's action ends the talks: WALK_AWAY always; REJECT only when its payload says the negotiation is
 * over (seed 000's `isNegotiationEnded`) — rejecting one offer and countering is ordinary bargaining.
 */
export function isExplicitRejection(action: AgentTurn['action']): boolean {
  if (action.type === 'WALK_AWAY') return true;
  return action.type === 'REJECT' && action.payload['isNegotiationEnded'] === true;
}

// ───────────────────────────── Asking the buyer ─────────────────────────────

/**
 * An impasse with rounds left is the buyer's call (seed 000 detects, the buyer decides): Parley asks, through the
 * ASK_INFO machinery, whether to go on with a different approach or end that supplier's talks. The question's topic
 * names the supplier, so the brand agent knows which talks the answer is about.
 */
export const IMPASSE_TOPIC_PREFIX = 'impasse:';

export function impasseTopic(supplierCode: string): string {
  return `${IMPASSE_TOPIC_PREFIX}${supplierCode}`;
}

/** The supplier an impasse question is about, or null for any other topic. */
export function impasseTopicSupplier(topic: string | null | undefined): string | null {
  return topic?.startsWith(IMPASSE_TOPIC_PREFIX) === true ? topic.slice(IMPASSE_TOPIC_PREFIX.length) : null;
}

export const IMPASSE_CONTINUE_ANSWER = 'Try a different approach';

export function impasseEndAnswer(supplierName: string): string {
  return `End talks with ${supplierName}`;
}

/** Why talks stalled, in a few words a buyer reads at a glance. */
const REASON_WORDS: Readonly<Record<ImpasseReason, string>> = {
  rejected: 'it walked away',
  price_gap: 'the price gap is too wide',
  no_progress: 'its price has stopped moving',
  max_rounds: 'the rounds ran out',
  lead_time: 'its lead time is longer than you allow',
};

export interface ImpasseQuestion {
  question: string;
  suggestedAnswers: string[];
}

/** The question and its two buttons: going on (the default, first) or ending this supplier's talks. */
export function impasseQuestion(
  supplierName: string,
  reason: ImpasseReason,
  details: string,
  roundsLeft: number,
): ImpasseQuestion {
  const left = `${roundsLeft} round${roundsLeft === 1 ? '' : 's'} left`;
  return {
    question:
      `Talks with ${supplierName} are at an impasse: ${REASON_WORDS[reason]}. ${details} ` +
      `Try a different approach with ${supplierName} (${left}), or end its talks ` +
      `(${reason === 'rejected' ? 'its offer is withdrawn' : 'its last offer stays in the comparison'})?`,
    suggestedAnswers: [IMPASSE_CONTINUE_ANSWER, impasseEndAnswer(supplierName)],
  };
}

/**
 * Reads the buyer's answer: the end button, or a reply that says to stop, ends the talks; anything else goes on.
 * Going on is the safer reading of an unclear reply: ending loses an offer the buyer can no longer get back.
 */
export function readImpasseAnswer(answer: string): 'continue' | 'end' {
  return /^\s*(end|stop|drop|no\b|cancel|walk away|quit)/i.test(answer) ? 'end' : 'continue';
}

/** After the buyer chose a different approach, the brand asks at most this much off the standing offer: no more pushes. */
export const DIFFERENT_APPROACH_ASK = 0.02;

/** The buyer answered an impasse question about this supplier with "go on": the brand changes its approach. */
export function triesDifferentApproach(
  clarifications: readonly { topic: string | null; answer: string }[],
  supplierCode: string,
): boolean {
  return clarifications.some(
    (clarification) =>
      impasseTopicSupplier(clarification.topic) === supplierCode &&
      readImpasseAnswer(clarification.answer) === 'continue',
  );
}
