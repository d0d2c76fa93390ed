// One outcomes scenario: the negotiation played with the offline agents as the buyer would (the mandate at the start,
// the questions answered by the scenario's policy), decided twice — with the curveball's capacity cap and without it —
// and measured: the deal, the buyer's share of the suppliers' room, the savings against the quote and every violation.
import { cashFlowCost } from '../../src/commerce/cash-flow.js';
import { type SupplierProfile } from '../../src/config/business-rules.js';
import { unitPriceFor } from '../../src/decision/allocation.js';
import { type DecideOutcome, type DecisionNumbers, decide, decisionInputFromState } from '../../src/decision/decide.js';
import { writeDecision } from '../../src/decision/write-decision.js';
import { ANSWER_MAX } from '../../src/services/negotiation/answer-question.js';
import { createNegotiationAgents } from '../../src/negotiation/agents/create-agents.js';
import { supplierFloorPrices } from '../../src/negotiation/supplier-economics.js';
import { nextOpenQuestion } from '../../src/negotiation/ask-info.js';
import {
  checkNegotiation,
  INVENTED_FACT_KINDS,
  LEAK_KINDS,
  type Violation,
} from '../../src/negotiation/message-checks.js';
import {
  answer,
  createNegotiation,
  decideEarlyTermination,
  type EngineAgents,
  type NegotiationEvent,
  type NegotiationState,
  runUntilBlocked,
} from '../../src/negotiation/engine.js';
import type { Baseline, MandateInput } from '../../src/negotiation/types.js';
import {
  findInventedFacts,
  findLeaks,
  ignoredAnswers,
  type IgnoredAnswer,
  type InventedFact,
  isAboveWalkAway,
  isOverQuote,
  type Leak,
  missesDeadline,
  splitDespiteSingleSource,
} from './detectors.js';
import { type AnswerPolicy, type IntendedMandate, intendedMandate, type Scenario } from './scenarios.js';
import { typedReply } from './typed-replies.js';

const MAX_ROUNDS = 4;
const BRAND_NAME = 'Valden Outdoor';

/** A bundled sample read once: its baseline and the quoting supplier's profile as the sheet describes it. */
export interface PreparedSample {
  file: string;
  baseline: Baseline;
  quotedSupplier: SupplierProfile;
  simulated: readonly SupplierProfile[];
}

export interface ScenarioOutcome {
  scenario: Scenario;
  /** deal: an award; no_award: the negotiation ended and nothing could be awarded; waiting: it waits for the buyer. */
  status: 'deal' | 'no_award' | 'waiting';
  /** Over the awarded suppliers, weighted by value; null without a deal or without room between opening and floor. */
  surplusShare: number | null;
  /** (quote landed − award landed) / quote landed; null without a deal. */
  savingsVsQuote: number | null;
  aboveWalkAway: boolean;
  missingDeadline: boolean;
  splitDespiteSingleSource: boolean;
  overQuote: boolean;
  ignoredAnswers: IgnoredAnswer[];
  /** Found by this benchmark's detectors or by Parley's own message checks (src/negotiation/message-checks.ts). */
  inventedFacts: InventedFact[];
  leaks: Leak[];
  /** Texts (a message, a message's briefs, a question, the recommendation) with an invented fact. */
  inventedTexts: number;
  /** Brand messages that disclose something of a competitor. */
  leakingMessages: number;
  /** The award with the capacity cap differs from the award without it. */
  curveballBinding: boolean;
  impasse: boolean;
  earlyTerminationOffered: boolean;
  questionsAsked: number;
}

/** The intended mandate as the start modal sets it (issue 13 part A): every limit has its field. */
export function engineMandate(mandate: IntendedMandate): MandateInput {
  return {
    targetTotal: mandate.targetTotal,
    walkAwayTotal: mandate.walkAwayTotal,
    maxLeadTimeDays: mandate.maxLeadTimeDays,
    sourcing: mandate.singleSource ? 'single' : 'any',
  };
}

/**
 * The answer the scenario's buyer gives: the first suggestion, another one picked by the seed, or a reply typed in the
 * thread — prepared as the thread reply is (`receiveThreadReply`: trimmed, cut to ANSWER_MAX).
 */
export function chooseAnswer(
  policy: AnswerPolicy,
  question: { topic: string | null; question: string; suggestedAnswers: readonly string[] },
  context: { seed: number; index: number; quoteTotal: number },
): string {
  const suggested = question.suggestedAnswers;
  if (policy === 'typed')
    return typedReply(question, context.quoteTotal, context.seed, context.index).trim().slice(0, ANSWER_MAX);
  if (policy === 'first' || suggested.length < 2) return suggested[0] ?? 'Yes';
  return suggested[1 + ((context.seed + context.index) % (suggested.length - 1))] ?? suggested[0] ?? 'Yes';
}

export async function playScenario(
  scenario: Scenario,
  sample: PreparedSample,
  agents: EngineAgents = createNegotiationAgents(null),
): Promise<ScenarioOutcome> {
  const wanted = intendedMandate(scenario.mandate, sample.baseline);
  const started = createNegotiation({
    seed: scenario.seed,
    brandName: BRAND_NAME,
    mode: scenario.mode,
    maxRounds: MAX_ROUNDS,
    mandate: engineMandate(wanted),
    buyerNotes: null,
    baseline: sample.baseline,
    profiles: [sample.quotedSupplier, ...sample.simulated],
  });
  let state = started.state;
  const events: NegotiationEvent[] = [...started.events];
  const collect = (result: { state: NegotiationState; events: NegotiationEvent[] }) => {
    events.push(...result.events);
    state = result.state;
  };
  let answered = 0;
  while (state.status !== 'completed') {
    state = await runUntilBlocked(state, agents, (result) => void events.push(...result.events));
    if (state.status === 'completed') break;
    if (state.status === 'awaiting_early_termination') {
      // "Finish now" is the first button offered; the `other` buyer keeps negotiating.
      collect(decideEarlyTermination(state, scenario.answers !== 'other', 'buyer'));
    }
    // A thread reply answers the oldest open question, as a click answers its own: either way, oldest first.
    for (let question = nextOpenQuestion(state.askInfo); question; question = nextOpenQuestion(state.askInfo)) {
      const text = chooseAnswer(scenario.answers, question, {
        seed: scenario.seed,
        index: answered++,
        quoteTotal: sample.baseline.total,
      });
      collect(answer(state, question.id, text, 'buyer'));
    }
  }

  const questionsAsked = events.filter((event) => event.type === 'question_asked').length;
  const base = {
    scenario,
    impasse: events.some((event) => event.type === 'supplier_done' && event.status === 'impasse'),
    earlyTerminationOffered: events.some((event) => event.type === 'early_termination_offered'),
    questionsAsked,
  };
  const none = {
    surplusShare: null,
    savingsVsQuote: null,
    aboveWalkAway: false,
    missingDeadline: false,
    splitDespiteSingleSource: false,
    overQuote: false,
    ignoredAnswers: [],
    curveballBinding: false,
  };
  if (state.status !== 'completed') {
    return { ...base, ...none, status: 'waiting', ...messageFindings(state, events, null) };
  }

  const input = decisionInputFromState(state);
  const capped = decide(input);
  const cappedCode = state.curveball?.supplierCode;
  const uncapped = decide({
    ...input,
    capacityCaps: {},
    finalOffers: input.finalOffers.map((offer) =>
      offer.supplierCode === cappedCode ? { ...offer, capacityShare: 1 } : offer,
    ),
  });
  const curveballBinding = cappedCode !== undefined && awardKey(capped) !== awardKey(uncapped);
  if (!capped.ok) {
    return {
      ...base,
      ...none,
      status: 'no_award',
      curveballBinding,
      ...messageFindings(state, events, null),
    };
  }

  const numbers = capped.numbers;
  const text = await writeDecision(numbers, { llm: null });
  const quoted = sample.quotedSupplier.code;
  const decisionText = [
    text.summary,
    ...Object.values(text.keyPoints),
    text.tradeOffs,
    text.cheapestNotChosenReason ?? '',
  ].join('\n');
  const quoteLanded = quotationLandedCost(state, numbers);
  const answers = answeredQuestions(events);
  return {
    ...base,
    status: 'deal',
    surplusShare: surplusShare(state, numbers),
    savingsVsQuote: (quoteLanded - numbers.allocation.effectiveLandedCost) / quoteLanded,
    aboveWalkAway: isAboveWalkAway(numbers, wanted),
    missingDeadline: missesDeadline(numbers, wanted),
    splitDespiteSingleSource: splitDespiteSingleSource(numbers, wanted),
    // The scenario's buyer never clicks "Pay $X more": a premium counts as accepted only if the mandate records one.
    overQuote: isOverQuote(numbers, quoteLanded, premiumAccepted(state, numbers, quoteLanded)),
    ignoredAnswers: ignoredAnswers(answers, numbers, wanted),
    ...messageFindings(state, events, {
      text: decisionText,
      quotedAloneAwarded: numbers.award.length === 1 && numbers.award[0]?.supplierCode === quoted,
    }),
    curveballBinding,
  };
}

/**
 * Leaks and invented facts as this benchmark's detectors find them (detectors.ts, stricter: any past total, a
 * distinctive word of a name) together with Parley's own message checks: a text counts once whichever finds it.
 */
function messageFindings(
  state: NegotiationState,
  events: readonly NegotiationEvent[],
  decision: { text: string; quotedAloneAwarded: boolean } | null,
): Pick<ScenarioOutcome, 'leaks' | 'inventedFacts' | 'leakingMessages' | 'inventedTexts'> {
  const leaks = findLeaks(state, events, { disclosureAllowed: state.discloseCompetitors });
  const inventedFacts = findInventedFacts(state, events, decision);
  const checked = checkNegotiation(state, events, { extraTexts: decision === null ? [] : [decision.text] });
  const questions = events.flatMap((event) => (event.type === 'question_asked' ? [event] : []));
  const textOf = (violation: Violation): string => {
    if (violation.sequence !== null) return String(violation.sequence);
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    return questions.find((q) => flat(q.question).includes(violation.excerpt.trim()))?.questionId ?? violation.excerpt;
  };
  for (const violation of checked) {
    if (LEAK_KINDS.includes(violation.kind) && violation.sequence !== null)
      leaks.push({
        sequence: violation.sequence,
        to: violation.supplierCode ?? '',
        about: violation.detail,
        kind: 'checked',
        excerpt: violation.excerpt,
      });
    if (INVENTED_FACT_KINDS.includes(violation.kind))
      inventedFacts.push({
        where: textOf(violation),
        fact: 'checked',
        excerpt: `${violation.detail}: ${violation.excerpt}`,
      });
  }
  return {
    leaks,
    inventedFacts,
    leakingMessages: new Set(leaks.map((leak) => leak.sequence)).size,
    // A message's briefs are their own text ("12 brief"), apart from the message ("12").
    inventedTexts: new Set(inventedFacts.map((fact) => fact.where)).size,
  };
}

/** The buyer accepted at least this award's premium over the quote (a consent in the mandate covering it). */
function premiumAccepted(state: NegotiationState, numbers: DecisionNumbers, quoteLanded: number): boolean {
  const over = numbers.allocation.effectiveLandedCost - quoteLanded;
  return state.mandate.premiumConsents.some((consent) => consent.amountOverQuote >= over - 0.01);
}

/** Who gets what share: equal keys, equal awards. */
function awardKey(outcome: DecideOutcome): string {
  if (!outcome.ok) return `none:${outcome.error}`;
  return outcome.numbers.award
    .map((supplier) => `${supplier.supplierCode}:${supplier.share.toFixed(3)}`)
    .sort()
    .join(',');
}

/**
 * The quotation's landed cost: the decision's figure, or — when the quotation left its terms or lead time out — its
 * total plus the cash-flow cost at the terms and lead time the negotiation assumed for it (its opening offer's).
 */
function quotationLandedCost(state: NegotiationState, numbers: DecisionNumbers): number {
  if (numbers.baseline.effectiveLandedCost !== null) return numbers.baseline.effectiveLandedCost;
  const opening = state.suppliers[state.profiles[0]?.code ?? '']?.offers[0];
  if (opening === undefined) return state.baseline.total;
  const cost = cashFlowCost({
    amount: state.baseline.total,
    paymentTerms: opening.paymentTerms,
    leadTimeDays: opening.leadTimeDays,
  });
  return state.baseline.total + cost;
}

/**
 * buyerSurplusShare of one deal: for each awarded supplier, (opening − final) / (opening − floor) over the lines it
 * is awarded — opening at its first offer's prices, final at the award's, floor at its private floor — averaged with
 * the award's value as weights. A supplier whose opening is at its floor has no room to share and is left out.
 */
export function surplusShare(state: NegotiationState, numbers: DecisionNumbers): number | null {
  let weighted = 0;
  let weight = 0;
  for (const supplier of numbers.award) {
    const profile = state.profiles.find((candidate) => candidate.code === supplier.supplierCode);
    const offers = state.suppliers[supplier.supplierCode]?.offers ?? [];
    const opening = offers[0];
    if (profile === undefined || opening === undefined) continue;
    // The supplier's private floor (issue 13 part B): drawn from its profile and the negotiation's seed.
    const floors = supplierFloorPrices(profile, state.baseline, state.seed);
    let open = 0;
    let floor = 0;
    for (const line of supplier.lines) {
      const quoted = opening.lines.find((candidate) => candidate.sku === line.sku);
      const floorPrice = floors.get(line.sku);
      if (quoted === undefined || floorPrice === undefined) continue;
      open += line.quantity * unitPriceFor(quoted, line.quantity);
      floor += line.quantity * floorPrice;
    }
    const room = open - floor;
    if (room < 0.01) continue;
    weighted += supplier.fob * ((open - supplier.fob) / room);
    weight += supplier.fob;
  }
  return weight === 0 ? null : weighted / weight;
}

function answeredQuestions(events: readonly NegotiationEvent[]): { question: string; answer: string }[] {
  const asked = new Map<string, string>();
  const answers: { question: string; answer: string }[] = [];
  for (const event of events) {
    if (event.type === 'question_asked') asked.set(event.questionId, event.question);
    if (event.type === 'question_answered') {
      const question = asked.get(event.questionId);
      if (question !== undefined) answers.push({ question, answer: event.answer });
    }
  }
  return answers;
}
