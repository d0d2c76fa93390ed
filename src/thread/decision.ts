// The recommendation and its price chart, or why there is none: no award within the mandate (with the closest options
// and the premium that would make one), or a decision that could not be made at all.
import { fnv1a } from '../commerce/rng.js';
import type { DecisionNumbers, NoFeasibleAward, PremiumOption } from '../decision/decide.js';
import type { PurchaseOrderView } from '../decision/purchase-order-rules.js';
import type { DecisionText } from '../decision/write-decision.js';
import type { WorkspaceTx } from '../db/scoped.js';
import { enqueueSlackCall, enqueueSlackCalls, type OutboxCall, type OutboxWriter } from '../outbox/index.js';
import {
  buildDecision,
  buildNoAward,
  type DecisionAiCost,
  type DecisionModel,
  escapeText,
  type PremiumOffer,
} from '../slack/views/index.js';
import { negKey, message, negotiationThread, upload } from './thread.js';
import { enqueueStatus, statusCalls } from './status-card.js';

const MODE_LABELS: Record<string, string> = {
  cost: 'Cost',
  quality: 'Quality',
  speed: 'Speed',
  cashflow: 'Cash flow',
  balanced: 'Balanced',
  custom: 'Custom',
};

/** The key of the "no recommendation" message: once it is there, queue-unqueued-work does not conclude again. */
export const decisionFailedKey = (negotiationId: string) => negKey(negotiationId, 'decision-failed');

export async function enqueueDecisionFailed(tx: WorkspaceTx, input: { negotiationId: string; message: string }) {
  const { quotationId, thread } = await negotiationThread(tx, input.negotiationId);
  await enqueueSlackCall(
    tx,
    message(thread, decisionFailedKey(input.negotiationId), {
      text: `No recommendation: ${input.message}`,
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: `:warning: *No recommendation.* ${escapeText(input.message)}` },
        },
      ],
    }),
  );
  await enqueueStatus(tx, quotationId, { stage: 'failed', message: input.message }, 'decision-failed');
}

export interface FinalOffer {
  name: string;
  lines: readonly { sku: string; quantity: number; unitPrice: number }[];
}

/**
 * Lines × suppliers: every line offered, with each supplier's final unit price and its award (none for a line nobody
 * was awarded, so the buyer sees every line), the largest first.
 */
export function lineRows(numbers: DecisionNumbers, offers: readonly FinalOffer[]): NonNullable<DecisionModel['lines']> {
  const bySku = new Map<
    string,
    { quantity: number; value: number; awarded: { supplierName: string; qty: number }[] }
  >();
  for (const supplier of numbers.award) {
    for (const line of supplier.lines) {
      const row = bySku.get(line.sku) ?? { quantity: 0, value: 0, awarded: [] };
      row.quantity += line.quantity;
      row.value += line.lineTotal;
      row.awarded.push({ supplierName: supplier.name, qty: line.quantity });
      bySku.set(line.sku, row);
    }
  }
  // A line no supplier was awarded: sized at its lowest offered price, to sort among the others.
  for (const offer of offers) {
    for (const line of offer.lines) {
      const row = bySku.get(line.sku);
      const value = line.quantity * line.unitPrice;
      if (!row) bySku.set(line.sku, { quantity: line.quantity, value, awarded: [] });
      else if (row.awarded.length === 0 && value < row.value) row.value = value;
    }
  }
  const prices = offers.map((offer) => new Map(offer.lines.map((line) => [line.sku, line.unitPrice])));
  const rows = [...bySku.entries()]
    .sort((a, b) => b[1].value - a[1].value)
    .map(([sku, row]) => ({
      sku,
      quantity: row.quantity,
      unitPrices: prices.map((bySupplier) => bySupplier.get(sku) ?? null),
      awarded: row.awarded.map((a) => ({
        supplierName: a.supplierName,
        share: row.quantity > 0 ? a.qty / row.quantity : 0,
      })),
    }));
  return { suppliers: offers.map((offer) => offer.name), rows, totalLines: rows.length };
}

/** What the decision's post says: everything is known once the decision is computed and the PO drafted. */
export interface DecisionInput {
  negotiationId: string;
  numbers: DecisionNumbers;
  text: DecisionText;
  po: PurchaseOrderView;
  /** What the negotiation's AI calls cost, as recorded so far. */
  aiCost?: DecisionAiCost | null;
  /** The workspace's approvers: the draft PO @-mentions them. */
  approvers: readonly string[];
  /** Each supplier's last offer, line by line (the recommendation's lines × suppliers table). */
  finalOffers?: readonly FinalOffer[];
}

/** The decision's outbox calls, built and ready to write (see prepareDecision). */
export interface PreparedDecision {
  readonly calls: readonly OutboxCall[];
}

/**
 * The decision's post and the status card's calls, built before the decision's transaction, read without writing:
 * on PGlite a transaction holds the only connection, and building the message (a 3,000-line quotation's lines table)
 * inside it kept every Slack ack waiting. The thread's place does not change; the status card's calls are read as
 * statusCalls says (their dedupe keys make a call another writer enqueued meanwhile a no-op).
 */
export async function prepareDecision(reader: OutboxWriter, input: DecisionInput): Promise<PreparedDecision> {
  const { negotiationId, numbers, text, po } = input;
  const { quotationId, thread } = await negotiationThread(reader, negotiationId);
  const name = (code: string) => numbers.offers.find((o) => o.supplierCode === code)?.name ?? code;
  const decision = buildDecision({
    currency: numbers.currency,
    modeLabel: MODE_LABELS[numbers.mode] ?? numbers.mode,
    recommendation: {
      shares: numbers.recommendation.shares.map((s) => ({ supplierName: s.name, share: s.share })),
      isSplit: numbers.recommendation.isSplit,
      forcedSplit: numbers.recommendation.forcedSplit,
      leadTimeDays: numbers.recommendation.leadTimeDays,
      awardedTotal: po.fobCost,
      awardedLandedCost: po.effectiveLandedCost,
    },
    summary: text.summary,
    tradeOffs: text.tradeOffs,
    cheapestNotChosenReason: text.cheapestNotChosenReason,
    scores: numbers.scores.map((score) => ({
      supplierName: name(score.supplierCode),
      rank: score.rank,
      score: score.total,
      price: score.factors.price,
      quality: score.factors.quality,
      leadTime: score.factors.leadTime,
      terms: score.factors.terms,
      reliability: score.factors.reliability,
    })),
    offers: numbers.offers.map((offer) => ({
      supplierName: offer.name,
      total: offer.total,
      cashFlowCost: offer.cashFlowCost,
      effectiveLandedCost: offer.effectiveLandedCost,
      leadTimeDays: offer.leadTimeDays,
      paymentTerms: offer.paymentTerms,
      assumedLeadTime: numbers.assumedFacts[offer.supplierCode]?.includes('leadTimeDays') ?? false,
      assumedTerms: numbers.assumedFacts[offer.supplierCode]?.includes('paymentTerms') ?? false,
    })),
    savings: {
      baselineTotal: numbers.savings.baselineTotal,
      identified: {
        amount: numbers.savings.identified.amount,
        share: numbers.savings.identified.share,
        bestOfferName: name(numbers.savings.identified.bestOfferCode),
      },
      awarded: {
        amount: numbers.savings.awarded.amount,
        share: numbers.savings.awarded.share,
        landedAgainst: numbers.savings.landed?.baselineLandedCost ?? null,
      },
    },
    excluded: numbers.excluded.map((e) => ({ supplierName: e.name, reason: e.reason })),
    purchaseOrder: { id: po.id, number: po.number, approverIds: input.approvers },
    aiCost: input.aiCost ?? null,
    lines: input.finalOffers ? lineRows(numbers, input.finalOffers) : null,
    feedback: { negotiationId },
    premium:
      numbers.premiumOption === null
        ? null
        : premiumOffer(negotiationId, numbers.premiumOption, numbers.limits.quoteLandedCost),
    acceptedPremium:
      numbers.limits.consentUsed === null
        ? null
        : { by: numbers.limits.consentUsed.by, amountOverQuote: numbers.limits.consentedPremium },
  });
  const status = await statusCalls(
    reader,
    quotationId,
    {
      stage: 'decision',
      recommended: numbers.recommendation.shares.map((s) => s.name),
      total: po.effectiveLandedCost,
      isSplit: numbers.recommendation.isSplit,
    },
    `decision:${po.id}`,
    thread,
  );
  return { calls: [message(thread, negKey(negotiationId, `decision:${po.id}`), decision), ...status] };
}

/** The decision's post and status card, as prepareDecision built them: in its transaction, only the writes. */
export async function enqueueDecision(tx: WorkspaceTx, prepared: PreparedDecision): Promise<void> {
  await enqueueSlackCalls(tx, prepared.calls);
}

/** The key of the price chart's upload: one chart per negotiation, however often it is concluded. */
export const priceChartKey = (negotiationId: string) => negKey(negotiationId, 'chart');

/** The price chart under the recommendation, queued after it (its PNG takes a while to draw). */
export async function enqueuePriceChart(tx: WorkspaceTx, input: { negotiationId: string; chart: Buffer }) {
  const { thread } = await negotiationThread(tx, input.negotiationId);
  await enqueueSlackCall(
    tx,
    upload(thread, priceChartKey(input.negotiationId), {
      filename: 'offer-totals-by-round.png',
      title: 'Offer totals by round',
      content: input.chart,
    }),
  );
}

/** The button's offer, from the decision's premium option. */
function premiumOffer(negotiationId: string, option: PremiumOption, quoteLandedCost: number | null): PremiumOffer {
  return {
    negotiationId,
    optionId: option.id,
    question: option.question,
    names: option.names,
    effectiveLandedCost: option.effectiveLandedCost,
    leadTimeDays: option.leadTimeDays,
    overQuote: option.overQuote,
    quoteLandedCost,
  };
}

/**
 * Nothing can be awarded within the mandate: the message with the closest options (and the premium's button, when
 * consent would make an award), and the status card. Not a failure: a consent can still lead to an award. Keyed by
 * what it says, so saying it again is one message and a later, different no-award is another.
 */
export async function enqueueNoAward(
  tx: WorkspaceTx,
  input: { negotiationId: string; infeasible: NoFeasibleAward; message: string; currency: string },
) {
  const { negotiationId, infeasible, currency } = input;
  const { quotationId, thread } = await negotiationThread(tx, negotiationId);
  const change = `no-award:${fnv1a(input.message).toString(36)}`;
  const view = buildNoAward({
    currency,
    why: infeasible.why,
    closest: infeasible.closest.map((option) => ({
      names: option.names,
      effectiveLandedCost: option.effectiveLandedCost,
      leadTimeDays: option.leadTimeDays,
      violations: option.violations.map((v) => v.text),
    })),
    premium:
      infeasible.premiumOption === null
        ? null
        : premiumOffer(negotiationId, infeasible.premiumOption, infeasible.quoteLandedCost),
  });
  await enqueueSlackCall(tx, message(thread, negKey(negotiationId, change), view));
  await enqueueStatus(tx, quotationId, { stage: 'no_award', message: infeasible.why }, change);
}

/** A premium accepted while an approver approved the current PO: the approved award stands, and the thread says so. */
export async function enqueuePremiumNotApplied(tx: WorkspaceTx, input: { negotiationId: string; poNumber: string }) {
  const { thread } = await negotiationThread(tx, input.negotiationId);
  const text =
    `${escapeText(input.poNumber)} was approved before the premium could apply: the approved award stands, and no ` +
    'new purchase order was drafted.';
  await enqueueSlackCall(
    tx,
    message(thread, negKey(input.negotiationId, `premium-not-applied:${input.poNumber}`), {
      text,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `:information_source: ${text}` } }],
    }),
  );
}
