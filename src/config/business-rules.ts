// The business's numbers, in one place: seed 002 (§6.2, §6.3, §10, §11), seed 000 (impasse), seed 001 (ASK_INFO),
// seed 004 (early termination), adapted by DESIGN.md. Domain code reads them from here and never repeats a number.

export const SCORING_FACTORS = ['price', 'quality', 'leadTime', 'terms', 'reliability'] as const;
export type ScoringFactor = (typeof SCORING_FACTORS)[number];
export type ScoringWeights = Readonly<Record<ScoringFactor, number>>;

export const NEGOTIATION_MODES = ['cost', 'quality', 'speed', 'cashflow', 'balanced', 'custom'] as const;
export type NegotiationMode = (typeof NEGOTIATION_MODES)[number];
export type PresetMode = Exclude<NegotiationMode, 'custom'>;

/**
 * Scoring weights per mode. The seed's table sums to 100% only for Balanced; its four focused modes sum to 90%.
 * DESIGN.md fills the gap with a fifth factor, Reliability (on-time and defect rates): 10% in the focused modes, 0% in
 * Balanced, so that every column sums to 100%.
 */
export const SCORING_WEIGHTS: Readonly<Record<PresetMode, ScoringWeights>> = {
  cost: { price: 0.4, quality: 0.15, leadTime: 0.15, terms: 0.2, reliability: 0.1 },
  quality: { price: 0.15, quality: 0.4, leadTime: 0.15, terms: 0.2, reliability: 0.1 },
  speed: { price: 0.15, quality: 0.15, leadTime: 0.4, terms: 0.2, reliability: 0.1 },
  cashflow: { price: 0.2, quality: 0.15, leadTime: 0.15, terms: 0.4, reliability: 0.1 },
  balanced: { price: 0.3, quality: 0.25, leadTime: 0.25, terms: 0.2, reliability: 0 },
};

export const PRICE_LEVELS = ['cheapest', 'mid', 'expensive'] as const;
export type PriceLevel = (typeof PRICE_LEVELS)[number];

/**
 * What a supplier may charge for the order, as a multiple of the quoted baseline: an offer whose total falls outside
 * is scaled into it (DESIGN.md's ranges).
 */
export const PRICE_RANGES: Readonly<Record<PriceLevel, { min: number; max: number }>> = {
  cheapest: { min: 0.85, max: 1.0 },
  mid: { min: 0.95, max: 1.2 },
  expensive: { min: 1.15, max: 1.4 },
};

/**
 * How far one line's price may sit outside its supplier's range (as a share of the range's ends): a premium house is
 * competitive on what it is tooled for and dear on the rest, while its order total stays in its range. Without it no
 * supplier could ever be the best at a line it does not win on the whole order (a line clipped to 1.15× never beats one
 * at 1.0×). An offer line outside [min × (1 − below), max × (1 + above)] is clipped into it. Wider above than below:
 * what a house is not tooled for it buys in and marks up (up to about twice the factory's price for a premium house),
 * while nobody sells far under a factory's price. The room above is what lets a premium specialty cover most of an
 * order: the lines outside it carry the rest of the house's order-level premium.
 */
export const LINE_PRICE_SPREAD = { below: 0.35, above: 0.5 } as const;

type Span = readonly [number, number];

/**
 * The ranges each supplier's private economics are drawn from by the negotiation's seed (negotiation/supplier-
 * economics.ts), per price level. openingLevel: its first offer's total, as a multiple of the baseline (the quoting
 * supplier's opening is its quote). room: its floor's distance below its opening (never more than its personality's
 * largest discount). specialty: the share of the order's value it is tooled for and the price multiple there (of its
 * level). The premium house is an outerwear specialist tooled for most of such an order (60–80% of its value), where
 * it opens at 0.82–0.96× the quote — about what the factory settles at, so with its quality and speed it is the
 * better buy there — and it buys in and marks up the rest, which carries its order-level premium (and bounds the
 * specialty's share: supplier-economics.ts). Left to itself it would take more than the curveball's 60% on many
 * orders; that is what the curveball takes away. The rest is how it bargains: its cost of capital, what a day faster costs it (share of the order), the share of the gap to a
 * reasonable ask it gives per turn, the pushes below its floor it sits through, how far below the floor an ask is still
 * haggling (share of the order), and what a volume commitment is worth to it.
 */
export const SUPPLIER_ECONOMICS: Readonly<
  Record<
    PriceLevel,
    {
      openingLevel: Span;
      room: Span;
      lineNoise: number;
      specialty: { valueShare: Span; multiple: Span } | null;
      costOfCapital: Span;
      leadDayCost: Span;
      pace: Span;
      patience: readonly [number, number];
      pushTolerance: Span;
      volumeCredit: Span;
    }
  >
> = {
  cheapest: {
    openingLevel: [0.96, 1.0],
    room: [0.05, 0.12],
    lineNoise: 0.04,
    specialty: null,
    costOfCapital: [0.1, 0.18],
    leadDayCost: [0.002, 0.004],
    pace: [0.4, 0.55],
    patience: [2, 3],
    pushTolerance: [0.015, 0.035],
    volumeCredit: [0.01, 0.02],
  },
  mid: {
    openingLevel: [1.08, 1.12],
    room: [0.06, 0.1],
    lineNoise: 0.1,
    specialty: null,
    costOfCapital: [0.12, 0.2],
    leadDayCost: [0.0008, 0.0015],
    pace: [0.35, 0.5],
    patience: [2, 3],
    pushTolerance: [0.03, 0.05],
    volumeCredit: [0.015, 0.03],
  },
  expensive: {
    openingLevel: [1.17, 1.23],
    room: [0.03, 0.05],
    lineNoise: 0.06,
    specialty: { valueShare: [0.6, 0.8], multiple: [0.7, 0.78] },
    costOfCapital: [0.06, 0.1],
    leadDayCost: [0.0015, 0.003],
    pace: [0.3, 0.45],
    patience: [2, 3],
    pushTolerance: [0.045, 0.08],
    volumeCredit: [0.005, 0.015],
  },
};

/** Human-in-the-loop thresholds for catalog matches (seed 002 §6.2, §11). */
export const MATCH_REVIEW = {
  /** At or above: accepted without a human. A wrong match here is the matcher's worst error. */
  autoAcceptAt: 0.85,
  /** Below autoAcceptAt but at or above this: a click confirms. Below: the buyer must act. */
  mustActBelow: 0.5,
  /** Each validation flag on a line costs this much confidence. */
  validationFlagPenalty: 0.2,
  maxCandidates: 5,
} as const;

/** Confidence each matcher tier reports (fixed value or [min, max] band). */
export const MATCH_TIERS = {
  exactSku: 1.0,
  ocrSku: 0.95,
  fuzzySku: { min: 0.7, max: 0.95 },
  /** A style code written with the colour and size as words (a size-run row): one product, no guessing. */
  styleColorSize: 0.9,
  nameMatch: { min: 0.5, max: 0.7 },
  llmMatch: { min: 0.6, max: 0.9 },
  llmBatchSize: 10,
} as const;

export const ROUNDS = { min: 1, max: 5, default: 4 } as const;
export const QUESTION_BUDGET_DEFAULT = 3;

/** How scoring turns figures into 0–100 sub-scores (decision/scoring.ts explains each in its one-line reasons). */
export const SCORING_SCALES = {
  /** The price score falls to 0 at this share above the lowest offer. */
  priceZeroAboveLowest: 0.5,
  /** A lead time this long (days) scores 0, unless twice the fastest offer is longer. */
  leadTimeZeroDays: 90,
} as const;

/**
 * How the buyer's mode decides the award (decision/allocation.ts). `cost` mode awards the lowest effective landed
 * cost. Every other mode awards the allocation with the best score in that mode — the award scored as one offer,
 * price included — so the mode's own weights set how much a better score may cost: the price sub-score loses
 * 100 / (100 × priceZeroAboveLowest) = 2 points per 1% above the lowest offer, so with price weight w one point of
 * score is worth 1 / (2w) % of the lowest offer (quality and speed, w = 15%: 3.3%; cashflow, 20%: 2.5%; balanced,
 * 30%: 1.7%). A finance person can redo that from the weights table above.
 */
export const SCORED_AWARD = {
  /**
   * The rate is computed with at least this price weight: custom weights that give price 0 would otherwise make a
   * point worth any money. At 5% a point is worth at most 10% of the lowest offer.
   */
  minPriceWeight: 0.05,
  /**
   * The most an award may cost above the cheapest feasible award (effective landed cost), however much better it
   * scores: when the best-scoring award costs more, the award is the best-scoring one that fits. Policy, not derived
   * — tune here. Quality: the premium supplier's price range starts 15% above the quotation while the cheapest
   * supplier's ends at it, so 25% lets a quality buyer reach a premium supplier's negotiated price but not the top of
   * its range. Speed: 20%, a step below quality. Cashflow: paying later is worth at most ~2% of the order at 8%/yr
   * (all paid 90 days early), so 10% already buys liquidity at a steep rate. Balanced and custom: 15%, between the
   * focused modes. Cost mode never pays a premium.
   */
  maxPremium: { quality: 0.25, speed: 0.2, cashflow: 0.1, balanced: 0.15, custom: 0.15 },
} as const satisfies {
  minPriceWeight: number;
  maxPremium: Readonly<Record<Exclude<NegotiationMode, 'cost'>, number>>;
};

/** Cash-flow cost: annual cost of capital applied to money paid before delivery. */
export const COST_OF_CAPITAL_ANNUAL = 0.08;
/** A split order is recommended only when it still wins after this overhead on its FOB value. */
export const SPLIT_ORDER_OVERHEAD = 0.05;

/**
 * What an Incoterm leaves the buyer to pay on top of the quoted price, as shares of the goods value (decision/
 * landed-cost.ts adds them to every offer's landed cost). Assumptions, not quotes: a forwarder's rate or a customs
 * ruling replaces them. `freight` is main carriage, insurance and handling the buyer pays; `duty` is import duty and
 * clearance, which only a delivered-duty-paid term leaves with the seller. Tune here; the decision names the term and
 * the rates it used.
 */
export const IMPORT_DUTY_RATE = 0.12;
export const INCOTERM_COSTS = {
  /** Ex works: the buyer also pays export clearance and the leg to the port. */
  EXW: { freight: 0.08, duty: IMPORT_DUTY_RATE },
  FCA: { freight: 0.07, duty: IMPORT_DUTY_RATE },
  FAS: { freight: 0.065, duty: IMPORT_DUTY_RATE },
  FOB: { freight: 0.06, duty: IMPORT_DUTY_RATE },
  /** Cost and freight: the seller pays the main carriage, the buyer insures and clears. */
  CFR: { freight: 0.01, duty: IMPORT_DUTY_RATE },
  CPT: { freight: 0.01, duty: IMPORT_DUTY_RATE },
  CIF: { freight: 0, duty: IMPORT_DUTY_RATE },
  CIP: { freight: 0, duty: IMPORT_DUTY_RATE },
  DAP: { freight: 0, duty: IMPORT_DUTY_RATE },
  DPU: { freight: 0, duty: IMPORT_DUTY_RATE },
  DDP: { freight: 0, duty: 0 },
} as const satisfies Readonly<Record<string, { freight: number; duty: number }>>;
export type Incoterm = keyof typeof INCOTERM_COSTS;
/** A quote that names no Incoterm is costed as this one, and the decision says it assumed so. */
export const INCOTERM_ASSUMED = 'FOB' satisfies Incoterm;

/** The currency a workspace compares and approves in unless its settings say otherwise. */
export const WORKSPACE_CURRENCY_DEFAULT = 'USD';
/**
 * Exchange rates for comparing quotes in other currencies: units of USD per unit of each currency, as of `asOf`.
 * Reference rates, not a trading desk's: update the table and its date together. A currency missing here cannot be
 * converted, and the decision says so instead of guessing.
 */
export const FX_RATES = {
  asOf: '2026-01-02',
  usdPerUnit: {
    USD: 1,
    EUR: 1.08,
    GBP: 1.27,
    CNY: 0.138,
    HKD: 0.128,
    JPY: 0.0066,
    VND: 0.000039,
    TRY: 0.029,
    INR: 0.012,
    IDR: 0.000062,
    KRW: 0.00072,
    BDT: 0.0083,
    PKR: 0.0036,
    TWD: 0.031,
    THB: 0.029,
  },
} as const satisfies { asOf: string; usdPerUnit: Readonly<Record<string, number>> };

/**
 * Impasse detection (seed 000): its defaults, except max rounds, which is the negotiation's own, and the lead-time
 * limit, which is the buyer's (the mandate's maximum lead time; none when the buyer set none).
 */
export const IMPASSE = {
  progressWindowSize: 3,
  /** Relative gap between the latest offer and the buyer's reference price above which talks are at an impasse. */
  priceGapThreshold: 0.25,
} as const;

/** Early termination (seed 004): ask the buyer to stop once every active offer has converged this confidently. */
export const EARLY_TERMINATION_CONFIDENCE = 0.9;

/** The capacity shock injected after round 1 (seed 002 phase 3). */
export const CURVEBALL = { supplierCode: 'SUP-002', afterRound: 1, capacityShare: 0.6 } as const;

/**
 * Who speaks for a supplier. 'simulated': an agent plays it (the offline twin or Claude), held to its price band so the
 * demo and the benches stay in a believable market. 'connected': a real organisation in a Slack Connect channel, whose
 * offers are a commercial record and are stored exactly as it stated them (negotiation/offers.ts).
 */
export const SUPPLIER_COUNTERPARTS = ['simulated', 'connected'] as const;
export type SupplierCounterpart = (typeof SUPPLIER_COUNTERPARTS)[number];

export interface SupplierProfile {
  code: string;
  name: string;
  qualityRating: number;
  priceLevel: PriceLevel;
  leadTimeDays: number;
  /** Instalments in percent, paid at order, (midway,) delivery. */
  paymentTerms: string;
  onTimeDeliveryRate: number;
  defectRate: number;
  responseTimeDays: number;
  totalOrdersCount: number;
  /** Names and labels the supplier as simulated; what Parley does with its offers is `counterpart`'s. */
  isSimulated: boolean;
  counterpart: SupplierCounterpart;
  personality: SupplierPersonality;
}

export interface SupplierPersonality {
  summary: string;
  /** Largest total discount this supplier ever gives off its opening offer. */
  maxDiscount: number;
  /** What it gives before price: terms, lead time, extras. */
  concessionOrder: readonly ('price' | 'terms' | 'leadTime' | 'extras')[];
  tone: string;
}

/**
 * SUP-001 is the supplier from the uploaded file: the seed's defaults, overridden by what the sheet says. Until it is
 * connected through Slack Connect, an agent answers for it, so its offers are a simulation's ('simulated').
 */
export const QUOTED_SUPPLIER_DEFAULTS: SupplierProfile = {
  code: 'SUP-001',
  name: 'Quoted supplier',
  qualityRating: 4.0,
  priceLevel: 'cheapest',
  leadTimeDays: 50,
  paymentTerms: '33/33/33',
  onTimeDeliveryRate: 0.9,
  defectRate: 0.03,
  responseTimeDays: 2,
  totalOrdersCount: 0,
  isSimulated: false,
  counterpart: 'simulated',
  personality: {
    summary: 'Price-competitive factory; protects margin, trades volume for price, slow to move on lead time.',
    maxDiscount: 0.15,
    concessionOrder: ['price', 'terms', 'extras', 'leadTime'],
    tone: 'direct, numbers-first',
  },
};

export const SIMULATED_SUPPLIERS: readonly SupplierProfile[] = [
  {
    code: 'SUP-002',
    name: 'Alpine Premium',
    qualityRating: 4.7,
    priceLevel: 'expensive',
    leadTimeDays: 25,
    paymentTerms: '40/60',
    onTimeDeliveryRate: 0.97,
    defectRate: 0.008,
    responseTimeDays: 1,
    totalOrdersCount: 38,
    isSimulated: true,
    counterpart: 'simulated',
    personality: {
      summary:
        'Premium positioning, consultative; justifies cost with quality. Small discounts (3–5% max) wrapped in ' +
        'partnership language. Offers non-price concessions first.',
      maxDiscount: 0.05,
      concessionOrder: ['extras', 'terms', 'leadTime', 'price'],
      tone: 'consultative, polished, partnership language',
    },
  },
  {
    code: 'SUP-003',
    name: 'RapidGear Co',
    qualityRating: 4.0,
    priceLevel: 'mid',
    leadTimeDays: 15,
    paymentTerms: '100',
    onTimeDeliveryRate: 0.93,
    defectRate: 0.02,
    responseTimeDays: 0.5,
    totalOrdersCount: 21,
    isSimulated: true,
    counterpart: 'simulated',
    personality: {
      summary:
        'Speed-focused, warm, creative. Proposes alternative structures; restructures terms instead of just ' +
        'dropping price.',
      maxDiscount: 0.1,
      concessionOrder: ['terms', 'leadTime', 'price', 'extras'],
      tone: 'warm, energetic, creative',
    },
  },
];

/**
 * USD per million tokens, by model family (an id's dated suffix is ignored). The seed's Haiku 4.5 and Sonnet 4.5
 * (seed 002 §6.8) stay listed so runs on them are priced; Sonnet 4.6, the default reasoning model since the SDK marks
 * Sonnet 4.5 deprecated, costs the same per Anthropic's pricing page.
 */
export const LLM_PRICES_PER_MTOK: Readonly<Record<string, { input: number; output: number }>> = {
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4-6': { input: 3, output: 15 },
};

/**
 * Prompt caching, as a multiple of a model's input price: writing a prefix to the 5-minute cache costs 1.25×,
 * reading it back 0.1× (Anthropic's pricing page; the 1-hour cache, 2×, is not used).
 */
export const LLM_CACHE_PRICE_FACTORS = { write: 1.25, read: 0.1 } as const;
