// Seed 004's early termination, on offers instead of a synthesis: when every supplier still negotiating has stopped
// moving and sits at (or near) the buyer's target, more rounds would cost tokens and change little, so the engine
// asks the buyer whether to stop. The buyer's answer, and acting on it, belong to the engine; this decides when to
// ask and what to record.
import { EARLY_TERMINATION_CONFIDENCE, IMPASSE } from '../config/business-rules.js';
import type { TrackedOffer } from './offers.js';
import type { MandateTotals as Mandate } from './types.js';

/** Seed 004 checks after round 2: one round shows where a supplier opens, two show where it is heading. */
export const EARLY_TERMINATION_MIN_ROUND = 2;
/** Last two offers within 1% of each other: the supplier has stopped moving (full stability). */
export const STABLE_OFFER_CHANGE = 0.01;
/** A move of 5% or more between the last two offers: still bargaining (no stability); linear in between. */
export const MOVING_OFFER_CHANGE = 0.05;

export const EARLY_TERMINATION_REASON = 'high_confidence_convergence';

export interface SupplierConvergence {
  supplierCode: string;
  confidence: number;
}

export interface EarlyTerminationRecord {
  /** The lowest supplier confidence: every supplier had at least this. */
  confidence: number;
  reason: typeof EARLY_TERMINATION_REASON;
  roundsSkipped: number;
  estimatedCostSavedUsd: number;
}

export interface EarlyTerminationCheck {
  /** The round just completed, 1-based. */
  round: number;
  maxRounds: number;
  /** Suppliers still negotiating (not completed, not at an impasse), with their convergenceConfidence. */
  activeSuppliers: readonly SupplierConvergence[];
  /** What one more round is expected to cost (0 offline): see averageRoundCostUsd. */
  perRoundCostUsd: number;
}

export type EarlyTerminationDecision =
  | { offer: true; record: EarlyTerminationRecord }
  | {
      offer: false;
      why: 'before_min_round' | 'no_rounds_left' | 'no_active_suppliers' | 'not_converged';
      /** Suppliers below the threshold (only for not_converged). */
      unconverged: string[];
    };

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/**
 * 0–1: stability × closeness, so that both must be high.
 * - stability: 1 when the supplier's last two offers are within STABLE_OFFER_CHANGE, 0 from MOVING_OFFER_CHANGE;
 * - closeness: 1 at or below the target (the walk-away when there is no target), 0 once the offer is the impasse
 *   price-gap threshold above it; 1 when the mandate names neither, so stability alone decides.
 * Fewer than two supplier offers (the brand's counter-offers do not count) give 0: there is no trend yet.
 */
export function convergenceConfidence(history: readonly TrackedOffer[], mandate: Mandate): number {
  const totals = history.filter((entry) => entry.source !== 'brand').map((entry) => entry.offer.total);
  const last = totals.at(-1);
  const previous = totals.at(-2);
  if (last === undefined || previous === undefined || previous <= 0) return 0;

  const change = Math.abs(last - previous) / previous;
  const stability = clamp01((MOVING_OFFER_CHANGE - change) / (MOVING_OFFER_CHANGE - STABLE_OFFER_CHANGE));

  const reference = mandate.targetTotal ?? mandate.walkAwayTotal;
  const above = reference === null || reference <= 0 ? 0 : Math.max(0, last - reference) / reference;
  const closeness = clamp01(1 - above / IMPASSE.priceGapThreshold);

  return stability * closeness;
}

/**
 * Offer the buyer an early stop when, after round EARLY_TERMINATION_MIN_ROUND or later and with rounds still left,
 * every active supplier's confidence is at least `threshold`.
 */
export function shouldOfferEarlyTermination(
  check: EarlyTerminationCheck,
  threshold: number = EARLY_TERMINATION_CONFIDENCE,
): EarlyTerminationDecision {
  if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`threshold ${threshold} is not within 0–1`);
  const roundsSkipped = check.maxRounds - check.round;
  if (check.round < EARLY_TERMINATION_MIN_ROUND) return { offer: false, why: 'before_min_round', unconverged: [] };
  if (roundsSkipped <= 0) return { offer: false, why: 'no_rounds_left', unconverged: [] };
  // Every supplier of an empty set is trivially converged; with nobody left to negotiate there is nothing to skip.
  if (check.activeSuppliers.length === 0) return { offer: false, why: 'no_active_suppliers', unconverged: [] };

  const unconverged = check.activeSuppliers.filter((supplier) => !(supplier.confidence >= threshold));
  if (unconverged.length > 0) {
    return { offer: false, why: 'not_converged', unconverged: unconverged.map((supplier) => supplier.supplierCode) };
  }
  return {
    offer: true,
    record: {
      confidence: Math.min(...check.activeSuppliers.map((supplier) => supplier.confidence)),
      reason: EARLY_TERMINATION_REASON,
      roundsSkipped,
      estimatedCostSavedUsd: estimateSavedCost(roundsSkipped, check.perRoundCostUsd),
    },
  };
}

/** Rounds skipped × the cost of a round, to the micro-dollar the database keeps. */
export function estimateSavedCost(roundsSkipped: number, perRoundCostUsd: number): number {
  if (!Number.isInteger(roundsSkipped) || roundsSkipped < 0)
    throw new RangeError('roundsSkipped must be an integer ≥ 0');
  if (!(perRoundCostUsd >= 0) || !Number.isFinite(perRoundCostUsd)) {
    throw new RangeError('perRoundCostUsd must be a finite amount ≥ 0');
  }
  return Math.round(roundsSkipped * perRoundCostUsd * 1e6) / 1e6;
}

/** The rounds run so far are the best estimate of the next ones: their average cost (0 before any round). */
export function averageRoundCostUsd(totalCostUsd: number, roundsCompleted: number): number {
  return roundsCompleted > 0 ? totalCostUsd / roundsCompleted : 0;
}
