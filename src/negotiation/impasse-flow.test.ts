// Seed 000's impasse, decided by the buyer: the engine detects it, pauses that supplier and asks (ASK_INFO machinery),
// then ends the talks or takes them up again as the buyer says. Also: the supplier's private floor never reaches the
// brand agent's context.
import { describe, expect, it } from 'vitest';
import { createOfflineBrandAgent, offlineRfq } from './agents/offline/brand-agent.js';
import { createOfflineSupplierAgent } from './agents/offline/supplier-agent.js';
import type { BrandAgent, BrandTurnContext } from './agents/interfaces.js';
import { nextOpenQuestion, questionsRemaining } from './ask-info.js';
import {
  advance,
  answer,
  createNegotiation,
  decideEarlyTermination,
  type EngineAgents,
  type NegotiationEvent,
  type NegotiationState,
  negotiationStateSchema,
  runUntilBlocked,
} from './engine.js';
import { IMPASSE_CONTINUE_ANSWER, impasseTopic, triesDifferentApproach } from './impasse.js';
import { runUnattended } from './run-unattended.js';
import { exampleSetup as setup } from '../../test/support/negotiation-fixtures.js';

const offline: EngineAgents = { brand: createOfflineBrandAgent(), supplier: () => createOfflineSupplierAgent() };

/**
 * A brand that asks every supplier for 18% off its standing offer — below any supplier's floor, yet inside seed 000's
 * 25% price-gap threshold, so what ends the talks is the supplier walking out — until the buyer says to try a
 * different approach with that supplier; then it asks 1% off.
 */
const hardBargainer: BrandAgent = {
  rfq: (context) => Promise.resolve(offlineRfq(context)),
  pillars: () => Promise.resolve({ negotiator: 'Push.', riskAnalyst: 'None.', productCost: 'None.' }),
  synthesize: (context: BrandTurnContext) => {
    const standing = context.history.offers.at(-1)?.total ?? context.baseline.total;
    const gentle = triesDifferentApproach(context.clarifications, context.supplier.code);
    const targetTotal = Math.round(standing * (gentle ? 0.99 : 0.82));
    return Promise.resolve({
      action: {
        type: 'COUNTER_OFFER',
        payload: { ask: { round: context.round, targetTotal, leadTimeDays: null, paymentTerms: null } },
      },
      message_text: `We need ${targetTotal} for the order.`,
      used_strategies: [],
    });
  },
};
const pushing: EngineAgents = { brand: hardBargainer, supplier: () => createOfflineSupplierAgent() };

/**
 * Runs until the buyer is asked about an impasse (or the end), collecting events. The buyer keeps negotiating when
 * offered an early finish, and answers any other question with its first suggestion.
 */
async function untilAsked(initial: NegotiationState, agents: EngineAgents, events: NegotiationEvent[]) {
  let state = initial;
  for (;;) {
    state = await runUntilBlocked(state, agents, (result) => void events.push(...result.events));
    const open = nextOpenQuestion(state.askInfo);
    if (state.status === 'completed' || open?.topic?.startsWith('impasse:') === true) return state;
    const step =
      state.status === 'awaiting_early_termination'
        ? decideEarlyTermination(state, false, 'U1')
        : answer(state, open?.id ?? '', open?.suggestedAnswers[0] ?? 'Yes', 'U1');
    events.push(...step.events);
    state = step.state;
  }
}

function impasseQuestions(events: readonly NegotiationEvent[]) {
  return events.flatMap((event) =>
    event.type === 'question_asked' && event.topic?.startsWith('impasse:') === true ? [event] : [],
  );
}

describe('an impasse asks the buyer', () => {
  it('pauses a supplier that walked away and asks, with buttons: a different approach first, or end its talks', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const events: NegotiationEvent[] = [];
      const state = await untilAsked(createNegotiation(setup(seed)).state, pushing, events);
      const [asked] = impasseQuestions(events);
      expect(asked, `seed ${seed}`).toBeDefined();
      if (asked === undefined) continue;
      // It walked away, said why, and the buyer is asked before anything else happens to it.
      const walkAway = events.find((e) => e.type === 'message' && e.action.type === 'WALK_AWAY');
      expect(walkAway).toMatchObject({ supplierCode: asked.supplierCode });
      expect(walkAway?.type === 'message' ? walkAway.action.payload['reason'] : '').toMatch(/below what we can make/);
      expect(state.status).toBe('awaiting_answer');
      expect(state.suppliers[asked.supplierCode]?.status).toBe('paused');
      expect(asked.topic).toBe(impasseTopic(asked.supplierCode));
      expect(asked.suggestedAnswers[0]).toBe(IMPASSE_CONTINUE_ANSWER);
      expect(asked.suggestedAnswers[1]).toMatch(/^End talks with /);
      expect(asked.question).toMatch(/impasse: it walked away/);
      // Not while it waits: nothing is said to or by the paused supplier.
      const afterAsk = events.slice(events.indexOf(asked));
      expect(afterAsk.some((e) => e.type === 'message' && e.supplierCode === asked.supplierCode)).toBe(false);
    }
  });

  it('ends that supplier’s talks when the buyer says so: an impasse on record, no more turns', async () => {
    const events: NegotiationEvent[] = [];
    let state = await untilAsked(createNegotiation(setup(2)).state, pushing, events);
    const question = nextOpenQuestion(state.askInfo);
    if (question === null) throw new Error('no question');
    const code = question.supplierCode;
    const ended = answer(state, question.id, question.suggestedAnswers[1] ?? '', 'U1');
    expect(ended.events).toContainEqual(
      expect.objectContaining({ type: 'supplier_done', supplierCode: code, status: 'impasse', reason: 'rejected' }),
    );
    state = ended.state;
    expect(state.suppliers[code]?.status).toBe('impasse');
    const later: NegotiationEvent[] = [];
    while (state.status !== 'completed') {
      state = await untilAsked(state, pushing, later);
      const open = nextOpenQuestion(state.askInfo);
      if (open !== null) state = answer(state, open.id, open.suggestedAnswers[1] ?? '', 'U1').state;
      else if (state.status !== 'completed') break;
    }
    expect(later.some((e) => e.type === 'message' && e.supplierCode === code)).toBe(false);
  });

  it('takes the talks up again when the buyer says to try a different approach: the supplier answers the new ask', async () => {
    const events: NegotiationEvent[] = [];
    let state = await untilAsked(createNegotiation(setup(2)).state, pushing, events);
    const question = nextOpenQuestion(state.askInfo);
    if (question === null) throw new Error('no question');
    const code = question.supplierCode;
    const round = state.round;
    const resumed = answer(state, question.id, IMPASSE_CONTINUE_ANSWER, 'U1');
    expect(resumed.events.some((e) => e.type === 'supplier_done')).toBe(false);
    state = resumed.state;
    expect(state.suppliers[code]?.status).toBe('active');
    expect(state.suppliers[code]?.waivedImpasses).toEqual(['rejected']);
    // Others that walked out in the same round are taken up again too.
    for (let open = nextOpenQuestion(state.askInfo); open; open = nextOpenQuestion(state.askInfo)) {
      state = answer(state, open.id, IMPASSE_CONTINUE_ANSWER, 'U1').state;
    }
    const later: NegotiationEvent[] = [];
    state = await untilAsked(state, pushing, later);
    const reply = later.find(
      (e) => e.type === 'message' && e.supplierCode === code && e.role === 'supplier_agent' && e.round === round,
    );
    expect(reply).toBeDefined();
    // Back at the table: it says so, and the gentler ask (1% off) gets a move, not a walk-out.
    expect(reply?.type === 'message' ? reply.action.type : '').toMatch(/COUNTER_OFFER|ACCEPT/);
    expect(reply?.type === 'message' ? reply.text : '').toMatch(/coming back|reached out again/);
  });

  it('is asked even when the question budget is spent: the budget is for the agents’ questions', async () => {
    const events: NegotiationEvent[] = [];
    const state = await untilAsked(createNegotiation(setup(2, { questionBudget: 0 })).state, pushing, events);
    expect(impasseQuestions(events).length).toBeGreaterThan(0);
    expect(questionsRemaining(state.askInfo)).toBe(0);
  });

  it('survives a checkpoint taken while the buyer decides', async () => {
    const events: NegotiationEvent[] = [];
    const state = await untilAsked(createNegotiation(setup(2)).state, pushing, events);
    const restored = negotiationStateSchema.parse(JSON.parse(JSON.stringify(state)));
    expect(restored).toEqual(state);
    const question = nextOpenQuestion(restored.askInfo);
    expect(answer(restored, question?.id ?? '', IMPASSE_CONTINUE_ANSWER, 'U1').state).toEqual(
      answer(state, question?.id ?? '', IMPASSE_CONTINUE_ANSWER, 'U1').state,
    );
  });
});

describe('the lead-time condition is the buyer’s', () => {
  it('never fires without a maximum lead time in the mandate, whatever the suppliers quote', async () => {
    for (const seed of Array.from({ length: 12 }, (_, index) => index + 1)) {
      const { state, events } = await runUnattended(setup(seed), offline, { answers: 'auto' });
      expect(Object.values(state.suppliers).some((supplier) => supplier.impasse?.reason === 'lead_time')).toBe(false);
      expect(impasseQuestions(events).some((event) => event.question.includes('lead time'))).toBe(false);
    }
  });

  it('asks about a supplier slower than the buyer’s maximum lead time', async () => {
    const events: NegotiationEvent[] = [];
    let state = createNegotiation(setup(3, { mandate: { maxLeadTimeDays: 20 } })).state;
    while (state.status === 'running' && impasseQuestions(events).length === 0) {
      const step = await advance(state, offline);
      events.push(...step.events);
      state = step.state;
      const open = nextOpenQuestion(state.askInfo);
      if (state.status === 'awaiting_answer' && open !== null && !open.topic?.startsWith('impasse:')) {
        const answered = answer(state, open.id, open.suggestedAnswers[0] ?? 'Yes', 'U1');
        events.push(...answered.events);
        state = answered.state;
      }
    }
    const asked = impasseQuestions(events);
    // The quoting supplier ships in 50 days: past the buyer's 20.
    expect(asked.map((event) => event.supplierCode)).toContain('SUP-001');
    expect(asked.find((event) => event.supplierCode === 'SUP-001')?.question).toMatch(/lead time/);
  });
});

describe('the supplier’s floor stays the supplier’s', () => {
  it('never appears in any context the brand agent is given', async () => {
    const seen: string[] = [];
    const spy: BrandAgent = {
      rfq: (context) => (seen.push(JSON.stringify(context)), offline.brand.rfq(context)),
      pillars: (context) => (seen.push(JSON.stringify(context)), offline.brand.pillars(context)),
      synthesize: (context, briefs) => (seen.push(JSON.stringify(context)), offline.brand.synthesize(context, briefs)),
    };
    for (const seed of [1, 5, 9]) {
      await runUnattended(setup(seed), { brand: spy, supplier: offline.supplier }, { answers: 'auto' });
      expect(seen.length).toBeGreaterThan(0);
      for (const context of seen) {
        // Neither the economics nor the seed they are drawn from (with it the brand could derive them).
        for (const key of ['economics', 'floorTotal', 'pushTolerance', 'patience', 'credibleMarketFloor', 'seed']) {
          expect(context).not.toContain(`"${key}"`);
        }
      }
      seen.length = 0;
    }
  });
});
