// The end of a round: where every supplier stands against the buyer's target and walk-away (meets target / within
// walk-away / above walk-away, with the two limits named), and the best offer so far.
import type { KnownBlock } from '@slack/types';
import { EVALUATION_LABELS, evaluationLabel, UNMANDATED_NEUTRAL_BAND } from '../../negotiation/offers.js';
import { formatPercent } from '../../commerce/money.js';
import type { RoundEvaluation } from '../../negotiation/types.js';
import { type SlackMessage, context, days, header, money, plural, section, terms } from './blocks.js';
import { partialLines } from './agent-turn.js';
import { inline } from './escape.js';

export type RoundSupplierStatus = 'active' | 'paused' | 'completed' | 'impasse';

export interface RoundAnalysisRow {
  supplierCode: string;
  supplierName: string;
  total: number | null;
  leadTimeDays: number | null;
  paymentTerms: string | null;
  evaluation: RoundEvaluation;
  status: RoundSupplierStatus;
  /** Why it stopped (impasse) or paused. */
  reason?: string | null;
  /** The lead time or terms shown are Parley's assumptions (the supplier has not stated them): labelled so. */
  assumedLeadTime?: boolean;
  assumedTerms?: boolean;
  /** The offer prices only some of the quotation's lines: its total is theirs, and it is never the best offer. */
  partial?: { offered: number; quoted: number } | null;
}

export interface RoundAnalysisModel {
  round: number;
  maxRounds: number;
  phase: 'initial' | 'post_curveball';
  currency: string;
  rows: RoundAnalysisRow[];
  /** The best offer's supplier; by default the lowest total of an offer for every line. */
  bestSupplierCode?: string | null;
  /** The target and walk-away the labels measure against, and whether the buyer set each (else implied: offers.ts). */
  limits?: { targetTotal: number; walkAwayTotal: number; targetSet: boolean; walkAwaySet: boolean };
}

const EVALUATION_EMOJI: Readonly<Record<RoundEvaluation, string>> = {
  PASS: ':white_check_mark:',
  NEUTRAL: ':large_yellow_circle:',
  FAIL: ':x:',
};

/** ":white_check_mark: meets target": what the outcome measures, never a bare PASS / NEUTRAL / FAIL. */
export function evaluationBadge(evaluation: RoundEvaluation, total: number | null): string {
  return `${EVALUATION_EMOJI[evaluation]} ${evaluationLabel(evaluation, total)}`;
}

const STATUS_TEXT: Readonly<Record<RoundSupplierStatus, string>> = {
  active: 'active',
  paused: 'paused',
  completed: 'done',
  impasse: 'impasse',
};

const MAX_ROWS = 20;

function lowestTotal(rows: readonly RoundAnalysisRow[]): string | null {
  let best: RoundAnalysisRow | null = null;
  for (const row of rows) {
    // A total for fewer lines is lower for that alone: only offers for the whole order compare.
    if (row.total === null || !Number.isFinite(row.total) || partialLines(row.partial) !== '') continue;
    if (best === null || best.total === null || row.total < best.total) best = row;
  }
  return best?.supplierCode ?? null;
}

export function buildRoundAnalysis(model: RoundAnalysisModel): SlackMessage {
  return {
    text: roundStandingText(model),
    blocks: [header(`Round ${model.round} of ${model.maxRounds} — analysis`), ...roundStandingBlocks(model)],
  };
}

function bestOf(model: RoundAnalysisModel): string | null {
  return model.bestSupplierCode === undefined ? lowestTotal(model.rows) : model.bestSupplierCode;
}

/** Where every supplier stands at the end of a round: the limits measured against, then one section per supplier. */
export function roundStandingBlocks(model: RoundAnalysisModel): KnownBlock[] {
  const best = bestOf(model);
  const phase = model.phase === 'post_curveball' ? 'after the curveball' : 'opening phase';
  const blocks: KnownBlock[] = [
    context([`:bar_chart: ${phase} · ${plural(model.rows.length, 'supplier')}${limitsText(model)}`]),
  ];
  const shown = model.rows.slice(0, MAX_ROWS);
  for (const row of shown) {
    const isBest = row.supplierCode === best;
    const name = inline(row.supplierName, 80);
    const reason = row.reason ? ` — ${inline(row.reason, 200)}` : '';
    // Never shown as the supplier's: a figure it has not stated is "not stated", with the default scoring uses.
    const assumed = (text: string, is: boolean | undefined) =>
      is && text !== '—' ? `not stated _(${text} assumed)_` : text;
    const figures = [
      `${money(row.total, model.currency)}${partialLines(row.partial)}`,
      assumed(days(row.leadTimeDays), row.assumedLeadTime),
      assumed(terms(row.paymentTerms), row.assumedTerms),
    ].join(' · ');
    blocks.push(
      section(
        `${isBest ? ':star: ' : ''}*${name}*${isBest ? ' — *best offer*' : ''}\n` +
          `${figures}\n${evaluationBadge(row.evaluation, row.total)} · ${STATUS_TEXT[row.status]}${reason}`,
      ),
    );
  }
  if (model.rows.length > shown.length)
    blocks.push(context([`…and ${plural(model.rows.length - shown.length, 'more supplier')}`]));
  return blocks;
}

/** "Round 2 of 4: 1 meets target, …. Best offer: X at $Y." — the standing as one line (a message's fallback text). */
export function roundStandingText(model: RoundAnalysisModel): string {
  const best = bestOf(model);
  const bestRow = model.rows.find((r) => r.supplierCode === best);
  const bestText = bestRow
    ? ` Best offer: ${inline(bestRow.supplierName, 80)} at ${money(bestRow.total, model.currency)}.`
    : '';
  const counts = (['PASS', 'NEUTRAL', 'FAIL'] as const)
    .map((e) => `${model.rows.filter((r) => r.evaluation === e && r.total !== null).length} ${EVALUATION_LABELS[e]}`)
    .join(', ');
  return `Round ${model.round} of ${model.maxRounds}: ${counts}.${bestText}`;
}

/** " · target $X · walk-away $Y": what the labels measure, saying which limit Parley implied when none was set. */
function limitsText(model: RoundAnalysisModel): string {
  const limits = model.limits;
  if (limits === undefined) return '';
  // Without a target, the quote is the target — or the walk-away, when that is lower (negotiation/offers.ts).
  const implied = limits.walkAwaySet && limits.targetTotal === limits.walkAwayTotal ? 'the walk-away' : 'the quote';
  const target = `target ${money(limits.targetTotal, model.currency)}${limits.targetSet ? '' : ` (${implied}: none set)`}`;
  const walkAway =
    `walk-away ${money(limits.walkAwayTotal, model.currency)}` +
    (limits.walkAwaySet ? '' : ` (${formatPercent(UNMANDATED_NEUTRAL_BAND, 0)} above the target: none set)`);
  return ` · ${target} · ${walkAway}`;
}
