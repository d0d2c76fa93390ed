// Temporary diagnostics (deleted before hand-off).
import { createNegotiationAgents } from '../../src/negotiation/agents/create-agents.js';
import { nextOpenQuestion } from '../../src/negotiation/ask-info.js';
import { answer, createNegotiation, decideEarlyTermination, runUntilBlocked, type NegotiationState } from '../../src/negotiation/engine.js';
import { supplierEconomics } from '../../src/negotiation/supplier-economics.js';
import { bundledSamples, prepareSamples } from './outcomes-bench.js';
import { chooseAnswer, engineMandate } from './play-scenario.js';
import { intendedMandate, scenarioGrid } from './scenarios.js';
const files = (await bundledSamples()).filter((f) => !/^13-/.test(f));
const grid = scenarioGrid({ samples: files, seedsPerCell: 1 });
const agents = createNegotiationAgents(null);
for (const id of process.argv.slice(2).map(Number)) {
  const scenario = grid[id]!;
  const [sample] = await prepareSamples([scenario.sample]);
  let state: NegotiationState = createNegotiation({ seed: scenario.seed, brandName: 'V', mode: scenario.mode, maxRounds: 4, mandate: engineMandate(intendedMandate(scenario.mandate, sample!.baseline)), buyerNotes: null, baseline: sample!.baseline, profiles: [sample!.quotedSupplier, ...sample!.simulated] }).state;
  let i = 0;
  while (state.status !== 'completed') {
    state = await runUntilBlocked(state, agents);
    if (state.status === 'completed') break;
    if (state.status === 'awaiting_early_termination') state = decideEarlyTermination(state, scenario.answers !== 'other', 'b').state;
    for (let q = nextOpenQuestion(state.askInfo); q; q = nextOpenQuestion(state.askInfo)) state = answer(state, q.id, chooseAnswer(scenario.answers, q, { seed: scenario.seed, index: i++, quoteTotal: sample!.baseline.total }), 'b').state;
  }
  const eco = supplierEconomics(state.profiles.find((p) => p.code === 'SUP-002')!, state.baseline, state.seed);
  console.log(JSON.stringify(scenario));
  const value = state.baseline.total;
  for (const line of state.baseline.lines) {
    const e = eco.lines.find((l) => l.sku === line.sku)!;
    const fin = (code: string) => state.suppliers[code]?.offers.at(-1)?.lines.find((l) => l.sku === line.sku)?.unitPrice ?? NaN;
    const r = (x: number) => (x / line.unitPrice).toFixed(3);
    console.log(line.sku.padEnd(18), line.description.slice(0, 22).padEnd(22), 'w', ((line.quantity * line.unitPrice) / value).toFixed(3), 'alpOpen', r(e.opening), 'alpFloor', r(e.floor), 'alpFin', r(fin('SUP-002')), 'qFin', r(fin('SUP-001')), 'rgFin', r(fin('SUP-003')));
  }
  console.log('alp offers', state.suppliers['SUP-002']?.offers.map((o) => (o.total / value).toFixed(3)).join(' '));
}
