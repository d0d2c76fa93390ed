// The brand never asks what the buyer's mandate settles, and the buyer's answers never silently loosen what the start
// modal set: checked over many seeds, samples and modes with the offline agents, and against a brand agent (standing
// in for Claude) that asks regardless.
import { beforeAll, describe, expect, it } from 'vitest';
import { type PresetMode, SIMULATED_SUPPLIERS } from '../config/business-rules.js';
import { sampleBaselines, type SampleBaseline } from '../../test/support/sample-baselines.js';
import { createNegotiationAgents } from './agents/create-agents.js';
import type { BrandAgent, BrandTurn } from './agents/interfaces.js';
import type { Question } from './ask-info.js';
import type { EngineAgents, NegotiationEvent } from './engine.js';
import { type MandateInput, settledByMandate } from './mandate.js';
import { runUnattended } from './run-unattended.js';

const SEEDS = Array.from({ length: 24 }, (_, i) => i + 1);
const MODES: readonly PresetMode[] = ['cost', 'quality', 'speed', 'cashflow', 'balanced'];

/** Start mandates that settle a topic the offline brand would otherwise ask about. */
const SETTLING: readonly { name: string; mandate: MandateInput; topic: string }[] = [
  { name: 'single source', mandate: { sourcing: 'single' }, topic: 'split_order' },
  { name: 'a required split', mandate: { sourcing: 'split' }, topic: 'split_order' },
  { name: 'a deadline', mandate: { maxLeadTimeDays: 45 }, topic: 'lead_time' },
  { name: 'an accepted lead time', mandate: { acceptedLeadTimeDays: 60 }, topic: 'lead_time' },
];

const questionsOf = (events: readonly NegotiationEvent[]) =>
  events.flatMap((event) => (event.type === 'question_asked' ? [event] : []));

/** Every suggested answer gets its turn, the seed and the question's number picking one. */
const chooser = (seed: number) => (question: Question) =>
  question.suggestedAnswers[(seed + Number(question.id.replace(/\D/g, ''))) % question.suggestedAnswers.length] ??
  'Yes';

describe('the brand does not ask what the mandate settles', () => {
  let samples: SampleBaseline[] = [];
  beforeAll(() => {
    samples = sampleBaselines(['01', '02', '03', '05', '06', '08', '09', '11']);
  });

  it('over many seeds: no question on a settled topic, and the start settings survive every answer', async () => {
    const agents = createNegotiationAgents(null);
    const asked: string[] = [];
    const loosened: string[] = [];
    let openTopicsAsked = 0;
    for (const seed of SEEDS) {
      const sample = samples[seed % samples.length];
      const mode = MODES[seed % MODES.length] ?? 'balanced';
      if (!sample) continue;
      const setup = {
        seed,
        brandName: 'Valden Outdoor',
        mode,
        maxRounds: 4,
        buyerNotes: null,
        baseline: sample.baseline,
        profiles: [sample.quotedSupplier, ...SIMULATED_SUPPLIERS],
      };
      for (const settling of SETTLING) {
        const label = `seed ${seed} ${mode} ${sample.name} with ${settling.name}`;
        const { state, events } = await runUnattended({ ...setup, mandate: settling.mandate }, agents, {
          answers: 'auto',
          choose: chooser(seed),
        });
        for (const question of questionsOf(events)) {
          if (question.topic === settling.topic) asked.push(`${label}: "${question.question}"`);
        }
        const start = state.mandate.setAtStart;
        if (settling.mandate.sourcing !== undefined && state.mandate.sourcing !== settling.mandate.sourcing)
          loosened.push(`${label}: sourcing became ${state.mandate.sourcing}`);
        const deadline = start?.maxLeadTimeDays ?? null;
        if (deadline !== null && (state.mandate.maxLeadTimeDays ?? Infinity) > deadline)
          loosened.push(`${label}: deadline became ${state.mandate.maxLeadTimeDays}`);
      }
      // The same negotiation with nothing set asks about those topics: the check above has something to catch.
      const open = await runUnattended({ ...setup, mandate: {} }, agents, { answers: 'auto', choose: chooser(seed) });
      openTopicsAsked += questionsOf(open.events).filter(
        (q) => q.topic === 'split_order' || q.topic === 'lead_time',
      ).length;
    }
    expect(asked).toEqual([]);
    expect(loosened).toEqual([]);
    expect(openTopicsAsked).toBeGreaterThan(SEEDS.length / 2);
  }, 120_000);
});

describe('a brand agent that asks regardless (as a Claude turn may)', () => {
  it('does not get its question to the buyer when the mandate settles it: the mandate answers instead', async () => {
    const offline = createNegotiationAgents(null);
    const seen: string[] = [];
    const asking: BrandAgent = {
      rfq: (context) => offline.brand.rfq(context),
      pillars: (context) => offline.brand.pillars(context),
      synthesize: async (context, briefs) => {
        const answered = context.clarifications.find((c) => c.topic === 'split_order');
        if (answered !== undefined) {
          seen.push(answered.answer);
          return offline.brand.synthesize(context, briefs);
        }
        const turn: BrandTurn = {
          action: {
            type: 'ASK_INFO',
            payload: {
              question: 'Are you open to splitting the order between two suppliers?',
              suggestedAnswers: ['Yes, split the order', 'Prefer a single supplier'],
              topic: 'split_order',
            },
          },
          message_text: 'A quick question: are you open to splitting the order?',
          used_strategies: [],
        };
        return turn;
      },
    };
    const agents: EngineAgents = { brand: asking, supplier: (code) => offline.supplier(code) };
    const [sample] = sampleBaselines(['02']);
    if (!sample) throw new Error('sample 02 is bundled');
    const { state, events } = await runUnattended(
      {
        seed: 3,
        brandName: 'Valden Outdoor',
        mode: 'balanced',
        maxRounds: 3,
        mandate: { sourcing: 'single' },
        buyerNotes: null,
        baseline: sample.baseline,
        profiles: [sample.quotedSupplier, ...SIMULATED_SUPPLIERS],
      },
      agents,
      { answers: 'auto' },
    );
    expect(questionsOf(events)).toEqual([]);
    expect(state.mandate.sourcing).toBe('single');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toBe(`The buyer's mandate: ${settledByMandate(state.mandate, 'split_order') ?? ''}.`);
    // The brand's turns went to the suppliers as messages all the same.
    expect(events.some((event) => event.type === 'message' && event.role === 'brand_agent')).toBe(true);
  });
});
