// A negotiation with nobody at the keyboard (the CLI, the benchmark, tests): every step's events are collected, and
// with `answers: 'auto'` each question is answered with its first suggested answer, as the buyer's default.
import {
  answer,
  createNegotiation,
  decideEarlyTermination,
  type EngineAgents,
  type NegotiationEvent,
  type NegotiationSetup,
  type NegotiationState,
  runUntilBlocked,
  type StepResult,
} from './engine.js';
import { nextOpenQuestion, type Question } from './ask-info.js';

export interface UnattendedRun {
  state: NegotiationState;
  events: NegotiationEvent[];
}

export async function runUnattended(
  setup: NegotiationSetup,
  agents: EngineAgents,
  /** earlyTermination: what the buyer says when offered to stop early; by default the first answer, finish now. */
  options: {
    answers: 'auto' | 'none';
    earlyTermination?: 'finish' | 'continue';
    /** The buyer's answer to a question; by default its first suggested answer. */
    choose?: (question: Question) => string;
    /** Sees each step's state with the events it produced: what a message was written with, when it was written. */
    onStep?: (result: StepResult) => void;
  },
): Promise<UnattendedRun> {
  const started = createNegotiation(setup);
  const events = [...started.events];
  let state = started.state;
  const collect = (result: { state: NegotiationState; events: NegotiationEvent[] }) => {
    events.push(...result.events);
    state = result.state;
  };
  while (state.status !== 'completed') {
    state = await runUntilBlocked(state, agents, (result) => {
      events.push(...result.events);
      options.onStep?.(result);
    });
    // Nobody here answers for a connected supplier: the run stops where it waits for one.
    if (options.answers === 'none' || state.status === 'awaiting_suppliers') break;
    if (state.status === 'awaiting_early_termination') {
      collect(decideEarlyTermination(state, options.earlyTermination !== 'continue', 'auto'));
    }
    for (let question = nextOpenQuestion(state.askInfo); question; question = nextOpenQuestion(state.askInfo)) {
      const text = options.choose?.(question) ?? question.suggestedAnswers[0] ?? 'Yes';
      collect(answer(state, question.id, text, 'auto'));
    }
  }
  return { state, events };
}
