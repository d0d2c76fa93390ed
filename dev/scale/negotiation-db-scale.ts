// Whole negotiations through the database, as Parley runs them: started and stepped by the negotiation store (one
// transaction per step, under the lease, checkpoint and messages and the Slack outbox rows written together), the
// buyer's questions answered through the same store, on PGlite and on PostgreSQL, for the first 16, 300 and 3,000
// lines of the 3,000-line sample. Measured per run: wall time (and per line), steps saved, bytes of write-ahead log per
// step (everything a step writes: rows, TOAST, indexes), and the Slack floor — the thread's posts at Slack's pace of
// one message a second per channel, which no run can beat. Not included: the decision and PO at the end (one step).
import { SIMULATED_SUPPLIERS, type SupplierProfile } from '../../src/config/business-rules.js';
import { scopeToWorkspace, type WorkspaceDb } from '../../src/db/scoped.js';
import { supplierColumns } from '../../src/db/seed.js';
import {
  type AlsoWrite,
  applyBuyerInput,
  runNegotiation,
  startNegotiation,
} from '../../src/db/stores/negotiation-store.js';
import { createNegotiationAgents } from '../../src/negotiation/agents/create-agents.js';
import { nextOpenQuestion } from '../../src/negotiation/ask-info.js';
import type { Baseline } from '../../src/negotiation/types.js';
import { enqueueNegotiationEvents } from '../../src/thread/negotiation-events.js';
import { createBenchDatabase, type DatabaseKind, dropBenchTemplates } from '../reliability/bench-databases.js';
import { TEAM_ID } from '../slack-stand-in/sandboxed-parley.js';
import { benchNegotiationSetup, firstLines } from '../sample-baseline.js';

/** Slack takes about one message a second per channel: the thread cannot be posted faster than this. */
const SLACK_POSTS_PER_SECOND = 1;

export interface DbScaleRow {
  backend: DatabaseKind;
  lines: number;
  seconds: number;
  msPerLine: number;
  /** Checkpoint versions saved: the engine's steps and the buyer's answers. */
  saves: number;
  /** Write-ahead log per save. On PostgreSQL the log is the server's: other databases' writes meanwhile count too. */
  bytesPerStep: number;
  /** Growth of this database's tables (with their TOAST and indexes) per save: this run's alone, on either backend. */
  grownBytesPerStep: number;
  /** chat.postMessage calls the run put in the outbox. */
  posts: number;
  slackFloorSeconds: number;
}

export async function runNegotiationDbScale(options: {
  baseline: Baseline;
  quotedSupplier: SupplierProfile;
  sizes: readonly number[];
  backends: readonly DatabaseKind[];
}): Promise<DbScaleRow[]> {
  const rows: DbScaleRow[] = [];
  try {
    for (const backend of options.backends) {
      const bench = await createBenchDatabase(backend, 'scale');
      const db = await bench.open();
      try {
        const workspace = await db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: TEAM_ID } });
        const ws = scopeToWorkspace(db.prisma, workspace.id);
        const run = (lines: number) => negotiateThroughDatabase(ws, firstLines(options.baseline, lines), options);
        await run(16); // warm-up: the first run also compiles Prisma's queries and warms the JIT
        for (const size of options.sizes) {
          const lines = Math.min(size, options.baseline.lines.length);
          const measured = await run(lines);
          rows.push({
            backend,
            lines,
            ...measured,
            msPerLine: (measured.seconds * 1000) / lines,
            slackFloorSeconds: measured.posts / SLACK_POSTS_PER_SECOND,
          });
        }
      } finally {
        await db.close();
        await bench.drop();
      }
    }
  } finally {
    await dropBenchTemplates();
  }
  return rows;
}

let runs = 0;

async function negotiateThroughDatabase(
  ws: WorkspaceDb,
  baseline: Baseline,
  options: { quotedSupplier: SupplierProfile },
) {
  const label = `scale-${++runs}`;
  const quoted = await ws.supplier.create({
    data: {
      workspaceId: ws.$workspaceId,
      ...supplierColumns({ ...options.quotedSupplier, code: `SCALE-${runs}` }),
    },
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
      slackFileId: `F${label}`,
      slackChannelId: 'CSCALE',
      slackThreadTs: `1700000000.${String(runs).padStart(6, '0')}`,
      uploadedBySlackUserId: 'UBUYER',
      fileName: `${label}.xlsx`,
    },
  });
  const agents = createNegotiationAgents(null);
  const walBefore = await walPosition(ws);
  const sizeBefore = await tablesSize(ws);
  const started = performance.now();
  const { negotiationId } = await startNegotiation(
    ws,
    {
      quotationId: quotation.id,
      startedBySlackUserId: 'UBUYER',
      supplierIds: {
        [options.quotedSupplier.code]: quoted.id,
        ...Object.fromEntries(simulated.map((s) => [s.code, s.id])),
      },
      questionBudget: 3,
      setup: benchNegotiationSetup(baseline, options.quotedSupplier),
    },
    async (tx, events, state) => {
      const row = await tx.negotiation.findUniqueOrThrow({
        where: { quotationId: quotation.id },
        select: { id: true },
      });
      await enqueueNegotiationEvents(tx, { negotiationId: row.id, events, state });
    },
  );
  const alsoWrite: AlsoWrite = (tx, events, state) => enqueueNegotiationEvents(tx, { negotiationId, events, state });
  // As the buyer would: each question answered with its first suggestion, an early finish declined.
  for (let guard = 0; guard < 100; guard++) {
    const state = await runNegotiation(ws, negotiationId, agents, label, alsoWrite);
    if (state === null) throw new Error(`${label}: the lease was taken`);
    if (state.status === 'completed') break;
    const question = nextOpenQuestion(state.askInfo);
    if (state.status === 'awaiting_early_termination') {
      await applyBuyerInput(ws, negotiationId, { kind: 'early_termination', finish: false, by: 'UBUYER' }, alsoWrite);
    } else if (question) {
      const answer = question.suggestedAnswers[0] ?? 'Yes';
      await applyBuyerInput(
        ws,
        negotiationId,
        { kind: 'answer', questionId: question.id, answer, by: 'UBUYER' },
        alsoWrite,
      );
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const walBytes = await walSince(ws, walBefore);
  const grownBytes = (await tablesSize(ws)) - sizeBefore;
  const { checkpointVersion, status } = await ws.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
  if (status !== 'completed') throw new Error(`${label}: the negotiation ended ${status}`);
  const posts = await ws.slackOutbox.count({
    where: { method: 'chat.postMessage', dedupeKey: { startsWith: `neg:${negotiationId}:` } },
  });
  const saves = checkpointVersion + 1;
  return { seconds, saves, bytesPerStep: walBytes / saves, grownBytesPerStep: grownBytes / saves, posts };
}

async function walPosition(ws: WorkspaceDb): Promise<string> {
  const [row] = await ws.$queryRaw<{ lsn: string }[]>`SELECT pg_current_wal_insert_lsn()::text AS lsn`;
  return row?.lsn ?? '0/0';
}

async function walSince(ws: WorkspaceDb, from: string): Promise<number> {
  const [row] = await ws.$queryRaw<{ bytes: number }[]>`
    SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), ${from}::pg_lsn)::float8 AS bytes`;
  return Number(row?.bytes ?? 0);
}

async function tablesSize(ws: WorkspaceDb): Promise<number> {
  const [row] = await ws.$queryRaw<{ bytes: number }[]>`
    SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 AS bytes
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r'`;
  return Number(row?.bytes ?? 0);
}
