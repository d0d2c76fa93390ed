// The negotiation engine: a resumable state machine. `advance()` takes one step — one agent turn, or the end of a
// round — and returns the new state and the events it produced; the caller saves the state (the checkpoint) together
// with those events, so a run killed at any point resumes from its last step with nothing lost and nothing repeated.
// Every step's randomness comes from the negotiation's seed and the step number, so a resumed run, or a second run
// with the same seed, says exactly the same things. No Slack, no database here: the Slack layer renders the events.
import { z } from 'zod';
import { createRng } from '../commerce/rng.js';
import { paymentTermsSchema } from '../commerce/payment-terms.js';
import {
  CURVEBALL,
  type NegotiationMode,
  QUESTION_BUDGET_DEFAULT,
  SUPPLIER_COUNTERPARTS,
  type SupplierCounterpart,
  type SupplierProfile,
} from '../config/business-rules.js';
import {
  type BrandAgent,
  type BrandTurn,
  type BrandTurnContext,
  type Clarification as AgentClarification,
  type CompetitorMention,
  competitorMentionSchema,
  brandAskSchema,
  type PillarBriefs,
  readBrandAsk,
  offerDraftProblems,
  readOfferDraft,
  type SupplierAgent,
  type SupplierHistory,
  type SupplierTurn,
} from './agents/interfaces.js';
import { answerQuestion, askInfoStateSchema, askQuestion, isPaused, openQuestions } from './ask-info.js';
import {
  averageRoundCostUsd,
  convergenceConfidence,
  type EarlyTerminationRecord,
  shouldOfferEarlyTermination,
} from './early-termination.js';
import {
  checkForImpasse,
  IMPASSE_REASONS,
  type ImpasseReason,
  impasseQuestion,
  impasseTopic,
  impasseTopicSupplier,
  isExplicitRejection,
  readImpasseAnswer,
} from './impasse.js';
import { supplierEconomics } from './supplier-economics.js';
import {
  acceptedOffer,
  evaluateOffer,
  type NormalizedOffer,
  type NormalizeOfferResult,
  normalizeOffer,
  OfferNotRecordedError,
  OfferTracker,
  offerTrackerStateSchema,
  readLooseOfferDraft,
} from './offers.js';
import {
  applyAnswer,
  createMandate,
  isInvited,
  type MandateInput,
  mandateSchema,
  settledByMandate,
} from './mandate.js';
import { sampleStrategies } from './strategies.js';
import {
  assumedFacts,
  assumedFactsByCode,
  assumeFacts,
  assumptionsSchema,
  initialAssumptions,
  stateFacts,
  type SupplierFact,
} from './facts.js';
import { brandPersonaLabel, supplierPersonaLabel } from './personas.js';
import { formatMoney } from '../commerce/money.js';
import {
  type AgentTurn,
  agentTurnSchema,
  baselineSchema,
  type Offer,
  offerSchema,
  type RoundEvaluation,
} from './types.js';

// ───────────────────────────── State (the checkpoint) ─────────────────────────────

const stepSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rfq'), supplier: z.string() }),
  z.object({ kind: z.literal('brand'), supplier: z.string() }),
  z.object({ kind: z.literal('supplier'), supplier: z.string() }),
  z.object({ kind: z.literal('round_end') }),
]);
type Step = z.infer<typeof stepSchema>;

/**
 * Profiles are checked where they are made; the checkpoint needs their code, and who speaks for the supplier, since
 * that decides how its offers are recorded. A checkpoint from before `counterpart` negotiated only with agents: its
 * profiles are 'simulated'.
 */
const supplierProfileSchema = z
  .custom<Omit<SupplierProfile, 'counterpart'> & { counterpart?: SupplierCounterpart }>((value) => {
    if (typeof value !== 'object' || value === null) return false;
    const { code, counterpart } = value as Partial<Record<'code' | 'counterpart', unknown>>;
    return (
      typeof code === 'string' && (counterpart === undefined || SUPPLIER_COUNTERPARTS.some((c) => c === counterpart))
    );
  })
  .transform((profile): SupplierProfile => ({ ...profile, counterpart: profile.counterpart ?? 'simulated' }));

const historyMessageSchema = z.object({
  round: z.number().int(),
  from: z.enum(['brand', 'supplier']),
  text: z.string(),
  action: agentTurnSchema.shape.action.nullable(),
  /** The turn's place in the whole negotiation, so the thread can tell a round's turns in order (absent in older checkpoints). */
  sequence: z.number().int().optional(),
  /**
   * The pillar brief the thread shows under a brand turn ("Why this ask"). Kept for the thread only: the agents'
   * history leaves it out (historyOf), so a supplier never sees the brand's reasoning.
   */
  brief: z.string().optional(),
});

const supplierStateSchema = z.object({
  status: z.enum(['active', 'paused', 'completed', 'impasse']),
  impasse: z.object({ reason: z.enum(IMPASSE_REASONS), details: z.string() }).nullable(),
  accepted: z.boolean(),
  messages: z.array(historyMessageSchema),
  offers: z.array(offerSchema),
  brandAsks: z.array(brandAskSchema),
  competitorMentions: z.array(competitorMentionSchema),
  tracker: offerTrackerStateSchema,
  explicitRejection: z.boolean(),
  /** Impasse reasons the buyer chose to negotiate through: not asked about again for this supplier. */
  waivedImpasses: z.array(z.enum(IMPASSE_REASONS)).default([]),
  /**
   * A connected supplier has the brand's message of this round and has not answered yet: its turn comes from a person
   * in its Slack Connect channel (receiveSupplierTurn), or the round closes without it (closeWithoutReply).
   */
  awaitingReply: z.boolean().default(false),
});
type SupplierState = z.infer<typeof supplierStateSchema>;

const curveballSchema = z.object({
  supplierCode: z.string(),
  capacityShare: z.number(),
  afterRound: z.number().int(),
  impact: z.string(),
  strategies: z.array(z.object({ id: z.string(), title: z.string(), detail: z.string() })),
  chosen: z.string(),
  /** Who picked `chosen`; absent while the recommended default stands. */
  chosenBy: z.string().optional(),
});
export type Curveball = z.infer<typeof curveballSchema>;

export const negotiationStateSchema = z.object({
  version: z.literal(1),
  seed: z.number().int(),
  brandName: z.string(),
  mode: z.enum(['cost', 'quality', 'speed', 'cashflow', 'balanced', 'custom']),
  maxRounds: z.number().int().min(1).max(5),
  /** Checkpoints from before the full mandate hold only its two totals: the other fields take their defaults. */
  mandate: mandateSchema,
  buyerNotes: z.string().nullable(),
  baseline: baselineSchema,
  profiles: z.array(supplierProfileSchema).min(1),
  strategies: z.array(z.string()),
  /** awaiting_suppliers: the round's steps are taken; it ends when every connected supplier answered or was closed. */
  status: z.enum(['running', 'awaiting_answer', 'awaiting_early_termination', 'awaiting_suppliers', 'completed']),
  round: z.number().int().min(1),
  phase: z.enum(['initial', 'post_curveball']),
  plan: z.array(stepSchema),
  cursor: z.number().int().nonnegative(),
  /** Steps taken so far: names each step's random stream and orders events. */
  stepCount: z.number().int().nonnegative(),
  /** Messages written so far: the next message's sequence number. */
  messageCount: z.number().int().nonnegative(),
  suppliers: z.record(z.string(), supplierStateSchema),
  askInfo: askInfoStateSchema,
  evaluations: z.array(
    z.object({ round: z.number().int(), supplierCode: z.string(), evaluation: z.enum(['PASS', 'NEUTRAL', 'FAIL']) }),
  ),
  curveball: curveballSchema.nullable(),
  earlyTermination: z
    .object({
      offered: z.custom<EarlyTerminationRecord>(),
      decision: z.enum(['pending', 'accepted', 'declined']),
      questionId: z.string(),
    })
    .nullable(),
  totalCostUsd: z.number(),
  /**
   * Facts about each supplier that began as Parley's assumptions (a lead time the quotation left out, a track record
   * with no history behind it), and which supplier message stated each since. Older checkpoints have none recorded.
   */
  assumptions: assumptionsSchema.default({}),
  /** The workspace lets the brand agent name competitors and their prices to other suppliers (off by default). */
  discloseCompetitors: z.boolean().default(false),
});
export type NegotiationState = z.infer<typeof negotiationStateSchema>;

// ───────────────────────────── Events (what the Slack layer renders) ─────────────────────────────

export type NegotiationEvent =
  | { type: 'negotiation_started'; suppliers: string[]; maxRounds: number; strategies: string[] }
  | { type: 'round_start'; round: number; phase: NegotiationState['phase'] }
  | {
      type: 'message';
      sequence: number;
      round: number;
      supplierCode: string;
      role: 'brand_agent' | 'supplier_agent';
      speaker: string;
      text: string;
      action: AgentTurn['action'];
      usedStrategies: string[];
      pillarBriefs: PillarBriefs | null;
    }
  | { type: 'offer_extracted'; round: number; supplierCode: string; offer: Offer; adjustments: string[] }
  /** A simulated supplier's turn said it offers, but carried no offer that reads: its standing offer stands. */
  | {
      type: 'offer_unreadable';
      round: number;
      supplierCode: string;
      action: AgentTurn['action']['type'];
      problems: string[];
    }
  | {
      type: 'round_analysis';
      round: number;
      offers: {
        supplierCode: string;
        total: number | null;
        leadTimeDays: number | null;
        paymentTerms: string | null;
        /** Figures in this row that are Parley's assumptions, not the supplier's word. */
        assumed: SupplierFact[];
        evaluation: RoundEvaluation;
        status: SupplierState['status'];
      }[];
    }
  | {
      type: 'question_asked';
      questionId: string;
      supplierCode: string;
      question: string;
      suggestedAnswers: string[];
      kind: 'ask_info' | 'early_termination';
      /** What it is about ("lead_time"; "impasse:SUP-002" for the engine's own impasse question); absent: not said. */
      topic?: string | null;
    }
  | {
      type: 'question_answered';
      questionId: string;
      answer: string;
      answeredBy: string;
      /** What the answer changed in the buyer's mandate, in words; absent or null when it changed nothing. */
      effect?: string | null;
    }
  | { type: 'curveball'; curveball: Curveball }
  | { type: 'early_termination_offered'; questionId: string; record: EarlyTerminationRecord }
  /** The buyer closed the round for a connected supplier that had not answered: its standing offer stands. */
  /** The buyer edited Alex's message to a connected supplier before sending it: the history holds what was sent. */
  | { type: 'brand_message_edited'; round: number; supplierCode: string; sequence: number; by: string }
  /** `by`: who closed the round for the supplier; null when its reply-by time passed. */
  | { type: 'supplier_no_reply'; round: number; supplierCode: string; by: string | null }
  | {
      type: 'supplier_done';
      supplierCode: string;
      status: 'completed' | 'impasse';
      reason: ImpasseReason | 'accepted' | null;
      details: string | null;
    }
  | {
      type: 'negotiation_complete';
      earlyTermination: EarlyTerminationRecord | null;
      finalOffers: Record<string, Offer | null>;
    };

export interface StepResult {
  state: NegotiationState;
  events: NegotiationEvent[];
}

export interface EngineAgents {
  brand: BrandAgent;
  supplier(code: string): SupplierAgent;
}

// ───────────────────────────── Creating a negotiation ─────────────────────────────

export interface NegotiationSetup {
  seed: number;
  brandName: string;
  mode: NegotiationMode;
  maxRounds: number;
  questionBudget?: number;
  mandate: MandateInput;
  buyerNotes: string | null;
  baseline: z.infer<typeof baselineSchema>;
  /** SUP-001 (the quoting supplier) first, then the simulated competitors. */
  profiles: SupplierProfile[];
  /** The workspace's setting: may the brand agent name competitors and their prices? Off unless given. */
  discloseCompetitors?: boolean;
}

export function createNegotiation(input: NegotiationSetup): StepResult {
  const [quoted] = input.profiles;
  if (!quoted) throw new Error('a negotiation needs at least the quoting supplier');
  const mandate = createMandate(input.mandate);
  // Only the invited suppliers take part: the others get no RFQ, make no offer and cannot be awarded.
  const setup = {
    ...input,
    mandate,
    profiles: input.profiles.filter((profile) => isInvited(mandate, profile.code, quoted.code)),
  };
  const rng = createRng(setup.seed);
  const suppliers: Record<string, SupplierState> = {};
  for (const profile of setup.profiles) {
    const tracker = new OfferTracker(profile.code);
    suppliers[profile.code] = {
      status: 'active',
      impasse: null,
      accepted: false,
      messages: [],
      offers: [],
      brandAsks: [],
      competitorMentions: [],
      tracker: tracker.toState(),
      explicitRejection: false,
      waivedImpasses: [],
      awaitingReply: false,
    };
  }
  // The quotation itself is the quoting supplier's opening offer (seed 002: round 1 presents the baseline).
  const opening = quotationOffer(setup.baseline, quoted);
  const quotedState = suppliers[quoted.code];
  if (quotedState) {
    quotedState.offers.push(opening);
    const tracker = OfferTracker.fromState(quotedState.tracker);
    tracker.addOffer({ round: 0, source: 'quotation', offer: opening });
    quotedState.tracker = tracker.toState();
  }
  const state: NegotiationState = {
    version: 1,
    seed: setup.seed,
    brandName: setup.brandName,
    mode: setup.mode,
    maxRounds: setup.maxRounds,
    mandate: setup.mandate,
    buyerNotes: setup.buyerNotes,
    baseline: setup.baseline,
    profiles: setup.profiles,
    strategies: sampleStrategies(rng, 4).map((strategy) => strategy.id),
    status: 'running',
    round: 1,
    phase: 'initial',
    plan: planRound(1, setup.profiles, suppliers),
    cursor: 0,
    stepCount: 0,
    messageCount: 0,
    suppliers,
    askInfo: { budget: setup.questionBudget ?? QUESTION_BUDGET_DEFAULT, questions: [], clarifications: [] },
    evaluations: [],
    curveball: null,
    earlyTermination: null,
    totalCostUsd: 0,
    assumptions: initialAssumptions(setup.baseline, setup.profiles),
    discloseCompetitors: setup.discloseCompetitors ?? false,
  };
  return {
    state,
    events: [
      {
        type: 'negotiation_started',
        suppliers: setup.profiles.map((p) => p.code),
        maxRounds: setup.maxRounds,
        strategies: state.strategies,
      },
      // The quotation is the quoting supplier's opening offer: on the record like every other offer.
      { type: 'offer_extracted', round: 0, supplierCode: quoted.code, offer: opening, adjustments: [] },
      { type: 'round_start', round: 1, phase: 'initial' },
    ],
  };
}

function quotationOffer(baseline: NegotiationSetup['baseline'], profile: SupplierProfile): Offer {
  return {
    supplierCode: profile.code,
    round: 0,
    lines: baseline.lines.map(({ sku, quantity, unitPrice, tiers }) => ({ sku, quantity, unitPrice, tiers })),
    total: baseline.total,
    leadTimeDays: baseline.leadTimeDays ?? profile.leadTimeDays,
    paymentTerms: storedTerms(baseline.paymentTerms) ?? profile.paymentTerms,
    incoterm: baseline.incoterm,
    currency: baseline.currency,
    concessions: [],
    conditions: baseline.notes,
    capacityShare: 1,
  };
}

/** "33/33/33"-style terms, or null when the quotation words them some other way. */
function storedTerms(text: string | null): string | null {
  const terms = paymentTermsSchema.safeParse(text?.trim());
  return terms.success ? terms.data : null;
}

/**
 * Round 1 (seed 002 wave strategy): the simulated suppliers get an RFQ and quote first; then the quoting supplier
 * negotiates with their quotes as leverage. Later rounds: each active supplier, brand turn then supplier turn.
 */
function planRound(round: number, profiles: SupplierProfile[], suppliers: Record<string, SupplierState>): Step[] {
  const active = profiles.filter((profile) => suppliers[profile.code]?.status === 'active');
  const [quoted, ...simulated] = profiles;
  const steps: Step[] = [];
  if (round === 1) {
    for (const profile of simulated)
      steps.push({ kind: 'rfq', supplier: profile.code }, { kind: 'supplier', supplier: profile.code });
    if (quoted) steps.push({ kind: 'brand', supplier: quoted.code }, { kind: 'supplier', supplier: quoted.code });
  } else {
    for (const profile of active)
      steps.push({ kind: 'brand', supplier: profile.code }, { kind: 'supplier', supplier: profile.code });
  }
  steps.push({ kind: 'round_end' });
  return steps;
}

// ───────────────────────────── Stepping ─────────────────────────────

/**
 * The state a step may change, sharing everything it does not with `current`. A step replaces fields and appends to
 * the arrays copied here, and never edits a shared offer, line or profile in place (the engine test freezes its input
 * to hold it to that): a deep copy of a 3,000-line state on every step was a quarter of a large negotiation's time.
 */
function copyForStep(current: NegotiationState): NegotiationState {
  const suppliers: Record<string, SupplierState> = {};
  for (const [code, supplier] of Object.entries(current.suppliers)) {
    suppliers[code] = {
      ...supplier,
      messages: [...supplier.messages],
      offers: [...supplier.offers],
      brandAsks: [...supplier.brandAsks],
      competitorMentions: [...supplier.competitorMentions],
      waivedImpasses: [...supplier.waivedImpasses],
    };
  }
  return { ...current, plan: [...current.plan], evaluations: [...current.evaluations], suppliers };
}

/** Takes one step. A negotiation that waits for the buyer, or is complete, is returned unchanged. */
export async function advance(current: NegotiationState, agents: EngineAgents): Promise<StepResult> {
  if (current.status !== 'running') return { state: current, events: [] };
  const state = copyForStep(current);
  const step = state.plan[state.cursor];
  const events: NegotiationEvent[] = [];
  const rng = createRng(stepSeed(state.seed, state.stepCount));
  state.stepCount++;
  state.cursor++;
  if (!step) return { state, events };

  if (step.kind === 'round_end') {
    if (openQuestions(state.askInfo).length > 0) {
      // A supplier waits for the buyer's answer: hold the round open, so it can still take its turn this round.
      state.cursor--;
      state.status = 'awaiting_answer';
      return { state, events };
    }
    if (Object.values(state.suppliers).some((supplier) => supplier.awaitingReply)) {
      // A real supplier answers in its own time: the round stays open, and no worker waits for it.
      state.cursor--;
      state.status = 'awaiting_suppliers';
      return { state, events };
    }
    endRound(state, events);
  } else {
    const supplier = state.suppliers[step.supplier];
    const profile = state.profiles.find((candidate) => candidate.code === step.supplier);
    // A supplier that finished, is at an impasse, or waits for the buyer's answer sits this turn out.
    if (supplier && profile && supplier.status === 'active' && !isPaused(state.askInfo, profile.code)) {
      if (step.kind === 'supplier') await supplierStep(state, agents, profile, supplier, rng, events);
      else await brandStep(state, agents, step.kind, profile, supplier, rng, events);
    }
  }
  return { state, events };
}

/** Each step's random stream: the seed and the step number, mixed (so resuming needs no saved generator state). */
function stepSeed(seed: number, step: number): number {
  return (Math.imul(seed ^ 0x5bd1e995, 0x27d4eb2d) ^ Math.imul(step + 1, 0x9e3779b1)) >>> 0;
}

async function brandStep(
  state: NegotiationState,
  agents: EngineAgents,
  kind: 'rfq' | 'brand',
  profile: SupplierProfile,
  supplier: SupplierState,
  rng: ReturnType<typeof createRng>,
  events: NegotiationEvent[],
): Promise<void> {
  const context = brandContext(state, profile, supplier, rng);
  let briefs: PillarBriefs | null = null;
  let turn: BrandTurn;
  if (kind === 'rfq') turn = await agents.brand.rfq(context);
  else {
    briefs = await agents.brand.pillars(context);
    turn = await agents.brand.synthesize(context, briefs);
  }

  if (turn.action.type === 'ASK_INFO') {
    const question =
      typeof turn.action.payload.question === 'string' ? turn.action.payload.question : turn.message_text;
    const suggested = turn.action.payload.suggestedAnswers ?? [];
    // The impasse topics are the engine's own: an agent's question cannot pose as one.
    const stated = typeof turn.action.payload.topic === 'string' ? turn.action.payload.topic : null;
    const topic = impasseTopicSupplier(stated) === null ? stated : null;
    // What the mandate settles is not asked (a Claude turn may try): the buyer would be invited to contradict the start
    // modal. The turn is written again with the mandate's word as the answer.
    const settled = settledByMandate(state.mandate, topic);
    const asked =
      settled === null
        ? askQuestion(state.askInfo, { supplierCode: profile.code, question, suggestedAnswers: suggested, topic })
        : null;
    if (asked !== null) state.askInfo = asked.state;
    if (asked?.kind === 'queued') {
      events.push({
        type: 'question_asked',
        questionId: asked.question.id,
        supplierCode: profile.code,
        question,
        suggestedAnswers: [...suggested],
        kind: 'ask_info',
        topic,
      });
      // The question is for the buyer, not the supplier: it is not part of the supplier's conversation.
      return;
    }
    // Budget used up (seed 001): the turn becomes an ordinary message, written as if the buyer had not answered.
    const answerInstead = settled === null ? 'No answer: use your best judgement.' : `The buyer's mandate: ${settled}.`;
    const withoutAnswer = {
      ...context,
      clarifications: [...context.clarifications, { question, answer: answerInstead, topic }],
    };
    turn = await agents.brand.synthesize(withoutAnswer, briefs ?? (await agents.brand.pillars(withoutAnswer)));
    if (turn.action.type === 'ASK_INFO') {
      turn = {
        ...turn,
        action: { type: 'COUNTER_OFFER', payload: {} },
        message_text: briefs?.negotiator ?? turn.message_text,
      };
    }
  }

  const ask = readBrandAsk(turn.action);
  if (ask) supplier.brandAsks.push(ask);
  const competitor = turn.action.payload.competitor;
  if (competitor) supplier.competitorMentions.push(competitor as CompetitorMention);
  recordMessage(state, supplier, profile, 'brand', turn, briefs, events);
}

async function supplierStep(
  state: NegotiationState,
  agents: EngineAgents,
  profile: SupplierProfile,
  supplier: SupplierState,
  rng: ReturnType<typeof createRng>,
  events: NegotiationEvent[],
): Promise<void> {
  const latestBrand = latestBrandMessage(state, supplier);
  // Nothing was said to this supplier this round (its brand turn was a question for the buyer): nothing to answer.
  if (!latestBrand) return;
  if (profile.counterpart === 'connected') {
    // A person at the supplier answers, not an agent: the turn arrives through receiveSupplierTurn.
    supplier.awaitingReply = true;
    return;
  }
  const curveballHere = state.curveball && state.curveball.supplierCode === profile.code ? state.curveball : null;
  const turn: SupplierTurn = await agents.supplier(profile.code).respond({
    profile,
    // Re-derived from the seed every turn (never stored), so a resumed negotiation bargains with the same floor.
    economics: supplierEconomics(profile, state.baseline, state.seed),
    brandName: state.brandName,
    baseline: state.baseline,
    history: historyOf(supplier),
    latestBrandMessage: { text: latestBrand.text, action: latestBrand.action },
    round: state.round,
    maxRounds: state.maxRounds,
    phase: state.phase,
    competitorMentions: supplier.competitorMentions,
    curveball: curveballHere ? { capacityShare: curveballHere.capacityShare, reason: curveballHere.impact } : null,
    // The buyer's answers are for the brand; a supplier learns only what the brand chooses to tell it.
    clarifications: [],
    suggestedStrategies: state.strategies,
    rng,
  });
  applySupplierTurn(state, profile, supplier, { turn, answered: latestBrand.action }, events);
}

/** The brand's message of this round to the supplier, which its turn answers; null when none was sent. */
export function latestBrandMessage(state: Pick<NegotiationState, 'round'>, supplier: Pick<SupplierState, 'messages'>) {
  const latest = supplier.messages.findLast((message) => message.from === 'brand');
  return latest && latest.round === state.round && latest.action ? { ...latest, action: latest.action } : null;
}

/** A supplier's turn on record: its offer (read as its counterpart's offers are read), its message, its facts. */
function applySupplierTurn(
  state: NegotiationState,
  profile: SupplierProfile,
  supplier: SupplierState,
  said: { turn: AgentTurn; answered: AgentTurn['action'] },
  events: NegotiationEvent[],
): void {
  const { turn } = said;
  const curveballHere = state.curveball && state.curveball.supplierCode === profile.code ? state.curveball : null;
  const reading = supplierOffer(state, profile, supplier, said);
  let facts: Pick<NormalizedOffer, 'stated' | 'assumed'> = { stated: [], assumed: [] };
  if (reading?.ok === false) {
    // A real supplier's offer is never guessed at: whoever submitted it must be asked again.
    if (profile.counterpart === 'connected') throw new OfferNotRecordedError(profile.code, reading.problems);
    // An agent's turn that says it offers but carries no readable offer changes nothing, visibly.
    events.push({
      type: 'offer_unreadable',
      round: state.round,
      supplierCode: profile.code,
      action: turn.action.type,
      problems: reading.problems,
    });
  } else if (reading) {
    const { offer, adjustments } = reading;
    facts = reading;
    // Code, not the agent, enforces the curveball: the capped supplier can never offer more than its share.
    const capped = curveballHere
      ? { ...offer, capacityShare: Math.min(offer.capacityShare, curveballHere.capacityShare) }
      : offer;
    supplier.offers.push(capped);
    const tracker = OfferTracker.fromState(supplier.tracker);
    tracker.addOffer({ round: state.round, source: 'supplier', offer: capped });
    supplier.tracker = tracker.toState();
    events.push({
      type: 'offer_extracted',
      round: state.round,
      supplierCode: profile.code,
      offer: capped,
      adjustments,
    });
  }
  recordMessage(state, supplier, profile, 'supplier', turn, null, events);
  if (facts.stated.length > 0) {
    state.assumptions = stateFacts(state.assumptions, profile.code, facts.stated, state.messageCount);
  }
  if (facts.assumed.length > 0) state.assumptions = assumeFacts(state.assumptions, profile.code, facts.assumed);

  if (turn.action.type === 'ACCEPT') {
    supplier.accepted = true;
    supplier.status = 'completed';
    events.push({
      type: 'supplier_done',
      supplierCode: profile.code,
      status: 'completed',
      reason: 'accepted',
      details: null,
    });
  } else if (isExplicitRejection(turn.action)) {
    supplier.explicitRejection = true;
  }
}

/** Supplier actions that put an offer on the table. */
const OFFER_ACTIONS: ReadonlySet<AgentTurn['action']['type']> = new Set(['PROPOSE_OFFER', 'COUNTER_OFFER', 'ACCEPT']);

/**
 * The offer a supplier's turn puts on record: none when it offers nothing; what it accepted when it accepts; else its
 * draft, read as its counterpart's offers are read (offers.ts). A turn that offers with nothing readable gives the
 * problems instead.
 */
function supplierOffer(
  state: NegotiationState,
  profile: SupplierProfile,
  supplier: SupplierState,
  said: { turn: AgentTurn; answered: AgentTurn['action'] },
): NormalizeOfferResult | null {
  const { turn, answered } = said;
  const previous = supplier.offers.at(-1) ?? null;
  const loose = readLooseOfferDraft(turn.action.payload);
  if (turn.action.type === 'ACCEPT' && previous !== null) {
    // What was on the table: this round's ask, or — when the brand accepted, or asked nothing — the standing offer.
    const asked = supplier.brandAsks.at(-1);
    const ask = answered.type !== 'ACCEPT' && asked?.round === state.round ? asked : null;
    // Accepting is agreeing to every figure of the offer: its lead time and terms are the supplier's word from now on.
    const accepted = acceptedOffer({ ask, standing: previous, round: state.round, draft: loose });
    return { ...accepted, stated: ['leadTimeDays', 'paymentTerms'] };
  }
  // A simulated supplier's agent must give a whole draft (interfaces.ts); a real supplier's may leave terms unstated.
  const draft = profile.counterpart === 'connected' ? loose : readOfferDraft(turn.action);
  if (draft === null) {
    const offers = OFFER_ACTIONS.has(turn.action.type) || turn.action.payload['offer'] !== undefined;
    return offers ? { ok: false, problems: offerDraftProblems(turn.action) } : null;
  }
  return normalizeOffer(draft, { baseline: state.baseline, supplier: profile, round: state.round, previous });
}

function recordMessage(
  state: NegotiationState,
  supplier: SupplierState,
  profile: SupplierProfile,
  from: 'brand' | 'supplier',
  turn: AgentTurn,
  briefs: PillarBriefs | null,
  events: NegotiationEvent[],
): void {
  const sequence = ++state.messageCount;
  const brief = briefs
    ? [briefs.negotiator, briefs.productCost, briefs.riskAnalyst].find((b) => b.trim() !== '')
    : undefined;
  supplier.messages.push({
    round: state.round,
    from,
    text: turn.message_text,
    action: turn.action,
    sequence,
    ...(brief === undefined ? {} : { brief }),
  });
  events.push({
    type: 'message',
    sequence,
    round: state.round,
    supplierCode: profile.code,
    role: from === 'brand' ? 'brand_agent' : 'supplier_agent',
    speaker:
      from === 'brand' ? brandPersonaLabel(state.brandName) : supplierPersonaLabel(profile.name, profile.counterpart),
    text: turn.message_text,
    action: turn.action,
    usedStrategies: turn.used_strategies,
    pillarBriefs: briefs,
  });
}

function historyOf(supplier: SupplierState): SupplierHistory {
  return {
    messages: supplier.messages.map(({ round, from, text, action }) => ({ round, from, text, action })),
    offers: supplier.offers,
    brandAsks: supplier.brandAsks,
  };
}

function clarificationsFor(state: NegotiationState): AgentClarification[] {
  return state.askInfo.clarifications.map((clarification) => ({
    question: clarification.question,
    answer: clarification.answer,
    topic: state.askInfo.questions.find((question) => question.id === clarification.questionId)?.topic ?? null,
  }));
}

function brandContext(
  state: NegotiationState,
  profile: SupplierProfile,
  supplier: SupplierState,
  rng: ReturnType<typeof createRng>,
): BrandTurnContext {
  const curveballProfile = state.profiles.find((candidate) => candidate.code === state.curveball?.supplierCode);
  return {
    brandName: state.brandName,
    supplier: profile,
    history: historyOf(supplier),
    // Seed 002 §6.5: only the latest structured offer of each other supplier.
    others: state.profiles
      .filter((other) => other.code !== profile.code)
      .map((other) => ({ profile: other, latestOffer: state.suppliers[other.code]?.offers.at(-1) ?? null })),
    baseline: state.baseline,
    buyerNotes: state.buyerNotes,
    mandate: state.mandate,
    discloseCompetitors: state.discloseCompetitors,
    assumedFacts: assumedFactsByCode(state.assumptions),
    clarifications: clarificationsFor(state),
    round: state.round,
    maxRounds: state.maxRounds,
    phase: state.phase,
    mode: state.mode,
    curveball:
      state.curveball && curveballProfile
        ? {
            supplierCode: state.curveball.supplierCode,
            supplierName: curveballProfile.name,
            capacityShare: state.curveball.capacityShare,
          }
        : null,
    suggestedStrategies: state.strategies,
    rng,
  };
}

// ───────────────────────────── The end of a round ─────────────────────────────

function endRound(state: NegotiationState, events: NegotiationEvent[]): void {
  const round = state.round;
  for (const profile of state.profiles) {
    const supplier = state.suppliers[profile.code];
    if (!supplier) continue;
    const latest = supplier.offers.at(-1) ?? null;
    const evaluation = evaluateOffer(latest, state.mandate, {
      baselineTotal: state.baseline.total,
      baselineLines: state.baseline.lines,
    });
    state.evaluations.push({ round, supplierCode: profile.code, evaluation });
    if (supplier.status !== 'active') continue;
    // Round 1 is requests for quotes: only an explicit rejection ends talks that early.
    const lastAsk = supplier.brandAsks.at(-1);
    const impasse = checkForImpasse(
      {
        round,
        tracker: OfferTracker.fromState(supplier.tracker),
        explicitRejection: supplier.explicitRejection,
        targetTotal: lastAsk?.targetTotal ?? state.mandate.targetTotal,
        agreed: supplier.accepted,
      },
      // The lead-time condition is the buyer's own limit, when the mandate sets one; without one there is none.
      { maxRounds: state.maxRounds, maxAcceptableLeadTimeDays: state.mandate.maxLeadTimeDays },
    );
    const reason = impasse.primaryReason;
    // Running out of rounds is how every negotiation ends: the final offers stand and go to the decision. Only the
    // other reasons stop a supplier's talks early — and with rounds left, only if the buyer says so.
    if (impasse.isImpasse && reason && reason !== 'max_rounds' && (round > 1 || reason === 'rejected')) {
      const waived = supplier.waivedImpasses.includes(reason);
      if (round < state.maxRounds && !waived)
        askAboutImpasse(state, profile, supplier, reason, impasse.details, events);
      // A supplier that walks out again after the buyer reopened the talks has left; any other reason the buyer chose
      // to negotiate through lets the talks run on.
      else if (!waived || reason === 'rejected') endTalks(supplier, profile.code, reason, impasse.details, events);
    }
  }
  events.push({
    type: 'round_analysis',
    round,
    offers: state.profiles.map((profile) => {
      const supplier = state.suppliers[profile.code];
      const latest = supplier?.offers.at(-1) ?? null;
      return {
        supplierCode: profile.code,
        total: latest?.total ?? null,
        leadTimeDays: latest?.leadTimeDays ?? null,
        paymentTerms: latest?.paymentTerms ?? null,
        assumed: assumedFacts(state.assumptions, profile.code),
        evaluation:
          state.evaluations.find((e) => e.round === round && e.supplierCode === profile.code)?.evaluation ?? 'FAIL',
        status: supplier?.status ?? 'impasse',
      };
    }),
  });

  if (round === CURVEBALL.afterRound && !state.curveball) injectCurveball(state, events);

  const active = state.profiles.filter((profile) => state.suppliers[profile.code]?.status === 'active');
  // A supplier paused on the buyer's impasse decision is still in play.
  const paused = state.profiles.filter((profile) => state.suppliers[profile.code]?.status === 'paused');
  if (round >= state.maxRounds || active.length + paused.length === 0) {
    complete(state, events);
    return;
  }

  const check = shouldOfferEarlyTermination({
    round,
    maxRounds: state.maxRounds,
    activeSuppliers: active.map((profile) => ({
      supplierCode: profile.code,
      confidence: convergenceConfidence(state.suppliers[profile.code]?.tracker.history ?? [], state.mandate),
    })),
    perRoundCostUsd: averageRoundCostUsd(state.totalCostUsd, round),
  });

  state.round = round + 1;
  state.plan = planRound(state.round, state.profiles, state.suppliers);
  state.cursor = 0;
  events.push({ type: 'round_start', round: state.round, phase: state.phase });

  // Not while the buyer decides an impasse: finishing would leave that question unanswered.
  if (check.offer && !state.earlyTermination && paused.length === 0) {
    const questionId = `early-${round}`;
    state.earlyTermination = { offered: check.record, decision: 'pending', questionId };
    state.status = 'awaiting_early_termination';
    events.push({ type: 'early_termination_offered', questionId, record: check.record });
    return;
  }
  if (openQuestions(state.askInfo).length > 0) state.status = 'awaiting_answer';
}

/** Pauses the supplier and asks the buyer (seed 000 with seed 001's questions): a different approach, or end its talks. */
function askAboutImpasse(
  state: NegotiationState,
  profile: SupplierProfile,
  supplier: SupplierState,
  reason: ImpasseReason,
  details: string,
  events: NegotiationEvent[],
): void {
  const { question, suggestedAnswers } = impasseQuestion(profile.name, reason, details, state.maxRounds - state.round);
  const asked = askQuestion(state.askInfo, {
    supplierCode: profile.code,
    question,
    suggestedAnswers,
    topic: impasseTopic(profile.code),
    budgeted: false,
  });
  if (asked.kind !== 'queued') return endTalks(supplier, profile.code, reason, details, events);
  state.askInfo = asked.state;
  supplier.status = 'paused';
  supplier.impasse = { reason, details };
  events.push({
    type: 'question_asked',
    questionId: asked.question.id,
    supplierCode: profile.code,
    question,
    suggestedAnswers,
    kind: 'ask_info',
    topic: impasseTopic(profile.code),
  });
}

function endTalks(
  supplier: SupplierState,
  supplierCode: string,
  reason: ImpasseReason,
  details: string,
  events: NegotiationEvent[],
): void {
  supplier.status = 'impasse';
  supplier.impasse = { reason, details };
  events.push({ type: 'supplier_done', supplierCode, status: 'impasse', reason, details });
}

/**
 * The buyer's impasse decision: end the supplier's talks, or take them up again — the reason is then not asked about
 * again, and a supplier that had walked away is back at the table.
 */
function resolveImpasse(state: NegotiationState, supplierCode: string, answerText: string): NegotiationEvent[] {
  const supplier = state.suppliers[supplierCode];
  if (supplier?.status !== 'paused' || !supplier.impasse) return [];
  const { reason, details } = supplier.impasse;
  if (readImpasseAnswer(answerText) === 'end') {
    const events: NegotiationEvent[] = [];
    endTalks(supplier, supplierCode, reason, details, events);
    return events;
  }
  supplier.status = 'active';
  supplier.impasse = null;
  supplier.explicitRejection = false;
  supplier.waivedImpasses = [...supplier.waivedImpasses, reason];
  return [];
}

function injectCurveball(state: NegotiationState, events: NegotiationEvent[]): void {
  const capped = state.profiles.find((profile) => profile.code === CURVEBALL.supplierCode);
  const offer = state.suppliers[CURVEBALL.supplierCode]?.offers.at(-1);
  if (!capped || !offer) return;
  const uncovered = offer.total * (1 - CURVEBALL.capacityShare);
  const others = state.profiles.filter((profile) => profile.code !== capped.code).map((profile) => profile.name);
  const curveball: Curveball = {
    supplierCode: capped.code,
    capacityShare: CURVEBALL.capacityShare,
    afterRound: state.round,
    impact:
      `${capped.name} can fill only ${Math.round(CURVEBALL.capacityShare * 100)}% of the order: about ` +
      `${formatMoney(uncovered, offer.currency)} of its quote must go elsewhere.`,
    strategies: [
      {
        id: 'split',
        title: `Split: ${capped.name} up to ${Math.round(CURVEBALL.capacityShare * 100)}%, the rest to ${others.join(' or ')}`,
        detail: 'Keep the premium supplier for the lines where it wins; move the remainder to the best alternative.',
      },
      {
        id: 'single_source',
        title: `Single source with ${others.join(' or ')}`,
        detail: 'Avoid a split-order overhead by giving the whole order to one supplier that can fill it.',
      },
      {
        id: 'pressure',
        title: `Press ${capped.name} to restore capacity`,
        detail: 'Ask for a second production slot or a later second shipment before settling for a split.',
      },
    ],
    chosen: 'split',
  };
  state.curveball = curveball;
  state.phase = 'post_curveball';
  events.push({ type: 'curveball', curveball });
}

function complete(state: NegotiationState, events: NegotiationEvent[]): void {
  for (const profile of state.profiles) {
    const supplier = state.suppliers[profile.code];
    // Talks waiting on the buyer's impasse decision end at that impasse: nothing is left to continue.
    if (supplier?.status === 'paused' && supplier.impasse) {
      endTalks(supplier, profile.code, supplier.impasse.reason, supplier.impasse.details, events);
      continue;
    }
    if (supplier?.status !== 'active') continue;
    supplier.status = 'completed';
    events.push({
      type: 'supplier_done',
      supplierCode: profile.code,
      status: 'completed',
      reason: null,
      details: null,
    });
  }
  state.status = 'completed';
  state.plan = [];
  state.cursor = 0;
  const accepted = state.earlyTermination?.decision === 'accepted' ? state.earlyTermination.offered : null;
  events.push({
    type: 'negotiation_complete',
    earlyTermination: accepted,
    finalOffers: Object.fromEntries(
      state.profiles.map((p) => [p.code, state.suppliers[p.code]?.offers.at(-1) ?? null]),
    ),
  });
}

// ───────────────────────────── The buyer's answers ─────────────────────────────

/** The buyer answers an ASK_INFO question; the asking supplier's run resumes next round. Answering twice is a no-op. */
export function answer(current: NegotiationState, questionId: string, text: string, by: string): StepResult {
  // Copied on write like a step (a deep clone of a 3,000-line state was a quarter-second stall per answer).
  const state = copyForStep(current);
  const result = answerQuestion(state.askInfo, questionId, text, by);
  if (result.kind !== 'answered') return { state: current, events: [] };
  state.askInfo = result.state;
  // The answer also becomes part of the mandate the award must respect (a deadline, an accepted lead time, …).
  const applied = applyAnswer(
    state.mandate,
    { id: questionId, topic: result.question.topic, question: result.question.question },
    result.question.answer ?? text,
  );
  state.mandate = applied.mandate;
  const supplierCode = result.question.supplierCode;
  const decided =
    impasseTopicSupplier(result.question.topic) === supplierCode ? resolveImpasse(state, supplierCode, text) : [];
  // The asking supplier's run resumes where it paused: its brand turn (now with the answer) and its reply, before
  // the round closes.
  const roundEnd = state.plan.findIndex((step, index) => index >= state.cursor && step.kind === 'round_end');
  if (roundEnd >= 0 && state.suppliers[supplierCode]?.status === 'active') {
    state.plan.splice(
      roundEnd,
      0,
      { kind: 'brand', supplier: supplierCode },
      { kind: 'supplier', supplier: supplierCode },
    );
  }
  if (state.status === 'awaiting_answer' && openQuestions(state.askInfo).length === 0) state.status = 'running';
  return {
    state,
    events: [
      { type: 'question_answered', questionId, answer: text, answeredBy: by, effect: applied.effect },
      ...decided,
    ],
  };
}

/**
 * The buyer picks another curveball strategy than the recommended default. The curveball event is emitted again with
 * the choice, so the thread can show it; picking the current one changes nothing.
 */
export function chooseCurveballStrategy(current: NegotiationState, strategyId: string, by: string): StepResult {
  const curveball = current.curveball;
  if (!curveball || curveball.chosen === strategyId || !curveball.strategies.some((s) => s.id === strategyId)) {
    return { state: current, events: [] };
  }
  const state = copyForStep(current);
  state.curveball = { ...curveball, chosen: strategyId, chosenBy: by };
  // The buyer's latest word on sourcing governs: single source picked after "split the order" (or the split after
  // "one supplier") lifts the earlier hard limit, or the award would ignore this click.
  const sourcing = state.mandate.sourcing;
  if ((strategyId === 'single_source' && sourcing === 'split') || (strategyId === 'split' && sourcing === 'single')) {
    state.mandate = { ...state.mandate, sourcing: 'any' };
  }
  return { state, events: [{ type: 'curveball', curveball: state.curveball }] };
}

/** The buyer finishes now (skipping the remaining rounds) or keeps negotiating. */
export function decideEarlyTermination(current: NegotiationState, finish: boolean, by: string): StepResult {
  if (current.status !== 'awaiting_early_termination' || !current.earlyTermination)
    return { state: current, events: [] };
  const state = copyForStep(current);
  const pending = { ...current.earlyTermination, decision: finish ? ('accepted' as const) : ('declined' as const) };
  state.earlyTermination = pending;
  const events: NegotiationEvent[] = [
    {
      type: 'question_answered',
      questionId: pending.questionId,
      answer: finish ? 'Finish now' : 'Keep negotiating',
      answeredBy: by,
    },
  ];
  if (finish) complete(state, events);
  else state.status = openQuestions(state.askInfo).length > 0 ? 'awaiting_answer' : 'running';
  return { state, events };
}

// ───────────────────────────── A connected supplier's answers ─────────────────────────────

/**
 * A person at a connected supplier answers this round's message (its Submit offer, a confirmed reply): the turn goes
 * on record as an agent's would, its offer exactly as stated — read loosely (a person's form is not an agent's whole
 * draft: a term left out stays the supplier's previous word). A turn from a supplier that is not waited for (answered
 * already, closed without a reply, simulated) changes nothing. An offer that cannot be recorded as stated throws
 * OfferNotRecordedError and changes nothing: whoever submitted it is asked again.
 */
export function receiveSupplierTurn(current: NegotiationState, supplierCode: string, turn: AgentTurn): StepResult {
  const waiting = current.suppliers[supplierCode];
  const profile = current.profiles.find((candidate) => candidate.code === supplierCode);
  if (!waiting?.awaitingReply || profile?.counterpart !== 'connected') return { state: current, events: [] };
  const state = copyForStep(current);
  const supplier = state.suppliers[supplierCode];
  const latestBrand = supplier && latestBrandMessage(state, supplier);
  if (!supplier || !latestBrand) return { state: current, events: [] };
  const events: NegotiationEvent[] = [];
  applySupplierTurn(state, profile, supplier, { turn, answered: latestBrand.action }, events);
  stopAwaiting(state, supplier);
  return { state, events };
}

/**
 * The buyer's edit of the message awaiting a connected supplier, made before it is sent: the history then holds the
 * words the supplier reads, so the agents argue from what was said. Only the current, unanswered message changes.
 */
export function editBrandMessage(
  current: NegotiationState,
  supplierCode: string,
  sequence: number,
  text: string,
  by: string,
): StepResult {
  const waiting = current.suppliers[supplierCode];
  const latest = waiting && latestBrandMessage(current, waiting);
  if (!waiting?.awaitingReply || latest?.sequence !== sequence || latest.text === text)
    return { state: current, events: [] };
  const state = copyForStep(current);
  const supplier = state.suppliers[supplierCode];
  if (!supplier) return { state: current, events: [] };
  // The history is shared with the checkpoint it was read from: the edited message is a new one in a new list.
  supplier.messages = supplier.messages.map((m) =>
    m.sequence === sequence && m.from === 'brand' ? { ...m, text } : m,
  );
  return { state, events: [{ type: 'brand_message_edited', round: state.round, supplierCode, sequence, by }] };
}

/** The buyer closes the round for a connected supplier that has not answered (or its reply-by time passed). */
export function closeWithoutReply(current: NegotiationState, supplierCode: string, by: string | null): StepResult {
  if (!current.suppliers[supplierCode]?.awaitingReply) return { state: current, events: [] };
  const state = copyForStep(current);
  const supplier = state.suppliers[supplierCode];
  if (!supplier) return { state: current, events: [] };
  stopAwaiting(state, supplier);
  return { state, events: [{ type: 'supplier_no_reply', round: state.round, supplierCode, by }] };
}

function stopAwaiting(state: NegotiationState, supplier: SupplierState): void {
  supplier.awaitingReply = false;
  const stillAwaited = Object.values(state.suppliers).some((other) => other.awaitingReply);
  if (state.status === 'awaiting_suppliers' && !stillAwaited) state.status = 'running';
}

/** Runs steps until the negotiation waits for the buyer or completes, handing every step to `onStep` (the save). */
export async function runUntilBlocked(
  initial: NegotiationState,
  agents: EngineAgents,
  onStep: (result: StepResult) => Promise<void> | void = () => {},
): Promise<NegotiationState> {
  let state = initial;
  while (state.status === 'running') {
    const result = await advance(state, agents);
    await onStep(result);
    state = result.state;
  }
  return state;
}
