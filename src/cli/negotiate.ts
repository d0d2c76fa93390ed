// `npm run -s negotiate -- FILE.xlsx [--mode balanced] [--rounds 4] [--seed N] [--answers auto] [--target N]
// [--walk-away N] [--answer TEXT]… [--json]`: reads the quotation, takes each line's top catalog match as confirmed, and negotiates with
// the quoting supplier and the two simulated competitors — offline, or with Claude (and the offline twin behind every
// turn) when ANTHROPIC_API_KEY is set. With --json, stdout is one JSON document.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NEGOTIATION_MODES, type NegotiationMode, ROUNDS } from '../config/business-rules.js';
import { env } from '../config/env.js';
import { type LlmUsage, llmFromEnv } from '../llm/llm.js';
import { describeAiCost } from '../decision/write-decision.js';
import { purchaseOrderDocument } from '../decision/po-document.js';
import { buildPurchaseOrderWorkbook } from '../decision/po-workbook.js';
import { renderPriceTrajectory, trajectoryFromEvents } from '../decision/price-chart.js';
import { negotiateQuotation } from '../negotiation/negotiate-quotation.js';
import { negotiationReport, negotiationTranscript } from '../negotiation/report.js';
import { parseQuotation } from '../quotation/parse-quotation.js';
import { readLimitsFrom } from '../quotation/xlsx-reader.js';
import { runQuotationCli } from './quotation-cli.js';

const { values, positionals } = parseArgs({
  options: {
    mode: { type: 'string', default: 'balanced' },
    rounds: { type: 'string', default: String(ROUNDS.default) },
    seed: { type: 'string', default: '1' },
    answers: { type: 'string', default: 'auto' },
    target: { type: 'string' },
    'walk-away': { type: 'string' },
    answer: { type: 'string', multiple: true },
    json: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const file = positionals[0];
const mode = values.mode as NegotiationMode;
const rounds = Number(values.rounds);
const seed = Number(values.seed);
const optionalNumber = (text: string | undefined) => (text === undefined ? null : Number(text));
const problems = [
  !file && 'a quotation file is required',
  !NEGOTIATION_MODES.includes(mode) && `--mode must be one of ${NEGOTIATION_MODES.join(', ')}`,
  !(Number.isInteger(rounds) && rounds >= ROUNDS.min && rounds <= ROUNDS.max) &&
    `--rounds must be ${ROUNDS.min}–${ROUNDS.max}`,
  !Number.isInteger(seed) && '--seed must be an integer',
  !['auto', 'none'].includes(values.answers) && '--answers must be auto or none',
].filter(Boolean);
if (problems.length || !file) {
  console.error(
    `${problems.join('; ')}\nusage: npm run -s negotiate -- FILE.xlsx [--mode balanced] [--rounds 4] [--seed N] [--answers auto] [--json]`,
  );
  process.exit(2);
}

await runQuotationCli(values.json, async ({ catalog, suppliers }) => {
  const parsed = await parseQuotation({
    data: await readFile(file),
    catalog,
    suppliers,
    limits: readLimitsFrom(env),
    llm: null,
  });
  const usage: LlmUsage[] = [];
  const llm = llmFromEnv(env, (entry) => usage.push(entry));
  const { baseline, skipped, state, events, wallTimeMs, decision, decisionError } = await negotiateQuotation({
    parsed,
    catalogNames: new Map(catalog.entries.map((entry) => [entry.sku, entry.name])),
    brandName: env.SEED_BRAND_NAME,
    seed,
    mode,
    maxRounds: rounds,
    mandate: { targetTotal: optionalNumber(values.target), walkAwayTotal: optionalNumber(values['walk-away']) },
    answers: values.answers === 'auto' ? 'auto' : 'none',
    preferredAnswers: values.answer ?? [],
    llm,
  });

  const outDir = fileURLToPath(new URL('../../data/out/', import.meta.url));
  const stem = `${basename(file, '.xlsx')}-seed${seed}`;
  await mkdir(outDir, { recursive: true });
  const chart = `${outDir}${stem}-prices.png`;
  await writeFile(
    chart,
    await renderPriceTrajectory({
      suppliers: state.profiles.map(({ code, name }) => ({ code, name })),
      ...trajectoryFromEvents(events),
      currency: baseline.currency,
      title: `Offer totals by round — ${baseline.supplierName}`,
    }),
  );
  let decisionJson: unknown = { error: decisionError };
  let poJson: unknown = null;
  let poWorkbook: string | null = null;
  if (decision) {
    const { numbers, text } = decision;
    const document = purchaseOrderDocument(numbers, {
      number: `PO-DRAFT-${seed}`,
      date: new Date().toISOString().slice(0, 10),
      status: 'draft',
      buyerName: env.SEED_BRAND_NAME,
      notes: ['Draft from the command line: nothing is ordered until an approver approves it in Slack.'],
    });
    poWorkbook = `${outDir}${stem}-po.xlsx`;
    await writeFile(poWorkbook, await buildPurchaseOrderWorkbook(document));
    decisionJson = {
      recommendation: numbers.recommendation,
      scores: numbers.scores.map(({ supplierCode, rank, total, factors, explanations }) => ({
        supplierCode,
        rank,
        total,
        factors,
        explanations,
      })),
      savings: numbers.savings,
      // Outside cost mode: the award's score, what a point is worth, the premium over the cheapest award and its limit.
      scoredAward: numbers.allocation.scored,
      cheapestNotChosen: numbers.cheapestNotChosen,
      ...text,
    };
    poJson = {
      number: document.number,
      status: document.status,
      totals: document.totals,
      allocations: document.allocations,
    };
  }

  const aiUsage = {
    calls: usage.length,
    inputTokens: usage.reduce((sum, entry) => sum + entry.inputTokens, 0),
    outputTokens: usage.reduce((sum, entry) => sum + entry.outputTokens, 0),
    costUsd: Math.round(usage.reduce((sum, entry) => sum + entry.costUsd, 0) * 1e6) / 1e6,
    failedCalls: usage.filter((entry) => entry.outcome !== 'ok').length,
  };
  if (values.json) {
    const report = negotiationReport(state, events, wallTimeMs);
    const document = {
      ...report,
      decision: decisionJson,
      po: poJson,
      poWorkbook,
      chart,
      aiUsage,
      skippedLines: skipped,
    };
    console.log(JSON.stringify(document, null, 2));
  } else {
    console.log(negotiationTranscript(state, events));
    if (decisionError) console.log(`\n══ No award\n${decisionError}`);
    if (decisionJson && typeof decisionJson === 'object' && 'summary' in decisionJson) {
      console.log(`\n══ Recommendation\n${String(decisionJson.summary)}`);
      console.log(`AI cost: ${describeAiCost({ usd: aiUsage.costUsd, calls: aiUsage.calls })}.`);
    }
    console.log(`\nPrice chart: ${chart}${poWorkbook ? `\nDraft PO workbook: ${poWorkbook}` : ''}`);
    if (skipped.length) console.log(`\nLeft out of the negotiation: ${skipped.join('; ')}`);
  }
});
