// Every answer and choice the buyer makes in a negotiation is in the audit log, written in the transaction of the
// engine step that applies it: an answer to an ASK_INFO question, the early-termination choice
// and a curveball strategy, each once — a repeated click changes nothing and audits nothing. Real database, with
// negotiations driven by the offline agents until they wait for the buyer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER, createJobsFixture, offlineAgents } from '../../../test/support/jobs.js';
import { runNegotiation } from '../../db/stores/negotiation-store.js';
import { enqueueNegotiationEvents } from '../../thread/negotiation-events.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import type { ServiceContext } from '../service-context.js';
import { answerQuestion, chooseCurveball } from './answer-question.js';

let db: TestDatabase;
let fixture: Awaited<ReturnType<typeof createJobsFixture>>;
let ctx: ServiceContext;

beforeAll(async () => {
  db = await createTestDatabase();
  fixture = await createJobsFixture(db.prisma, 'T0AUDITS01');
  const context = await fixture.contexts.forWorkspace(fixture.workspaceId);
  if (!context) throw new Error('the fixture seeds the workspace');
  ctx = context;
}, 60_000);
afterAll(async () => {
  await db?.destroy();
});

const audits = (negotiationId: string) =>
  db.prisma.auditLog.findMany({ where: { entityId: negotiationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });

const openQuestion = (negotiationId: string, kind: 'ask_info' | 'early_termination') =>
  db.prisma.pendingQuestion.findFirst({ where: { negotiationId, status: 'open', kind } });

/**
 * The first negotiation that pauses on a question of `kind`, answering its earlier questions with their first
 * suggestion (through the service) and running it on.
 */
async function pausedOn(kind: 'ask_info' | 'early_termination') {
  for (let seed = 1; seed < 30; seed++) {
    const paused = await fixture.pausedNegotiation(seed);
    const { negotiationId } = paused;
    for (let guard = 0; guard < 20; guard++) {
      const question = await openQuestion(negotiationId, kind);
      if (question) return { negotiationId, question };
      const earlier = await openQuestion(negotiationId, 'ask_info');
      if (!earlier) break;
      await answerQuestion(ctx, { questionId: earlier.id, by: BUYER, choice: { kind: 'suggested', index: 0 } });
      const state = await runNegotiation(fixture.ws, negotiationId, offlineAgents, 'fixture', (tx, events, s) =>
        enqueueNegotiationEvents(tx, { negotiationId, events, state: s }),
      );
      if (!state || state.status === 'completed') break;
    }
  }
  throw new Error(`no negotiation pauses on ${kind}`);
}

describe('the buyer’s answers and choices are audited', () => {
  it('an answer to a question: once, by the person, with what they answered', async () => {
    const { negotiationId, question } = await pausedOn('ask_info');
    const answer = { questionId: question.id, by: BUYER, choice: { kind: 'suggested', index: 0 } } as const;
    expect(await answerQuestion(ctx, answer)).toMatchObject({ ok: true, changed: true });
    expect(await answerQuestion(ctx, answer)).toMatchObject({ ok: true, changed: false });
    const entries = (await audits(negotiationId)).filter((a) => a.action === 'negotiation.question_answered');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorSlackUserId: BUYER, actorKind: 'user', entityType: 'negotiation' });
    const suggested = question.suggestedAnswers as unknown[];
    expect(entries[0]?.data).toMatchObject({ answer: suggested[0] });
  });

  it('the early-termination choice: once, with what was decided', async () => {
    const { negotiationId, question } = await pausedOn('early_termination');
    const finish = { questionId: question.id, by: BUYER, choice: { kind: 'early_termination', finish: true } } as const;
    expect(await answerQuestion(ctx, finish)).toMatchObject({ ok: true, changed: true });
    expect(await answerQuestion(ctx, finish)).toMatchObject({ ok: true, changed: false });
    const entries = (await audits(negotiationId)).filter((a) => a.action === 'negotiation.early_termination_decided');
    expect(entries.map((a) => a.data)).toEqual([{ finish: true }]);
  });

  it('a curveball strategy other than the recommended one: once, with the strategy', async () => {
    for (let seed = 1; seed < 60; seed++) {
      const { negotiationId, state } = await fixture.pausedNegotiation(seed);
      const other = state.curveball?.strategies.find((s) => s.id !== state.curveball?.chosen);
      if (!other) continue;
      const choice = { negotiationId, strategyId: other.id, by: BUYER };
      expect(await chooseCurveball(ctx, choice)).toMatchObject({ ok: true, changed: true });
      expect(await chooseCurveball(ctx, choice)).toMatchObject({ ok: true, changed: false });
      const entries = (await audits(negotiationId)).filter((a) => a.action === 'negotiation.curveball_strategy_chosen');
      expect(entries.map((a) => [a.actorSlackUserId, a.data])).toEqual([[BUYER, { strategyId: other.id }]]);
      return;
    }
    throw new Error('no paused negotiation past its curveball');
  });
});
