// The offline twins' link to the strategy suggestions of seed 001 (registry in ../strategies.ts). Each template is
// tagged with the tactics it really uses; a strategy id is read as the tactic its name names ("STRAT_TRADE_TERMS" →
// terms), so ids from a future registry still match. A turn credits the offered ids whose tactic it used, and when
// its templates used none, it adds one sentence that does (strategyLine) rather than claim a strategy it did not use.
import type { Rng } from '../../../commerce/rng.js';
import { skeleton } from '../format.js';

export const TACTICS = [
  'anchor',
  'batna',
  'volume',
  'tier',
  'terms',
  'leadTime',
  'package',
  'conditional',
  'splitDifference',
  'partnership',
  'skuMix',
  'supplyRisk',
  'quality',
  'deadline',
  'costBasis',
  'nibble',
  'inquiry',
  'summary',
] as const;
export type Tactic = (typeof TACTICS)[number];

/** Words in a strategy id that name each tactic; every registry id names exactly one (tested). */
const KEYWORDS: Readonly<Record<Tactic, readonly string[]>> = {
  anchor: ['ANCHOR'],
  batna: ['BATNA', 'ALTERNATIVE', 'WALK_AWAY', 'OUTSIDE_OPTION'],
  volume: ['VOLUME', 'BULK', 'QUANTITY'],
  tier: ['TIER'],
  terms: ['TERMS', 'PAYMENT', 'DEPOSIT'],
  leadTime: ['LEAD_TIME', 'LEADTIME', 'RUSH'],
  package: ['PACKAGE', 'BUNDLE', 'LOGROLL'],
  conditional: ['CONDITIONAL', 'IF_THEN', 'RECIPROC'],
  splitDifference: ['SPLIT_DIFF', 'DIFFERENCE', 'HALFWAY', 'MIDPOINT'],
  partnership: ['PARTNER', 'LONG_TERM', 'RELATIONSHIP'],
  skuMix: ['SKU', 'MIX'],
  supplyRisk: ['RISK', 'DIVERSIF'],
  quality: ['QUALITY'],
  deadline: ['DEADLINE', 'URGEN', 'EXPIR', 'EXPLODING'],
  costBasis: ['COST_BREAKDOWN', 'COST_BASIS', 'BREAKDOWN'],
  nibble: ['NIBBLE', 'EXTRAS'],
  inquiry: ['CRITERIA', 'ASK_WHAT', 'QUESTION', 'PROBE'],
  summary: ['SUMMAR', 'RECAP', 'LOCK_IN'],
};

function normalise(id: string): string {
  return id.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

export function tacticsOfStrategy(id: string): Tactic[] {
  const name = normalise(id);
  return TACTICS.filter((tactic) => KEYWORDS[tactic].some((keyword) => name.includes(keyword)));
}

/** The tactics the offered strategies point to: templates using them are preferred. */
export function preferredTactics(strategyIds: readonly string[]): ReadonlySet<Tactic> {
  return new Set(strategyIds.flatMap(tacticsOfStrategy));
}

/** The offered ids whose tactic the turn used, in the order they were offered. */
export function creditStrategies(strategyIds: readonly string[], used: ReadonlySet<Tactic>): string[] {
  return strategyIds.filter((id) => tacticsOfStrategy(id).some((tactic) => used.has(tactic)));
}

/**
 * When a turn's templates used none of the offered strategies: a line for an offered tactic that fits this turn (its
 * `applies` holds), preferring one the agent has not said yet. Null when nothing was offered or nothing fits.
 */
export function missingStrategy<F>(
  strategyIds: readonly string[],
  used: ReadonlySet<Tactic>,
  lines: Readonly<Partial<Record<Tactic, readonly Phrase<F>[]>>>,
  fill: F,
  said: (sentence: string) => boolean,
): readonly Phrase<F>[] | null {
  if (creditStrategies(strategyIds, used).length > 0) return null;
  const fitting = strategyIds
    .flatMap(tacticsOfStrategy)
    .map((tactic) => (lines[tactic] ?? []).filter((line) => line.applies?.(fill) ?? true))
    .filter((bank) => bank.length > 0);
  return fitting.find((bank) => bank.some((line) => !said(line.render(fill)))) ?? fitting[0] ?? null;
}

export interface Phrase<F> {
  readonly tactics: readonly Tactic[];
  readonly render: (fill: F) => string;
  /** When the sentence makes sense; always, when absent. */
  readonly applies?: (fill: F) => boolean;
}

export function phrase<F>(
  tactics: readonly Tactic[],
  render: (fill: F) => string,
  applies?: (fill: F) => boolean,
): Phrase<F> {
  const rendered = (fill: F) => closeSentences(render(fill));
  return applies === undefined ? { tactics, render: rendered } : { tactics, render: rendered, applies };
}

/**
 * A template ends its sentence after a name, and a name may end in an abbreviation's period ("… Co., Ltd."): one
 * period closes both, as a writer would ("Thanks, Acme Ltd." — not "Ltd.."). An ellipsis is left alone.
 */
export function closeSentences(text: string): string {
  return text.replace(/(?<=\p{L})\.\.(?!\.)/gu, '.');
}

/** How often a template matching a suggested strategy is preferred; below 1 so a matching template does not repeat. */
const PREFERENCE = 0.6;

/**
 * One template from a bank, rendered. Prefers templates whose tactics the suggested strategies name, and avoids a
 * sentence the agent already said (numbers aside), so four rounds do not read as one sentence on a loop.
 */
export function pickPhrase<F>(
  bank: readonly Phrase<F>[],
  fill: F,
  rng: Rng,
  options: { preferred: ReadonlySet<Tactic>; said: (sentence: string) => boolean },
): { text: string; tactics: readonly Tactic[] } {
  const fitting = bank.filter((candidate) => candidate.applies?.(fill) ?? true);
  const usable = fitting.length > 0 ? fitting : bank;
  const matching = usable.filter((candidate) => candidate.tactics.some((tactic) => options.preferred.has(tactic)));
  const pool = matching.length > 0 && rng.next() < PREFERENCE ? matching : usable;
  const rest = usable.filter((candidate) => !pool.includes(candidate));
  const order = [...rng.sample(pool, pool.length), ...rng.sample(rest, rest.length)];
  const fresh = order.find((candidate) => !options.said(candidate.render(fill))) ?? order[0];
  if (fresh === undefined) throw new Error('empty phrase bank');
  return { text: fresh.render(fill), tactics: fresh.tactics };
}

/** One sentence of an offline turn, as both twins assemble and trim a message. */
export interface MessagePart {
  text: string;
  tactics: readonly Tactic[];
  /** Required parts are never dropped; optional ones go lightest first when the message runs long. */
  optional: boolean;
  weight: number;
}

/**
 * Whether a sentence repeats one already said: its skeleton is in this message (`current`, filled as it is written)
 * or in one of the side's earlier messages.
 */
function repeatCheck(previousTexts: readonly string[], current: readonly string[]): (sentence: string) => boolean {
  const previousSkeletons = previousTexts.map(skeleton);
  return (sentence) => {
    const shape = skeleton(sentence);
    return current.includes(shape) || previousSkeletons.some((text) => text.includes(shape));
  };
}

/**
 * One side's wording across one message: the tactics its offered strategies prefer, what it said in earlier messages,
 * and the sentences already in this one, so a template is not used twice in a message or said again.
 */
export class Wording {
  readonly preferred: ReadonlySet<Tactic>;
  readonly previousTexts: readonly string[];
  readonly said: (sentence: string) => boolean;
  /** Skeletons of the sentences already in this message. */
  private readonly current: string[] = [];

  constructor(
    context: {
      suggestedStrategies: readonly string[];
      history: { messages: readonly { from: string; text: string }[] };
    },
    side: 'brand' | 'supplier',
  ) {
    this.preferred = preferredTactics(context.suggestedStrategies);
    this.previousTexts = context.history.messages.filter((m) => m.from === side).map((m) => m.text);
    this.said = repeatCheck(this.previousTexts, this.current);
  }

  /** A fresh sentence from the bank, preferring the offered tactics; it counts as said in this message from now. */
  part<F>(bank: readonly Phrase<F>[], fill: F, rng: Rng, optional: boolean, weight: number): MessagePart {
    const picked = pickPhrase(bank, fill, rng, { preferred: this.preferred, said: this.said });
    this.current.push(skeleton(picked.text));
    return { ...picked, optional, weight };
  }
}
