// Fixtures for the agents' tests and a tiny scripted driver: the engine's loop in miniature (RFQ wave, pillars →
// synthesis → supplier reply, curveball after round 1, ASK_INFO answered with its first suggestion), so a whole
// offline negotiation can be read and checked without a database.
import { createRng, type Rng } from '../../src/commerce/rng.js';
import {
  CURVEBALL,
  QUOTED_SUPPLIER_DEFAULTS,
  SIMULATED_SUPPLIERS,
  type NegotiationMode,
  type SupplierProfile,
} from '../../src/config/business-rules.js';
import type { Baseline, MandateTotals as Mandate, Offer } from '../../src/negotiation/types.js';
import {
  readBrandAsk,
  readOfferDraft,
  type BrandAsk,
  type BrandAgent,
  type BrandTurn,
  type BrandTurnContext,
  type Clarification,
  type CompetitorMention,
  type HistoryMessage,
  type OfferDraft,
  type PillarBriefs,
  type SupplierAgent,
  type SupplierTurn,
  type SupplierTurnContext,
} from '../../src/negotiation/agents/interfaces.js';
import { competitorMentionSchema } from '../../src/negotiation/agents/interfaces.js';
import { createOfflineBrandAgent } from '../../src/negotiation/agents/offline/brand-agent.js';
import { createOfflineSupplierAgent } from '../../src/negotiation/agents/offline/supplier-agent.js';
import { supplierEconomics } from '../../src/negotiation/supplier-economics.js';

export const BASELINE: Baseline = {
  supplierName: 'Quoted supplier',
  currency: 'USD',
  lines: [
    {
      sku: 'MC004-LCH-L',
      description: 'Sawtooth Down Parka - Lichen - L',
      quantity: 300,
      unitPrice: 79.1,
      tiers: [],
      notes: null,
    },
    {
      sku: 'WJ008-0BS-M',
      description: 'Ranger Insulated Jacket - Obsidian Black - M',
      quantity: 200,
      unitPrice: 61.35,
      tiers: [],
      notes: '2% off if paid within 10 days',
    },
    {
      sku: 'MT005-CRN-M',
      description: 'Granite Tech Tank - Cranberry - M',
      quantity: 500,
      unitPrice: 4,
      tiers: [{ minQty: 1000, unitPrice: 3.6 }],
      notes: null,
    },
    {
      sku: 'KB010-ALB-L',
      description: 'Bristlecone Base Layer Quarter-Zip - Alpine Blue - L',
      quantity: 350,
      unitPrice: 10.8,
      tiers: [],
      notes: null,
    },
  ],
  total: 41_780,
  paymentTerms: '33/33/33',
  leadTimeDays: 50,
  incoterm: 'FOB',
  moq: null,
  notes: ['Prices FOB Ningbo'],
};

/** Four ids from the registry (../strategies.ts), as the engine offers them. */
export const STRATEGIES = [
  'STRAT_ANCHOR_COMPETITOR',
  'STRAT_TRADE_TERMS',
  'STRAT_PACKAGE_DEAL',
  'STRAT_CAPACITY_DEADLINE',
] as const;

export function supplierProfile(code: string): SupplierProfile {
  if (code === QUOTED_SUPPLIER_DEFAULTS.code) return QUOTED_SUPPLIER_DEFAULTS;
  const found = SIMULATED_SUPPLIERS.find((profile) => profile.code === code);
  if (found === undefined) throw new Error(`no supplier ${code}`);
  return found;
}

/** What the engine's offer extractor does with a draft: backfill quantities, re-total from the lines. */
export function toOffer(draft: OfferDraft, supplierCode: string, round: number, baseline: Baseline = BASELINE): Offer {
  const lines = draft.lines.map((line) => ({
    sku: line.sku,
    quantity: line.quantity ?? baseline.lines.find((candidate) => candidate.sku === line.sku)?.quantity ?? 1,
    unitPrice: line.unitPrice,
    tiers: line.tiers ?? [],
  }));
  const total = Math.round(lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0) * 100) / 100;
  return {
    supplierCode,
    round,
    lines,
    total,
    leadTimeDays: draft.leadTimeDays,
    paymentTerms: draft.paymentTerms,
    incoterm: baseline.incoterm,
    currency: baseline.currency,
    concessions: draft.concessions,
    conditions: draft.conditions,
    capacityShare: draft.capacityShare ?? 1,
  };
}

export function brandAction(ask: Partial<BrandAsk> & { round: number }): BrandTurn['action'] {
  return {
    type: 'COUNTER_OFFER',
    payload: { ask: { targetTotal: null, leadTimeDays: null, paymentTerms: null, ...ask } },
  };
}

export function supplierContext(
  code: string,
  overrides: Partial<Omit<SupplierTurnContext, 'profile'>> = {},
): SupplierTurnContext {
  // The supplier's private economics for the context's baseline, from seed 1 unless the test brings its own.
  const profile = supplierProfile(code);
  return {
    profile,
    economics: supplierEconomics(profile, overrides.baseline ?? BASELINE, 1),
    brandName: 'Valden Outdoor',
    baseline: BASELINE,
    history: { messages: [], offers: [], brandAsks: [] },
    latestBrandMessage: { text: 'Please quote.', action: { type: 'REQUEST_CRITERIA', payload: {} } },
    round: 1,
    maxRounds: 4,
    phase: 'initial',
    competitorMentions: [],
    curveball: null,
    clarifications: [],
    suggestedStrategies: [...STRATEGIES],
    rng: createRng(1),
    ...overrides,
  };
}

export function brandContext(
  code: string,
  overrides: Partial<Omit<BrandTurnContext, 'supplier'>> = {},
): BrandTurnContext {
  return {
    brandName: 'Valden Outdoor',
    supplier: supplierProfile(code),
    history: { messages: [], offers: [], brandAsks: [] },
    others: [],
    baseline: BASELINE,
    buyerNotes: null,
    mandate: { targetTotal: null, walkAwayTotal: null },
    clarifications: [],
    round: 1,
    maxRounds: 4,
    phase: 'initial',
    mode: 'balanced',
    curveball: null,
    suggestedStrategies: [...STRATEGIES],
    rng: createRng(1),
    ...overrides,
  };
}

export interface TranscriptEntry {
  round: number;
  supplierCode: string;
  speaker: 'brand' | 'supplier';
  turn: BrandTurn | SupplierTurn;
  briefs: PillarBriefs | null;
}

export interface ScriptOptions {
  seed: number;
  maxRounds?: number;
  mode?: NegotiationMode;
  mandate?: Mandate;
  buyerNotes?: string | null;
  strategies?: readonly string[];
  baseline?: Baseline;
  brand?: BrandAgent;
  supplier?: SupplierAgent;
}

export interface ScriptResult {
  entries: TranscriptEntry[];
  questions: BrandTurn[];
  offers: Record<string, Offer[]>;
  ended: Record<string, string | null>;
}

interface SupplierState {
  messages: HistoryMessage[];
  offers: Offer[];
  asks: BrandAsk[];
  mentions: CompetitorMention[];
  ended: string | null;
}

const CODES = ['SUP-001', 'SUP-002', 'SUP-003'] as const;

/** Runs a whole offline negotiation sequentially with one seeded rng; same options → the same transcript. */
export async function runScripted(options: ScriptOptions): Promise<ScriptResult> {
  const rng: Rng = createRng(options.seed);
  const maxRounds = options.maxRounds ?? 4;
  const baseline = options.baseline ?? BASELINE;
  const brand = options.brand ?? createOfflineBrandAgent();
  const supplier = options.supplier ?? createOfflineSupplierAgent();
  const strategies = options.strategies ?? [...STRATEGIES];
  const states = new Map<string, SupplierState>(
    CODES.map((code) => [code, { messages: [], offers: [], asks: [], mentions: [], ended: null }]),
  );
  const state = (code: string): SupplierState => {
    const found = states.get(code);
    if (found === undefined) throw new Error(`no state for ${code}`);
    return found;
  };
  const clarifications: Clarification[] = [];
  const entries: TranscriptEntry[] = [];
  const questions: BrandTurn[] = [];
  const capped = supplierProfile(CURVEBALL.supplierCode);

  for (let round = 1; round <= maxRounds; round += 1) {
    const phase = round > CURVEBALL.afterRound ? 'post_curveball' : 'initial';
    // Round 1 wave: the simulated suppliers quote first, then SUP-001 negotiates with their quotes as leverage.
    const order = round === 1 ? ['SUP-002', 'SUP-003', 'SUP-001'] : [...CODES];
    for (const code of order) {
      const own = state(code);
      if (own.ended !== null) continue;
      const history = { messages: [...own.messages], offers: [...own.offers], brandAsks: [...own.asks] };
      const brandCtx = (): BrandTurnContext => ({
        brandName: 'Valden Outdoor',
        supplier: supplierProfile(code),
        history,
        others: CODES.filter((other) => other !== code).map((other) => ({
          profile: supplierProfile(other),
          latestOffer: state(other).offers.at(-1) ?? null,
        })),
        baseline,
        buyerNotes: options.buyerNotes ?? null,
        mandate: options.mandate ?? { targetTotal: null, walkAwayTotal: null },
        clarifications: [...clarifications],
        round,
        maxRounds,
        phase,
        mode: options.mode ?? 'balanced',
        curveball:
          phase === 'post_curveball'
            ? { supplierCode: capped.code, supplierName: capped.name, capacityShare: CURVEBALL.capacityShare }
            : null,
        suggestedStrategies: strategies,
        rng,
      });

      let brandTurn: BrandTurn;
      let briefs: PillarBriefs | null = null;
      if (round === 1 && code !== 'SUP-001') brandTurn = await brand.rfq(brandCtx());
      else {
        briefs = await brand.pillars(brandCtx());
        brandTurn = await brand.synthesize(brandCtx(), briefs);
        // ASK_INFO pauses this supplier's run; the scripted buyer answers with the first suggestion and it resumes.
        for (let asked = 0; brandTurn.action.type === 'ASK_INFO' && asked < 3; asked += 1) {
          questions.push(brandTurn);
          const answers = brandTurn.action.payload.suggestedAnswers ?? [];
          clarifications.push({
            question: brandTurn.action.payload.question ?? '',
            answer: answers[0] ?? '',
            topic: brandTurn.action.payload.topic ?? null,
          });
          brandTurn = await brand.synthesize(brandCtx(), briefs);
        }
      }
      entries.push({ round, supplierCode: code, speaker: 'brand', turn: brandTurn, briefs });
      own.messages.push({ round, from: 'brand', text: brandTurn.message_text, action: brandTurn.action });
      const ask = readBrandAsk(brandTurn.action);
      if (ask !== null) own.asks.push(ask);
      const mention = competitorMentionSchema.safeParse(brandTurn.action.payload['competitor']);
      if (mention.success) own.mentions.push(mention.data);

      const supplierCtx: SupplierTurnContext = {
        profile: supplierProfile(code),
        economics: supplierEconomics(supplierProfile(code), baseline, options.seed),
        brandName: 'Valden Outdoor',
        baseline,
        history: { messages: [...own.messages], offers: [...own.offers], brandAsks: [...own.asks] },
        latestBrandMessage: { text: brandTurn.message_text, action: brandTurn.action },
        round,
        maxRounds,
        phase,
        competitorMentions: [...own.mentions],
        curveball:
          phase === 'post_curveball' && code === CURVEBALL.supplierCode
            ? { capacityShare: CURVEBALL.capacityShare, reason: 'Production line capacity' }
            : null,
        clarifications: [...clarifications],
        suggestedStrategies: strategies,
        rng,
      };
      const reply = await supplier.respond(supplierCtx);
      entries.push({ round, supplierCode: code, speaker: 'supplier', turn: reply, briefs: null });
      own.messages.push({ round, from: 'supplier', text: reply.message_text, action: reply.action });
      const draft = readOfferDraft(reply.action);
      if (draft !== null) own.offers.push(toOffer(draft, code, round, baseline));
      if (reply.action.type === 'REJECT' || reply.action.type === 'WALK_AWAY') own.ended = reply.action.type;
      if (brandTurn.action.type === 'ACCEPT' && reply.action.type === 'ACCEPT') own.ended = 'ACCEPT';
    }
  }
  return {
    entries,
    questions,
    offers: Object.fromEntries(CODES.map((code) => [code, state(code).offers])),
    ended: Object.fromEntries(CODES.map((code) => [code, state(code).ended])),
  };
}

const ORDER_COLOURS = ['BLK', 'NVY', 'OLV', 'SND', 'RST'] as const;
const ORDER_SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'] as const;

/**
 * An apparel order of `count` lines as quotations are: styles × 5 colours × 6 sizes (3,000 lines are 100 styles), one
 * price per style with XXL 8% dearer, quantities spread unevenly so a few styles carry most of the money.
 */
export function apparelOrder(count: number): Baseline {
  const lines = Array.from({ length: count }, (_, index) => {
    const style = Math.floor(index / 30);
    const colour = ORDER_COLOURS[Math.floor(index / 6) % 5] ?? 'BLK';
    const size = ORDER_SIZES[index % 6] ?? 'M';
    const price = 8 + ((style * 37) % 70) + 0.45;
    return {
      sku: `ST${String(style).padStart(3, '0')}-${colour}-${size}`,
      description: `Ridge ${style} Jacket`,
      quantity: 50 + ((style * 13 + index * 7) % 40) * 10,
      unitPrice: Math.round((size === 'XXL' ? price * 1.08 : price) * 100) / 100,
      tiers: [],
      notes: null,
    };
  });
  return {
    ...BASELINE,
    lines,
    total: Math.round(lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0) * 100) / 100,
  };
}
