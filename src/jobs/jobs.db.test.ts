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
import { type JobsConfig, startJobs, tickJobId } from './schedule-jobs.js';
import { jobLeaseOwner, jobLeaseTakeover } from './job-lease.js';
import { queueUnqueuedWork } from './queue-unqueued-work.js';
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

  it('keys a tick to the minute nearest its clock, so clocks up to 29 s apart across :00 send one job', () => {
    const noon = new Date('2026-03-02T12:00:00Z');
    const id = tickJobId('remind-approvers', noon);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tickJobId('remind-approvers', at(noon, -29_000))).toBe(id);
    expect(tickJobId('remind-approvers', at(noon, 29_000))).toBe(id);
    expect(tickJobId('remind-approvers', at(noon, MINUTE))).not.toBe(id);
    expect(tickJobId('remind-approvers', at(noon, -31_000))).not.toBe(id);
    expect(tickJobId('expire-paused-negotiations', noon)).not.toBe(id);
  });

  it('lets a job attempt take over another attempt’s lease, and nobody else’s', () => {
    const now = new Date('2026-03-02T09:00:00Z');
    const retry = jobLeaseOwner('instance-b', { id: 'j1', retryCount: 1 });
    expect(retry).toBe('job:j1#1@instance-b');
    expect(jobLeaseTakeover('leaseOwner', retry)).toEqual([{ leaseOwner: { startsWith: 'job:' } }]);
    expect(jobLeaseTakeover('leaseOwner', 'cli-negotiate')).toEqual([]);
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
      await startBackgroundWork({ connection: db.jobQueue, prisma: db.prisma, concurrency: 2 }),
      await startBackgroundWork({ connection: db.jobQueue, prisma: db.prisma, concurrency: 2 }),
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
      const runner = (_owner: string, index: number) =>
        startJobs({
          prisma: db.prisma,
          work: instance(index),
          contexts: fixture.contexts,
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
      // The run has written its reminders; wait until pg-boss has also marked it done. Still running, it would let the
      // stately queue take one more tick (one waiting beside one active), which is not what this step checks.
      for (let waited = 0; waited < 20_000; waited += 100) {
        if ((await instance(0).pending(['scheduled-remind-unanswered-questions'])) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // A slower instance's tick after that run finished (its clock behind): the same minute's run, not a second one.
      expect(await two.trigger('remind-unanswered-questions')).toBe(false);
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

  describe('queue-unqueued-work (what pg-boss cannot know: work whose job was never stored)', () => {
    const schema = () => db.jobQueue.schema ?? 'pgboss';
    /** Drive jobs of the negotiation waiting, retrying or running. */
    async function jobsFor(queue: string, key: string) {
      const { rows } = await instance(0)
        .boss.getDb()
        .executeSql(`SELECT count(*)::int AS n FROM ${schema()}.job WHERE name = $1 AND singleton_key = $2`, [
          queue,
          key,
        ]);
      return Number((rows[0] as { n: number } | undefined)?.n ?? 0);
    }
    const drives = (negotiationId: string) => jobsFor('drive-negotiation', `negotiation:${negotiationId}`);

    it('queues a negotiation whose runner is gone once across two instances, and claims nothing', async () => {
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
      const [a, b] = await Promise.all([
        queueUnqueuedWork({ ...jobOptions(now), work: instance(0) }),
        queueUnqueuedWork({ ...jobOptions(now), work: instance(1) }),
      ]);
      expect(a.negotiationsQueued + b.negotiationsQueued).toBe(1);
      expect(await drives(dead)).toBe(1);
      expect(await drives(live)).toBe(0);
      // No lease was taken: the job's run takes it (src/jobs/job-lease.ts), on whichever instance has a free slot.
      expect((await db.prisma.negotiation.findUniqueOrThrow({ where: { id: dead } })).leaseOwner).toBe('dead-process');
      // Its job waiting, the next run sends nothing more.
      expect((await queueUnqueuedWork({ ...jobOptions(now), work: instance(1) })).negotiationsQueued).toBe(0);
      expect(await drives(dead)).toBe(1);

      // On start-up too, through the same query.
      const { negotiationId: orphan } = await fixture.pausedNegotiation(650);
      await db.prisma.negotiation.update({
        where: { id: orphan },
        data: { status: 'negotiating', leaseOwner: 'parley-a', leaseExpiresAt: at(now, -1) },
      });
      const recovered = await recoverOnStart({
        prisma: db.prisma,
        work: instance(0),
        owner: 'parley-a',
        now,
        startedAt: now,
      });
      expect(recovered.negotiationsQueued).toBe(1);
      expect(await drives(orphan)).toBe(1);
    }, 90_000);

    it('queues a negotiation nobody leased only after the grace period (its listener sends the job itself)', async () => {
      const { negotiationId } = await fixture.pausedNegotiation(800);
      await db.prisma.negotiation.update({
        where: { id: negotiationId },
        data: { status: 'negotiating', leaseOwner: null, leaseExpiresAt: null },
      });
      const row = await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
      await queueUnqueuedWork({ ...jobOptions(at(row.updatedAt, 10_000)), work: instance(0) });
      expect(await drives(negotiationId)).toBe(0);
      await queueUnqueuedWork({ ...jobOptions(at(row.updatedAt, 2 * MINUTE)), work: instance(0) });
      expect(await drives(negotiationId)).toBe(1);
    });

    it('queues a read of a quotation stuck in received once across two instances', async () => {
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
      await fixture.ws.quotation.create({
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
      await Promise.all([
        queueUnqueuedWork({ ...jobOptions(now), work: instance(0) }),
        queueUnqueuedWork({ ...jobOptions(now), work: instance(1) }),
      ]);
      const reads = (fileId: string) => jobsFor('read-quotation', `file:${fixture.workspaceId}:${fileId}`);
      expect(await reads('F0STUCK001')).toBe(1);
      expect(await reads('F0FRESH001')).toBe(0);
    });

    it('runs on its cron schedule', async () => {
      const { negotiationId } = await fixture.pausedNegotiation(900);
      await db.prisma.negotiation.update({
        where: { id: negotiationId },
        data: { status: 'negotiating', leaseOwner: 'dead-process', leaseExpiresAt: new Date(Date.now() - MINUTE) },
      });
      const jobs = await startJobs({
        prisma: db.prisma,
        work: instance(0),
        contexts: fixture.contexts,
        config: {
          remindersCron: '0 0 1 1 *',
          sweepCron: '* * * * * *',
          questionReminderAfterHours: 4,
          expirePausedAfterDays: 7,
        },
      });
      try {
        for (let waited = 0; waited < 15_000 && (await drives(negotiationId)) === 0; waited += 100) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await jobs.stop();
      }
      expect(await drives(negotiationId)).toBe(1);
    });
  });

  describe('a failing job', () => {
    it('catches and logs a failing job instead of throwing', async () => {
      const jobs = await startJobs({
        prisma: db.prisma,
        work: {
          boss: instance(0).boss,
          driveUnqueued: async () => Promise.reject(new Error('pg-boss unreachable')),
          readUnqueued: async () => 0,
          sendPurchaseOrderWorkbookUnqueued: async () => 0,
          sendOutboxUnqueued: async () => 0,
        },
        contexts: fixture.contexts,
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
      const run = await jobs.run('queue-unqueued-work');
      expect(run.status).toBe('failed');
      await jobs.stop();
    });
  });
});
