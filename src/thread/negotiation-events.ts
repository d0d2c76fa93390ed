// The negotiation in the thread: each agent turn, round analysis, question, early termination and curveball.
import type { Curveball, NegotiationEvent, NegotiationState } from '../negotiation/engine.js';
import type { WorkspaceTx } from '../db/scoped.js';
import { pendingQuestionId } from '../db/stores/negotiation-store.js';
import { effectiveMandate } from '../negotiation/offers.js';
import type { Offer } from '../negotiation/types.js';
import { enqueueSlackCalls, type OutboxCall, type OutboxWriter } from '../outbox/index.js';
import {
  buildAnsweredQuestion,
  buildCurveball,
  buildEarlyTermination,
  buildEarlyTerminationAnswered,
  buildQuestion,
  buildRoundMessage,
  buildSupplierDraft,
  type CurveballModel,
  type RoundAnalysisModel,
  type RoundTurn,
  type SlackMessage,
} from '../slack/views/index.js';
import { readBrandAsk } from '../negotiation/agents/interfaces.js';
import { RFQ_LINES_FILE, RFQ_LISTED_LINES, rfqItemList, rfqLinesCsv } from '../negotiation/format.js';
import {
  askerName,
  changeKey,
  draftKey,
  edit,
  message,
  negKey,
  negotiationThread,
  questionKey,
  supplierName,
  type Thread,
  type ThreadPlace,
  upload,
} from './thread.js';
import { negotiationStage, statusCalls } from './status-card.js';

/** Where a negotiation's events are told: its quotation's thread, and whom its questions are for. */
export interface NegotiationPlace {
  quotationId: string;
  thread: Thread;
  buyerId: string;
}

/** A step's events in the thread: each agent turn, round analysis, question, curveball; then the status card. */
export async function enqueueNegotiationEvents(
  tx: WorkspaceTx,
  input: { negotiationId: string; events: NegotiationEvent[]; state: NegotiationState },
) {
  const place = await negotiationThread(tx, input.negotiationId);
  await enqueuePreparedNegotiationEvents(tx, place, input, await negotiationStatusCalls(tx, place, input.state));
}

/**
 * A step's events and its status card's calls, written in one insert. The start reads the status calls before its
 * transaction (negotiationStatusCalls), so nothing is read while the transaction holds the connection.
 */
export async function enqueuePreparedNegotiationEvents(
  tx: WorkspaceTx,
  place: NegotiationPlace,
  input: { negotiationId: string; events: NegotiationEvent[]; state: NegotiationState },
  statusCalls: readonly OutboxCall[],
) {
  await enqueueSlackCalls(tx, [...negotiationEventCalls(place, input), ...statusCalls]);
}

/**
 * The status card's calls for the state a step left (read without writing, like statusCalls): a caller whose
 * transaction must stay short reads them before it.
 */
export function negotiationStatusCalls(reader: OutboxWriter, place: NegotiationPlace, state: NegotiationState) {
  // Named by the step and what the card shows, not by a hash of the whole state (megabytes at 3,000 lines, hashed on
  // every step): the same step replayed gives the same key, and another step a new one.
  const stage = negotiationStage(state, place.buyerId);
  const change = `neg:${state.stepCount}:${state.messageCount}:${changeKey(stage)}`;
  return statusCalls(reader, place.quotationId, stage, change, place.thread);
}

/** The calls that tell a step's events in the thread (no status card): built from what they say, nothing read. */
export function negotiationEventCalls(
  place: NegotiationPlace,
  input: { negotiationId: string; events: NegotiationEvent[]; state: NegotiationState },
): OutboxCall[] {
  const { negotiationId, events, state } = input;
  const { thread, buyerId } = place;
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

  const roundsDone = new Set<number>();
  for (const event of events) {
    switch (event.type) {
      case 'message':
      case 'round_analysis':
        // A round is one message, posted with its first turn and edited as the others arrive.
        if (!roundsDone.has(event.round)) {
          roundsDone.add(event.round);
          calls.push(...roundMessageCalls(thread, negotiationId, state, event.round, events));
        }
        // What Alex writes to a connected supplier is a draft until the buyer sends it (supplier-drafts.ts).
        if (event.type === 'message' && event.role === 'brand_agent' && isConnected(state, event.supplierCode)) {
          post(
            draftKey(negotiationId, event.sequence),
            buildSupplierDraft({
              negotiationId,
              sequence: event.sequence,
              supplierName: supplierName(state, event.supplierCode),
              round: event.round,
              text: event.text,
            }),
          );
        }
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
      case 'supplier_no_reply':
      case 'brand_message_edited': // the draft's card says it was sent as edited
      case 'negotiation_complete':
        break; // the status card shows these
      case 'offer_unreadable':
        break; // an agent's slip that changed no offer: the transcript reports it, the buyer has nothing to act on
    }
  }
  return calls;
}

function isConnected(state: NegotiationState, supplierCode: string): boolean {
  return state.profiles.some((profile) => profile.code === supplierCode && profile.counterpart === 'connected');
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

type RoundAnalysisEvent = Extract<NegotiationEvent, { type: 'round_analysis' }>;

/**
 * The round's message as the step leaves it: posted when the step holds the round's first turn, else an edit of it
 * (each edit keyed by what it shows, so a replayed step enqueues nothing twice). Round 1 also carries the request for
 * quotes; a quotation too long to list has its full list uploaded under it once.
 */
function roundMessageCalls(
  thread: ThreadPlace,
  negotiationId: string,
  state: NegotiationState,
  round: number,
  events: readonly NegotiationEvent[],
): OutboxCall[] {
  const said = state.profiles.flatMap((profile, order) =>
    (state.suppliers[profile.code]?.messages ?? []).flatMap((m, index) =>
      m.round === round ? [{ profile, message: m, at: m.sequence ?? order * 10_000 + index }] : [],
    ),
  );
  said.sort((a, b) => a.at - b.at);
  const saidNow = new Set(events.flatMap((e) => (e.type === 'message' && e.round === round ? [e.sequence] : [])));
  const postedBefore = said.some(({ message }) => message.sequence === undefined || !saidNow.has(message.sequence));
  const turns: RoundTurn[] = said.map(({ profile, message: m }) => {
    const offers = state.suppliers[profile.code]?.offers ?? [];
    const offer = m.from === 'supplier' ? offers.find((o) => o.round === round) : undefined;
    const previous = offer ? offers.filter((o) => o.round < offer.round).at(-1) : undefined;
    const comparable = offer && previous && sameLines(offer, previous);
    const ask = m.from === 'brand' && m.action ? readBrandAsk(m.action) : null;
    return {
      role: m.from,
      supplierName: profile.name,
      counterpart: profile.counterpart,
      text: m.text,
      action: m.action?.type ?? 'SUMMARIZE_VALIDATE',
      offer: offer
        ? {
            total: offer.total,
            previousTotal: comparable ? previous.total : null,
            leadTimeDays: offer.leadTimeDays,
            paymentTerms: offer.paymentTerms,
            concessions: offer.concessions,
            partial: linesPriced(offer, state.baseline.lines.length),
          }
        : null,
      ask: ask ? { total: ask.targetTotal, leadTimeDays: ask.leadTimeDays, paymentTerms: ask.paymentTerms } : null,
      brief: m.brief ?? null,
    };
  });
  const requested = said.filter(({ message: m }) => m.from === 'brand' && m.action?.type === 'REQUEST_CRITERIA');
  const lines = state.baseline.lines;
  const attach = lines.length > RFQ_LISTED_LINES;
  const analysis = events.find((e): e is RoundAnalysisEvent => e.type === 'round_analysis' && e.round === round);
  const body = buildRoundMessage({
    round,
    maxRounds: state.maxRounds,
    currency: state.baseline.currency,
    request:
      requested.length > 0
        ? {
            to: requested.map(({ profile }) => profile.name),
            lineCount: lines.length,
            units: lines.reduce((sum, line) => sum + line.quantity, 0),
            itemList: rfqItemList(lines),
            attachment: attach ? RFQ_LINES_FILE : null,
          }
        : null,
    turns,
    standing: analysis ? roundStanding(state, analysis) : null,
  });
  const roundKey = negKey(negotiationId, `round:${round}`);
  if (postedBefore) return [edit(thread, `${roundKey}:v:${changeKey(body)}`, roundKey, body)];
  const calls = [message(thread, roundKey, body)];
  if (requested.length > 0 && attach) {
    calls.push(
      upload(thread, negKey(negotiationId, 'rfq-lines'), {
        filename: RFQ_LINES_FILE,
        title: `Request for quotes: all ${lines.length.toLocaleString('en-US')} lines`,
        content: Buffer.from(rfqLinesCsv(lines)),
      }),
    );
  }
  return calls;
}

/** Whether two offers price the same lines: only then is the change of their totals a change of price. */
function sameLines(a: Pick<Offer, 'lines'>, b: Pick<Offer, 'lines'>): boolean {
  const skus = new Set(b.lines.map((line) => line.sku));
  return a.lines.length === b.lines.length && a.lines.every((line) => skus.has(line.sku));
}

/** How many of the quotation's `quoted` lines an offer prices, when it leaves some out; null when it prices them all. */
function linesPriced(offer: Pick<Offer, 'lines'>, quoted: number): { offered: number; quoted: number } | null {
  return offer.lines.length < quoted ? { offered: offer.lines.length, quoted } : null;
}

/** The lines the supplier's offer standing at the end of `round` prices, when it leaves some out. */
function standingPartial(state: NegotiationState, supplierCode: string, round: number, quoted: number) {
  const standing = state.suppliers[supplierCode]?.offers.filter((offer) => offer.round <= round).at(-1);
  return standing ? linesPriced(standing, quoted) : null;
}

/** The round's end as the standing under its turns: each supplier against the target and walk-away. */
function roundStanding(state: NegotiationState, event: RoundAnalysisEvent): RoundAnalysisModel {
  return {
    round: event.round,
    maxRounds: state.maxRounds,
    phase: state.curveball && event.round > state.curveball.afterRound ? 'post_curveball' : 'initial',
    currency: state.baseline.currency,
    limits: {
      ...effectiveMandate(state.mandate, state.baseline.total),
      targetSet: state.mandate.targetTotal !== null,
      walkAwaySet: state.mandate.walkAwayTotal !== null,
    },
    rows: event.offers.map((row) => ({
      supplierCode: row.supplierCode,
      partial: standingPartial(state, row.supplierCode, event.round, state.baseline.lines.length),
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
  };
}
