// Seed 001's strategy registry: each run offers both agents 4 strategies drawn from it as optional suggestions, and
// an agent reports the ones it used in `used_strategies`. Drawn from the negotiation's seeded RNG so that a replayed
// negotiation is offered the same ones.
import type { Rng } from '../commerce/rng.js';

export type StrategySide = 'brand' | 'supplier' | 'both';

export interface Strategy {
  id: string;
  name: string;
  description: string;
  /** Which agent may use it: the brand's (buyer), the supplier's, or both. */
  side: StrategySide;
}

export const STRATEGIES: readonly Strategy[] = [
  {
    id: 'STRAT_ANCHOR_COMPETITOR',
    name: 'Anchor on a competitor',
    description: "Cite a competitor's lower offer, by SKU and number, as the reference price.",
    side: 'brand',
  },
  {
    id: 'STRAT_VOLUME_FOR_PRICE',
    name: 'Volume for price',
    description: 'Trade a larger quantity or a repeat commitment for a lower unit price.',
    side: 'both',
  },
  {
    id: 'STRAT_TIER_UNLOCK',
    name: 'Unlock the next tier',
    description: 'Move quantities just past a volume-tier break so the cheaper tier price applies.',
    side: 'both',
  },
  {
    id: 'STRAT_TRADE_TERMS',
    name: 'Trade payment terms',
    description: 'Exchange a larger or earlier deposit for price, or a later balance for a small premium.',
    side: 'both',
  },
  {
    id: 'STRAT_TRADE_LEAD_TIME',
    name: 'Trade lead time',
    description: 'Accept a longer lead time for a lower price, or ask a premium for a rush.',
    side: 'both',
  },
  {
    id: 'STRAT_PACKAGE_DEAL',
    name: 'Package deal',
    description: 'Propose price, terms and lead time together as one package to be taken or countered whole.',
    side: 'both',
  },
  {
    id: 'STRAT_CONDITIONAL_CONCESSION',
    name: 'Conditional concession',
    description: 'Concede only in "if you …, then we …" form, never for nothing.',
    side: 'both',
  },
  {
    id: 'STRAT_SPLIT_DIFFERENCE',
    name: 'Split the difference',
    description: 'Close a small remaining gap by meeting halfway.',
    side: 'both',
  },
  {
    id: 'STRAT_BATNA_SIGNAL',
    name: 'Signal the alternative',
    description: 'Make the walk-away option credible: other suppliers, other customers, a split order.',
    side: 'both',
  },
  {
    id: 'STRAT_LONG_TERM_PARTNERSHIP',
    name: 'Long-term partnership',
    description: 'Frame concessions now against future orders and a lasting relationship.',
    side: 'both',
  },
  {
    id: 'STRAT_SKU_MIX',
    name: 'Reshape the SKU mix',
    description: 'Ask which SKUs carry the margin and move the pressure to them, item by item.',
    side: 'brand',
  },
  {
    id: 'STRAT_SUPPLY_RISK',
    name: 'Price in supply risk',
    description: 'Raise defect rates, on-time delivery and capacity as reasons the price must reflect risk.',
    side: 'brand',
  },
  {
    id: 'STRAT_QUALITY_JUSTIFICATION',
    name: 'Justify with quality',
    description: 'Defend the price with quality ratings, defect rates, materials and certifications.',
    side: 'supplier',
  },
  {
    id: 'STRAT_CAPACITY_DEADLINE',
    name: 'Capacity deadline',
    description: 'Hold the offer only until a date or while production capacity lasts.',
    side: 'supplier',
  },
  {
    id: 'STRAT_COST_BREAKDOWN',
    name: 'Show the cost basis',
    description: 'Explain the price from fabric, labour and freight costs so a cut looks unreasonable.',
    side: 'supplier',
  },
  {
    id: 'STRAT_NIBBLE',
    name: 'Nibble',
    description: 'Once the main terms are close, ask for a small extra: samples, packaging, free freight.',
    side: 'both',
  },
  {
    id: 'STRAT_ASK_CRITERIA',
    name: 'Ask what it takes',
    description: 'Ask the other side what would let it move, before proposing anything.',
    side: 'both',
  },
  {
    id: 'STRAT_SUMMARIZE_LOCK',
    name: 'Summarise and lock in',
    description: 'Restate what is already agreed so later rounds only discuss what is open.',
    side: 'both',
  },
];

const byId = new Map(STRATEGIES.map((strategy) => [strategy.id, strategy]));

export function getStrategy(id: string): Strategy | null {
  return byId.get(id) ?? null;
}

/** The registry ids among an agent's `used_strategies`, in its order, once each: an LLM may invent ids. */
export function knownStrategyIds(used: readonly string[]): string[] {
  return [...new Set(used.filter((id) => byId.has(id)))];
}

/** The strategies one side may use: its own and the shared ones; all of them without a side. */
export function strategiesFor(side?: Exclude<StrategySide, 'both'>): Strategy[] {
  return STRATEGIES.filter((strategy) => side === undefined || strategy.side === 'both' || strategy.side === side);
}

/**
 * `count` distinct strategies in random order (a partial Fisher–Yates shuffle on `rng.next()` only, so any RNG with
 * that method will do and the same seed always gives the same draw).
 */
export function sampleStrategies(rng: Pick<Rng, 'next'>, count = 4, side?: Exclude<StrategySide, 'both'>): Strategy[] {
  const pool = strategiesFor(side);
  if (!Number.isInteger(count) || count < 0 || count > pool.length) {
    throw new RangeError(`cannot draw ${count} distinct strategies from ${pool.length}`);
  }
  for (let i = 0; i < count; i++) {
    // next() is in [0, 1); the min() guards an RNG that returns exactly 1.
    const j = Math.min(pool.length - 1, i + Math.floor(rng.next() * (pool.length - i)));
    const picked = pool[j];
    const current = pool[i];
    if (picked === undefined || current === undefined) break;
    pool[i] = picked;
    pool[j] = current;
  }
  return pool.slice(0, count);
}
