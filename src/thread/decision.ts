// The recommendation and its price chart, or why there is none.
import type { DecisionNumbers } from '../decision/decide.js';
import type { PurchaseOrderView } from '../decision/purchase-order-rules.js';
import type { DecisionText } from '../decision/write-decision.js';
import type { WorkspaceTx } from '../db/scoped.js';
import { enqueueSlackCall, enqueueSlackCalls } from '../outbox/index.js';
import { buildDecision, escapeText } from '../slack/views/index.js';
import { negKey, message, negotiationThread, upload } from './thread.js';
import { enqueueStatus } from './status-card.js';

const MODE_LABELS: Record<string, string> = {
  cost: 'Cost',
  quality: 'Quality',
  speed: 'Speed',
  cashflow: 'Cash flow',
  balanced: 'Balanced',
  custom: 'Custom',
};

/** The key of the "no recommendation" message: once it is there, the recovery sweep does not conclude again. */
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

export async function enqueueDecision(
  tx: WorkspaceTx,
  input: { negotiationId: string; numbers: DecisionNumbers; text: DecisionText; po: PurchaseOrderView; chart: Buffer },
) {
  const { negotiationId, numbers, text, po } = input;
  const { quotationId, thread } = await negotiationThread(tx, negotiationId);
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
    })),
    savings: {
      baselineTotal: numbers.savings.baselineTotal,
      identified: {
        amount: numbers.savings.identified.amount,
        share: numbers.savings.identified.share,
        bestOfferName: name(numbers.savings.identified.bestOfferCode),
      },
      awarded: { amount: numbers.savings.awarded.amount, share: numbers.savings.awarded.share },
    },
    excluded: numbers.excluded.map((e) => ({ supplierName: e.name, reason: e.reason })),
    purchaseOrder: { id: po.id, number: po.number },
  });
  await enqueueSlackCalls(tx, [
    message(thread, negKey(negotiationId, `decision:${po.id}`), decision),
    upload(thread, negKey(negotiationId, 'chart'), {
      filename: 'offer-totals-by-round.png',
      title: 'Offer totals by round',
      content: input.chart,
    }),
  ]);
  await enqueueStatus(
    tx,
    quotationId,
    {
      stage: 'decision',
      recommended: numbers.recommendation.shares.map((s) => s.name),
      total: po.effectiveLandedCost,
      isSplit: numbers.recommendation.isSplit,
    },
    `decision:${po.id}`,
  );
}
