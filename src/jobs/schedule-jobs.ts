// The scheduled jobs: reminders, approvers' reminders, expiry and connected suppliers' reply-by times on
// JOB_REMINDERS_CRON; on JOB_SWEEP_CRON, queueing
// work whose job was never stored (src/jobs/queue-unqueued-work.ts: the only part of the old recovery sweep pg-boss
// cannot do). node-cron is the trigger; each tick sends a pg-boss job to the job's own `exclusive` queue, so with
// several instances one run of a job waits or runs at a time across all of them (a tick while one is pending adds
// none), and any instance's worker runs it. A run catches and logs its own errors: a failing job never takes the
// process down, and the next tick tries again. The outbox is sent by jobs of its own (`send-outbox`, one per lane),
// queued after each commit that writes rows (`queueOutbox`) and by queue-unqueued-work for rows left without one.
import { createHash } from 'node:crypto';
import cron, { type ScheduledTask } from 'node-cron';
import type { Env } from '../config/env.js';
import type { PrismaClient } from '../db/client.js';
import { log } from '../log.js';
import type { ContextFactory } from '../services/service-context.js';
import type { BackgroundWork } from './background-work.js';
import { expirePausedNegotiations } from './expire-paused-negotiations.js';
import type { JobOptions } from './job-options.js';
import { remindApprovers } from './remind-approvers.js';
import { remindSuppliers } from './remind-suppliers.js';
import { remindUnansweredQuestions } from './remind-unanswered-questions.js';
import { queueUnqueuedWork } from './queue-unqueued-work.js';

export const JOB_NAMES = [
  'remind-unanswered-questions',
  'remind-approvers',
  'expire-paused-negotiations',
  'remind-suppliers',
  'queue-unqueued-work',
] as const;
export type JobName = (typeof JOB_NAMES)[number];

export interface JobsConfig {
  remindersCron: string;
  sweepCron: string;
  questionReminderAfterHours: number;
  expirePausedAfterDays: number;
}

export function jobsConfigFromEnv(
  env: Pick<
    Env,
    'JOB_REMINDERS_CRON' | 'JOB_SWEEP_CRON' | 'QUESTION_REMINDER_AFTER_HOURS' | 'EXPIRE_PAUSED_AFTER_DAYS'
  >,
): JobsConfig {
  return {
    remindersCron: env.JOB_REMINDERS_CRON,
    sweepCron: env.JOB_SWEEP_CRON,
    questionReminderAfterHours: env.QUESTION_REMINDER_AFTER_HOURS,
    expirePausedAfterDays: env.EXPIRE_PAUSED_AFTER_DAYS,
  };
}

export interface StartJobsOptions {
  prisma: PrismaClient;
  /** pg-boss, whose queues the ticks send to and this instance's workers take from. */
  work: Pick<
    BackgroundWork,
    'boss' | 'driveUnqueued' | 'readUnqueued' | 'sendPurchaseOrderWorkbookUnqueued' | 'sendOutboxUnqueued'
  >;
  contexts: ContextFactory;
  config: JobsConfig;
  now?: () => Date;
  /** Called after a run that may have written outbox rows, so their lanes' jobs are sent now. */
  kickOutbox?: () => void;
  /** false: no cron ticks; jobs run through `trigger()` or `run()` only (tests). Default true. */
  schedule?: boolean;
}

export type JobRun =
  { job: JobName; status: 'done'; result: object } | { job: JobName; status: 'failed'; error: unknown };

export interface Jobs {
  /** What a tick does: queues a run of the job, unless one is waiting or running already (then false). */
  trigger(job: JobName): Promise<boolean>;
  /** Runs one job now in this process, outside the queue (tests): `failed` (logged) when it threw. */
  run(job: JobName): Promise<JobRun>;
  /** Stops the schedules and waits for the runs in progress. */
  stop(): Promise<void>;
}

/**
 * One run per job per minute, whichever instance ticks first: every instance's node-cron fires on its own clock, so a
 * run that finished before a slower instance's tick would otherwise be followed by a second one. A tick's job id is
 * made from the job and the minute nearest the ticking instance's clock, so ticks on the minute (every cron here) with
 * clocks up to ±29 s apart send the same id, and pg-boss inserts it once (its insert skips an id it holds; finished
 * jobs are kept for days). pg-boss's own `singletonSeconds` slots cannot do this: they are keyed to the database's
 * minute with no offset (pg-boss 12 sets `singletonOffset` to 0), so clocks a second apart across :00 get two slots.
 * A schedule more often than every minute runs at most once a minute.
 */
export function tickJobId(job: JobName, at: Date): string {
  const minute = Math.round(at.getTime() / 60_000);
  const hex = createHash('sha256').update(`${job}@${minute}`).digest('hex');
  // A UUID's layout (pg-boss's id column is a uuid), version 8: made by the application.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Each scheduled job's queue. */
const queueOf = (job: JobName) => `scheduled-${job}`;

export async function startJobs(options: StartJobsOptions): Promise<Jobs> {
  const { boss } = options.work;
  const clock = options.now ?? (() => new Date());
  const { config } = options;
  const running = new Set<Promise<JobRun>>();

  const base = (): JobOptions => ({ prisma: options.prisma, contexts: options.contexts, now: clock() });
  const work: Record<JobName, () => Promise<object>> = {
    'remind-unanswered-questions': () =>
      remindUnansweredQuestions({
        ...base(),
        reminderAfterHours: config.questionReminderAfterHours,
        expirePausedAfterDays: config.expirePausedAfterDays,
      }),
    'remind-approvers': () => remindApprovers(base()),
    'expire-paused-negotiations': () =>
      expirePausedNegotiations({ ...base(), afterDays: config.expirePausedAfterDays }),
    'remind-suppliers': () => remindSuppliers({ ...base(), work: options.work }),
    'queue-unqueued-work': () => queueUnqueuedWork({ ...base(), work: options.work }),
  };

  async function runGuarded(job: JobName): Promise<JobRun> {
    const started = Date.now();
    try {
      const result = await work[job]();
      options.kickOutbox?.();
      log.info('job ran', { job, ms: Date.now() - started, ...result });
      return { job, status: 'done', result };
    } catch (error) {
      log.error('job failed', { job, error, ms: Date.now() - started });
      return { job, status: 'failed', error };
    }
  }

  function run(job: JobName): Promise<JobRun> {
    const promise = runGuarded(job);
    running.add(promise);
    void promise.finally(() => running.delete(promise));
    return promise;
  }

  async function trigger(job: JobName): Promise<boolean> {
    const id = await boss.send(queueOf(job), {}, { id: tickJobId(job, clock()), singletonKey: job });
    if (id === null) log.debug('job not queued: a run of it is waiting or running', { job });
    return id !== null;
  }

  for (const job of JOB_NAMES) {
    // `exclusive`: one run waiting or running per job; a failed run is not retried (the next tick is).
    if (!(await boss.getQueue(queueOf(job)))) {
      await boss.createQueue(queueOf(job), { policy: 'exclusive', retryLimit: 0, heartbeatSeconds: 30 });
    }
    const polling = { pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 2 };
    await boss.work(queueOf(job), polling, async () => {
      await run(job);
    });
  }

  const tasks: ScheduledTask[] = [];
  if (options.schedule !== false) {
    const cronOf: Record<JobName, string> = {
      'remind-unanswered-questions': config.remindersCron,
      'remind-approvers': config.remindersCron,
      'expire-paused-negotiations': config.remindersCron,
      'remind-suppliers': config.remindersCron,
      'queue-unqueued-work': config.sweepCron,
    };
    for (const job of JOB_NAMES) {
      const tick = () =>
        void trigger(job).catch((error: unknown) => log.error('queueing a scheduled job failed', { job, error }));
      tasks.push(cron.schedule(cronOf[job], tick, { name: `parley:${job}`, noOverlap: true }));
    }
  }

  return {
    trigger,
    run,
    async stop() {
      await Promise.all(tasks.map(async (task) => task.destroy()));
      for (const job of JOB_NAMES) await boss.offWork(queueOf(job));
      await Promise.allSettled([...running]);
    },
  };
}
