// The negotiation in the thread: each agent turn, round analysis, question, early termination and curveball.
import type { Curveball, NegotiationEvent, NegotiationState } from '../negotiation/engine.js';
import type { WorkspaceTx } from '../db/scoped.js';
import { pendingQuestionId } from '../db/stores/negotiation-store.js';
import { effectiveMandate } from '../negotiation/offers.js';
import { enqueueSlackCalls, type OutboxCall } from '../outbox/index.js';
import {
  buildAgentTurn,
  buildAnsweredQuestion,
  buildCurveball,
  buildEarlyTermination,
  buildEarlyTerminationAnswered,
  buildQuestion,
  buildRoundAnalysis,
  type CurveballModel,
  type SlackMessage,
} from '../slack/views/index.js';
import { askerName, changeKey, edit, message, negKey, negotiationThread, questionKey, supplierName } from './thread.js';
import { enqueueStatus, negotiationStage } from './status-card.js';

/** A step's events in the thread: each agent turn, round analysis, question, curveball; then the status card. */
export async function enqueueNegotiationEvents(
  tx: WorkspaceTx,
  input: { negotiationId: string; events: NegotiationEvent[]; state: NegotiationState },
) {
  const { negotiationId, events, state } = input;
  const { quotationId, thread, buyerId } = await negotiationThread(tx, negotiationId);
  const currency = state.baseline.currency;
  const brandName = state.brandName;
  const calls: OutboxCall[] = [];
  const key = (what: string) => negKey(negotiationId, what);
  const post = (dedupeKey: string, body: SlackMessage, extra: Record<string, unknown> = {}) =>
    calls.push(message(thread, dedupeKey, body, extra));
  const update = (dedupeKey: string, of: string, body: SlackMessage) => calls.push(edit(thread, dedupeKey, of, body));
  /** A question for the buyer, at the question's own key, its buttons carrying the pending question's id. */
  const postQuestion = (questionId: string, build: (asked: { questionId: string; buyerId: string }) => SlackMessage) =>
    post(
      questionKey(negotiationId, questionId),
      build({ questionId: pendingQuestionId(negotiationId, questionId), buyerId }),
    );

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
        post(key(`msg:${event.sequence}`), turn, { username: turn.username, icon_emoji: turn.icon_emoji });
        break;
      }
      case 'round_analysis':
        post(
          key(`round:${event.round}:analysis`),
          buildRoundAnalysis({
            round: event.round,
            maxRounds: state.maxRounds,
            phase: state.curveball && event.round > state.curveball.afterRound ? 'post_curveball' : 'initial',
            currency,
            limits: {
              ...effectiveMandate(state.mandate, state.baseline.total),
              targetSet: state.mandate.targetTotal !== null,
              walkAwaySet: state.mandate.walkAwayTotal !== null,
            },
            rows: event.offers.map((row) => ({
              supplierCode: row.supplierCode,
              supplierName: supplierName(state, row.supplierCode),
              total: row.total,
              leadTimeDays: row.leadTimeDays,
              paymentTerms: row.paymentTerms,
              evaluation: row.evaluation,
              status: row.status,
              reason: state.suppliers[row.supplierCode]?.impasse?.details ?? null,
              assumedLeadTime: row.assumed.includes('leadTimeDays'),
              assumedTerms: row.assumed.includes('paymentTerms'),
            })),
          }),
        );
        break;
      case 'question_asked':
        postQuestion(event.questionId, (asked) =>
          buildQuestion({
            ...asked,
            askedBy: askerName(supplierName(state, event.supplierCode)),
            question: event.question,
            suggestedAnswers: event.suggestedAnswers,
            round: state.round,
          }),
        );
        break;
      case 'early_termination_offered':
        postQuestion(event.questionId, (asked) =>
          buildEarlyTermination({
            ...asked,
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
                askedBy: askerName(asked && supplierName(state, asked.supplierCode)),
                question: asked?.question ?? '',
                answer: event.answer,
                answeredBy: by,
              })
            : buildEarlyTerminationAnswered({
                decision: state.earlyTermination.decision === 'accepted' ? 'finish' : 'continue',
                by,
                roundsSkipped: state.earlyTermination.offered.roundsSkipped,
              });
        const questionMessage = questionKey(negotiationId, event.questionId);
        update(`${questionMessage}:answered`, questionMessage, answered);
        break;
      }
      case 'curveball': {
        const body = buildCurveball(curveballModel(negotiationId, state, event.curveball));
        if (event.curveball.chosenBy) update(key(`curveball:${event.curveball.chosen}`), key('curveball'), body);
        else post(key('curveball'), body);
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
