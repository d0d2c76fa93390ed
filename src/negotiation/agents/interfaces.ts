// What the negotiation engine calls to get an agent turn. Each interface has two implementations — Claude and the
// offline twin (offline-*.ts) — so the engine can fall back from one to the other for a single turn without noticing.
// Agents are stateless: everything they remember comes in the context, which is what makes a resumed run identical.
import { z } from 'zod';
import { askInfoPayloadSchema as questionPayloadSchema } from '../ask-info.js';
import type { Rng } from '../../commerce/rng.js';
import { paymentTermsSchema } from '../../commerce/payment-terms.js';
import type { NegotiationMode, SupplierProfile } from '../../config/business-rules.js';
import { supplierFactSchema, type SupplierFact } from '../facts.js';
import type { SupplierEconomics } from '../supplier-economics.js';
import type { Mandate } from '../mandate.js';
import {
  ACTION_TYPES,
  priceTierSchema,
  type AgentTurn,
  type Baseline,
  type MandateTotals,
  type Offer,
} from '../types.js';

export type NegotiationPhase = 'initial' | 'post_curveball';

/** The persona the brand agent writes as. */
export const BRAND_PERSONA = 'Alex';

/**
 * An offer as an agent states it (the payload of PROPOSE_OFFER / COUNTER_OFFER / ACCEPT): every term given. The engine
 * turns it into an `Offer` (negotiation/offers.ts) — for a simulated supplier, totals recomputed, prices clipped,
 * missing lines and quantities backfilled from the baseline. An ACCEPT records the ask it accepts, not these numbers.
 */
export const offerDraftSchema = z.object({
  lines: z
    .array(
      z.object({
        sku: z.string(),
        unitPrice: z.number().positive(),
        quantity: z.number().int().positive().optional(),
        tiers: z.array(priceTierSchema).optional(),
      }),
    )
    .min(1),
  leadTimeDays: z.number().int().positive(),
  paymentTerms: paymentTermsSchema,
  concessions: z.array(z.string()),
  conditions: z.array(z.string()),
  /** Largest share of the order (by value) the supplier can fill; absent means all of it. */
  capacityShare: z.number().min(0).max(1).optional(),
});
export type OfferDraft = z.infer<typeof offerDraftSchema>;

/** What the brand asks one supplier for in one round. Null: not part of this ask. */
export const brandAskSchema = z.object({
  round: z.number().int().nonnegative(),
  targetTotal: z.number().positive().nullable(),
  leadTimeDays: z.number().int().positive().nullable(),
  paymentTerms: paymentTermsSchema.nullable(),
  /** The buyer commits to the volume tier (a quarter more units per SKU) in exchange for price. */
  volumeCommitment: z.boolean().optional(),
});
export type BrandAsk = z.infer<typeof brandAskSchema>;

/** A competitor's offer the brand cited to a supplier (the supplier remembers these). */
export const competitorMentionSchema = z.object({
  round: z.number().int().nonnegative(),
  supplierCode: z.string(),
  supplierName: z.string(),
  total: z.number().positive(),
  leadTimeDays: z.number().int().positive().nullable(),
  paymentTerms: z.string().nullable(),
  /**
   * The brand did not name the competitor (the workspace does not allow it): it said only how much lower a competing
   * offer is, so `supplierName` is generic and `total` is what that rounded gap implies, not the competitor's figure.
   */
  anonymous: z.boolean().optional(),
});
export type CompetitorMention = z.infer<typeof competitorMentionSchema>;

/** ASK_INFO (seed 001): the question goes to the buyer, with 2–4 answers for buttons. */
export const askInfoPayloadSchema = questionPayloadSchema.extend({
  /** A stable key ("lead_time", "split_order") so the same thing is never asked twice. */
  topic: z.string().min(1),
});
export type AskInfoPayload = z.infer<typeof askInfoPayloadSchema>;

export const supplierPayloadSchema = z.object({
  /** PROPOSE_OFFER / COUNTER_OFFER / ACCEPT: the offer; REJECT: the offer that still stands. */
  offer: offerDraftSchema.optional(),
  /** REJECT / WALK_AWAY: why, in one line. */
  reason: z.string().optional(),
});

export const brandPayloadSchema = z.object({
  /** COUNTER_OFFER: what the brand asks for. */
  ask: brandAskSchema.optional(),
  /** The competitor offer the message cites, when it cites one. */
  competitor: competitorMentionSchema.optional(),
  /** REQUEST_CRITERIA (the RFQ): what is to be quoted. */
  items: z.array(z.object({ sku: z.string(), quantity: z.number().int().positive() })).optional(),
  /** ACCEPT: the total the brand accepts. */
  acceptedTotal: z.number().positive().optional(),
  question: z.string().optional(),
  suggestedAnswers: z.array(z.string()).min(2).max(4).optional(),
  topic: z.string().optional(),
  /** Facts the quotation left out that the message asks the supplier to state (its lead time, its terms). */
  askFacts: z.array(supplierFactSchema).optional(),
});

const turnOf = <P extends z.ZodType>(payload: P) =>
  z.object({
    action: z.object({ type: z.enum(ACTION_TYPES), payload }),
    message_text: z.string().min(1).max(4_000),
    used_strategies: z.array(z.string()),
  });

export const supplierTurnSchema = turnOf(supplierPayloadSchema);
export type SupplierTurn = z.infer<typeof supplierTurnSchema>;
export const brandTurnSchema = turnOf(brandPayloadSchema);
export type BrandTurn = z.infer<typeof brandTurnSchema>;

/** The offer in a supplier action, when it carries a valid one. */
export function readOfferDraft(action: AgentTurn['action']): OfferDraft | null {
  const parsed = offerDraftSchema.safeParse(action.payload['offer']);
  return parsed.success ? parsed.data : null;
}

/** Why the action carries no valid offer, one line per problem (the first few); empty when it carries one. */
export function offerDraftProblems(action: AgentTurn['action']): string[] {
  const parsed = offerDraftSchema.safeParse(action.payload['offer']);
  if (parsed.success) return [];
  return parsed.error.issues.slice(0, 3).map((issue) => `${['offer', ...issue.path].join('.')}: ${issue.message}`);
}

/** The ask in a brand action, when it carries a valid one. */
export function readBrandAsk(action: AgentTurn['action']): BrandAsk | null {
  const parsed = brandAskSchema.safeParse(action.payload['ask']);
  return parsed.success ? parsed.data : null;
}

export interface HistoryMessage {
  round: number;
  from: 'brand' | 'supplier';
  text: string;
  /** The action of the turn that produced it; null for text that came from elsewhere (a human in the thread). */
  action: AgentTurn['action'] | null;
}

/** Everything said and offered between the brand and one supplier, oldest first. */
export interface SupplierHistory {
  messages: readonly HistoryMessage[];
  /** This supplier's offers as the engine stored them (re-totalled and clipped). */
  offers: readonly Offer[];
  /** The brand's asks to this supplier; one per round. */
  brandAsks: readonly BrandAsk[];
}

/** A buyer's answer to an ASK_INFO question, injected into later prompts. */
export interface Clarification {
  question: string;
  answer: string;
  /** The question's topic, when it came from ASK_INFO. */
  topic: string | null;
}

/** The capacity shock as the affected supplier sees it (seed 002 phase 3). */
export interface CurveballConstraint {
  capacityShare: number;
  reason: string;
}

export interface SupplierTurnContext {
  profile: SupplierProfile;
  /**
   * The supplier's private costs, floor and priorities (supplier-economics.ts): the supplier's own knowledge, never
   * part of the brand's context.
   */
  economics: SupplierEconomics;
  brandName: string;
  baseline: Baseline;
  /** Turns before the latest brand message (it may be included too; agents de-duplicate by round). */
  history: SupplierHistory;
  latestBrandMessage: { text: string; action: AgentTurn['action'] };
  round: number;
  maxRounds: number;
  phase: NegotiationPhase;
  /** Every competitor offer the brand has cited to this supplier so far. */
  competitorMentions: readonly CompetitorMention[];
  /** Set only for the supplier the curveball hits, from the post-curveball phase on. */
  curveball: CurveballConstraint | null;
  clarifications: readonly Clarification[];
  /** The 4 strategy ids offered this run (seed 001); the turn reports which it used. */
  suggestedStrategies: readonly string[];
  rng: Rng;
}

export interface SupplierAgent {
  respond(context: SupplierTurnContext): Promise<SupplierTurn>;
}

/** Another supplier as the brand may see it: its profile and only its latest structured offer (seed 002 §6.5). */
export interface OtherSupplierView {
  profile: SupplierProfile;
  latestOffer: Offer | null;
}

/** The curveball as the brand sees it: which supplier is capped, and at what share. */
export interface BrandCurveballView {
  supplierCode: string;
  supplierName: string;
  capacityShare: number;
}

export interface BrandTurnContext {
  brandName: string;
  /** The supplier this turn talks to. */
  supplier: SupplierProfile;
  /** The full history with this supplier. */
  history: SupplierHistory;
  others: readonly OtherSupplierView[];
  /** The reviewed quotation, with its notes and tiers. */
  baseline: Baseline;
  buyerNotes: string | null;
  /**
   * The buyer's mandate, read-only: its limits, its sourcing and what the answers settled, so the brand never asks what
   * it already says. The engine hands the whole mandate; a caller that knows only the totals leaves the rest unset.
   */
  mandate: Readonly<MandateTotals & Partial<Mandate>>;
  /**
   * May the brand name competitors, their prices or their problems to this supplier? The workspace decides; absent
   * means no: the brand then says only how much lower a competing offer is.
   */
  discloseCompetitors?: boolean;
  /** Supplier code → facts about it that are Parley's assumptions, never to be presented as the supplier's word. */
  assumedFacts?: Readonly<Record<string, readonly SupplierFact[]>>;
  clarifications: readonly Clarification[];
  round: number;
  maxRounds: number;
  phase: NegotiationPhase;
  mode: NegotiationMode;
  /** Known to the brand once the curveball has happened. */
  curveball: BrandCurveballView | null;
  suggestedStrategies: readonly string[];
  rng: Rng;
}

/** The three pillars' critiques of the position (seed 003's visible critique), 1–3 sentences each. */
export interface PillarBriefs {
  negotiator: string;
  riskAnalyst: string;
  productCost: string;
}

export interface BrandAgent {
  /** Round 1 fast path for the simulated suppliers: a request for quote listing every line. */
  rfq(context: BrandTurnContext): Promise<BrandTurn>;
  pillars(context: BrandTurnContext): Promise<PillarBriefs>;
  /** One message as Alex from the briefs; may be ASK_INFO when something essential is unknown. */
  synthesize(context: BrandTurnContext, briefs: PillarBriefs): Promise<BrandTurn>;
}
