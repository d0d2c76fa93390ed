// Temporary diagnostics (deleted before hand-off).
import { createNegotiationAgents } from '../../src/negotiation/agents/create-agents.js';
import { nextOpenQuestion } from '../../src/negotiation/ask-info.js';
import { answer, createNegotiation, decideEarlyTermination, runUntilBlocked, type NegotiationState } from '../../src/negotiation/engine.js';
import { decide, decisionInputFromState, type DecideOutcome } from '../../src/decision/decide.js';
import { supplierEconomics } from '../../src/negotiation/supplier-economics.js';
import { bundledSamples, prepareSamples } from './outcomes-bench.js';
import { chooseAnswer, engineMandate } from './play-scenario.js';
import { intendedMandate, scenarioGrid } from './scenarios.js';
const files = (await bundledSamples()).filter((f) => !/^13-/.test(f));
const only = process.argv[2];
const grid = scenarioGrid({ samples: files, seedsPerCell: 1 }).filter((s) => !only || s.answers === only);
const samples = new Map((await prepareSamples(files)).map((s) => [s.file, s]));
const agents = createNegotiationAgents(null);
const share = (o: DecideOutcome, code: string) => (o.ok ? (o.numbers.award.find((a) => a.supplierCode === code)?.share ?? 0) : -1);
const rows: string[] = [];
for (const scenario of grid) {
  const sample = samples.get(scenario.sample);
  if (!sample) continue;
  let state: NegotiationState = createNegotiation({ seed: scenario.seed, brandName: 'V', mode: scenario.mode, maxRounds: 4, mandate: engineMandate(intendedMandate(scenario.mandate, sample.baseline)), buyerNotes: null, baseline: sample.baseline, profiles: [sample.quotedSupplier, ...sample.simulated] }).state;
  let i = 0;
  while (state.status !== 'completed') {
    state = await runUntilBlocked(state, agents);
    if (state.status === 'completed') break;
    if (state.status === 'awaiting_early_termination') state = decideEarlyTermination(state, scenario.answers !== 'other', 'b').state;
    for (let q = nextOpenQuestion(state.askInfo); q; q = nextOpenQuestion(state.askInfo))
      state = answer(state, q.id, chooseAnswer(scenario.answers, q, { seed: scenario.seed, index: i++, quoteTotal: sample.baseline.total }), 'b').state;
  }
  const input = decisionInputFromState(state);
  const capped = decide(input);
  const uncapped = decide({ ...input, capacityCaps: {}, finalOffers: input.finalOffers.map((o) => (o.supplierCode === 'SUP-002' ? { ...o, capacityShare: 1 } : o)) });
  const alp = state.suppliers['SUP-002'];
  const q = state.suppliers['SUP-001'];
  const alpFinal = alp?.offers.at(-1)?.total ?? 0;
  const eco = supplierEconomics(state.profiles.find((p) => p.code === 'SUP-002')!, state.baseline, state.seed);
  // Per line, the cheapest final offer: Alpine's share of that assignment and its gain over the best single FOB.
  const finals = input.finalOffers;
  let minTotal = 0;
  let alpTotal = 0;
  for (const line of state.baseline.lines) {
    const prices = finals.map((o) => ({ code: o.supplierCode, p: o.lines.find((l) => l.sku === line.sku)?.unitPrice ?? Infinity }));
    prices.sort((a, b) => a.p - b.p);
    const best = prices[0];
    if (!best) continue;
    minTotal += best.p * line.quantity;
    if (best.code === 'SUP-002') alpTotal += best.p * line.quantity;
  }
  const bestSingle = Math.min(...finals.map((o) => o.total));
  const gain = (bestSingle - minTotal) / bestSingle;
  const spec = eco.lines.reduce((sum, l, i) => sum + (l.opening < (state.baseline.lines[i]?.unitPrice ?? 0) ? l.quantity * l.opening : 0), 0) / eco.openingTotal;
  const specV = eco.lines.reduce((sum, l, i) => sum + (l.opening < (state.baseline.lines[i]?.unitPrice ?? 0) ? l.quantity * (state.baseline.lines[i]?.unitPrice ?? 0) : 0), 0) / state.baseline.total;
  rows.push([spec.toFixed(2), specV.toFixed(2), (alpTotal / minTotal).toFixed(2), gain.toFixed(3), scenario.id, scenario.sample.slice(0, 2), scenario.mode, scenario.mandate, scenario.answers, capped.ok ? 'deal' : 'none', share(capped, 'SUP-002').toFixed(2), share(uncapped, 'SUP-002').toFixed(2), alp?.status, (alpFinal / state.baseline.total).toFixed(3), (eco.floorTotal / state.baseline.total).toFixed(3), ((q?.offers.at(-1)?.total ?? 0) / state.baseline.total).toFixed(3), state.mandate.sourcing, capped.ok && uncapped.ok ? (capped.numbers.award.length > 1 ? 'S' : '1') + (uncapped.numbers.award.length > 1 ? 'S' : '1') : '-', uncapped.ok && uncapped.numbers.premiumOption ? 'P' : '', !uncapped.ok ? uncapped.error : ''].join('\t'));
}
console.log(['specA', 'specV', 'alpWin', 'gain', 'id', 'smp', 'mode', 'mandate', 'ans', 'st', 'alpC', 'alpU', 'alpStatus', 'alpFin', 'alpFloor', 'qFin', 'sourcing', 'shape', 'prem', 'uerr'].join('\t'));
console.log(rows.join('\n'));
