import { describe, expect, it } from 'vitest';
import {
  CURVEBALL,
  LINE_PRICE_SPREAD,
  PRICE_RANGES,
  QUOTED_SUPPLIER_DEFAULTS,
  SIMULATED_SUPPLIERS,
  type SupplierProfile,
} from '../config/business-rules.js';
import type { BrandAgent, SupplierAgent, SupplierTurn } from './agents/interfaces.js';
import { createOfflineBrandAgent } from './agents/offline/brand-agent.js';
import { createOfflineSupplierAgent } from './agents/offline/supplier-agent.js';
import { nextOpenQuestion } from './ask-info.js';
import {
  advance,
  answer,
  createNegotiation,
  decideEarlyTermination,
  type EngineAgents,
  type NegotiationEvent,
  type NegotiationSetup,
  type NegotiationState,
  negotiationStateSchema,
  receiveSupplierTurn,
  closeWithoutReply,
} from './engine.js';
import {
  exampleBaselineTotal as baselineTotal,
  exampleLines as lines,
  exampleSetup as setup,
} from '../../test/support/negotiation-fixtures.js';
import { assumedFacts } from './facts.js';
import { OfferNotRecordedError } from './offers.js';
import { runUnattended } from './run-unattended.js';

const agents: EngineAgents = { brand: createOfflineBrandAgent(), supplier: () => createOfflineSupplierAgent() };

describe('the negotiation engine (offline agents)', () => {
  it('runs three suppliers through the rounds, with the curveball after round 1', async () => {
    const { state, events } = await runUnattended(setup(7), agents, { answers: 'auto' });
    expect(state.status).toBe('completed');
    const curveball = events.find((event) => event.type === 'curveball');
    expect(curveball).toMatchObject({ curveball: { supplierCode: 'SUP-002', capacityShare: 0.6, afterRound: 1 } });
    // The curveball comes right after round 1's analysis, before round 2 starts.
    const kinds = events.map((event) => event.type);
    expect(kinds.indexOf('curveball')).toBeLessThan(kinds.lastIndexOf('round_start'));
    expect(
      state.profiles.map((profile) => state.suppliers[profile.code]?.offers.length ?? 0).every((n) => n >= 2),
    ).toBe(true);
  });

  it('never changes the state a step is given (steps share its unchanged parts)', async () => {
    const deepFreeze = <T>(value: T): T => {
      if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
        Object.freeze(value);
        for (const inner of Object.values(value)) deepFreeze(inner);
      }
      return value;
    };
    let state = createNegotiation(setup(7)).state;
    let steps = 0;
    while (state.status !== 'completed' && steps < 500) {
      const before = JSON.stringify(state);
      // A frozen input makes any in-place edit throw, in the engine or in an agent.
      const result = await advance(deepFreeze(state), agents);
      expect(JSON.stringify(state)).toBe(before);
      state = result.state;
      if (state.status === 'awaiting_answer') {
        const question = nextOpenQuestion(state.askInfo);
        // The buyer's inputs copy on write too: the checkpoint they are given is the one the store remembers.
        if (question) state = answer(deepFreeze(state), question.id, 'Yes', 'U0BUYER01').state;
      }
      if (state.status === 'awaiting_early_termination')
        state = decideEarlyTermination(deepFreeze(state), false, 'U0BUYER01').state;
      steps++;
    }
    expect(state.status).toBe('completed');
    expect(steps).toBeGreaterThan(10);
  });

  it.each([1, 2, 3, 7, 11, 42])(
    'keeps code’s promises for seed %i: price ranges, the 60% cap, one message per turn',
    async (seed) => {
      const { state, events } = await runUnattended(setup(seed), agents, { answers: 'auto' });
      for (const profile of state.profiles) {
        const range = PRICE_RANGES[profile.priceLevel];
        const offers = state.suppliers[profile.code]?.offers ?? [];
        // An acceptance records the ask it accepted, wherever that lies: the range holds what the supplier proposes.
        const accepted = state.suppliers[profile.code]?.accepted === true ? offers.at(-1) : undefined;
        for (const offer of offers) {
          // The order total inside the supplier's range; a line may be LINE_PRICE_SPREAD outside it (business-rules.ts).
          if (offer !== accepted) {
            expect(offer.total / baselineTotal).toBeGreaterThanOrEqual(range.min - 0.001);
            expect(offer.total / baselineTotal).toBeLessThanOrEqual(range.max + 0.001);
            for (const line of offer.lines) {
              const quoted = lines.find((candidate) => candidate.sku === line.sku)?.unitPrice ?? 0;
              const low = range.min * (1 - LINE_PRICE_SPREAD.below);
              const high = range.max * (1 + LINE_PRICE_SPREAD.above);
              expect(line.unitPrice).toBeGreaterThanOrEqual(Math.floor(quoted * low * 100) / 100);
              expect(line.unitPrice).toBeLessThanOrEqual(Math.ceil(quoted * high * 100) / 100);
            }
          }
          expect(offer.total).toBeCloseTo(
            offer.lines.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0),
            2,
          );
          if (profile.code === CURVEBALL.supplierCode && offer.round > CURVEBALL.afterRound) {
            expect(offer.capacityShare).toBeLessThanOrEqual(CURVEBALL.capacityShare);
          }
        }
      }
      const sequences = events.flatMap((event) => (event.type === 'message' ? [event.sequence] : []));
      expect(sequences).toEqual(sequences.map((_, index) => index + 1));
    },
  );

  it('gives identical results for the same seed, and different ones for another', async () => {
    const first = await runUnattended(setup(5), agents, { answers: 'auto' });
    const again = await runUnattended(setup(5), agents, { answers: 'auto' });
    const other = await runUnattended(setup(6), agents, { answers: 'auto' });
    expect(JSON.stringify(again.events)).toBe(JSON.stringify(first.events));
    expect(JSON.stringify(other.events)).not.toBe(JSON.stringify(first.events));
  });

  it('resumes from a checkpoint taken at any step with the same outcome and no repeated message', async () => {
    const reference = await runUnattended(setup(9), agents, { answers: 'auto' });
    for (const crashAfter of [1, 4, 9, 14, 20]) {
      const { events } = await runWithCrash(setup(9), crashAfter);
      expect(JSON.stringify(events), `crash after step ${crashAfter}`).toBe(JSON.stringify(reference.events));
    }
  });

  it('pauses a supplier on ASK_INFO, lets the others go on, and resumes it in the same round once answered', async () => {
    let { state } = createNegotiation(setup(7));
    const events: NegotiationEvent[] = [];
    while (state.status === 'running') {
      const result = await advance(state, agents);
      events.push(...result.events);
      state = result.state;
    }
    expect(state.status).toBe('awaiting_answer');
    const question = nextOpenQuestion(state.askInfo);
    expect(question?.suggestedAnswers.length).toBeGreaterThanOrEqual(2);
    // Its topic is kept, so the brand sees what was already asked once it is answered.
    expect(question?.topic).toEqual(expect.any(String));
    const asker = question?.supplierCode ?? '';
    const round = state.round;
    // Other suppliers took their turns this round while the asker waited.
    const spokeThisRound = (code: string) =>
      events.some((e) => e.type === 'message' && e.round === round && e.supplierCode === code);
    expect(state.profiles.some((p) => p.code !== asker && spokeThisRound(p.code))).toBe(true);
    expect(spokeThisRound(asker)).toBe(false);

    const answered = answer(state, question?.id ?? '', question?.suggestedAnswers[0] ?? '', 'U123');
    expect(answered.events).toEqual([expect.objectContaining({ type: 'question_answered', answeredBy: 'U123' })]);
    expect(answer(answered.state, question?.id ?? '', 'again', 'U123').events).toEqual([]);
    state = answered.state;
    for (let open = nextOpenQuestion(state.askInfo); open; open = nextOpenQuestion(state.askInfo)) {
      state = answer(state, open.id, open.suggestedAnswers[0] ?? '', 'U123').state;
    }
    const resumed: NegotiationEvent[] = [];
    while (state.status === 'running' && state.round === round) {
      const result = await advance(state, agents);
      resumed.push(...result.events);
      state = result.state;
    }
    expect(resumed.some((e) => e.type === 'message' && e.round === round && e.supplierCode === asker)).toBe(true);
    expect(state.askInfo.clarifications.map((c) => c.answeredBy)).toContain('U123');
  });

  it('stops asking once the question budget is spent', async () => {
    const { state } = await runUnattended(setup(7, { questionBudget: 1 }), agents, { answers: 'auto' });
    expect(state.askInfo.questions.length).toBeLessThanOrEqual(1);
    expect(state.status).toBe('completed');
  });

  it('asks before terminating early, and either finishes or goes on as the buyer says', async () => {
    // Suppliers whose offers stand still, well inside a generous target: converged after round 2.
    const converging = setup(3, { maxRounds: 5, mandate: { targetTotal: baselineTotal * 1.5, walkAwayTotal: null } });
    let { state } = createNegotiation(converging);
    const events: NegotiationEvent[] = [];
    while (state.status === 'running' || state.status === 'awaiting_answer') {
      const question = nextOpenQuestion(state.askInfo);
      const result = question
        ? answer(state, question.id, question.suggestedAnswers[0] ?? 'Yes', 'U1')
        : await advance(state, standingAgents);
      events.push(...result.events);
      state = result.state;
    }
    expect(state.status).toBe('awaiting_early_termination');
    expect(events.find((event) => event.type === 'early_termination_offered')).toMatchObject({
      record: { reason: 'high_confidence_convergence', roundsSkipped: 3 },
    });

    const finished = decideEarlyTermination(state, true, 'U1');
    expect(finished.state.status).toBe('completed');
    expect(finished.events.find((event) => event.type === 'negotiation_complete')).toMatchObject({
      earlyTermination: { reason: 'high_confidence_convergence', roundsSkipped: 3 },
    });

    const declined = decideEarlyTermination(state, false, 'U1');
    expect(declined.state.status).toBe('running');
    expect(declined.state.earlyTermination?.decision).toBe('declined');
    let rest = declined.state;
    const later: NegotiationEvent[] = [];
    while (rest.status === 'running' || rest.status === 'awaiting_answer') {
      const question = nextOpenQuestion(rest.askInfo);
      const step = question
        ? answer(rest, question.id, question.suggestedAnswers[0] ?? 'Yes', 'U1')
        : await advance(rest, standingAgents);
      later.push(...step.events);
      rest = step.state;
    }
    expect(rest.status).toBe('completed');
    // It negotiated on past round 2, until offers that never move became a no-progress impasse — which, with a round
    // still to go, the buyer is asked about (and here answers with the first button: try a different approach).
    expect(Math.max(...rest.evaluations.map((evaluation) => evaluation.round))).toBeGreaterThan(2);
    const impasse = later.filter((event) => event.type === 'question_asked' && event.topic?.startsWith('impasse:'));
    expect(impasse.length).toBeGreaterThan(0);
    expect(impasse.every((event) => event.type === 'question_asked' && /stopped moving/.test(event.question))).toBe(
      true,
    );
  });
});

/** Suppliers that repeat one offer inside their price range every round. */
const standingAgents: EngineAgents = {
  brand: createOfflineBrandAgent(),
  supplier: () => ({
    async respond(context) {
      const { min, max } = PRICE_RANGES[context.profile.priceLevel];
      return {
        action: {
          type: 'COUNTER_OFFER',
          payload: {
            offer: {
              lines: context.baseline.lines.map((line) => ({
                sku: line.sku,
                unitPrice: Math.round(line.unitPrice * ((min + max) / 2) * 100) / 100,
              })),
              leadTimeDays: context.profile.leadTimeDays,
              paymentTerms: context.profile.paymentTerms,
              concessions: [],
              conditions: [],
            },
          },
        },
        message_text: `Our offer of round ${context.round} stands.`,
        used_strategies: [],
      };
    },
  }),
};

/** Runs a negotiation, "crashing" after N steps: the state goes through JSON and the checkpoint schema, as from the DB. */
async function runWithCrash(negotiation: NegotiationSetup, crashAfter: number) {
  const started = createNegotiation(negotiation);
  const events = [...started.events];
  let state: NegotiationState = started.state;
  let steps = 0;
  while (state.status !== 'completed') {
    if (state.status === 'running') {
      const result = await advance(state, agents);
      events.push(...result.events);
      state = result.state;
      if (++steps === crashAfter) state = negotiationStateSchema.parse(JSON.parse(JSON.stringify(state)));
    } else if (state.status === 'awaiting_early_termination') {
      const result = decideEarlyTermination(state, true, 'auto');
      events.push(...result.events);
      state = result.state;
    } else {
      const question = nextOpenQuestion(state.askInfo);
      const result = answer(state, question?.id ?? '', question?.suggestedAnswers[0] ?? 'Yes', 'auto');
      events.push(...result.events);
      state = result.state;
    }
  }
  return { state, events };
}

describe('what a supplier’s turn puts on record', () => {
  // Chosen so that the ask below is 0.95× the quotation, and its total can be met to the cent.
  const baseline: NegotiationSetup['baseline'] = {
    ...setup(1).baseline,
    lines: [
      { sku: 'MC001-BON-XL', description: 'Parka', quantity: 600, unitPrice: 150, tiers: [], notes: null },
      { sku: 'KT004-EMR-M', description: 'Tee', quantity: 450, unitPrice: 110, tiers: [], notes: null },
      { sku: 'MS005-EMR-XS', description: 'Shirt', quantity: 125, unitPrice: 96, tiers: [], notes: null },
      { sku: 'MB013-0BS-XL', description: 'Jacket', quantity: 37, unitPrice: 26, tiers: [], notes: null },
    ],
    total: 152_462,
  };
  const quoted = { ...QUOTED_SUPPLIER_DEFAULTS, name: 'Ningbo Everbright' };
  const ask = { targetTotal: 144_854.1, leadTimeDays: 30, paymentTerms: '30/70' };

  /** A brand that asks `ask` of everyone, or accepts what stands. */
  const brand = (answer: 'ask' | 'accept'): BrandAgent => ({
    rfq: () =>
      Promise.resolve({
        action: { type: 'REQUEST_CRITERIA', payload: {} },
        message_text: 'Quote, please.',
        used_strategies: [],
      }),
    pillars: () => Promise.resolve({ negotiator: '', riskAnalyst: '', productCost: '' }),
    synthesize: (context) =>
      Promise.resolve(
        answer === 'accept'
          ? { action: { type: 'ACCEPT', payload: {} }, message_text: 'Agreed.', used_strategies: [] }
          : {
              action: { type: 'COUNTER_OFFER', payload: { ask: { round: context.round, ...ask } } },
              message_text: 'Can you do $144,854.10, 30 days, 30/70?',
              used_strategies: [],
            },
      ),
  });
  /**
   * A supplier whose every turn is this action with this offer — as given, well-formed or not: a payload from outside
   * the type checker (a form, a model) is set past its type here, as it would arrive.
   */
  const supplier = (type: SupplierTurn['action']['type'], offer: unknown): SupplierAgent => ({
    respond: () => {
      const turn: SupplierTurn = { action: { type, payload: {} }, message_text: 'Our answer.', used_strategies: [] };
      Object.assign(turn.action.payload, { offer });
      return Promise.resolve(turn);
    },
  });
  /** Its own pricing of what it accepts: 0.3% under the quotation, as an agent's draft may put it. */
  const repriced = {
    lines: baseline.lines.map((line) => ({ sku: line.sku, unitPrice: Math.round(line.unitPrice * 99.7) / 100 })),
    leadTimeDays: 45,
    paymentTerms: '33/33/33',
    concessions: [],
    conditions: ['Valid 7 days'],
  };

  /**
   * Round 1 to its end. A connected supplier's answer is a person's, not an agent's: `replies` gives it, delivered
   * once the round waits for it (none given: the round stays open).
   */
  async function firstRound(
    profiles: SupplierProfile[],
    agents: EngineAgents,
    replies: Record<string, SupplierTurn> = {},
  ) {
    let { state } = createNegotiation(setup(1, { baseline, profiles, maxRounds: 2 }));
    const events: NegotiationEvent[] = [];
    const take = (result: { state: NegotiationState; events: NegotiationEvent[] }) => {
      events.push(...result.events);
      state = result.state;
    };
    while (state.round === 1) {
      if (state.status === 'running') take(await advance(state, agents));
      else if (state.status !== 'awaiting_suppliers') break;
      else {
        const waiting = Object.keys(state.suppliers).filter((code) => state.suppliers[code]?.awaitingReply);
        const answering = waiting.filter((code) => replies[code]);
        if (answering.length === 0) break;
        for (const code of answering) take(receiveSupplierTurn(state, code, replies[code] as SupplierTurn));
      }
    }
    return { state, events };
  }
  /** A person's turn: this action with this offer, as a form would deliver it. */
  const reply = (type: SupplierTurn['action']['type'], offer: unknown, text = 'Our answer.'): SupplierTurn => {
    const turn: SupplierTurn = { action: { type, payload: {} }, message_text: text, used_strategies: [] };
    Object.assign(turn.action.payload, { offer });
    return turn;
  };
  /** No agent may be asked to speak for a connected supplier. */
  const nobody: SupplierAgent = {
    respond: () => Promise.reject(new Error('a connected supplier’s turn was asked of an agent')),
  };
  const extracted = (events: NegotiationEvent[], code: string) =>
    events.flatMap((event) => (event.type === 'offer_extracted' && event.supplierCode === code ? [event] : []));

  it('stores a supplier’s acceptance at the ask it accepted: $144,854.10 and the ask’s line prices', async () => {
    const { state, events } = await firstRound([quoted], {
      brand: brand('ask'),
      supplier: () => supplier('ACCEPT', repriced),
    });
    const [accepted] = extracted(events, 'SUP-001');
    const offer = accepted?.offer;
    expect(offer?.total).toBe(144_854.1);
    expect(offer?.lines.reduce((sum, line) => sum + line.quantity * Math.round(line.unitPrice * 100), 0)).toBe(
      14_485_410,
    );
    // The ask's prices: the quotation's, each cut by the ask's 5%, not the agent's own 0.3%.
    for (const line of offer?.lines ?? []) {
      const quotedPrice = baseline.lines.find((base) => base.sku === line.sku)?.unitPrice ?? 0;
      expect(Math.abs(line.unitPrice / (quotedPrice * 0.95) - 1), line.sku).toBeLessThan(0.005);
    }
    expect(offer).toMatchObject({ leadTimeDays: 30, paymentTerms: '30/70', conditions: ['Valid 7 days'] });
    expect(state.suppliers['SUP-001']?.offers.at(-1)).toEqual(offer);
    expect(state.suppliers['SUP-001']).toMatchObject({ accepted: true, status: 'completed' });
  });

  it('stores the supplier’s offer unchanged when the brand accepted it', async () => {
    const { state, events } = await firstRound([quoted], {
      brand: brand('accept'),
      supplier: () => supplier('ACCEPT', repriced),
    });
    const quotation = state.suppliers['SUP-001']?.offers[0];
    const [confirmed] = extracted(events, 'SUP-001').filter((event) => event.round === 1);
    expect(confirmed?.offer).toEqual({ ...quotation, round: 1 });
    expect(confirmed?.offer.total).toBe(152_462);
  });

  it('records a connected supplier’s offer as stated: a line left out is not offered, an unstated term assumed', async () => {
    const connected = { ...SIMULATED_SUPPLIERS[1], counterpart: 'connected' } as SupplierProfile;
    const stated = {
      lines: [
        { sku: 'MC001-BON-XL', unitPrice: 99.99 },
        { sku: 'KT004-EMR-M', unitPrice: 250.01 },
      ],
      paymentTerms: '100',
    };
    const { state, events } = await firstRound(
      [quoted, connected],
      {
        brand: brand('ask'),
        supplier: (code) => (code === connected.code ? nobody : supplier('COUNTER_OFFER', repriced)),
      },
      { [connected.code]: reply('PROPOSE_OFFER', stated) },
    );
    const [offer] = extracted(events, connected.code);
    expect(offer?.offer.lines.map((line) => [line.sku, line.unitPrice])).toEqual([
      ['MC001-BON-XL', 99.99],
      ['KT004-EMR-M', 250.01],
    ]);
    expect(offer?.offer.total).toBe(600 * 99.99 + 450 * 250.01);
    expect(offer?.adjustments).toEqual([
      'MS005-EMR-XS not offered',
      'MB013-0BS-XL not offered',
      `Lead time not stated: ${connected.leadTimeDays} days assumed (the supplier's profile)`,
    ]);
    expect(assumedFacts(state.assumptions, connected.code)).toEqual(['leadTimeDays']);
    const analysis = events.find((event) => event.type === 'round_analysis');
    const row =
      analysis?.type === 'round_analysis' ? analysis.offers.find((o) => o.supplierCode === connected.code) : null;
    expect(row?.assumed).toEqual(['leadTimeDays']);
  });

  it('refuses a connected supplier’s unreadable offer, changing nothing; notes a simulated one’s and goes on', async () => {
    const connected = { ...quoted, counterpart: 'connected' } as const;
    const unreadable = { lines: [{ sku: 'MC001-BON-XL', unitPrice: 'ask me' }] };
    const { state } = await firstRound([connected], { brand: brand('ask'), supplier: () => nobody });
    expect(state.status).toBe('awaiting_suppliers');
    const before = JSON.stringify(state);
    const answer = reply('COUNTER_OFFER', unreadable);
    expect(() => receiveSupplierTurn(state, connected.code, answer)).toThrow(OfferNotRecordedError);
    expect(() => receiveSupplierTurn(state, connected.code, answer)).toThrow(
      /MC001-BON-XL price ask me is not an amount above zero/,
    );
    expect(JSON.stringify(state)).toBe(before);

    const simulated = await firstRound([quoted], {
      brand: brand('ask'),
      supplier: () => supplier('COUNTER_OFFER', unreadable),
    });
    const noted = simulated.events.find((event) => event.type === 'offer_unreadable');
    expect(noted).toMatchObject({ round: 1, supplierCode: 'SUP-001', action: 'COUNTER_OFFER' });
    expect(noted?.type === 'offer_unreadable' ? noted.problems.length : 0).toBeGreaterThan(0);
    expect(simulated.state.suppliers['SUP-001']?.offers).toHaveLength(1);
    expect(extracted(simulated.events, 'SUP-001')).toEqual([]);
  });

  it('waits for a connected supplier without asking an agent, holding the round open, and goes on once it answers', async () => {
    const connected = { ...quoted, counterpart: 'connected' } as const;
    const agents = { brand: brand('ask'), supplier: () => nobody };
    const { state, events } = await firstRound([connected], agents);
    expect(state).toMatchObject({ status: 'awaiting_suppliers', round: 1 });
    expect(state.suppliers[connected.code]?.awaitingReply).toBe(true);
    expect(events.some((event) => event.type === 'round_analysis')).toBe(false);
    // Nothing to step while it waits: no worker runs, the checkpoint stays as it is.
    expect((await advance(state, agents)).state).toBe(state);

    const stated = { lines: baseline.lines.map((line) => ({ sku: line.sku, unitPrice: line.unitPrice - 1 })) };
    const answered = receiveSupplierTurn(
      state,
      connected.code,
      reply('COUNTER_OFFER', stated, 'Our best: 1 less a line.'),
    );
    expect(answered.state.status).toBe('running');
    expect(answered.state.suppliers[connected.code]?.awaitingReply).toBe(false);
    expect(answered.events.map((event) => event.type)).toEqual(['offer_extracted', 'message']);
    const [offer] = extracted(answered.events, connected.code);
    expect(offer?.offer.lines.map((line) => [line.sku, line.unitPrice])).toEqual(
      baseline.lines.map((line) => [line.sku, line.unitPrice - 1]),
    );
    expect(answered.state.suppliers[connected.code]?.messages.at(-1)).toMatchObject({
      from: 'supplier',
      round: 1,
      text: 'Our best: 1 less a line.',
    });
    const next = await advance(answered.state, agents);
    expect(next.events.map((event) => event.type)).toContain('round_analysis');
    expect(next.state.round).toBe(2);
  });

  it('records a connected supplier’s ACCEPT at the figures of the ask it accepts', async () => {
    const connected = { ...quoted, counterpart: 'connected' } as const;
    const { state, events } = await firstRound(
      [connected],
      { brand: brand('ask'), supplier: () => nobody },
      { [connected.code]: reply('ACCEPT', undefined, 'We accept.') },
    );
    const [accepted] = extracted(events, connected.code);
    expect(accepted?.offer).toMatchObject({ total: 144_854.1, leadTimeDays: 30, paymentTerms: '30/70' });
    expect(state.suppliers[connected.code]).toMatchObject({ accepted: true, status: 'completed' });
  });

  it('takes a connected supplier’s answer once: a repeat, or one after the buyer closed its round, changes nothing', async () => {
    const connected = { ...quoted, counterpart: 'connected' } as const;
    const other = { ...SIMULATED_SUPPLIERS[1], counterpart: 'connected' } as SupplierProfile;
    const agents = { brand: brand('ask'), supplier: () => nobody };
    const { state } = await firstRound([connected, other], agents);
    const turn = reply('COUNTER_OFFER', { lines: [{ sku: 'MC001-BON-XL', unitPrice: 140 }] });
    const first = receiveSupplierTurn(state, connected.code, turn);
    // The other supplier still owes its answer: the round stays open.
    expect(first.state.status).toBe('awaiting_suppliers');
    const again = receiveSupplierTurn(first.state, connected.code, turn);
    expect(again).toEqual({ state: first.state, events: [] });

    const closed = closeWithoutReply(first.state, other.code, 'U0BUYER001');
    expect(closed.events).toEqual([
      { type: 'supplier_no_reply', round: 1, supplierCode: other.code, by: 'U0BUYER001' },
    ]);
    expect(closed.state.status).toBe('running');
    expect(closeWithoutReply(closed.state, other.code, 'U0BUYER001').events).toEqual([]);
    const late = receiveSupplierTurn(closed.state, other.code, turn);
    expect(late).toEqual({ state: closed.state, events: [] });
    // A simulated supplier's turn is its agent's: none is taken from outside.
    const simulated = await firstRound([quoted], {
      brand: brand('ask'),
      supplier: () => supplier('COUNTER_OFFER', repriced),
    });
    expect(receiveSupplierTurn(simulated.state, quoted.code, turn).events).toEqual([]);
  });

  it('reads checkpoints from before counterparts with every supplier simulated, and refuses an unknown one', () => {
    const { state } = createNegotiation(setup(1));
    const old = JSON.parse(JSON.stringify(state)) as { profiles: Record<string, unknown>[] };
    for (const profile of old.profiles) delete profile['counterpart'];
    expect(negotiationStateSchema.parse(old).profiles.map((profile) => profile.counterpart)).toEqual([
      'simulated',
      'simulated',
      'simulated',
    ]);
    const [first] = old.profiles;
    if (first) first['counterpart'] = 'telepathic';
    expect(negotiationStateSchema.safeParse(old).success).toBe(false);
  });
});
