// The mandate governs the award, checked as properties over many offline negotiations (seeds 1–30 × the bundled
// samples 01–12 × the preset modes, with walk-aways, deadlines, invitations, sourcing and every suggested answer):
// no award above the walk-away, none missing the deadline, none above the quote's landed cost without the buyer's
// consent, no answer the award ignores — and a premium the buyer accepts is then awarded within what they accepted.
import { beforeAll, describe, expect, it } from 'vitest';
import { NEGOTIATION_MODES, type PresetMode, SIMULATED_SUPPLIERS } from '../config/business-rules.js';
import { createNegotiationAgents } from '../negotiation/agents/create-agents.js';
import type { Question } from '../negotiation/ask-info.js';
import type { NegotiationState } from '../negotiation/engine.js';
import { type MandateInput, recordConsent } from '../negotiation/mandate.js';
import { runUnattended } from '../negotiation/run-unattended.js';
import { sampleBaselines, type SampleBaseline } from '../../test/support/sample-baselines.js';
import { decide, decisionInputFromState, type DecideOutcome, type DecisionNumbers } from './decide.js';

const SEEDS = Array.from({ length: 30 }, (_, i) => i + 1);
const MODES = NEGOTIATION_MODES.filter((mode): mode is PresetMode => mode !== 'custom');
const CENT = 0.01;

interface Tally {
  runs: number;
  awards: number;
  noAward: number;
  premiumsOffered: number;
  awardsAboveWalkAway: string[];
  awardsMissingDeadline: string[];
  overQuoteWithoutConsent: string[];
  answersIgnored: string[];
  consentNotHonoured: string[];
}

/** What the buyer sets at the start, varied by seed. */
function mandateFor(seed: number, sample: SampleBaseline): MandateInput {
  switch (seed % 5) {
    case 1:
      // A walk-away a little under the quote: reachable by some, not all.
      return { walkAwayTotal: Math.round(sample.baseline.total * 0.95) };
    case 2:
      return { maxLeadTimeDays: 30 };
    case 3:
      return { invitedSuppliers: [SIMULATED_SUPPLIERS[seed % 2]?.code ?? 'SUP-003'], sourcing: 'single' };
    case 4:
      return { walkAwayTotal: Math.round(sample.baseline.total * 0.9), sourcing: 'split' };
    default:
      return {};
  }
}

/** Every suggested answer gets its turn: the seed and the question's position pick one. */
function chooser(seed: number) {
  return (question: Question) => {
    const index = (seed + Number(question.id.replace(/\D/g, ''))) % Math.max(1, question.suggestedAnswers.length);
    return question.suggestedAnswers[index] ?? 'Yes';
  };
}

const awardLeadTime = (numbers: DecisionNumbers) => Math.max(...numbers.award.map((a) => a.leadTimeDays));
const awardPrice = (numbers: DecisionNumbers) => numbers.allocation.fob + numbers.allocation.charges;

function check(tally: Tally, label: string, state: NegotiationState, outcome: DecideOutcome, consented: boolean) {
  const mandate = state.mandate;
  if (!outcome.ok) {
    if (outcome.error === 'no_feasible_award') {
      tally.noAward++;
      // No silent failure: the buyer is told why and shown what came closest.
      expect(outcome.infeasible?.why, label).toBeTruthy();
      expect(outcome.message, label).toMatch(/Nothing can be awarded/);
    }
    return;
  }
  tally.awards++;
  const numbers = outcome.numbers;
  if (mandate.walkAwayTotal !== null && awardPrice(numbers) > mandate.walkAwayTotal + CENT)
    tally.awardsAboveWalkAway.push(`${label}: ${awardPrice(numbers)} > ${mandate.walkAwayTotal}`);
  if (mandate.maxLeadTimeDays !== null && awardLeadTime(numbers) > mandate.maxLeadTimeDays)
    tally.awardsMissingDeadline.push(`${label}: ${awardLeadTime(numbers)} days > ${mandate.maxLeadTimeDays}`);
  const quote = numbers.limits.quoteLandedCost;
  expect(quote, label).not.toBeNull();
  const allowed = (quote ?? 0) + (consented ? numbers.limits.consentedPremium : 0);
  if (numbers.allocation.effectiveLandedCost > allowed + CENT)
    tally.overQuoteWithoutConsent.push(`${label}: ${numbers.allocation.effectiveLandedCost} > ${allowed}`);
  // Invited suppliers only.
  for (const code of numbers.recommendation.supplierCodes) {
    if (code !== state.profiles[0]?.code && mandate.invitedSuppliers !== null)
      expect(mandate.invitedSuppliers, label).toContain(code);
  }
  for (const answer of mandate.answers) {
    const asked = state.askInfo.questions.find((q) => q.id === answer.questionId);
    const where = `${label} ${answer.questionId} "${answer.answer}"`;
    // Every answer the agents suggest on these topics says something the mandate can hold.
    if ((asked?.topic === 'lead_time' || asked?.topic === 'split_order') && answer.effect === null)
      tally.answersIgnored.push(`${where}: not read`);
  }
  if (mandate.sourcing === 'single' && numbers.recommendation.isSplit)
    tally.answersIgnored.push(`${label}: split, the buyer wants one supplier`);
  if (mandate.sourcing === 'split' && !numbers.recommendation.isSplit)
    tally.answersIgnored.push(`${label}: one supplier, the buyer wants a split`);
  const accepted = mandate.acceptedLeadTimeDays;
  if (accepted !== null) {
    for (const offer of numbers.offers) {
      const score = numbers.scores.find((s) => s.supplierCode === offer.supplierCode);
      if (offer.leadTimeDays <= accepted && score?.factors.leadTime !== 100)
        tally.answersIgnored.push(
          `${label}: ${offer.supplierCode} penalised for ${offer.leadTimeDays} ≤ ${accepted} days`,
        );
    }
  }
}

describe('the award respects the mandate, over many seeds, samples and modes', () => {
  let samples: SampleBaseline[] = [];
  beforeAll(() => {
    samples = sampleBaselines(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);
  });

  it('never above the walk-away, past the deadline, above the quote without consent, or against an answer', async () => {
    expect(samples).toHaveLength(12);
    const tally: Tally = {
      runs: 0,
      awards: 0,
      noAward: 0,
      premiumsOffered: 0,
      awardsAboveWalkAway: [],
      awardsMissingDeadline: [],
      overQuoteWithoutConsent: [],
      answersIgnored: [],
      consentNotHonoured: [],
    };
    const agents = createNegotiationAgents(null);
    for (const seed of SEEDS) {
      for (const [m, mode] of MODES.entries()) {
        const sample = samples[(seed + m) % samples.length];
        if (!sample) continue;
        const label = `seed ${seed} ${mode} ${sample.name}`;
        const { state } = await runUnattended(
          {
            seed,
            brandName: 'Valden Outdoor',
            mode,
            maxRounds: 3,
            mandate: mandateFor(seed, sample),
            buyerNotes: null,
            baseline: sample.baseline,
            profiles: [sample.quotedSupplier, ...SIMULATED_SUPPLIERS],
          },
          agents,
          { answers: 'auto', choose: chooser(seed) },
        );
        tally.runs++;
        expect(state.status, label).toBe('completed');
        const outcome = decide(decisionInputFromState(state));
        check(tally, label, state, outcome, false);

        // The buyer clicks "Pay $X more…": the premium is recorded, and the award is then made within it.
        const premium = outcome.ok ? outcome.numbers.premiumOption : (outcome.infeasible?.premiumOption ?? null);
        if (premium === null) continue;
        tally.premiumsOffered++;
        expect(premium.overQuote, label).toBeGreaterThan(0);
        const consented: NegotiationState = {
          ...state,
          mandate: recordConsent(state.mandate, {
            optionId: premium.id,
            amountOverQuote: premium.overQuote,
            reasons: premium.reasons,
            supplierCodes: premium.supplierCodes,
            by: 'U-BUYER',
            at: '2026-03-01T10:00:00.000Z',
          }),
        };
        const after = decide(decisionInputFromState(consented));
        check(tally, `${label} (after consent)`, consented, after, true);
        if (!after.ok || after.numbers.premiumOption !== null)
          tally.consentNotHonoured.push(`${label}: ${after.ok ? 'premium offered again' : after.message}`);
      }
    }
    expect(tally.runs).toBe(SEEDS.length * MODES.length);
    expect(tally.awardsAboveWalkAway).toEqual([]);
    expect(tally.awardsMissingDeadline).toEqual([]);
    expect(tally.overQuoteWithoutConsent).toEqual([]);
    expect(tally.answersIgnored).toEqual([]);
    expect(tally.consentNotHonoured).toEqual([]);
    // The grid exercises every path: awards, no award, and premiums offered.
    expect(tally.awards).toBeGreaterThan(tally.runs / 2);
    expect(tally.noAward).toBeGreaterThan(0);
    expect(tally.premiumsOffered).toBeGreaterThan(0);
  }, 120_000);
});
