// The end of a round: where every supplier stands, the round's PASS / NEUTRAL / FAIL against the buyer's mandate,
// and the best offer so far.
import type { KnownBlock } from '@slack/types';
import type { RoundEvaluation } from '../../negotiation/types.js';
import { type SlackMessage, context, days, header, money, plural, section, terms } from './blocks.js';
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
}

export interface RoundAnalysisModel {
  round: number;
  maxRounds: number;
  phase: 'initial' | 'post_curveball';
  currency: string;
  rows: RoundAnalysisRow[];
  /** The best offer's supplier; by default the lowest total. */
  bestSupplierCode?: string | null;
}

export const EVALUATION_BADGE: Readonly<Record<RoundEvaluation, string>> = {
  PASS: ':white_check_mark: PASS',
  NEUTRAL: ':large_yellow_circle: NEUTRAL',
  FAIL: ':x: FAIL',
};

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
    if (row.total === null || !Number.isFinite(row.total)) continue;
    if (best === null || best.total === null || row.total < best.total) best = row;
  }
  return best?.supplierCode ?? null;
}

export function buildRoundAnalysis(model: RoundAnalysisModel): SlackMessage {
  const best = model.bestSupplierCode === undefined ? lowestTotal(model.rows) : model.bestSupplierCode;
  const phase = model.phase === 'post_curveball' ? 'after the curveball' : 'opening phase';
  const blocks: KnownBlock[] = [
    header(`Round ${model.round} of ${model.maxRounds} — analysis`),
    context([`:bar_chart: ${phase} · ${plural(model.rows.length, 'supplier')}`]),
  ];
  const shown = model.rows.slice(0, MAX_ROWS);
  for (const row of shown) {
    const isBest = row.supplierCode === best;
    const name = inline(row.supplierName, 80);
    const reason = row.reason ? ` — ${inline(row.reason, 200)}` : '';
    const figures = [money(row.total, model.currency), days(row.leadTimeDays), terms(row.paymentTerms)].join(' · ');
    blocks.push(
      section(
        `${isBest ? ':star: ' : ''}*${name}*${isBest ? ' — *best offer*' : ''}\n` +
          `${figures}\n${EVALUATION_BADGE[row.evaluation]} · ${STATUS_TEXT[row.status]}${reason}`,
      ),
    );
  }
  if (model.rows.length > shown.length)
    blocks.push(context([`…and ${plural(model.rows.length - shown.length, 'more supplier')}`]));

  const bestRow = model.rows.find((r) => r.supplierCode === best);
  const bestText = bestRow
    ? ` Best offer: ${inline(bestRow.supplierName, 80)} at ${money(bestRow.total, model.currency)}.`
    : '';
  const counts = (['PASS', 'NEUTRAL', 'FAIL'] as const)
    .map((e) => `${model.rows.filter((r) => r.evaluation === e).length} ${e}`)
    .join(', ');
  return { text: `Round ${model.round} of ${model.maxRounds}: ${counts}.${bestText}`, blocks };
}
