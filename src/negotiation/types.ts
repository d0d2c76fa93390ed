// The shapes a negotiation is made of: the baseline quotation, offers, agent turns (seed 001's action protocol).
// Pure data, zod-typed where it crosses a boundary (LLM output, the checkpoint in the database).
import { z } from 'zod';
import { paymentTermsSchema } from '../commerce/payment-terms.js';

export const priceTierSchema = z.object({ minQty: z.number().int().positive(), unitPrice: z.number().positive() });
export type PriceTier = z.infer<typeof priceTierSchema>;

/** One line of the quotation being negotiated (after the buyer's review): a catalog SKU, a quantity and a price. */
export const baselineLineSchema = z.object({
  sku: z.string(),
  description: z.string(),
  quantity: z.number().int().positive(),
  /** The quoted net unit price. */
  unitPrice: z.number().positive(),
  tiers: z.array(priceTierSchema),
  notes: z.string().nullable(),
});
export type BaselineLine = z.infer<typeof baselineLineSchema>;

export const baselineSchema = z.object({
  supplierName: z.string(),
  currency: z.string(),
  lines: z.array(baselineLineSchema).min(1),
  /** Σ quantity × unitPrice. */
  total: z.number().positive(),
  paymentTerms: z.string().nullable(),
  leadTimeDays: z.number().int().positive().nullable(),
  incoterm: z.string().nullable(),
  moq: z.number().int().positive().nullable(),
  notes: z.array(z.string()),
  /** Freight, samples, tooling the quote adds to the goods: counted in its landed cost. Older checkpoints have none. */
  charges: z.array(z.object({ description: z.string(), amount: z.number().nullable() })).optional(),
});
export type Baseline = z.infer<typeof baselineSchema>;

export const offerLineSchema = z.object({
  sku: z.string(),
  quantity: z.number().int().positive(),
  unitPrice: z.number().positive(),
  tiers: z.array(priceTierSchema),
});
export type OfferLine = z.infer<typeof offerLineSchema>;

/**
 * Each SKU's first line (as `lines.find` would return it), in one pass: looking lines up with a `find` per line of
 * another list is quadratic, the largest cost of a 3,000-line negotiation and of its recommendation.
 */
export function firstBySku<T extends { sku: string }>(lines: readonly T[]): Map<string, T> {
  const bySku = new Map<string, T>();
  for (const line of lines) if (!bySku.has(line.sku)) bySku.set(line.sku, line);
  return bySku;
}

/**
 * A supplier's offer as code understands it. `total` is always Σ quantity × unit price of the lines (never taken from
 * an LLM). A simulated supplier's prices are held to its allowed range, and it has a line for every quotation SKU; a
 * connected supplier's are as it stated them, and a quotation SKU with no line is one it does not offer
 * (negotiation/offers.ts).
 */
export const offerSchema = z.object({
  supplierCode: z.string(),
  round: z.number().int().nonnegative(),
  lines: z.array(offerLineSchema).min(1),
  total: z.number().positive(),
  leadTimeDays: z.number().int().positive(),
  /** Instalments in percent, "33/33/33", "40/60", "100". */
  paymentTerms: paymentTermsSchema,
  incoterm: z.string().nullable(),
  currency: z.string(),
  concessions: z.array(z.string()),
  conditions: z.array(z.string()),
  /** Largest share of the order (by value) the supplier can fill, 0–1; 1 unless the curveball limits it. */
  capacityShare: z.number().min(0).max(1),
});
export type Offer = z.infer<typeof offerSchema>;

/** Seed 001's action types. */
export const ACTION_TYPES = [
  'ASK_INFO',
  'PROPOSE_OFFER',
  'COUNTER_OFFER',
  'ACCEPT',
  'REJECT',
  'CONCEDE',
  'TRADE',
  'PROPOSE_PACKAGE',
  'REQUEST_CRITERIA',
  'SUMMARIZE_VALIDATE',
  'DEFER_AND_SCHEDULE',
  'ESCALATE_TO_DECIDER',
  'WALK_AWAY',
  'TIMEOUT_END',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** What every agent turn returns (seed 001 "Prompt Output"). */
export const agentTurnSchema = z.object({
  action: z.object({ type: z.enum(ACTION_TYPES), payload: z.record(z.string(), z.unknown()) }),
  message_text: z.string().min(1).max(4_000),
  used_strategies: z.array(z.string()),
});
export type AgentTurn = z.infer<typeof agentTurnSchema>;

/** PASS / NEUTRAL / FAIL of one supplier's offer against the buyer's target and reservation (seed 001). */
export type RoundEvaluation = 'PASS' | 'NEUTRAL' | 'FAIL';

/** The buyer's mandate (negotiation/mandate.ts): its totals, deadline, sourcing, invited suppliers and consents. */
import type { Mandate } from './mandate.js';
export type { Mandate, MandateInput } from './mandate.js';
/** What the round evaluation, the agents and early termination read of the mandate: its two totals. */
export type MandateTotals = Pick<Mandate, 'targetTotal' | 'walkAwayTotal'>;
