// Everything Parley says in a quotation's thread, as outbox rows written in the transaction of the change they
// report. Each function reads what it shows from the database (the one source of truth), builds it with the Block Kit
// builders (src/slack/views), and enqueues it under a dedupe key derived from the change, so a replayed change
// enqueues nothing twice. The status card is posted once and then edited (`updateOf`), never re-posted.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { MATCH_REVIEW } from '../config/business-rules.js';
import type { DecisionNumbers } from '../decision/decide.js';
import type { PurchaseOrderView } from '../db/stores/purchase-orders.js';
import type { DecisionText } from '../decision/write-decision.js';
import type { QuotationErrorCode } from '../quotation/errors.js';
import { nextOpenQuestion } from '../negotiation/ask-info.js';
import type { Curveball, NegotiationEvent, NegotiationState } from '../negotiation/engine.js';
import { pendingQuestionId, type WorkspaceTx } from '../db/stores/negotiation-store.js';
import { enqueueSlackCall, enqueueSlackCalls, type OutboxCall } from '../outbox/index.js';
import {
  buildAgentTurn,
  buildAnsweredQuestion,
  buildCurveball,
  buildDecision,
  buildEarlyTermination,
  buildEarlyTerminationAnswered,
  buildPoOutcome,
  buildQuestion,
  buildReviewMessage,
  buildRoundAnalysis,
  buildStatusCard,
  type CurveballModel,
  escapeText,
  buildFileError,
  type ReviewLine,
  type ReviewModel,
  type SlackMessage,
  type StatusStage,
  type StatusSupplierRow,
} from '../slack/views/index.js';

const statusKey = (quotationId: string) => `q:${quotationId}:status`;
const reviewKey = (quotationId: string) => `q:${quotationId}:review`;

export function changeKey(value: unknown): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

async function threadOf(tx: WorkspaceTx, quotationId: string) {
  return tx.quotation.findUniqueOrThrow({
    where: { id: quotationId },
    select: {
      id: true,
      slackChannelId: true,
      slackThreadTs: true,
      uploadedBySlackUserId: true,
      fileName: true,
      currency: true,
    },
  });
}

type Thread = Awaited<ReturnType<typeof threadOf>>;

function message(
  thread: Thread,
  dedupeKey: string,
  body: SlackMessage,
  extra: Record<string, unknown> = {},
): OutboxCall {
  return {
    dedupeKey,
    method: 'chat.postMessage',
    channelId: thread.slackChannelId,
    threadTs: thread.slackThreadTs,
    payload: { text: body.text, blocks: body.blocks, unfurl_links: false, unfurl_media: false, ...extra },
  };
}

function edit(thread: Thread, dedupeKey: string, of: string, body: SlackMessage): OutboxCall {
  return {
    dedupeKey,
    method: 'chat.update',
    channelId: thread.slackChannelId,
    updateOf: of,
    payload: { text: body.text, blocks: body.blocks },
  };
}

// ───────────────────────────── The status card ─────────────────────────────

/** Edits the status card to `stage` (posted by enqueueReadingCard). `change` names the change, for the dedupe key. */
export async function enqueueStatus(tx: WorkspaceTx, quotationId: string, stage: StatusStage, change: string) {
  const thread = await threadOf(tx, quotationId);
  const card = buildStatusCard({
    fileName: thread.fileName,
    sharedBy: thread.uploadedBySlackUserId,
    currency: thread.currency ?? 'USD',
    state: stage,
  });
  await enqueueSlackCall(tx, edit(thread, `${statusKey(quotationId)}:${change}`, statusKey(quotationId), card));
}

/** The first words in the thread: 👀 on the file's message and the status card, "reading". */
export async function enqueueReadingCard(tx: WorkspaceTx, quotationId: string) {
  const thread = await threadOf(tx, quotationId);
  await enqueueSlackCall(tx, {
    dedupeKey: `q:${quotationId}:eyes`,
    method: 'reactions.add',
    channelId: thread.slackChannelId,
    payload: { name: 'eyes', timestamp: thread.slackThreadTs },
  });
  const card = buildStatusCard({
    fileName: thread.fileName,
    sharedBy: thread.uploadedBySlackUserId,
    currency: 'USD',
    state: { stage: 'reading' },
  });
  await enqueueSlackCall(tx, message(thread, statusKey(quotationId), card));
}

// ───────────────────────────── Reading and review ─────────────────────────────

const QUOTATION_ERROR_CODES: readonly QuotationErrorCode[] = [
  'not_xlsx',
  'encrypted',
  'corrupt',
  'empty',
  'too_large',
  'too_many_rows',
  'too_many_cells',
  'zip_bomb',
  'no_item_table',
];

/** The stored error code as the file-error reply knows it; an internal error reads as a corrupt file's advice. */
function fileErrorCode(code: string | null): QuotationErrorCode {
  return QUOTATION_ERROR_CODES.find((known) => known === code) ?? 'corrupt';
}

export async function enqueueQuotationFailed(tx: WorkspaceTx, quotationId: string) {
  const quotation = await tx.quotation.findUniqueOrThrow({
    where: { id: quotationId },
    select: { errorCode: true, errorMessage: true },
  });
  const thread = await threadOf(tx, quotationId);
  const sentence = quotation.errorMessage ?? 'Parley could not read this file.';
  await enqueueSlackCall(
    tx,
    message(
      thread,
      `q:${quotationId}:error`,
      buildFileError({ fileName: thread.fileName, code: fileErrorCode(quotation.errorCode), message: sentence }),
    ),
  );
  await enqueueStatus(tx, quotationId, { stage: 'failed', message: sentence }, 'failed');
}

/** After reading: the review (when a person must look) or the ready card with its Start button. */
export async function enqueueQuotationRead(tx: WorkspaceTx, quotationId: string) {
  const model = await reviewModel(tx, quotationId, 1);
  const thread = await threadOf(tx, quotationId);
  await enqueueSlackCall(tx, message(thread, reviewKey(quotationId), buildReviewMessage(model)));
  await enqueueStatus(tx, quotationId, await reviewStage(tx, quotationId), 'read');
}

/** A review decision (or a page turn): the review message and the status card show it. */
export async function enqueueReviewChanged(tx: WorkspaceTx, quotationId: string, change: string, page: number) {
  const model = await reviewModel(tx, quotationId, page);
  const thread = await threadOf(tx, quotationId);
  await enqueueSlackCall(
    tx,
    edit(thread, `${reviewKey(quotationId)}:${change}`, reviewKey(quotationId), buildReviewMessage(model)),
  );
  await enqueueStatus(tx, quotationId, await reviewStage(tx, quotationId), `review:${change}`);
}

async function reviewStage(tx: WorkspaceTx, quotationId: string): Promise<StatusStage> {
  const counts = await tx.quotationItem.groupBy({
    by: ['reviewState'],
    where: { quotationId },
    _count: { _all: true },
  });
  const count = (state: string) => counts.find((c) => c.reviewState === state)?._count._all ?? 0;
  const quotation = await tx.quotation.findUniqueOrThrow({ where: { id: quotationId }, select: { status: true } });
  if (quotation.status === 'ready') {
    return { stage: 'ready', lineCount: count('auto_accepted') + count('confirmed') };
  }
  return { stage: 'review', needsReview: count('needs_review'), autoAccepted: count('auto_accepted') };
}

const candidatesSchema = z
  .array(z.object({ productId: z.string(), sku: z.string(), confidence: z.number() }))
  .catch([]);
const flagsSchema = z.array(z.object({ message: z.string() })).catch([]);
const identificationSchema = z
  .object({ status: z.string(), supplier: z.object({ id: z.string(), name: z.string() }).nullable() })
  .nullable()
  .catch(null);

async function reviewModel(tx: WorkspaceTx, quotationId: string, page: number): Promise<ReviewModel> {
  const quotation = await tx.quotation.findUniqueOrThrow({
    where: { id: quotationId },
    include: { supplier: { select: { name: true } } },
  });
  const items = await tx.quotationItem.findMany({
    where: { quotationId },
    orderBy: { position: 'asc' },
    include: { product: { select: { sku: true, name: true } } },
  });
  const needed = items.filter((item) => item.reviewState !== 'auto_accepted');
  const productIds = [
    ...new Set(needed.flatMap((item) => candidatesSchema.parse(item.candidates).map((c) => c.productId))),
  ];
  const products = new Map(
    (await tx.product.findMany({ where: { id: { in: productIds } }, select: { id: true, sku: true, name: true } })).map(
      (p) => [p.id, p],
    ),
  );
  const product = (c: { productId: string; sku: string; confidence: number }) => ({
    productId: c.productId,
    sku: c.sku,
    name: products.get(c.productId)?.name ?? c.sku,
    confidence: c.confidence,
  });
  const lines = needed.map((item): ReviewLine => {
    const candidates = candidatesSchema.parse(item.candidates).slice(0, MATCH_REVIEW.maxCandidates).map(product);
    const suggested = candidates.find((c) => c.productId === item.productId) ?? null;
    return {
      itemId: item.id,
      sheet: item.sheet,
      row: item.rowNumber,
      rawSku: item.rawSku,
      rawDescription: item.rawDescription,
      quantity: item.quantity,
      unitPrice: item.unitPrice === null ? null : Number(item.unitPrice),
      suggestion:
        suggested ??
        (item.productId && item.product
          ? {
              productId: item.productId,
              sku: item.product.sku,
              name: item.product.name,
              confidence: item.matchConfidence,
            }
          : null),
      candidates,
      flags: flagsSchema.parse(item.flags).map((flag) => flag.message),
      decision:
        item.reviewState === 'confirmed' && item.product
          ? { kind: 'confirmed', sku: item.product.sku, name: item.product.name, by: item.reviewedBySlackUserId ?? '' }
          : item.reviewState === 'not_in_catalog'
            ? { kind: 'not_in_catalog', by: item.reviewedBySlackUserId ?? '' }
            : null,
    };
  });
  const identified = identificationSchema.parse(quotation.supplierMatch);
  const total = items.reduce((sum, item) => sum + (item.totalPrice === null ? 0 : Number(item.totalPrice)), 0);
  return {
    quotationId,
    fileName: quotation.fileName,
    summary: {
      supplierNameAsRead: quotation.supplierNameRaw,
      sheets: [...new Set(items.map((item) => item.sheet))],
      lineCount: items.length,
      quotedTotal: total > 0 ? Math.round(total * 100) / 100 : null,
      currency: quotation.currency ?? 'USD',
      paymentTerms: quotation.paymentTerms,
      leadTimeDays: quotation.leadTimeDays,
      incoterm: quotation.incoterm,
    },
    supplier: quotation.supplier
      ? identified?.status === 'existing'
        ? { kind: 'certain', name: quotation.supplier.name }
        : { kind: 'decided', name: quotation.supplier.name, created: true, by: quotation.uploadedBySlackUserId }
      : {
          kind: 'uncertain',
          existing: identified?.supplier
            ? { supplierId: identified.supplier.id, name: identified.supplier.name }
            : null,
        },
    autoAccepted: items.length - needed.length,
    lines,
    page,
  };
}

// ───────────────────────────── The negotiation ─────────────────────────────

const negKey = (negotiationId: string, what: string) => `neg:${negotiationId}:${what}`;

async function negotiationThread(tx: WorkspaceTx, negotiationId: string) {
  const negotiation = await tx.negotiation.findUniqueOrThrow({
    where: { id: negotiationId },
    select: { quotationId: true },
  });
  return { quotationId: negotiation.quotationId, thread: await threadOf(tx, negotiation.quotationId) };
}

const MODE_LABELS: Record<string, string> = {
  cost: 'Cost',
  quality: 'Quality',
  speed: 'Speed',
  cashflow: 'Cash flow',
  balanced: 'Balanced',
  custom: 'Custom',
};

function supplierName(state: NegotiationState, code: string): string {
  return state.profiles.find((profile) => profile.code === code)?.name ?? code;
}

function statusRows(state: NegotiationState): StatusSupplierRow[] {
  return state.profiles.map((profile) => {
    const supplier = state.suppliers[profile.code];
    const latest = supplier?.offers.at(-1) ?? null;
    const status = supplier?.status ?? 'active';
    return {
      name: profile.name,
      status: status === 'completed' ? 'done' : status,
      reason: supplier?.impasse ? `${supplier.impasse.reason.replace('_', ' ')}: ${supplier.impasse.details}` : null,
      latestTotal: latest?.total ?? null,
      leadTimeDays: latest?.leadTimeDays ?? null,
      paymentTerms: latest?.paymentTerms ?? null,
    };
  });
}

function negotiationStage(state: NegotiationState, buyerId: string): StatusStage {
  const round = Math.max(1, state.round);
  if (state.status === 'completed') return { stage: 'deciding' };
  if (state.status === 'awaiting_answer' || state.status === 'awaiting_early_termination') {
    const asking = nextOpenQuestion(state.askInfo);
    return {
      stage: 'waiting',
      buyerId,
      askedBy: asking ? supplierName(state, asking.supplierCode) : 'Alex',
      round,
      maxRounds: state.maxRounds,
      suppliers: statusRows(state),
    };
  }
  return {
    stage: 'negotiating',
    round,
    maxRounds: state.maxRounds,
    postCurveball: state.phase === 'post_curveball',
    suppliers: statusRows(state),
  };
}

/** A step's events in the thread: each agent turn, round analysis, question, curveball; then the status card. */
export async function enqueueNegotiationEvents(
  tx: WorkspaceTx,
  input: { negotiationId: string; events: NegotiationEvent[]; state: NegotiationState },
) {
  const { negotiationId, events, state } = input;
  const { quotationId, thread } = await negotiationThread(tx, negotiationId);
  const buyerId = thread.uploadedBySlackUserId;
  const currency = state.baseline.currency;
  const brandName = state.brandName;
  const calls: OutboxCall[] = [];
  const post = (what: string, body: SlackMessage, extra: Record<string, unknown> = {}) =>
    calls.push(message(thread, negKey(negotiationId, what), body, extra));
  const update = (what: string, of: string, body: SlackMessage) =>
    calls.push(edit(thread, negKey(negotiationId, what), negKey(negotiationId, of), body));

  for (const event of events) {
    switch (event.type) {
      case 'message': {
        const supplier = state.suppliers[event.supplierCode];
        const offers = supplier?.offers ?? [];
        const offer = event.role === 'supplier_agent' ? offers.find((o) => o.round === event.round) : undefined;
        const previous = offer ? offers.filter((o) => o.round < offer.round).at(-1) : undefined;
        const turn = buildAgentTurn({
          role: event.role === 'brand_agent' ? 'brand' : 'supplier',
          brandName,
          supplierName: supplierName(state, event.supplierCode),
          text: event.text,
          action: event.action.type,
          round: event.round,
          maxRounds: state.maxRounds,
          currency,
          offer: offer
            ? {
                total: offer.total,
                previousTotal: previous?.total ?? null,
                leadTimeDays: offer.leadTimeDays,
                paymentTerms: offer.paymentTerms,
                concessions: offer.concessions,
              }
            : null,
          pillars: event.pillarBriefs
            ? {
                negotiator: event.pillarBriefs.negotiator,
                riskAnalyst: event.pillarBriefs.riskAnalyst,
                productCost: event.pillarBriefs.productCost,
              }
            : null,
        });
        post(`msg:${event.sequence}`, turn, { username: turn.username, icon_emoji: turn.icon_emoji });
        break;
      }
      case 'round_analysis':
        post(
          `round:${event.round}:analysis`,
          buildRoundAnalysis({
            round: event.round,
            maxRounds: state.maxRounds,
            phase: state.curveball && event.round > state.curveball.afterRound ? 'post_curveball' : 'initial',
            currency,
            rows: event.offers.map((row) => ({
              supplierCode: row.supplierCode,
              supplierName: supplierName(state, row.supplierCode),
              total: row.total,
              leadTimeDays: row.leadTimeDays,
              paymentTerms: row.paymentTerms,
              evaluation: row.evaluation,
              status: row.status,
              reason: state.suppliers[row.supplierCode]?.impasse?.details ?? null,
            })),
          }),
        );
        break;
      case 'question_asked':
        post(
          `q:${event.questionId}`,
          buildQuestion({
            questionId: pendingQuestionId(negotiationId, event.questionId),
            buyerId,
            askedBy: supplierName(state, event.supplierCode),
            question: event.question,
            suggestedAnswers: event.suggestedAnswers,
            round: state.round,
          }),
        );
        break;
      case 'early_termination_offered':
        post(
          `q:${event.questionId}`,
          buildEarlyTermination({
            questionId: pendingQuestionId(negotiationId, event.questionId),
            buyerId,
            confidence: event.record.confidence,
            reason: event.record.reason,
            round: state.round,
            maxRounds: state.maxRounds,
            roundsSkipped: event.record.roundsSkipped,
            estimatedCostSavedUsd: event.record.estimatedCostSavedUsd,
          }),
        );
        break;
      case 'question_answered': {
        const asked = state.askInfo.questions.find((q) => q.id === event.questionId);
        const by = event.answeredBy === 'auto' ? null : event.answeredBy;
        const answered =
          asked || !state.earlyTermination || state.earlyTermination.questionId !== event.questionId
            ? buildAnsweredQuestion({
                askedBy: asked ? supplierName(state, asked.supplierCode) : 'Alex',
                question: asked?.question ?? '',
                answer: event.answer,
                answeredBy: by,
              })
            : buildEarlyTerminationAnswered({
                decision: state.earlyTermination.decision === 'accepted' ? 'finish' : 'continue',
                by,
                roundsSkipped: state.earlyTermination.offered.roundsSkipped,
              });
        update(`q:${event.questionId}:answered`, `q:${event.questionId}`, answered);
        break;
      }
      case 'curveball': {
        const body = buildCurveball(curveballModel(negotiationId, state, event.curveball));
        if (event.curveball.chosenBy) update(`curveball:${event.curveball.chosen}`, 'curveball', body);
        else post('curveball', body);
        break;
      }
      case 'negotiation_started':
      case 'round_start':
      case 'offer_extracted':
      case 'supplier_done':
      case 'negotiation_complete':
        break; // the status card shows these
    }
  }
  await enqueueSlackCalls(tx, calls);
  await enqueueStatus(tx, quotationId, negotiationStage(state, buyerId), `neg:${changeKey(state)}`);
}

/** The outbox key of an approver's approval or rejection message. */
export function poOutcomeKey(purchaseOrderId: string, kind: 'approval' | 'rejection', by: string): string {
  return `po:${purchaseOrderId}:${kind}:${by}`;
}

/** The curveball's strategies with the shares each would give (deterministic: from the latest offers). */
function curveballModel(negotiationId: string, state: NegotiationState, curveball: Curveball): CurveballModel {
  const capped = supplierName(state, curveball.supplierCode);
  const others = state.profiles
    .filter((profile) => profile.code !== curveball.supplierCode)
    .map((profile) => ({ name: profile.name, total: state.suppliers[profile.code]?.offers.at(-1)?.total ?? Infinity }))
    .sort((a, b) => a.total - b.total);
  const best = others[0]?.name ?? 'the best alternative';
  const allocations: Record<string, { supplierName: string; share: number }[]> = {
    split: [
      { supplierName: capped, share: curveball.capacityShare },
      { supplierName: best, share: 1 - curveball.capacityShare },
    ],
    single_source: [{ supplierName: best, share: 1 }],
    pressure: [{ supplierName: capped, share: 1 }],
  };
  return {
    negotiationId,
    supplierName: capped,
    capacityShare: curveball.capacityShare,
    afterRound: curveball.afterRound,
    impact: curveball.impact,
    strategies: curveball.strategies.map((strategy, index) => ({
      id: strategy.id,
      title: strategy.title,
      detail: strategy.detail,
      allocation: allocations[strategy.id] ?? [],
      recommended: index === 0,
    })),
    chosen: curveball.chosenBy ? { strategyId: curveball.chosen, by: curveball.chosenBy } : null,
  };
}

// ───────────────────────────── Decision and purchase order ─────────────────────────────

export async function enqueueDecisionFailed(tx: WorkspaceTx, input: { negotiationId: string; message: string }) {
  const { quotationId, thread } = await negotiationThread(tx, input.negotiationId);
  await enqueueSlackCall(
    tx,
    message(thread, negKey(input.negotiationId, 'decision-failed'), {
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
    {
      dedupeKey: negKey(negotiationId, 'chart'),
      method: 'files.uploadV2',
      channelId: thread.slackChannelId,
      threadTs: thread.slackThreadTs,
      payload: {
        filename: 'offer-totals-by-round.png',
        title: 'Offer totals by round',
        contentBase64: input.chart.toString('base64'),
      },
    },
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

export async function enqueuePurchaseOrderOutcome(
  tx: WorkspaceTx,
  input: {
    po: PurchaseOrderView;
    by: string;
    kind: 'approval' | 'rejection';
    /** Approvals this PO needs (1, or 2 above the workspace's amount). */
    required: 1 | 2;
    workbook: Buffer | null;
  },
) {
  const { po } = input;
  const { quotationId, thread } = await negotiationThread(tx, po.negotiationId);
  const approvers = po.approvals.map((a) => a.approverSlackUserId);
  const outcome =
    input.kind === 'approval'
      ? buildPoOutcome({ kind: 'approval', poNumber: po.number, approvers, required: input.required })
      : buildPoOutcome({ kind: 'rejected', poNumber: po.number, by: input.by, reason: po.rejectedReason ?? '' });
  const calls: OutboxCall[] = [message(thread, poOutcomeKey(po.id, input.kind, input.by), outcome)];
  if (input.workbook) {
    calls.push({
      dedupeKey: `po:${po.id}:workbook`,
      method: 'files.uploadV2',
      channelId: thread.slackChannelId,
      threadTs: thread.slackThreadTs,
      payload: {
        filename: `${po.number}.xlsx`,
        title: `${po.number} (approved)`,
        contentBase64: input.workbook.toString('base64'),
      },
    });
  }
  await enqueueSlackCalls(tx, calls);
  if (po.status === 'approved') {
    await enqueueStatus(
      tx,
      quotationId,
      { stage: 'approved', poNumber: po.number, approvedBy: approvers, approvedAt: po.approvedAt ?? new Date() },
      `po:${po.id}:approved`,
    );
  } else if (po.status === 'rejected') {
    await enqueueStatus(
      tx,
      quotationId,
      {
        stage: 'rejected',
        poNumber: po.number,
        reason: po.rejectedReason ?? '',
        rejectedBy: po.rejectedBySlackUserId ?? input.by,
        rejectedAt: po.rejectedAt,
      },
      `po:${po.id}:rejected`,
    );
  }
}
