// A reviewed quotation, negotiated unattended and decided: the story from the baseline to the recommendation, used by
// the negotiate CLI and the demo (the Slack flow runs the same engine step by step through the database instead).
import { type NegotiationMode, SIMULATED_SUPPLIERS } from '../config/business-rules.js';
import { type DecisionNumbers, decide, decisionInputFromState } from '../decision/decide.js';
import { type DecisionText, writeDecision } from '../decision/write-decision.js';
import type { Llm } from '../llm/llm.js';
import { QuotationError } from '../quotation/errors.js';
import type { ParsedQuotation } from '../quotation/parse-quotation.js';
import { createNegotiationAgents } from './agents/create-agents.js';
import { baselineFromQuotation, whyNotNegotiable } from './baseline.js';
import type { NegotiationEvent, NegotiationState } from './engine.js';
import { runUnattended } from './run-unattended.js';
import type { Baseline, MandateInput } from './types.js';

export interface NegotiateQuotationOptions {
  parsed: ParsedQuotation;
  /** Catalog SKU → product name, for the `SKU(Description)` references. */
  catalogNames: ReadonlyMap<string, string>;
  brandName: string;
  seed: number;
  mode: NegotiationMode;
  maxRounds: number;
  mandate: MandateInput;
  answers: 'auto' | 'none';
  /**
   * Answers the buyer gives instead of the first suggestion: for each question, the first of these that is one of its
   * suggested answers (so "Need delivery within 21 days" answers the lead-time question and nothing else).
   */
  preferredAnswers?: readonly string[];
  llm: Llm | null;
}

export interface NegotiatedQuotation {
  baseline: Baseline;
  skipped: string[];
  state: NegotiationState;
  events: NegotiationEvent[];
  wallTimeMs: number;
  /** Null until the negotiation completes (or when no allocation is possible: see `decisionError`). */
  decision: { numbers: DecisionNumbers; text: DecisionText } | null;
  decisionError: string | null;
}

export async function negotiateQuotation(options: NegotiateQuotationOptions): Promise<NegotiatedQuotation> {
  const { baseline, quotedSupplier, skipped } = baselineFromQuotation(options.parsed, options.catalogNames);
  const notNegotiable = whyNotNegotiable(baseline);
  if (notNegotiable) throw new QuotationError('nothing_to_negotiate', notNegotiable);
  const started = performance.now();
  const { state, events } = await runUnattended(
    {
      seed: options.seed,
      brandName: options.brandName,
      mode: options.mode,
      maxRounds: options.maxRounds,
      mandate: options.mandate,
      buyerNotes: null,
      baseline,
      profiles: [quotedSupplier, ...SIMULATED_SUPPLIERS],
    },
    createNegotiationAgents(options.llm),
    {
      answers: options.answers,
      choose: (question) =>
        options.preferredAnswers?.find((text) => question.suggestedAnswers.includes(text)) ??
        question.suggestedAnswers[0] ??
        'Yes',
    },
  );
  const wallTimeMs = performance.now() - started;
  if (state.status !== 'completed')
    return { baseline, skipped, state, events, wallTimeMs, decision: null, decisionError: null };
  // Numbers from code, words from the writer (Claude's only when every figure it writes checks out).
  const decided = decide(decisionInputFromState(state));
  if (!decided.ok)
    return { baseline, skipped, state, events, wallTimeMs, decision: null, decisionError: decided.message };
  const text = await writeDecision(decided.numbers, { llm: options.llm });
  return {
    baseline,
    skipped,
    state,
    events,
    wallTimeMs,
    decision: { numbers: decided.numbers, text },
    decisionError: null,
  };
}
