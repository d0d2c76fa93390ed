// The scheduled jobs on a real database (PGlite, or PostgreSQL with DATABASE_URL), each with a clock the test moves:
// what is due when, what each run writes to the outbox, and that two runners racing on one database do each thing once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { applyBuyerInput, engineQuestionId, StaleStepError } from '../db/stores/negotiation-store.js';
import { nextOpenQuestion } from '../negotiation/ask-info.js';
import { pausedExpiresAt } from '../services/negotiation/expire-paused-negotiation.js';
import { approvalWaitDay, approversToRemind } from '../services/reminders/remind-po-approvers.js';
import { questionReminderDue } from '../services/reminders/remind-unanswered-question.js';
import { approvalReminderKey, questionReminderKey } from '../thread/reminders.js';
import { DAY_MS, HOUR_MS } from '../time.js';
import { remindApprovers } from './remind-approvers.js';
import { expirePausedNegotiations } from './expire-paused-negotiations.js';
import { type BackgroundWork, startBackgroundWork } from './background-work.js';
import { recoverOnStart } from './recover-on-start.js';
import { remindUnansweredQuestions } from './remind-unanswered-questions.js';
import { type JobsConfig, startJobs } from './schedule-jobs.js';
import { leaseIsFree, type RecoveringParley, sweepExpiredLeases } from './sweep-expired-leases.js';
import { APPROVERS, BUYER, CHANNEL_ID, createJobsFixture } from '../../test/support/jobs.js';

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
const MINUTE = 60_000;

describe('pure decisions', () => {
  const policy = { firstAfterMs: 4 * HOUR_MS, everyMs: DAY_MS };
  const asked = new Date('2026-03-02T09:00:00Z');

  it('reminds of a question after 4 hours, then once a day', () => {
    const fresh = { askedAt: asked, reminderCount: 0, lastRemindedAt: null };
    expect(questionReminderDue(fresh, at(asked, 4 * HOUR_MS - 1), policy)).toBeNull();
    expect(questionReminderDue(fresh, at(asked, 4 * HOUR_MS), policy)).toBe(1);
    const once = { askedAt: asked, reminderCount: 1, lastRemindedAt: at(asked, 5 * HOUR_MS) };
    expect(questionReminderDue(once, at(asked, 28 * HOUR_MS), policy)).toBeNull();
    expect(questionReminderDue(once, at(asked, 29 * HOUR_MS), policy)).toBe(2);
  });

  it('counts an approver reminder by the day of the wait, and reminds only who has not approved', () => {
    expect(approvalWaitDay(asked, at(asked, DAY_MS - 1))).toBe(0);
    expect(approvalWaitDay(asked, at(asked, DAY_MS))).toBe(1);
    expect(approvalWaitDay(asked, at(asked, 3 * DAY_MS + 5 * HOUR_MS))).toBe(3);
    expect(approvalWaitDay(asked, at(asked, -HOUR_MS))).toBe(0);
    expect(approversToRemind(['U1', 'U2', 'U3'], ['U2'])).toEqual(['U1', 'U3']);
  });

  it('sees a lease as free when nobody holds it, it expired, or it is the reclaiming instance’s own', () => {
    const now = new Date('2026-03-02T09:00:00Z');
    expect(leaseIsFree({ leaseOwner: null, leaseExpiresAt: null }, now)).toBe(true);
    expect(leaseIsFree({ leaseOwner: 'a', leaseExpiresAt: at(now, -1) }, now)).toBe(true);
    expect(leaseIsFree({ leaseOwner: 'a', leaseExpiresAt: at(now, MINUTE) }, now)).toBe(false);
    expect(leaseIsFree({ leaseOwner: 'a', leaseExpiresAt: at(now, MINUTE) }, now, 'a')).toBe(true);
    expect(pausedExpiresAt(now, 7).getTime() - now.getTime()).toBe(7 * DAY_MS);
  });
});

describe('the jobs on the database', () => {
  let db: TestDatabase;
  let fixture: Awaited<ReturnType<typeof createJobsFixture>>;

  /** Two instances' pg-boss, for the scheduled jobs' queues. */
  let instances: BackgroundWork[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    fixture = await createJobsFixture(db.prisma, 'T0JOBS0001');
    instances = [
      await startBackgroundWork({ connection: db.jobQueue, concurrency: 2 }),
      await startBackgroundWork({ connection: db.jobQueue, concurrency: 2 }),
    ];
  }, 60_000);
  afterAll(async () => {
    for (const work of instances) await work.stop();
    await db?.destroy();
  });
  const instance = (index: number) => {
    const work = instances[index];
    if (!work) throw new Error(`no instance ${index}`);
    return work;
  };

  const jobOptions = (now: Date) => ({ prisma: db.prisma, contexts: fixture.contexts, now });
  const openQuestions = (negotiationId: string) =>
    db.prisma.pendingQuestion.findMany({ where: { negotiationId, status: 'open' }, orderBy: { askedAt: 'asc' } });
  const outboxRow = (dedupeKey: string) => db.prisma.slackOutbox.findFirst({ where: { dedupeKey } });
  const rowsLike = (prefix: string) => db.prisma.slackOutbox.count({ where: { dedupeKey: { startsWith: prefix } } });

  describe('remind-unanswered-questions', () => {
    it('reminds the buyer in the thread once after 4 hours, not again within a day, again after it', async () => {
      const { negotiationId } = await fixture.pausedNegotiation(100);
      const [question] = await openQuestions(negotiationId);
      if (!question) throw new Error('the fixture asks a question');
      const remind = (now: Date) =>
        remindUnansweredQuestions({ ...jobOptions(now), reminderAfterHours: 4, expirePausedAfterDays: 7 });
      const mine = () => rowsLike(`remind:q:${question.id}:`);

      await remind(at(question.askedAt, 4 * HOUR_MS - MINUTE));
      expect(await mine()).toBe(0);

      const first = at(question.askedAt, 4 * HOUR_MS + MINUTE);
      expect((await remind(first)).sent).toBeGreaterThanOrEqual(1);
      const row = await outboxRow(questionReminderKey(question.id, 1));
      expect(row?.method).toBe('chat.postMessage');
      expect(row?.channelId).toBe(CHANNEL_ID);
      const quotation = await db.prisma.quotation.findFirstOrThrow({ where: { negotiation: { id: negotiationId } } });
      expect(row?.threadTs).toBe(quotation.slackThreadTs);
      expect(JSON.stringify(row?.payload)).toContain(`<@${BUYER}>`);
      expect(JSON.stringify(row?.payload)).toContain('Reminder 1');
      const stored = await db.prisma.pendingQuestion.findUniqueOrThrow({ where: { id: question.id } });
      expect(stored.reminderCount).toBe(1);
      expect(stored.lastRemindedAt?.getTime()).toBe(first.getTime());

      await remind(at(first, HOUR_MS));
      await remind(at(first, DAY_MS - MINUTE));
      expect(await mine()).toBe(1);

      await remind(at(first, DAY_MS + MINUTE));
      expect(await mine()).toBe(2);
      expect(JSON.stringify((await outboxRow(questionReminderKey(question.id, 2)))?.payload)).toContain('Reminder 2');
      expect((await db.prisma.pendingQuestion.findUniqueOrThrow({ where: { id: question.id } })).reminderCount).toBe(2);
    });

    it('sends each reminder once when two runners race, directly or through startJobs', async () => {
      const { negotiationId } = await fixture.pausedNegotiation(200);
      const questions = await openQuestions(negotiationId);
      const [first] = questions;
      if (!first) throw new Error('the fixture asks a question');
      const now = at(first.askedAt, 5 * HOUR_MS);
      const options = { ...jobOptions(now), reminderAfterHours: 4 };
      const [a, b] = await Promise.all([remindUnansweredQuestions(options), remindUnansweredQuestions(options)]);
      for (const q of questions) expect(await rowsLike(`remind:q:${q.id}:`)).toBe(1);
      expect(a.failed + b.failed).toBe(0);

      const config: JobsConfig = {
        remindersCron: '0 0 1 1 *',
        sweepCron: '0 0 1 1 *',
        questionReminderAfterHours: 4,
        expirePausedAfterDays: 7,
      };
      const parley: RecoveringParley = { resume: async () => {}, rereadQuotation: async () => {} };
      const runner = (owner: string, index: number) =>
        startJobs({
          prisma: db.prisma,
          work: instance(index),
          contexts: fixture.contexts,
          parley,
          owner,
          config,
          now: () => at(now, DAY_MS + MINUTE),
          schedule: false,
        });
      const [one, two] = [await runner('instance-1', 0), await runner('instance-2', 1)];
      // Both instances' ticks at once: one run is queued, the other tick finds it pending.
      const queued = await Promise.all([
        one.trigger('remind-unanswered-questions'),
        two.trigger('remind-unanswered-questions'),
      ]);
      expect(queued.filter(Boolean)).toHaveLength(1);
      for (let waited = 0; waited < 20_000; waited += 100) {
        if ((await rowsLike(`remind:q:${first.id}:`)) === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (const q of questions) expect(await rowsLike(`remind:q:${q.id}:`)).toBe(2);
      // And run directly on both at once, each reminder is still written once.
      const runs = await Promise.all([one.run('remind-unanswered-questions'), two.run('remind-unanswered-questions')]);
      expect(runs.map((r) => r.status)).toEqual(['done', 'done']);
      for (const q of questions) expect(await rowsLike(`remind:q:${q.id}:`)).toBe(2);
      await Promise.all([one.stop(), two.stop()]);
    }, 30_000);
  });

  describe('expire-paused-negotiations', () => {
    it('records when a negotiation pauses and forgets it when it runs again', async () => {
      const { negotiationId, state } = await fixture.pausedNegotiation(300);
      const paused = await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
      expect(paused.status).toBe('paused');
      expect(paused.pausedAt).toBeInstanceOf(Date);
      const question = nextOpenQuestion(state.askInfo);
      const input =
        state.status === 'awaiting_early_termination'
          ? ({ kind: 'early_termination', finish: false, by: BUYER } as const)
          : ({ kind: 'answer', questionId: question?.id ?? '', answer: 'Yes', by: BUYER } as const);
      await applyBuyerInput(fixture.ws, negotiationId, input);
      const running = await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
      if (running.status === 'negotiating') expect(running.pausedAt).toBeNull();
      else expect(running.pausedAt?.getTime()).toBe(paused.pausedAt?.getTime());
    });

    it('expires after 7 days: status, questions, notice, status card and question messages', async () => {
      const { negotiationId } = await fixture.pausedNegotiation(400);
      const negotiation = await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
      const pausedAt = negotiation.pausedAt ?? new Date(0);
      const questions = await openQuestions(negotiationId);
      expect(questions.length).toBeGreaterThan(0);

      const early = await expirePausedNegotiations({ ...jobOptions(at(pausedAt, 7 * DAY_MS - MINUTE)), afterDays: 7 });
      expect((await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } })).status).toBe('paused');
      expect(early.failed).toBe(0);

      const now = at(pausedAt, 7 * DAY_MS + MINUTE);
      const [a, b] = await Promise.all([
        expirePausedNegotiations({ ...jobOptions(now), afterDays: 7 }),
        expirePausedNegotiations({ ...jobOptions(now), afterDays: 7 }),
      ]);
      expect(a.failed + b.failed).toBe(0);
      const expired = await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
      expect(expired.status).toBe('expired');
      expect(await openQuestions(negotiationId)).toHaveLength(0);
      const closed = await db.prisma.pendingQuestion.findMany({ where: { id: { in: questions.map((q) => q.id) } } });
      expect(closed.every((q) => q.status === 'expired')).toBe(true);

      const notice = await outboxRow(`neg:${negotiationId}:expired`);
      expect(JSON.stringify(notice?.payload)).toContain(`<@${BUYER}>, this negotiation waited 7 days`);
      const card = await outboxRow(`q:${negotiation.quotationId}:status:expired`);
      expect(card?.method).toBe('chat.update');
      expect(JSON.stringify(card?.payload)).toContain('Expired');
      expect(JSON.stringify(card?.payload)).toContain('No answer for 7 days');
      for (const q of questions) {
        const edit = await outboxRow(`neg:${negotiationId}:q:${engineQuestionId(q.id)}:expired`);
        expect(edit?.method).toBe('chat.update');
        expect(JSON.stringify(edit?.payload)).toContain('Expired unanswered');
      }
      expect(await rowsLike(`neg:${negotiationId}:expired`)).toBe(1);
      expect(
        await db.prisma.auditLog.count({ where: { entityId: negotiationId, action: 'negotiation.expired' } }),
      ).toBe(1);

      // Nothing is reminded, and no step is saved any more: a late answer cannot revive it.
      await remindUnansweredQuestions({ ...jobOptions(at(now, DAY_MS)), reminderAfterHours: 4 });
      for (const q of questions) expect(await rowsLike(`remind:q:${q.id}:`)).toBe(0);
      const [question] = questions;
      if (question?.kind === 'ask_info') {
        await expect(
          applyBuyerInput(fixture.ws, negotiationId, {
            kind: 'answer',
            questionId: engineQuestionId(question.id),
            answer: 'Yes',
            by: BUYER,
          }),
        ).rejects.toThrow(StaleStepError);
      }
      expect((await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } })).status).toBe('expired');
    });
  });

  describe('remind-approvers', () => {
    it('reminds the approvers who have not approved, once a day from a day after the draft', async () => {
      const { po } = await fixture.decidedNegotiation(500);
      expect(po.status).toBe('draft');
      const mine = () => rowsLike(`po:${po.id}:remind:`);

      await remindApprovers(jobOptions(at(po.createdAt, DAY_MS - MINUTE)));
      expect(await mine()).toBe(0);

      const dayOne = at(po.createdAt, DAY_MS + MINUTE);
      expect((await remindApprovers(jobOptions(dayOne))).sent).toBeGreaterThanOrEqual(1);
      const first = JSON.stringify((await outboxRow(approvalReminderKey(po.id, 1)))?.payload);
      expect(first).toContain(`<@${APPROVERS[0]}> and <@${APPROVERS[1]}>`);
      expect(first).toContain(po.number);
      expect(first).toContain('0 of 2 approvals');
      await remindApprovers(jobOptions(at(dayOne, 5 * HOUR_MS)));
      expect(await mine()).toBe(1);

      await db.prisma.purchaseOrderApproval.create({
        data: { workspaceId: fixture.workspaceId, purchaseOrderId: po.id, approverSlackUserId: APPROVERS[0] },
      });
      const dayTwo = at(po.createdAt, 2 * DAY_MS + MINUTE);
      await Promise.all([remindApprovers(jobOptions(dayTwo)), remindApprovers(jobOptions(dayTwo))]);
      expect(await mine()).toBe(2);
      const second = JSON.stringify((await outboxRow(approvalReminderKey(po.id, 2)))?.payload);
      expect(second).toContain(`<@${APPROVERS[1]}>`);
      expect(second).not.toContain(`<@${APPROVERS[0]}>`);
      expect(second).toContain('1 of 2 approvals');

      await db.prisma.purchaseOrder.update({ where: { id: po.id }, data: { status: 'approved' } });
      await remindApprovers(jobOptions(at(po.createdAt, 3 * DAY_MS + MINUTE)));
      expect(await mine()).toBe(2);
    });
  });

  describe('sweep-expired-leases', () => {
    function recordingParley() {
      const resumed: string[] = [];
      const reread: string[] = [];
      const parley: RecoveringParley = {
        resume: async (_workspaceId, negotiationId) => void resumed.push(negotiationId),
        rereadQuotation: async (_workspaceId, quotationId) => void reread.push(quotationId),
      };
      return { parley, resumed, reread };
    }

    it('resumes a negotiation whose lease expired once across two sweeps, and leaves live leases alone', async () => {
      const now = new Date();
      const { negotiationId: dead } = await fixture.pausedNegotiation(600);
      const { negotiationId: live } = await fixture.pausedNegotiation(700);
      await db.prisma.negotiation.update({
        where: { id: dead },
        data: { status: 'negotiating', leaseOwner: 'dead-process', leaseExpiresAt: at(now, -MINUTE) },
      });
      await db.prisma.negotiation.update({
        where: { id: live },
        data: { status: 'negotiating', leaseOwner: 'live-process', leaseExpiresAt: at(now, MINUTE) },
      });
      const a = recordingParley();
      const b = recordingParley();
      await Promise.all([
        sweepExpiredLeases({ ...jobOptions(now), parley: a.parley, owner: 'instance-a' }),
        sweepExpiredLeases({ ...jobOptions(now), parley: b.parley, owner: 'instance-b' }),
      ]);
      const resumed = [...a.resumed, ...b.resumed];
      expect(resumed.filter((id) => id === dead)).toHaveLength(1);
      expect(resumed).not.toContain(live);
      const claimed = await db.prisma.negotiation.findUniqueOrThrow({ where: { id: dead } });
      expect(['instance-a', 'instance-b']).toContain(claimed.leaseOwner);

      // On start-up, the instance's own name counts as expired (its previous process held it).
      const restart = recordingParley();
      const recovered = await recoverOnStart({
        prisma: db.prisma,
        contexts: fixture.contexts,
        parley: restart.parley,
        owner: 'live-process',
        now,
        startedAt: now,
      });
      expect(restart.resumed).toContain(live);
      expect(recovered.negotiationsResumed).toBeGreaterThanOrEqual(1);
    });

    it('resumes a negotiation nobody took the lease of only after the grace period', async () => {
      const { negotiationId } = await fixture.pausedNegotiation(800);
      await db.prisma.negotiation.update({
        where: { id: negotiationId },
        data: { status: 'negotiating', leaseOwner: null, leaseExpiresAt: null },
      });
      const row = await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
      const soon = recordingParley();
      await sweepExpiredLeases({ ...jobOptions(at(row.updatedAt, 10_000)), parley: soon.parley, owner: 'x' });
      expect(soon.resumed).not.toContain(negotiationId);
      const later = recordingParley();
      await sweepExpiredLeases({ ...jobOptions(at(row.updatedAt, 2 * MINUTE)), parley: later.parley, owner: 'x' });
      expect(later.resumed).toContain(negotiationId);
    });

    it('reads a quotation stuck in received again, once across two sweeps', async () => {
      const stuckAt = new Date(Date.now() - 10 * MINUTE);
      const stuck = await fixture.ws.quotation.create({
        data: {
          workspaceId: fixture.workspaceId,
          slackFileId: 'F0STUCK001',
          slackChannelId: CHANNEL_ID,
          slackThreadTs: '1700000001.000001',
          uploadedBySlackUserId: BUYER,
          fileName: 'stuck.xlsx',
          status: 'received',
        },
      });
      const fresh = await fixture.ws.quotation.create({
        data: {
          workspaceId: fixture.workspaceId,
          slackFileId: 'F0FRESH001',
          slackChannelId: CHANNEL_ID,
          slackThreadTs: '1700000001.000002',
          uploadedBySlackUserId: BUYER,
          fileName: 'fresh.xlsx',
          status: 'parsing',
        },
      });
      await db.prisma.quotation.update({ where: { id: stuck.id }, data: { updatedAt: stuckAt } });
      const now = new Date();
      const a = recordingParley();
      const b = recordingParley();
      await Promise.all([
        sweepExpiredLeases({ ...jobOptions(now), parley: a.parley, owner: 'a' }),
        sweepExpiredLeases({ ...jobOptions(now), parley: b.parley, owner: 'b' }),
      ]);
      const reread = [...a.reread, ...b.reread];
      expect(reread.filter((id) => id === stuck.id)).toHaveLength(1);
      expect(reread).not.toContain(fresh.id);
      // The claim moved it out of reach until it is stuck again.
      const again = recordingParley();
      await sweepExpiredLeases({ ...jobOptions(at(now, MINUTE)), parley: again.parley, owner: 'c' });
      expect(again.reread).not.toContain(stuck.id);
    });

    it('runs on its cron schedule', async () => {
      const { negotiationId } = await fixture.pausedNegotiation(900);
      await db.prisma.negotiation.update({
        where: { id: negotiationId },
        data: { status: 'negotiating', leaseOwner: 'dead-process', leaseExpiresAt: new Date(Date.now() - MINUTE) },
      });
      const { parley, resumed } = recordingParley();
      const jobs = await startJobs({
        prisma: db.prisma,
        work: instance(0),
        contexts: fixture.contexts,
        parley,
        owner: 'scheduled',
        config: {
          remindersCron: '0 0 1 1 *',
          sweepCron: '* * * * * *',
          questionReminderAfterHours: 4,
          expirePausedAfterDays: 7,
        },
      });
      try {
        for (let waited = 0; waited < 15_000 && !resumed.includes(negotiationId); waited += 100) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await jobs.stop();
      }
      expect(resumed).toContain(negotiationId);
    });
  });

  describe('a failing job', () => {
    it('catches and logs a failing job instead of throwing', async () => {
      const jobs = await startJobs({
        prisma: db.prisma,
        work: instance(0),
        contexts: fixture.contexts,
        parley: {
          resume: async () => Promise.reject(new Error('resume failed')),
          rereadQuotation: async () => {},
        },
        owner: 'failing',
        config: {
          remindersCron: '0 0 1 1 *',
          sweepCron: '0 0 1 1 *',
          questionReminderAfterHours: 4,
          expirePausedAfterDays: 7,
        },
        schedule: false,
      });
      const { negotiationId } = await fixture.pausedNegotiation(1000);
      await db.prisma.negotiation.update({
        where: { id: negotiationId },
        data: { status: 'negotiating', leaseOwner: 'dead-process', leaseExpiresAt: new Date(Date.now() - MINUTE) },
      });
      const run = await jobs.run('sweep-expired-leases');
      expect(run.status).toBe('done');
      expect(run.status === 'done' && run.result).toMatchObject({ failed: 1 });
      await jobs.stop();
    });
  });
});
