// The checkpoint on a real database (PGlite, or PostgreSQL with DATABASE_URL), stored as a base, deltas and line sets:
// over random sequences of steps, clicks and restarts what is loaded is exactly what the engine held, a restarted
// process carries on as if nothing happened, and a step of a 3,000-line negotiation writes a small fraction of it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRng } from '../../commerce/rng.js';
import { createOfflineBrandAgent } from '../../negotiation/agents/offline/brand-agent.js';
import { createOfflineSupplierAgent } from '../../negotiation/agents/offline/supplier-agent.js';
import { nextOpenQuestion } from '../../negotiation/ask-info.js';
import {
  advance,
  answer,
  chooseCurveballStrategy,
  createNegotiation,
  decideEarlyTermination,
  type EngineAgents,
} from '../../negotiation/engine.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { seedNegotiationSuppliers } from '../../../test/support/negotiation-workspace.js';
import { manyLinesSetup } from '../../../test/support/negotiation-fixtures.js';
import { scopeToWorkspace, type WorkspaceDb } from '../scoped.js';
import { seedWorkspace } from '../seed.js';
import { decodeStored, forgetCheckpoints, readStoredCheckpoint, SNAPSHOT_EVERY } from './checkpoint-store.js';
import { applyBuyerInput, loadCheckpoint, saveStep, startNegotiation } from './negotiation-store.js';

const agents: EngineAgents = { brand: createOfflineBrandAgent(), supplier: () => createOfflineSupplierAgent() };
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('checkpoints stored as a base, deltas and line sets', () => {
  let db: TestDatabase;
  let ws: WorkspaceDb;
  let supplierIds: Record<string, string>;
  let files = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { workspaceId } = await seedWorkspace(db.prisma, { slackTeamId: 'TCKP', brandName: 'Valden', catalog: [] });
    ws = scopeToWorkspace(db.prisma, workspaceId);
    supplierIds = await seedNegotiationSuppliers(ws);
  });
  afterAll(async () => {
    await db.destroy();
  });

  async function start(seed: number, lines: number, maxRounds = 4) {
    const quotation = await ws.quotation.create({
      data: {
        workspaceId: ws.$workspaceId,
        slackFileId: `F${++files}`,
        slackChannelId: 'C1',
        uploadedBySlackUserId: 'U1',
        fileName: 'quote.xlsx',
      },
    });
    return startNegotiation(ws, {
      quotationId: quotation.id,
      startedBySlackUserId: 'U1',
      setup: { ...manyLinesSetup(seed, lines), maxRounds },
      supplierIds,
      questionBudget: 2,
    });
  }

  it.each([3, 8, 13])(
    'loads exactly the state the engine holds after every step, click and restart (seed %i)',
    async (seed) => {
      const rng = createRng(seed);
      // Five rounds: long enough to fold the deltas into a new base.
      const { negotiationId } = await start(seed, 40, 5);
      // The engine alone, in memory: what the database must give back at every point.
      let memory = createNegotiation({ ...manyLinesSetup(seed, 40), maxRounds: 5, questionBudget: 2 }).state;
      let { state, version } = await loadCheckpoint(ws, negotiationId);
      for (let turn = 0; memory.status !== 'completed' && turn < 200; turn++) {
        const roll = rng.next();
        if (roll < 0.08) forgetCheckpoints(); // a new process: the next save cannot take a delta
        const question = nextOpenQuestion(memory.askInfo);
        if (memory.status === 'running' && memory.curveball && roll > 0.9) {
          const strategyId = memory.curveball.strategies[rng.int(0, 2)]?.id ?? 'split';
          memory = chooseCurveballStrategy(memory, strategyId, 'U1').state;
          await applyBuyerInput(ws, negotiationId, { kind: 'curveball_strategy', strategyId, by: 'U1' });
        } else if (memory.status === 'running') {
          const result = await advance(state, agents);
          version = await saveStep(ws, negotiationId, version, result);
          memory = (await advance(memory, agents)).state;
        } else if (memory.status === 'awaiting_early_termination') {
          const finish = roll < 0.3;
          memory = decideEarlyTermination(memory, finish, 'U1').state;
          await applyBuyerInput(ws, negotiationId, { kind: 'early_termination', finish, by: 'U1' });
        } else if (question) {
          const text = question.suggestedAnswers[rng.int(0, question.suggestedAnswers.length - 1)] ?? 'Yes';
          memory = answer(memory, question.id, text, 'U1').state;
          await applyBuyerInput(ws, negotiationId, { kind: 'answer', questionId: question.id, answer: text, by: 'U1' });
        }
        ({ state, version } = await loadCheckpoint(ws, negotiationId));
        expect(asJson(state), `seed ${seed}, turn ${turn}`).toEqual(asJson(memory));
        // What the load gave (often the state this process remembers) is what the database holds, decoded.
        const stored = await readStoredCheckpoint(ws, negotiationId);
        expect(stored.version).toBe(version);
        expect(asJson(stored.state), `seed ${seed}, turn ${turn}, stored`).toEqual(asJson(memory));
      }
      expect(memory.status).toBe('completed');
      // Long enough to fold deltas into a new base at least once.
      expect(version).toBeGreaterThan(SNAPSHOT_EVERY);
    },
    120_000,
  );

  it('decodes the checkpoint again once another process saved a newer version', async () => {
    const { negotiationId } = await start(4, 40);
    const first = await loadCheckpoint(ws, negotiationId);
    const step = await advance(first.state, agents);
    const mine = await saveStep(ws, negotiationId, first.version, step);
    // The version this process saved is not decoded again.
    expect(await loadCheckpoint(ws, negotiationId)).toEqual({ state: step.state, version: mine });
    expect((await loadCheckpoint(ws, negotiationId)).state).toBe(step.state);
    // Another process (its own copy of the stores, its own memory) takes the next step.
    vi.resetModules();
    const other = await import('./negotiation-store.js');
    const theirs = await other.loadCheckpoint(ws, negotiationId);
    const next = await advance(theirs.state, agents);
    const saved = await other.saveStep(ws, negotiationId, theirs.version, next);
    // This process remembers the version before: it reads the new one from the database.
    const loaded = await loadCheckpoint(ws, negotiationId);
    expect(loaded.version).toBe(saved);
    expect(asJson(loaded.state)).toEqual(asJson(next.state));
  });

  it('writes a small fraction of a 3,000-line state per step', async () => {
    const { negotiationId } = await start(5, 3000);
    let { state, version } = await loadCheckpoint(ws, negotiationId);
    // Bytes of write-ahead log: everything a step writes (rows, TOAST, indexes), whatever the table.
    const lsn = async () =>
      (await ws.$queryRaw<{ lsn: string }[]>`SELECT pg_current_wal_insert_lsn()::text AS lsn`)[0]?.lsn ?? '0/0';
    const since = async (from: string) =>
      Number(
        (
          await ws.$queryRaw<{ bytes: number }[]>`
          SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), ${from}::pg_lsn)::float8 AS bytes`
        )[0]?.bytes,
      );
    const written: number[] = [];
    // Round 1: two RFQs and the quotes they get, then the quoting supplier's brand turn and reply — every step kind
    // that carries all 3,000 lines (requests, offers, counter-asks).
    for (let step = 0; step < 6; step++) {
      const result = await advance(state, agents);
      const before = await lsn();
      version = await saveStep(ws, negotiationId, version, result);
      written.push(await since(before));
      state = result.state;
    }
    const stateBytes = Buffer.byteLength(JSON.stringify(state));
    const withOffers = Object.values(state.suppliers).filter((s) => s.offers.length > 0).length;
    expect(withOffers).toBe(3);
    // Whole-state checkpoints wrote at least the state's size each step (2.2 MB here); a step now writes what it
    // added: a column of prices or of asks, a few kilobytes of messages and the delta.
    expect(stateBytes).toBeGreaterThan(2_000_000);
    // PGlite's WAL is this test's alone. PostgreSQL's is the server's: the test files running beside this one write
    // into it too (a CREATE DATABASE copies its whole template into the WAL), so there the figure is not this step's.
    if (db.kind === 'pglite') expect(Math.max(...written)).toBeLessThan(stateBytes / 20);
    expect((await readStoredCheckpoint(ws, negotiationId)).state).toEqual(state);
    // The version this process saved is not decoded again: the load is the state it remembers.
    expect((await loadCheckpoint(ws, negotiationId)).state).toBe(state);

    // The round's offer row references the same line sets: small as stored, the whole offer when read back.
    const offer = state.suppliers['SUP-002']?.offers.at(-1);
    const round = await ws.negotiationRound.findFirstOrThrow({
      where: { negotiationId, roundNumber: 1, negotiationSupplier: { supplier: { code: 'SUP-002' } } },
    });
    expect(JSON.stringify(round.offerData).length).toBeLessThan(2_000);
    expect(await decodeStored(ws, negotiationId, round.offerData)).toEqual(asJson(offer));
  }, 120_000);
});
