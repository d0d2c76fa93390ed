// The scheduled jobs on node-cron: reminders, approvers' reminders and expiry on JOB_REMINDERS_CRON, the recovery
// sweep on JOB_SWEEP_CRON. Every run takes its job's lock (job-lock.ts), so with several instances one of them runs
// it, and catches and logs its own errors: a failing job never takes the process down, and the next run tries again.
// The outbox needs no job: the poster polls for due rows all the time.
import cron, { type ScheduledTask } from 'node-cron';
import type { Env } from '../config/env.js';
import type { Database } from '../db/client.js';
import { log } from '../log.js';
import type { ContextFactory } from '../services/service-context.js';
import { expirePausedNegotiations } from './expire-paused-negotiations.js';
import { createJobLock } from './job-lock.js';
import type { JobOptions } from './job-options.js';
import { remindApprovers } from './remind-approvers.js';
import { remindUnansweredQuestions } from './remind-unanswered-questions.js';
import { type RecoveringParley, sweepExpiredLeases } from './sweep-expired-leases.js';

export const JOB_NAMES = [
  'remind-unanswered-questions',
  'remind-approvers',
  'expire-paused-negotiations',
  'sweep-expired-leases',
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
  /** The lock needs the database itself: on PostgreSQL it holds a connection of its own. */
  db: Pick<Database, 'kind' | 'prisma' | 'withScriptConnection'>;
  contexts: ContextFactory;
  parley: RecoveringParley;
  /** This instance: the lease owner the sweep resumes negotiations under. */
  owner: string;
  config: JobsConfig;
  now?: () => Date;
  /** Called after a run that may have written outbox rows, so they go out now rather than at the next poll. */
  kickOutbox?: () => void;
  /** false: nothing is scheduled, and `run()` is the only way to run a job (tests). Default true. */
  schedule?: boolean;
}

export type JobRun =
  | { job: JobName; status: 'done'; result: object }
  | { job: JobName; status: 'skipped' }
  | { job: JobName; status: 'failed'; error: unknown };

export interface Jobs {
  /** Runs one job now, under its lock: `skipped` when another run holds it, `failed` (logged) when it threw. */
  run(job: JobName): Promise<JobRun>;
  /** Stops the schedules and waits for the runs in progress. */
  stop(): Promise<void>;
}

export function startJobs(options: StartJobsOptions): Jobs {
  const lock = createJobLock(options.db);
  const clock = options.now ?? (() => new Date());
  const { config } = options;
  const running = new Set<Promise<JobRun>>();

  const base = (): JobOptions => ({ prisma: options.db.prisma, contexts: options.contexts, now: clock() });
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
    'sweep-expired-leases': () => sweepExpiredLeases({ ...base(), parley: options.parley, owner: options.owner }),
  };

  async function runGuarded(job: JobName): Promise<JobRun> {
    const started = Date.now();
    try {
      const run = await lock.run(job, work[job]);
      if (!run.locked) {
        log.debug('job skipped: another run holds its lock', { job });
        return { job, status: 'skipped' };
      }
      options.kickOutbox?.();
      log.info('job ran', { job, ms: Date.now() - started, ...run.value });
      return { job, status: 'done', result: run.value };
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

  const tasks: ScheduledTask[] = [];
  if (options.schedule !== false) {
    const cronOf: Record<JobName, string> = {
      'remind-unanswered-questions': config.remindersCron,
      'remind-approvers': config.remindersCron,
      'expire-paused-negotiations': config.remindersCron,
      'sweep-expired-leases': config.sweepCron,
    };
    for (const job of JOB_NAMES) {
      tasks.push(cron.schedule(cronOf[job], () => run(job), { name: `parley:${job}`, noOverlap: true }));
    }
  }

  return {
    run,
    async stop() {
      await Promise.all(tasks.map(async (task) => task.destroy()));
      await Promise.allSettled([...running]);
    },
  };
}
