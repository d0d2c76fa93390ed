// How long a 3,000-line negotiation holds the event loop (issue 15, item 4): the whole negotiation through the
// database as the server runs it — started, stepped under the lease, the buyer's answers and early-finish decision
// applied, then concluded (decision, draft PO, price chart, their outbox rows) — while perf_hooks'
// monitorEventLoopDelay samples the loop every 10 ms. Its p99 and max are what a Bolt acknowledgement arriving
// meanwhile would wait, at worst. `npx tsx dev/scale/event-loop-negotiation.ts [--lines 3000] [--backend postgres]`.
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CatalogIndex, toCatalogEntries } from '../../src/catalog/catalog-index.js';
import { CATALOG_CSV, readCatalogCsv } from '../../src/catalog/products-csv.js';
import { SIMULATED_SUPPLIERS } from '../../src/config/business-rules.js';
import { loadEnv } from '../../src/config/env.js';
import { supplierColumns } from '../../src/db/seed.js';
import { applyBuyerInput, runNegotiation, startNegotiation } from '../../src/db/stores/negotiation-store.js';
import { createNegotiationAgents } from '../../src/negotiation/agents/create-agents.js';
import { nextOpenQuestion } from '../../src/negotiation/ask-info.js';
import { concludeNegotiation } from '../../src/services/negotiation/drive-negotiation.js';
import { createContextFactory } from '../../src/services/service-context.js';
import { enqueueNegotiationEvents } from '../../src/thread/negotiation-events.js';
import { createOffThreadCompute } from '../../src/worker/compute.js';
import { createBenchDatabase, type DatabaseKind, dropBenchTemplates } from '../reliability/bench-databases.js';
import { TEAM_ID } from '../slack-stand-in/sandboxed-parley.js';
import { benchNegotiationSetup, firstLines, readSampleBaseline } from '../sample-baseline.js';

const SAMPLE = fileURLToPath(new URL('../../data/samples/13-large-3000-lines.xlsx', import.meta.url));

const { values } = parseArgs({ options: { lines: { type: 'string' }, backend: { type: 'string' } } });
const lines = Number(values.lines ?? 3000);
const backend = (values.backend ?? 'postgres') as DatabaseKind;

const catalog = CatalogIndex.build(toCatalogEntries(await readCatalogCsv(CATALOG_CSV)));
const sample = await readSampleBaseline(join(SAMPLE), catalog);
const bench = await createBenchDatabase(backend, 'eventloop');
const db = await bench.open();
const compute = createOffThreadCompute();
try {
  const contexts = createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: null, compute });
  const workspace = await db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: TEAM_ID } });
  const ctx = await contexts.forWorkspace(workspace.id);
  if (!ctx) throw new Error('no workspace');
  const ws = ctx.db;
  const quoted = await ws.supplier.create({
    data: { workspaceId: ws.$workspaceId, ...supplierColumns({ ...sample.quotedSupplier, code: 'ELD-1' }) },
  });
  const simulated = await ws.supplier.findMany({
    where: { code: { in: SIMULATED_SUPPLIERS.map((s) => s.code) } },
    select: { id: true, code: true },
  });
  const quotation = await ws.quotation.create({
    data: {
      workspaceId: ws.$workspaceId,
      supplierId: quoted.id,
      status: 'negotiating',
      slackFileId: 'FELD',
      slackChannelId: 'CELD',
      slackThreadTs: '1700000000.000001',
      uploadedBySlackUserId: 'UBUYER',
      fileName: 'eld.xlsx',
    },
  });
  const agents = createNegotiationAgents(null);
  // The compute worker's start (tsx, module loading) happens in its own thread; warm it so it is not the measure.
  await compute.priceChart({ suppliers: [], points: [], curveballAfterRound: null, currency: 'USD' });

  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const { negotiationId } = await startNegotiation(
    ws,
    {
      quotationId: quotation.id,
      startedBySlackUserId: 'UBUYER',
      supplierIds: {
        [sample.quotedSupplier.code]: quoted.id,
        ...Object.fromEntries(simulated.map((s) => [s.code, s.id])),
      },
      questionBudget: 3,
      setup: benchNegotiationSetup(firstLines(sample.baseline, lines), sample.quotedSupplier),
    },
    async (tx, events, state) => {
      const row = await tx.negotiation.findUniqueOrThrow({
        where: { quotationId: quotation.id },
        select: { id: true },
      });
      await enqueueNegotiationEvents(tx, { negotiationId: row.id, events, state });
    },
  );
  const alsoWrite = (tx: Parameters<typeof enqueueNegotiationEvents>[0], events: never[], state: never) =>
    enqueueNegotiationEvents(tx, { negotiationId, events, state });
  for (let guard = 0; guard < 100; guard++) {
    const state = await runNegotiation(ws, negotiationId, agents, 'eld', alsoWrite as never);
    if (state === null) throw new Error('the lease was taken');
    if (state.status === 'completed') break;
    const question = nextOpenQuestion(state.askInfo);
    if (state.status === 'awaiting_early_termination') {
      await applyBuyerInput(
        ws,
        negotiationId,
        { kind: 'early_termination', finish: false, by: 'UBUYER' },
        alsoWrite as never,
      );
    } else if (question) {
      const answer = question.suggestedAnswers[0] ?? 'Yes';
      await applyBuyerInput(
        ws,
        negotiationId,
        { kind: 'answer', questionId: question.id, answer, by: 'UBUYER' },
        alsoWrite as never,
      );
    }
  }
  await concludeNegotiation(ctx, negotiationId);
  const seconds = (performance.now() - started) / 1000;
  delay.disable();
  const ms = (ns: number) => Math.round(ns / 1e6);
  console.log(
    JSON.stringify({
      backend,
      lines,
      seconds: Math.round(seconds * 10) / 10,
      eventLoopDelayP50Ms: ms(delay.percentile(50)),
      eventLoopDelayP99Ms: ms(delay.percentile(99)),
      eventLoopDelayMaxMs: ms(delay.max),
    }),
  );
} finally {
  await compute.close();
  await db.close();
  await bench.drop();
  await dropBenchTemplates();
}
