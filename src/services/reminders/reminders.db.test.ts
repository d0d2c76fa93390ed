// The reminder services on a real database (PGlite, or PostgreSQL with DATABASE_URL), called for one question or one
// PO as the jobs call them: what each claims, when it declines, and what it writes to the thread. The jobs' own tests
// (src/jobs/jobs.db.test.ts) cover finding what is due and the races between runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobsFixture } from '../../../test/support/jobs.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { approvalReminderKey, questionReminderKey } from '../../thread/reminders.js';
import { DAY_MS, HOUR_MS } from '../../time.js';
import type { ServiceContext } from '../service-context.js';
import { pausedExpiresAt } from '../negotiation/expire-paused-negotiation.js';
import { remindPoApprovers } from './remind-po-approvers.js';
import { questionReminderPolicy, remindUnansweredQuestion } from './remind-unanswered-question.js';

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

let db: TestDatabase;
let fixture: Awaited<ReturnType<typeof createJobsFixture>>;
let ctx: ServiceContext;

beforeAll(async () => {
  db = await createTestDatabase();
  fixture = await createJobsFixture(db.prisma, 'T0REMIND01');
  const context = await fixture.contexts.forWorkspace(fixture.workspaceId);
  if (!context) throw new Error('the fixture seeds the workspace');
  ctx = context;
}, 60_000);
afterAll(async () => {
  await db?.destroy();
});

const outboxRow = (dedupeKey: string) => db.prisma.slackOutbox.findFirst({ where: { dedupeKey } });

describe('questionReminderPolicy', () => {
  it('waits the configured hours for the first reminder, then a day', () => {
    expect(questionReminderPolicy(4)).toEqual({ firstAfterMs: 4 * HOUR_MS, everyMs: DAY_MS });
  });
});

describe('remindUnansweredQuestion', () => {
  it('claims only the reminder that follows the last one, and says when the negotiation expires', async () => {
    const { negotiationId } = await fixture.pausedNegotiation(100);
    const question = await db.prisma.pendingQuestion.findFirstOrThrow({ where: { negotiationId, status: 'open' } });
    const { pausedAt } = await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
    if (!pausedAt) throw new Error('a paused negotiation records when it paused');
    const now = at(question.askedAt, 5 * HOUR_MS);

    // Reminder 2 before reminder 1 was sent: another run is ahead or behind; nothing is written.
    expect(await remindUnansweredQuestion(ctx, { questionId: question.id, reminderNumber: 2, now })).toBe(
      'claimed_elsewhere',
    );
    expect(await outboxRow(questionReminderKey(question.id, 2))).toBeNull();

    const options = { questionId: question.id, reminderNumber: 1, now, expirePausedAfterDays: 7 };
    expect(await remindUnansweredQuestion(ctx, options)).toBe('sent');
    const payload = JSON.stringify((await outboxRow(questionReminderKey(question.id, 1)))?.payload);
    expect(payload).toContain('Reminder 1');
    const expiresAt = Math.floor(pausedExpiresAt(pausedAt, 7).getTime() / 1000);
    expect(payload).toContain(`the negotiation expires <!date^${expiresAt}^`);

    // The same reminder again (a second instance that found it due too) is claimed elsewhere.
    expect(await remindUnansweredQuestion(ctx, options)).toBe('claimed_elsewhere');
    const stored = await db.prisma.pendingQuestion.findUniqueOrThrow({ where: { id: question.id } });
    expect(stored.reminderCount).toBe(1);
    expect(stored.lastRemindedAt?.getTime()).toBe(now.getTime());
  });

  it('does not say when it expires without the expiry setting, and does not remind an answered question', async () => {
    const { negotiationId } = await fixture.pausedNegotiation(200);
    const [first, second] = await db.prisma.pendingQuestion.findMany({
      where: { negotiationId, status: 'open' },
      orderBy: { askedAt: 'asc' },
    });
    if (!first) throw new Error('the fixture asks a question');
    const now = at(first.askedAt, 5 * HOUR_MS);
    expect(await remindUnansweredQuestion(ctx, { questionId: first.id, reminderNumber: 1, now })).toBe('sent');
    expect(JSON.stringify((await outboxRow(questionReminderKey(first.id, 1)))?.payload)).not.toContain('expires');

    if (second) {
      await db.prisma.pendingQuestion.update({ where: { id: second.id }, data: { status: 'answered' } });
      expect(await remindUnansweredQuestion(ctx, { questionId: second.id, reminderNumber: 1, now })).toBe(
        'claimed_elsewhere',
      );
      expect(await outboxRow(questionReminderKey(second.id, 1))).toBeNull();
    }
  });
});

describe('remindPoApprovers', () => {
  it('writes one reminder a day, and declines when nobody is left to remind or the PO is no longer a draft', async () => {
    const { po } = await fixture.decidedNegotiation(500);
    const dayOne = at(po.createdAt, DAY_MS + HOUR_MS);
    expect(await remindPoApprovers(ctx, { purchaseOrderId: po.id, now: dayOne })).toBe('sent');
    const row = await outboxRow(approvalReminderKey(po.id, 1));
    expect(row?.method).toBe('chat.postMessage');
    expect(JSON.stringify(row?.payload)).toContain('waiting for approval by');
    expect(await remindPoApprovers(ctx, { purchaseOrderId: po.id, now: at(dayOne, 5 * HOUR_MS) })).toBe('already_sent');

    // No approvers configured: nobody to mention, nothing written.
    const unconfigured = {
      ...ctx,
      workspace: { ...ctx.workspace, settings: { ...ctx.workspace.settings, approvers: [] } },
    };
    const dayTwo = at(po.createdAt, 2 * DAY_MS + HOUR_MS);
    expect(await remindPoApprovers(unconfigured, { purchaseOrderId: po.id, now: dayTwo })).toBe('nobody_to_remind');
    expect(await outboxRow(approvalReminderKey(po.id, 2))).toBeNull();

    // Every configured approver has approved (the PO waits for nothing a reminder could bring).
    for (const approver of ctx.workspace.settings.approvers) {
      await db.prisma.purchaseOrderApproval.create({
        data: { workspaceId: fixture.workspaceId, purchaseOrderId: po.id, approverSlackUserId: approver },
      });
    }
    expect(await remindPoApprovers(ctx, { purchaseOrderId: po.id, now: dayTwo })).toBe('nobody_to_remind');

    await db.prisma.purchaseOrder.update({ where: { id: po.id }, data: { status: 'rejected' } });
    expect(await remindPoApprovers(ctx, { purchaseOrderId: po.id, now: dayTwo })).toBe('not_draft');
    expect(await db.prisma.slackOutbox.count({ where: { dedupeKey: { startsWith: `po:${po.id}:remind:` } } })).toBe(1);
  });
});
