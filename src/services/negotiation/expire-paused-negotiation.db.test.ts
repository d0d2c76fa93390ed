// Expiring one paused negotiation on a real database (PGlite, or PostgreSQL with DATABASE_URL), as the job calls it:
// the checkpoint it was found at guards the change, and only the question messages that were posted are edited.
// The job's tests (src/jobs/jobs.db.test.ts) cover the full expiry in the thread and two runs racing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobsFixture } from '../../../test/support/jobs.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { engineQuestionId } from '../../db/stores/negotiation-store.js';
import { expiredNoticeKey } from '../../thread/expiry.js';
import { questionKey } from '../../thread/thread.js';
import { DAY_MS } from '../../time.js';
import type { ServiceContext } from '../service-context.js';
import { expirePausedNegotiation, pausedExpiresAt } from './expire-paused-negotiation.js';

let db: TestDatabase;
let fixture: Awaited<ReturnType<typeof createJobsFixture>>;
let ctx: ServiceContext;

beforeAll(async () => {
  db = await createTestDatabase();
  fixture = await createJobsFixture(db.prisma, 'T0EXPIRE01');
  const context = await fixture.contexts.forWorkspace(fixture.workspaceId);
  if (!context) throw new Error('the fixture seeds the workspace');
  ctx = context;
}, 60_000);
afterAll(async () => {
  await db?.destroy();
});

const outboxRow = (dedupeKey: string) => db.prisma.slackOutbox.findFirst({ where: { dedupeKey } });
const negotiationRow = (id: string) => db.prisma.negotiation.findUniqueOrThrow({ where: { id } });

describe('expirePausedNegotiation', () => {
  it('changes nothing when the negotiation moved past the checkpoint it was found at', async () => {
    const { negotiationId } = await fixture.pausedNegotiation(300);
    const found = await negotiationRow(negotiationId);
    const stale = { ...found, checkpointVersion: found.checkpointVersion - 1 };
    const now = new Date(found.updatedAt.getTime() + 8 * DAY_MS);
    expect(await expirePausedNegotiation(ctx, { negotiation: stale, now })).toEqual({ kind: 'moved_on' });
    expect((await negotiationRow(negotiationId)).status).toBe('paused');
    expect(await outboxRow(expiredNoticeKey(negotiationId))).toBeNull();
    expect(await db.prisma.pendingQuestion.count({ where: { negotiationId, status: 'open' } })).toBeGreaterThan(0);
  });

  it('counts the wait from the last change when the pause time is unknown, and edits only posted questions', async () => {
    const { negotiationId } = await fixture.pausedNegotiation(400);
    const questions = await db.prisma.pendingQuestion.findMany({
      where: { negotiationId, status: 'open' },
      orderBy: { askedAt: 'asc' },
    });
    const [unposted, ...posted] = questions;
    if (!unposted) throw new Error('the fixture asks a question');
    // A question whose message was never enqueued has nothing in the thread to edit.
    await db.prisma.slackOutbox.deleteMany({
      where: { dedupeKey: questionKey(negotiationId, engineQuestionId(unposted.id)) },
    });
    const found = { ...(await negotiationRow(negotiationId)), pausedAt: null };
    const now = new Date(found.updatedAt.getTime() + 9 * DAY_MS + 60_000);

    expect(await expirePausedNegotiation(ctx, { negotiation: found, now })).toEqual({
      kind: 'expired',
      questionsClosed: questions.length,
    });
    expect((await negotiationRow(negotiationId)).status).toBe('expired');
    expect(JSON.stringify((await outboxRow(expiredNoticeKey(negotiationId)))?.payload)).toContain('waited 9 days');
    expect(await outboxRow(`${questionKey(negotiationId, engineQuestionId(unposted.id))}:expired`)).toBeNull();
    for (const question of posted) {
      const edit = await outboxRow(`${questionKey(negotiationId, engineQuestionId(question.id))}:expired`);
      expect(edit?.method).toBe('chat.update');
    }
    const audit = await db.prisma.auditLog.findFirstOrThrow({
      where: { entityId: negotiationId, action: 'negotiation.expired' },
    });
    expect(audit.data).toEqual({ waitedDays: 9, questionsClosed: questions.length });

    // Expired once: the same call again finds it no longer paused.
    expect(await expirePausedNegotiation(ctx, { negotiation: found, now })).toEqual({ kind: 'moved_on' });
  });

  it('says when a paused negotiation expires', () => {
    const pausedAt = new Date('2026-03-02T09:00:00Z');
    expect(pausedExpiresAt(pausedAt, 7).toISOString()).toBe('2026-03-09T09:00:00.000Z');
  });
});
