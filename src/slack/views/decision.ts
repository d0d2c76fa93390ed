// The recommendation: who to buy what from, in numbers code decided (scores, totals, landed cost, savings) and words
// the writer produced (summary, trade-offs, why not the cheapest), with the button that opens the PO for approval.
// The price chart is uploaded as its own file, so there is no image here.
import type { KnownBlock } from '@slack/types';
import { formatMoney } from '../../commerce/money.js';
import { describePaymentTerms } from '../../commerce/payment-terms.js';
import { describeAiCost } from '../../decision/write-decision.js';
import { ACTION, BLOCK, feedbackCodec, poIdCodec } from '../ids.js';
import {
  type SlackMessage,
  actions,
  button,
  context,
  days,
  divider,
  header,
  money,
  percent,
  plainLabel,
  section,
} from './blocks.js';
import { clip, escapeTruncate, inline, preformatted } from './escape.js';
import { type Cell, DATA_TABLE_MAX_ROWS, dataTableBlock, TABLE_MAX_COLUMNS, tableBlock } from './tables.js';
import { type AcceptedPremium, acceptedPremiumNote, type PremiumOffer, premiumBlocks } from './premium.js';
import { approversWanted } from './po-outcome.js';

export interface DecisionScoreRow {
  supplierName: string;
  rank: number;
  /** 0–100 each. */
  score: number;
  price: number;
  quality: number;
  leadTime: number;
  terms: number;
  reliability: number;
}

export interface DecisionOfferRow {
  supplierName: string;
  total: number;
  cashFlowCost: number;
  effectiveLandedCost: number;
  leadTimeDays: number;
  paymentTerms: string;
  /** This supplier's lead time or terms are Parley's assumptions (it never stated them): marked in the table. */
  assumedLeadTime?: boolean;
  assumedTerms?: boolean;
}

/** One quotation line across the suppliers: each one's final unit price, and who the award gives it to. */
export interface DecisionLineRow {
  sku: string;
  quantity: number;
  /** In the order of `DecisionModel.lines.suppliers`; null where that supplier made no offer on the line. */
  unitPrices: (number | null)[];
  /** Awarded supplier names with their share of the line's quantity. */
  awarded: { supplierName: string; share: number }[];
}

/** What the negotiation's Claude calls cost (llm/usage*.ts records them per negotiation); zero calls when offline. */
export interface DecisionAiCost {
  usd: number;
  calls: number;
}

export interface DecisionModel {
  currency: string;
  /** The mode's name as the buyer chose it ("Balanced"). */
  modeLabel: string;
  recommendation: {
    shares: { supplierName: string; share: number }[];
    isSplit: boolean;
    forcedSplit: boolean;
    leadTimeDays: number;
    /** The award's FOB and landed cost. */
    awardedTotal: number;
    awardedLandedCost: number;
  };
  /** Writer's prose. */
  summary: string;
  tradeOffs: string;
  cheapestNotChosenReason: string | null;
  scores: DecisionScoreRow[];
  offers: DecisionOfferRow[];
  savings: {
    baselineTotal: number;
    identified: { amount: number; share: number; bestOfferName: string };
    /** `landedAgainst`: the quote's landed cost the saving is measured from (decide.ts), null when on price. */
    awarded: { amount: number; share: number; landedAgainst?: number | null };
  };
  excluded?: { supplierName: string; reason: string }[];
  /** The draft PO the button opens, and the approvers it waits for (mentioned); null while it is being drafted. */
  purchaseOrder: { id: string; number: string; approverIds: readonly string[] } | null;
  /** Lines × suppliers (the largest lines first); `totalLines` counts those not shown too. */
  lines?: { suppliers: string[]; rows: DecisionLineRow[]; totalLines: number } | null;
  /** The negotiation its 👍 / 👎 buttons rate; absent: no feedback buttons. */
  feedback?: { negotiationId: string } | null;
  /** The AI cost of reaching this recommendation; absent when it was not looked up. */
  aiCost?: DecisionAiCost | null;
  /** An award above the quote the buyer may accept (its button); absent or null when there is none. */
  premium?: PremiumOffer | null;
  /** The premium the buyer accepted, when this award costs more than the quote. */
  acceptedPremium?: AcceptedPremium | null;
}

/** 👍 / 👎 under the recommendation (a context_actions block): each side's value names the negotiation and the side. */
function feedbackButtons(negotiationId: string): KnownBlock {
  const side = (r: 'positive' | 'negative', text: string, label: string) => ({
    text: plainLabel(text),
    value: feedbackCodec.encode({ n: negotiationId, r }),
    accessibility_label: label,
  });
  return {
    type: 'context_actions',
    block_id: BLOCK.decisionFeedback,
    elements: [
      {
        type: 'feedback_buttons',
        action_id: ACTION.decisionFeedback,
        positive_button: side('positive', '👍', 'This recommendation is good'),
        negative_button: side('negative', '👎', 'This recommendation is not good'),
      },
    ],
  };
}

/** A new draft has no approvals yet: every configured approver is asked. */
function wantedFor(po: NonNullable<DecisionModel['purchaseOrder']>) {
  return { poNumber: po.number, waitingFor: po.approverIds, which: 'first' as const };
}

/** An assumed figure in the tables: a mark, explained under them. */
const ASSUMED_MARK = '*';

const NAME_COL = 18;

function pad(s: string, n: number): string {
  return s.length >= n ? s.slice(0, n) : s + ' '.repeat(n - s.length);
}

function padLeft(s: string, n: number): string {
  return s.length >= n ? s : ' '.repeat(n - s.length) + s;
}

function col(name: string): string {
  return pad(clip(name, NAME_COL), NAME_COL);
}

/** The scores as a `table` block: supplier, total and each factor, best first. */
function scoresTable(rows: readonly DecisionScoreRow[]): KnownBlock {
  const n = (x: number): Cell => (Number.isFinite(x) ? { value: Math.round(x), text: x.toFixed(0) } : '—');
  return tableBlock(
    ['Supplier', 'Score', 'Price', 'Quality', 'Lead time', 'Terms', 'Reliability'],
    [...rows]
      .sort((a, b) => a.rank - b.rank)
      .map((r) => [r.supplierName, n(r.score), n(r.price), n(r.quality), n(r.leadTime), n(r.terms), n(r.reliability)]),
    ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
}

/** Lines × suppliers as a paged `data_table`: each supplier's final unit price, the awarded supplier and its share. */
function lineTable(lines: NonNullable<DecisionModel['lines']>, currency: string): KnownBlock[] {
  // Room for SKU, quantity, awarded and share beside the suppliers' columns.
  const suppliers = lines.suppliers.slice(0, TABLE_MAX_COLUMNS - 4);
  const price = (x: number | null): Cell => (x === null ? '—' : { value: x, text: formatPlain(x, currency) });
  const rows = lines.rows
    .slice(0, DATA_TABLE_MAX_ROWS)
    .map((line): Cell[] => [
      line.sku,
      { value: line.quantity, text: line.quantity.toLocaleString('en-US') },
      ...suppliers.map((_, i) => price(line.unitPrices[i] ?? null)),
      line.awarded.map((a) => a.supplierName).join(' + ') || 'not awarded',
      line.awarded.map((a) => percent(a.share)).join(' + ') || '—',
    ]);
  const blocks: KnownBlock[] = [
    dataTableBlock(
      'Final unit price by line and supplier, and who each line is awarded to',
      ['SKU', 'Qty', ...suppliers.map((name) => `${name} (unit)`), 'Awarded', 'Share'],
      rows,
    ),
  ];
  const hidden = lines.totalLines - rows.length;
  if (hidden > 0) {
    // The PO workbook holds the awarded lines only: the hidden ones nobody was awarded are counted apart.
    const unawarded = lines.rows.slice(rows.length).filter((line) => line.awarded.length === 0).length;
    const count = (n: number) => n.toLocaleString('en-US');
    const where = [
      ...(hidden > unawarded ? [`${count(hidden - unawarded)} more are in the PO workbook`] : []),
      ...(unawarded > 0 ? [`${count(unawarded)} more were not awarded to anyone`] : []),
    ];
    blocks.push(context([`The ${rows.length} largest lines shown; ${where.join(', and ')}.`]));
  }
  return blocks;
}

function costTable(rows: readonly DecisionOfferRow[], currency: string): string[] {
  const m = (x: number) => padLeft(Number.isFinite(x) ? formatPlain(x, currency) : '—', 13);
  return [
    `${pad('Supplier', NAME_COL)}         Total    Cash flow       Landed  Lead  Terms`,
    ...rows.map(
      (r) =>
        `${col(r.supplierName)} ${m(r.total)} ${m(r.cashFlowCost)} ${m(r.effectiveLandedCost)} ` +
        `${padLeft(`${r.leadTimeDays}d${r.assumedLeadTime ? ASSUMED_MARK : ''}`, 5)}  ` +
        `${clip(describePaymentTerms(r.paymentTerms), 14)}${r.assumedTerms ? ASSUMED_MARK : ''}`,
    ),
  ];
}

/** Money as raw text for the preformatted tables, which escape as a whole. */
function formatPlain(amount: number, currency: string): string {
  return formatMoney(amount, currency.slice(0, 8));
}

/** ":robot_face: AI cost of this negotiation: $0.14 over 37 calls." — or none at all, offline. */
export function aiCostText(cost: DecisionAiCost): string {
  const words = describeAiCost(cost);
  return cost.calls === 0 ? `:robot_face: AI cost: ${words}.` : `:robot_face: AI cost of this negotiation: ${words}.`;
}

export function buildDecision(model: DecisionModel): SlackMessage {
  const cur = model.currency;
  const rec = model.recommendation;
  const names = rec.shares.map((s) => inline(s.supplierName, 60));
  const headline = rec.isSplit
    ? `Split the order: ${rec.shares.map((s, i) => `*${names[i]}* ${percent(s.share)}`).join(' · ')}`
    : `Buy from *${names[0] ?? '—'}*`;
  const forced = rec.forcedSplit ? ' _(no single supplier can fill the whole order)_' : '';

  const blocks: KnownBlock[] = [
    header('Recommendation'),
    section(
      `:trophy: ${headline}${forced}\n` +
        `${money(rec.awardedTotal, cur)} FOB · ${money(rec.awardedLandedCost, cur)} landed · complete in ${days(rec.leadTimeDays)}` +
        ` · ${inline(model.modeLabel, 30)} mode`,
    ),
    section(escapeTruncate(model.summary.trim(), 2800) || '—'),
  ];

  if (model.scores.length > 0) {
    blocks.push(section('*Scores* (0–100)'), scoresTable(model.scores));
  }
  const shownOffers = model.offers.slice(0, 12);
  const costs = preformatted(costTable(shownOffers, cur), 2900);
  if (costs.text) blocks.push(section(`*Totals and landed cost*\n${costs.text}`));
  if (shownOffers.some((r) => r.assumedLeadTime || r.assumedTerms)) {
    blocks.push(
      context([`${ASSUMED_MARK} assumed: the supplier has not stated it; Parley's default is used for scoring.`]),
    );
  }

  if (model.lines && model.lines.rows.length > 0) blocks.push(...lineTable(model.lines, cur));

  const s = model.savings;
  blocks.push(
    section(
      `*Savings vs the quoted ${money(s.baselineTotal, cur)}*\n` +
        (s.identified.amount >= 0
          ? `• Identified: ${money(s.identified.amount, cur)} (${percent(s.identified.share, 1)}), best offer from ` +
            `${inline(s.identified.bestOfferName, 60)}\n`
          : `• Identified: none, the best offer (${inline(s.identified.bestOfferName, 60)}'s) costs ` +
            `${overQuote(s.identified.amount, cur, s.identified.share)}\n`) +
        (s.awarded.amount >= 0
          ? `• Awarded: ${money(s.awarded.amount, cur)} (${percent(s.awarded.share, 1)})`
          : `• Awarded: costs ${overQuote(s.awarded.amount, cur, s.awarded.share)}`) +
        (typeof s.awarded.landedAgainst === 'number'
          ? ` on landed cost, against the quote's ${money(s.awarded.landedAgainst, cur)} landed`
          : ''),
    ),
  );

  if (model.cheapestNotChosenReason && model.cheapestNotChosenReason.trim()) {
    blocks.push(section(`*Why not the cheapest?*\n${escapeTruncate(model.cheapestNotChosenReason.trim(), 2500)}`));
  }
  if (model.tradeOffs.trim()) blocks.push(section(`*Trade-offs*\n${escapeTruncate(model.tradeOffs.trim(), 2500)}`));
  const excluded = (model.excluded ?? []).slice(0, 5);
  if (excluded.length > 0) {
    blocks.push(
      context([
        `Left out: ${excluded.map((e) => `${inline(e.supplierName, 60)} (${inline(e.reason, 150)})`).join('; ')}`,
      ]),
    );
  }

  if (model.aiCost) blocks.push(context([aiCostText(model.aiCost)]));
  if (model.acceptedPremium) blocks.push(acceptedPremiumNote(model.acceptedPremium, cur));
  if (model.premium) blocks.push(...premiumBlocks(model.premium, cur));

  blocks.push(divider());
  if (model.purchaseOrder) {
    blocks.push(
      actions(BLOCK.decisionActions, [
        button({
          text: 'Review and approve PO',
          actionId: ACTION.decisionOpenPo,
          style: 'primary',
          value: poIdCodec.encode({ po: model.purchaseOrder.id }),
        }),
      ]),
      context([`Draft ${inline(model.purchaseOrder.number, 40)} · nothing is ordered until an approver approves it.`]),
      section(approversWanted(wantedFor(model.purchaseOrder))),
    );
  } else {
    blocks.push(context(['The purchase order is being drafted…']));
  }

  if (model.feedback) blocks.push(feedbackButtons(model.feedback.negotiationId));

  const award = rec.isSplit ? `split between ${names.join(', ')}` : `buy from ${names[0] ?? '—'}`;
  // The approvers' mentions go in the fallback text too: it is what their notification shows.
  const wanted = model.purchaseOrder ? ` ${approversWanted(wantedFor(model.purchaseOrder)).replace(/\*/g, '')}` : '';
  return {
    text: `Recommendation: ${award}, ${money(rec.awardedTotal, cur)} (${versusQuote(s.awarded.amount, cur)}).${wanted}`,
    blocks,
  };
}

// An award can cost more than the quote (a faster or more reliable supplier wins on score): the notification must
// then say so, not "saves -$462,769.00".
function versusQuote(awardedSaving: number, cur: string): string {
  return awardedSaving >= 0 ? `saves ${money(awardedSaving, cur)} vs quoted` : `costs ${overQuote(awardedSaving, cur)}`;
}

/** A negative saving said the way round a reader expects: "$462,769.00 (12.0%) more than the quote". */
function overQuote(negativeSaving: number, cur: string, share?: number): string {
  const part = share === undefined ? '' : ` (${percent(-share, 1)})`;
  return `${money(-negativeSaving, cur)}${part} more than the quote`;
}
