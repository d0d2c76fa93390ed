// The engine on a real database (PGlite, or PostgreSQL with DATABASE_URL): a run interrupted at any step resumes from
// its checkpoint with the same transcript as an uninterrupted one, and no message is written twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeToWorkspace, type WorkspaceDb } from '../scoped.js';
import { seedWorkspace } from '../seed.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { seedNegotiationSuppliers } from '../../../test/support/negotiation-workspace.js';
import { recordingTransactions } from '../../../test/support/recording-transactions.js';
import { createOfflineBrandAgent } from '../../negotiation/agents/offline/brand-agent.js';
import { createOfflineSupplierAgent } from '../../negotiation/agents/offline/supplier-agent.js';
import { nextOpenQuestion } from '../../negotiation/ask-info.js';
import { advance, type EngineAgents } from '../../negotiation/engine.js';
import {
  acquireLease,
  applyBuyerInput,
  LEASE_MS,
  LeaseLostError,
  loadCheckpoint,
  runNegotiation,
  saveStep,
  StaleStepError,
  startNegotiation,
} from './negotiation-store.js';
import { exampleSetup } from '../../../test/support/negotiation-fixtures.js';
import { runUnattended } from '../../negotiation/run-unattended.js';

const agents: EngineAgents = { brand: createOfflineBrandAgent(), supplier: () => createOfflineSupplierAgent() };
const setup = (seed: number) => exampleSetup(seed);

describe('negotiations on the database', () => {
  let db: TestDatabase;
  let ws: WorkspaceDb;
  let supplierIds: Record<string, string>;
  let files = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { workspaceId } = await seedWorkspace(db.prisma, {
      slackTeamId: 'TNEG',
      brandName: 'Valden Outdoor',
      catalog: [],
    });
    ws = scopeToWorkspace(db.prisma, workspaceId);
    supplierIds = await seedNegotiationSuppliers(ws);
  });
  afterAll(async () => {
    await db.destroy();
  });

  async function newNegotiation(seed: number, questionBudget = 3) {
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
      setup: setup(seed),
      supplierIds,
      questionBudget,
    });
  }

  /** Runs to completion, answering each question with its first suggestion; `crashAfter` drops the run mid-way. */
  async function drive(negotiationId: string, owner: string, crashAfter?: number) {
    if (crashAfter !== undefined) {
      // The "crashed" process: takes some steps, saves them, then disappears without releasing its lease.
      await acquireLease(ws, negotiationId, 'crashed-process');
      let { state, version } = await loadCheckpoint(ws, negotiationId);
      for (let step = 0; step < crashAfter && state.status === 'running'; step++) {
        const result = await advance(state, agents);
        version = await saveStep(ws, negotiationId, version, result);
        state = result.state;
      }
      // Its lease has to expire before anyone else may take over.
      expect(await acquireLease(ws, negotiationId, owner)).toBe(false);
      await ws.negotiation.updateMany({ where: { id: negotiationId }, data: { leaseExpiresAt: new Date(0) } });
    }
    for (let guard = 0; guard < 30; guard++) {
      const state = await runNegotiation(ws, negotiationId, agents, owner);
      if (!state || state.status === 'completed') return;
      const question = nextOpenQuestion(state.askInfo);
      if (state.status === 'awaiting_early_termination') {
        await applyBuyerInput(ws, negotiationId, { kind: 'early_termination', finish: true, by: 'auto' });
      } else if (question) {
        await applyBuyerInput(ws, negotiationId, {
          kind: 'answer',
          questionId: question.id,
          answer: question.suggestedAnswers[0] ?? 'Yes',
          by: 'auto',
        });
      }
    }
  }

  const transcript = async (negotiationId: string) =>
    (await ws.message.findMany({ where: { negotiationId }, orderBy: { sequence: 'asc' } })).map(
      (m) => `${m.sequence} ${m.speakerName}: ${m.text}`,
    );

  it('stores every message, offer and question of a run, and matches the in-memory engine', async () => {
    const { negotiationId } = await newNegotiation(21);
    await drive(negotiationId, 'instance-a');
    const reference = await runUnattended(setup(21), agents, { answers: 'auto' });
    const expected = reference.events.flatMap((e) =>
      e.type === 'message' ? [`${e.sequence} ${e.speaker}: ${e.text}`] : [],
    );
    expect(await transcript(negotiationId)).toEqual(expected);

    const negotiation = await ws.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
    expect(negotiation.status).toBe('completed');
    expect(negotiation.leaseOwner).toBeNull();
    const rounds = await ws.negotiationRound.count({ where: { negotiationId } });
    expect(rounds).toBeGreaterThanOrEqual(9);
    const questions = await ws.pendingQuestion.findMany({ where: { negotiationId } });
    expect(questions.every((q) => q.status === 'answered' && q.answeredBySlackUserId === 'auto')).toBe(true);
  });

  it.each([1, 5, 12, 19])(
    'resumes after a crash at step %i with the same transcript and no duplicate',
    async (crashAfter) => {
      const [crashed, clean] = [await newNegotiation(33), await newNegotiation(33)];
      await drive(crashed.negotiationId, 'instance-b', crashAfter);
      await drive(clean.negotiationId, 'instance-c');
      const resumed = await transcript(crashed.negotiationId);
      expect(resumed).toEqual(await transcript(clean.negotiationId));
      expect(new Set(resumed).size).toBe(resumed.length);
    },
  );

  it('applies a buyer’s click again when a step of the running engine is saved while the click is applied', async () => {
    // No questions: the run is still going when the curveball's strategies are offered.
    const { negotiationId } = await newNegotiation(2, 0);
    let { state, version } = await loadCheckpoint(ws, negotiationId);
    while (!state.curveball && state.status === 'running') {
      const result = await advance(state, agents);
      version = await saveStep(ws, negotiationId, version, result);
      state = result.state;
    }
    expect(state.status).toBe('running');
    if (!state.curveball) throw new Error('no curveball before the run stopped');
    const strategyId = state.curveball.strategies.find((s) => s.id !== state.curveball?.chosen)?.id ?? '';
    // The engine's next step lands between the click's read of the checkpoint and its save.
    let engineStep = 0;
    const racing = interleaveAfterFirstRead(ws, async () => {
      const { state: current, version: from } = await loadCheckpoint(ws, negotiationId);
      const step = await advance(current, agents);
      engineStep = (await saveStep(ws, negotiationId, from, step)) - 1;
    });

    const result = await applyBuyerInput(racing, negotiationId, { kind: 'curveball_strategy', strategyId, by: 'U1' });
    expect(result.events).toEqual([{ type: 'curveball', curveball: expect.objectContaining({ chosen: strategyId }) }]);
    const saved = await loadCheckpoint(ws, negotiationId);
    expect(saved.version).toBe(engineStep + 2);
    expect(saved.state.curveball).toMatchObject({ chosen: strategyId, chosenBy: 'U1' });
    // The engine's step stands: the click was applied on top of it, not over it.
    expect(saved.state.stepCount).toBe(state.stepCount + 1);
  });

  it('stops a run whose lease is taken during an agent turn: that step is not saved, no further turn is paid for', async () => {
    // Issue 15, item 8: a process whose lease expired while a slow turn ran (and was taken over) kept saving its steps
    // and paying for turns next to the new holder.
    const { negotiationId } = await newNegotiation(2, 0);
    const TAKEOVER_AT_TURN = 4;
    let turns = 0;
    let turnsAfterTakeover = 0;
    let versionAtTakeover: number | undefined;
    const turn = async <T>(call: () => Promise<T>): Promise<T> => {
      if (versionAtTakeover !== undefined) turnsAfterTakeover++;
      if (++turns === TAKEOVER_AT_TURN) {
        // Another instance finds this run's lease expired and takes the negotiation.
        versionAtTakeover = (await loadCheckpoint(ws, negotiationId)).version;
        await ws.negotiation.updateMany({
          where: { id: negotiationId },
          data: { leaseOwner: 'instance-b', leaseExpiresAt: new Date(Date.now() + LEASE_MS) },
        });
      }
      return call();
    };
    const counted: EngineAgents = {
      brand: {
        rfq: (context) => turn(() => agents.brand.rfq(context)),
        pillars: (context) => turn(() => agents.brand.pillars(context)),
        synthesize: (context, briefs) => turn(() => agents.brand.synthesize(context, briefs)),
      },
      supplier: (code) => ({ respond: (context) => turn(() => agents.supplier(code).respond(context)) }),
    };

    expect(await runNegotiation(ws, negotiationId, counted, 'instance-a')).toBeNull();
    expect(versionAtTakeover).toBeDefined();
    expect(turnsAfterTakeover).toBe(0);
    // The step that was running is not saved over the new holder's, and the new holder keeps its lease.
    expect((await loadCheckpoint(ws, negotiationId)).version).toBe(versionAtTakeover);
    const row = await ws.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
    expect(row.leaseOwner).toBe('instance-b');
  });

  it('refuses a step saved under a lease its writer no longer holds', async () => {
    const { negotiationId } = await newNegotiation(6);
    expect(await acquireLease(ws, negotiationId, 'instance-a')).toBe(true);
    const { state, version } = await loadCheckpoint(ws, negotiationId);
    const result = await advance(state, agents);
    await ws.negotiation.updateMany({ where: { id: negotiationId }, data: { leaseOwner: 'instance-b' } });
    await expect(saveStep(ws, negotiationId, version, result, undefined, 'instance-a')).rejects.toThrow(LeaseLostError);
    expect(await ws.message.count({ where: { negotiationId } })).toBe(0);
    expect(await saveStep(ws, negotiationId, version, result, undefined, 'instance-b')).toBe(version + 1);
  });

  it("writes a step's messages in one statement, its supplier rows read and its offers encoded before the transaction", async () => {
    const { negotiationId } = await newNegotiation(5);
    let { state, version } = await loadCheckpoint(ws, negotiationId);
    const transactions: string[][] = [];
    const recorded = recordingTransactions(ws, transactions);
    // Steps until one says something.
    let messages = 0;
    while (messages === 0 && state.status === 'running') {
      const result = await advance(state, agents);
      messages = result.events.filter((event) => event.type === 'message').length;
      transactions.length = 0;
      version = await saveStep(recorded, negotiationId, version, result);
      state = result.state;
    }
    expect(messages).toBeGreaterThan(0);
    const [step] = transactions;
    // Before: message.create once per message, and negotiationSupplier.findMany, inside the step's transaction.
    expect(step?.filter((call) => call.startsWith('message.'))).toEqual(['message.createMany']);
    expect(step).not.toContain('negotiationSupplier.findMany');
    expect(await ws.message.count({ where: { negotiationId } })).toBe(state.messageCount);
  });

  it('stores a step computed twice only once', async () => {
    const { negotiationId } = await newNegotiation(5);
    const { state, version } = await loadCheckpoint(ws, negotiationId);
    const result = await advance(state, agents);
    await saveStep(ws, negotiationId, version, result);
    await expect(saveStep(ws, negotiationId, version, result)).rejects.toThrow(StaleStepError);
    expect(await ws.message.count({ where: { negotiationId } })).toBe(1);
  });
});

/**
 * The scoped client, except that `then` runs right after the first negotiation read (a checkpoint's load) returns —
 * another writer's save landing in that gap, deterministically.
 */
function interleaveAfterFirstRead(db: WorkspaceDb, then: () => Promise<void>): WorkspaceDb {
  let done = false;
  const bound = (target: object, prop: string | symbol) => {
    const value: unknown = Reflect.get(target, prop);
    return typeof value === 'function' ? value.bind(target) : value;
  };
  // The checkpoint is read in one raw statement (the base with the deltas since): the first one is the read.
  const queryRaw = async (...args: Parameters<WorkspaceDb['$queryRaw']>) => {
    const rows: unknown = await db.$queryRaw(...args);
    if (!done) {
      done = true;
      await then();
    }
    return rows;
  };
  return new Proxy(db, { get: (target, prop) => (prop === '$queryRaw' ? queryRaw : bound(target, prop)) });
}
