// The negotiation as a JSON document (the negotiate CLI's output) and as a transcript a person reads.
import type { NegotiationEvent, NegotiationState } from './engine.js';
import { formatMoney } from '../commerce/money.js';
import { evaluationLabel } from './offers.js';
import { describePaymentTerms } from '../commerce/payment-terms.js';
import { assumedFacts, showFact, type SupplierFact, wasAssumedAt } from './facts.js';

export function negotiationReport(state: NegotiationState, events: readonly NegotiationEvent[], wallTimeMs: number) {
  const messages = events.filter((event) => event.type === 'message');
  const earlyTermination = events.find((event) => event.type === 'negotiation_complete')?.earlyTermination ?? null;
  return {
    status: state.status,
    seed: state.seed,
    mode: state.mode,
    maxRounds: state.maxRounds,
    roundsPlayed: Math.max(0, ...state.evaluations.map((evaluation) => evaluation.round)),
    baselineTotal: state.baseline.total,
    mandate: state.mandate,
    suppliers: state.profiles.map((profile) => {
      const supplier = state.suppliers[profile.code];
      return {
        code: profile.code,
        name: profile.name,
        // Every supplier reply in a negotiation is written by an agent standing in for the supplier.
        simulated: true,
        /** Figures scored on Parley's assumptions rather than the supplier's word. */
        assumedFacts: assumedFacts(state.assumptions, profile.code),
        status: supplier?.status ?? null,
        impasse: supplier?.impasse ?? null,
        accepted: supplier?.accepted ?? false,
        finalOffer: supplier?.offers.at(-1) ?? null,
        rounds: (supplier?.offers ?? []).map((offer) => ({
          round: offer.round,
          total: offer.total,
          leadTimeDays: offer.leadTimeDays,
          paymentTerms: offer.paymentTerms,
          capacityShare: offer.capacityShare,
          evaluation:
            state.evaluations.find((e) => e.round === offer.round && e.supplierCode === profile.code)?.evaluation ??
            null,
          /** What the evaluation measures: meets target / within walk-away / above walk-away. */
          evaluationLabel: ((e) => (e === undefined ? null : evaluationLabel(e, offer.total)))(
            state.evaluations.find((e) => e.round === offer.round && e.supplierCode === profile.code)?.evaluation,
          ),
        })),
        messages: messages
          .filter((message) => message.supplierCode === profile.code)
          .map(({ sequence, round, role, speaker, text, action, usedStrategies, pillarBriefs }) => ({
            sequence,
            round,
            role,
            speaker,
            action: action.type,
            text,
            usedStrategies,
            pillarBriefs,
          })),
      };
    }),
    questions: state.askInfo.questions,
    curveball: state.curveball,
    earlyTermination,
    wallTimeMs: Math.round(wallTimeMs),
  };
}

export function negotiationTranscript(state: NegotiationState, events: readonly NegotiationEvent[]): string {
  const out: string[] = [];
  const money = (amount: number) => formatMoney(amount, state.baseline.currency);
  // A figure Parley assumed is labelled as such until the supplier's own message states it.
  const figures = (lead: number | null, terms: string | null, assumed: (fact: SupplierFact) => boolean): string =>
    `${lead === null ? '—' : showFact('leadTimeDays', `${lead} days`, assumed('leadTimeDays'))}, ` +
    `${terms === null ? '—' : showFact('paymentTerms', describePaymentTerms(terms), assumed('paymentTerms'))}`;
  let sequence = 0;
  for (const event of events) {
    switch (event.type) {
      case 'round_start':
        out.push(
          `\n══ Round ${event.round} of ${state.maxRounds}${event.phase === 'post_curveball' ? ' (after the curveball)' : ''}`,
        );
        break;
      case 'message':
        sequence = event.sequence;
        if (event.pillarBriefs) {
          out.push(`   ┌ negotiator: ${event.pillarBriefs.negotiator}`);
          out.push(`   │ risk: ${event.pillarBriefs.riskAnalyst}`);
          out.push(`   └ product/cost: ${event.pillarBriefs.productCost}`);
        }
        out.push(
          `${event.speaker} → ${event.role === 'brand_agent' ? event.supplierCode : 'Alex'} [${event.action.type}]`,
        );
        out.push(`   ${event.text.replace(/\n/g, '\n   ')}`);
        break;
      case 'offer_extracted':
        // An offer is extracted before its message is recorded: the next sequence number is the message stating it.
        out.push(
          `   ⇒ ${event.supplierCode} offer ${money(event.offer.total)}, ` +
            figures(event.offer.leadTimeDays, event.offer.paymentTerms, (fact) =>
              wasAssumedAt(state.assumptions, event.supplierCode, fact, event.round === 0 ? 0 : sequence + 1),
            ) +
            `${event.offer.capacityShare < 1 ? `, max ${Math.round(event.offer.capacityShare * 100)}% of the order` : ''}`,
        );
        break;
      case 'offer_unreadable':
        out.push(
          `   ⇏ ${event.supplierCode} ${event.action} carried no readable offer (${event.problems.join('; ')}): ` +
            'its standing offer stands',
        );
        break;
      case 'question_asked':
        out.push(
          `?? Alex asks the buyer (${event.questionId}, about ${event.supplierCode}): ${event.question} [${event.suggestedAnswers.join(' | ')}]`,
        );
        break;
      case 'question_answered':
        out.push(`!! ${event.answeredBy} answered ${event.questionId}: ${event.answer}`);
        break;
      case 'curveball':
        out.push(`\n⚠ Curveball: ${event.curveball.impact}`);
        for (const strategy of event.curveball.strategies) {
          out.push(`   ${strategy.id === event.curveball.chosen ? '●' : '○'} ${strategy.title}`);
        }
        break;
      case 'round_analysis':
        out.push(`── Round ${event.round} analysis`);
        for (const offer of event.offers) {
          out.push(
            `   ${offer.supplierCode}: ${offer.total === null ? '—' : money(offer.total)}, ` +
              `${figures(offer.leadTimeDays, offer.paymentTerms, (fact) => offer.assumed.includes(fact))} → ${evaluationLabel(offer.evaluation, offer.total)} (${offer.status})`,
          );
        }
        break;
      case 'early_termination_offered':
        out.push(
          `?? Offers have converged (confidence ${event.record.confidence.toFixed(2)}): finish now and skip ` +
            `${event.record.roundsSkipped} round(s)?`,
        );
        break;
      case 'supplier_done':
        out.push(
          `■ ${event.supplierCode} ${event.status}${event.reason ? ` (${event.reason})` : ''}${event.details ? `: ${event.details}` : ''}`,
        );
        break;
      case 'negotiation_complete':
        out.push('\n══ Negotiation complete');
        for (const [code, offer] of Object.entries(event.finalOffers)) {
          const assumed = (fact: SupplierFact) => wasAssumedAt(state.assumptions, code, fact, Infinity);
          out.push(
            `   ${code}: ${offer ? `${money(offer.total)}, ${figures(offer.leadTimeDays, offer.paymentTerms, assumed)}` : 'no offer'}`,
          );
        }
        break;
      case 'negotiation_started':
        out.push(`Negotiating with ${event.suppliers.join(', ')} over up to ${event.maxRounds} rounds.`);
        break;
    }
  }
  return out.join('\n');
}
