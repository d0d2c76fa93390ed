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
  maxAcceptableLeadTimeDays: number;
}

export const DEFAULT_IMPASSE_CONFIG: Readonly<ImpasseDetectorConfig> = {
  maxRounds: ROUNDS.default,
  progressWindowSize: IMPASSE.progressWindowSize,
  priceGapThreshold: IMPASSE.priceGapThreshold,
  maxAcceptableLeadTimeDays: IMPASSE.maxAcceptableLeadTimeDays,
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
    if (!(merged.maxAcceptableLeadTimeDays > 0)) throw new RangeError('maxAcceptableLeadTimeDays must be positive');
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
      leadTimeUnacceptable: latest !== null && latest.offer.leadTimeDays > this.config.maxAcceptableLeadTimeDays,
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
