// The outcomes benchmark's scenarios: bundled samples × modes × mandates × the buyer's answers × seeds. Each scenario
// is a buyer with a mandate (what they want) and a way of answering questions; the benchmark plays it with the
// offline agents and then checks the outcome against that mandate — not against what the code managed to express.
//
// Why this composition (samples 01–12 × 5 modes × 5 mandates × 3 answer policies = 900, one seed per cell): every
// bundled layout but the 3,000-line sample 13 (which alone takes longer than the rest; `--samples 13` plays it), every
// preset mode, the mandates the start modal can set, and three buyers who all answer — by the first button, by another
// button, or by typing in the thread. Every scenario therefore reaches an outcome (an award, or "nothing can be
// awarded within your mandate"), so each share is a share of negotiations that ended. The buyer who never answers is
// not a scenario: see ANSWER_POLICIES.
import type { PresetMode } from '../../src/config/business-rules.js';
import type { Baseline } from '../../src/negotiation/types.js';

export const OUTCOME_MODES: readonly PresetMode[] = ['cost', 'quality', 'speed', 'cashflow', 'balanced'];

/**
 * none: no limits. target: a target 10% under the quote. walk_away: a tight walk-away, 7% under the quote (the quoting
 * supplier can reach it; the others only by a split, if at all). deadline: delivery within 30 days (the quoting
 * supplier's stated or assumed lead time is often longer). single_source: one supplier for the whole order.
 */
export const MANDATE_KINDS = ['none', 'target', 'walk_away', 'deadline', 'single_source'] as const;
export type MandateKind = (typeof MANDATE_KINDS)[number];

/**
 * How the buyer answers the agents' questions. first: the first suggested answer (the button a hurried buyer clicks).
 * other: another suggested answer, picked by the seed. typed: a free-text reply in the thread (typed-replies.ts), which
 * takes the thread reply's path, so the benchmark also measures how Parley reads what buyers actually write.
 *
 * Why no buyer who never answers: such a negotiation waits on its first question until the product expires it days
 * later (services/negotiation/expire-paused-negotiation.ts, tested there). It never reaches an outcome, so as a third
 * of the grid it only diluted every share (dealRate 0.427 with it, as measured before it was replaced). Early
 * termination is a button, not a question a reply answers: the `first` and `typed` buyers click "Finish now", the
 * `other` buyer keeps negotiating.
 */
export const ANSWER_POLICIES = ['first', 'other', 'typed'] as const;
export type AnswerPolicy = (typeof ANSWER_POLICIES)[number];

export const MANDATE_FRACTIONS = { target: 0.9, walkAway: 0.93 } as const;
export const DEADLINE_DAYS = 30;

export interface Scenario {
  id: number;
  /** File name under data/samples/. */
  sample: string;
  mode: PresetMode;
  mandate: MandateKind;
  answers: AnswerPolicy;
  seed: number;
}

/** What the buyer wants: every limit the benchmark checks the award against. */
export interface IntendedMandate {
  targetTotal: number | null;
  walkAwayTotal: number | null;
  maxLeadTimeDays: number | null;
  singleSource: boolean;
}

export function intendedMandate(kind: MandateKind, baseline: Pick<Baseline, 'total'>): IntendedMandate {
  const fraction = (share: number) => Math.round(baseline.total * share);
  return {
    targetTotal: kind === 'target' ? fraction(MANDATE_FRACTIONS.target) : null,
    walkAwayTotal: kind === 'walk_away' ? fraction(MANDATE_FRACTIONS.walkAway) : null,
    maxLeadTimeDays: kind === 'deadline' ? DEADLINE_DAYS : null,
    singleSource: kind === 'single_source',
  };
}

export interface GridOptions {
  samples: readonly string[];
  /** Seeds per cell of samples × modes × mandates × answers. */
  seedsPerCell: number;
  modes?: readonly PresetMode[];
  mandates?: readonly MandateKind[];
  answers?: readonly AnswerPolicy[];
}

/**
 * The full grid, each cell played with `seedsPerCell` seeds. Seeds differ from cell to cell (a multiplicative hash of
 * the cell's index), so one seed's quirks do not repeat across the whole grid.
 */
export function scenarioGrid(options: GridOptions): Scenario[] {
  const scenarios: Scenario[] = [];
  for (const sample of options.samples)
    for (const mode of options.modes ?? OUTCOME_MODES)
      for (const mandate of options.mandates ?? MANDATE_KINDS)
        for (const answers of options.answers ?? ANSWER_POLICIES)
          for (let copy = 0; copy < options.seedsPerCell; copy++) {
            const id = scenarios.length;
            scenarios.push({ id, sample, mode, mandate, answers, seed: 1 + ((id * 7_919 + copy * 104_729) % 9_973) });
          }
  return scenarios;
}
