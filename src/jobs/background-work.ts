// Slow work that a click or an event starts — reading a shared file, driving a negotiation, writing a review workbook —
// as durable jobs of pg-boss
// in the same database (a schema of its own; PGlite through `fromPglite`, PostgreSQL through pg-boss's own pool).
// A job is stored before the listener acknowledges Slack, so acknowledged work is never only in memory:
//
// - a worker that dies leaves its job `active` with a heartbeat that stops; pg-boss's supervisor (on any instance)
//   puts it back to be retried, measured on the database's clock, and any instance's worker redoes it — taking over
//   the dead attempt's lease at once, since the lease is named after the attempt (src/jobs/job-lease.ts);
// - a job that fails is retried with backoff, up to a limit (a database blip, a negotiation whose lease a dead process
//   still holds until it expires);
// - one job per negotiation (or per Slack file) runs at a time across every instance: the queues are `stately`, keyed
//   by what the job works on — one running and one waiting per key, a further request while one waits is the same
//   request (the waiting run will start from the latest checkpoint anyway).
//
// The work a job does is idempotent and fenced on its lease (src/db/stores/negotiation-store.ts, read-quotation.ts),
// so a job redone after a worker that was only slow, not dead, writes nothing twice.
import { PgBoss, type ConstructorOptions, type Queue } from 'pg-boss';
import { Semaphore } from '../llm/semaphore.js';
import { log } from '../log.js';
import type { JobAttempt } from './job-lease.js';

/** How pg-boss reaches the database (src/db/client.ts: `Database.jobQueue`). */
export type JobQueueConnection = Pick<ConstructorOptions, 'db' | 'backend' | 'connectionString' | 'schema' | 'max'>;

export interface NegotiationJob {
  workspaceId: string;
  negotiationId: string;
}

export interface QuotationJob {
  workspaceId: string;
  quotationId: string;
  /** The Slack file, for one read per file at a time. */
  fileId: string;
}

export interface ReviewWorkbookJob {
  workspaceId: string;
  quotationId: string;
}

/**
 * What each job does (src/services/parley.ts); a handler that throws has its job retried. The attempt names the lease
 * the handler takes (src/jobs/job-lease.ts), so a retry takes over a dead attempt's lease at once.
 */
export interface JobHandlers {
  driveNegotiation(job: NegotiationJob, attempt: JobAttempt): Promise<void>;
  readQuotation(job: QuotationJob, attempt: JobAttempt): Promise<void>;
  /** Writes every line of the quotation's review as an XLSX and queues its upload into the thread. */
  sendReviewWorkbook(job: ReviewWorkbookJob): Promise<void>;
}

export const DRIVE_NEGOTIATION = 'drive-negotiation';
export const READ_QUOTATION = 'read-quotation';
export const SEND_REVIEW_WORKBOOK = 'send-review-workbook';
const QUEUE_NAMES = [DRIVE_NEGOTIATION, READ_QUOTATION, SEND_REVIEW_WORKBOOK];

export interface BackgroundWorkTuning {
  /** A worker that stops heartbeating this long is taken for dead and its job retried (pg-boss: at least 10). */
  heartbeatSeconds?: number;
  /** How often an instance looks for jobs of dead workers (pg-boss's supervisor). */
  superviseIntervalSeconds?: number;
  /** First retry delay; doubled each time up to a minute. */
  retryDelaySeconds?: number;
  retryLimit?: number;
  /** How often an idle worker looks for jobs when no notification woke it. */
  pollingIntervalSeconds?: number;
}

export interface StartBackgroundWorkOptions extends BackgroundWorkTuning {
  connection: JobQueueConnection;
  /** Jobs this instance runs at once, all queues together (WORK_CONCURRENCY). */
  concurrency: number;
}

export interface BackgroundWork {
  /** Stores a run of the negotiation; resolves once it is in the database. */
  driveNegotiation(job: NegotiationJob): Promise<void>;
  /** Stores a read of the quotation; resolves once it is in the database. */
  readQuotation(job: QuotationJob): Promise<void>;
  /** Stores a request for the review workbook ("Download all lines"); resolves once it is in the database. */
  sendReviewWorkbook(job: ReviewWorkbookJob): Promise<void>;
  /**
   * Sends a run for each negotiation that has none waiting, retrying or running (src/jobs/queue-unqueued-work.ts);
   * returns how many were sent.
   */
  driveUnqueued(jobs: NegotiationJob[]): Promise<number>;
  /** Sends a read for each quotation whose file has none waiting, retrying or running; returns how many were sent. */
  readUnqueued(jobs: QuotationJob[]): Promise<number>;
  /** Starts this instance's workers on the queues. */
  work(handlers: JobHandlers): Promise<void>;
  /** Jobs waiting, retrying or running, on any instance. */
  pending(): Promise<number>;
  /** Resolves when no job is waiting, retrying or running anywhere (tests, the demo). */
  idle(): Promise<void>;
  /** Stops the workers (a job still running is failed, to be retried) and pg-boss. */
  stop(): Promise<void>;
  readonly boss: PgBoss;
}

export async function startBackgroundWork(options: StartBackgroundWorkOptions): Promise<BackgroundWork> {
  const schema = options.connection.schema ?? 'pgboss';
  const boss = new PgBoss({
    ...options.connection,
    schema,
    // Workers wake when a job is sent rather than at their next poll (PGlite delivers notifications in-process).
    useListenNotify: true,
    // How soon a dead worker's job is seen (a queue is checked at most every monitor interval, on database time).
    superviseIntervalSeconds: options.superviseIntervalSeconds ?? 10,
    monitorIntervalSeconds: options.superviseIntervalSeconds ?? 10,
    registerInstance: false,
  });
  boss.on('error', (error) => log.error('pg-boss error', { error }));
  boss.on('warning', (warning) => log.warn('pg-boss warning', { warning }));
  await boss.start();
  try {
    await createQueues(boss, options);
  } catch (error) {
    await boss.stop({ graceful: false });
    throw error;
  }

  const slots = new Semaphore(options.concurrency);
  const stop = async () => boss.stop({ graceful: true, timeout: 10_000 });

  const pending = async () => {
    const { rows } = await boss
      .getDb()
      .executeSql(`SELECT count(*)::int AS n FROM ${schema}.job WHERE name = ANY($1) AND state < 'completed'`, [
        QUEUE_NAMES,
      ]);
    return Number((rows[0] as { n: number } | undefined)?.n ?? 0);
  };

  /** Sends each job whose key has no job waiting, retrying or running; the stately queue absorbs a race. */
  async function sendUnqueued<T extends object>(name: string, jobs: T[], keyOf: (job: T) => string) {
    if (jobs.length === 0) return 0;
    const { rows } = await boss
      .getDb()
      .executeSql(
        `SELECT DISTINCT singleton_key AS key FROM ${schema}.job WHERE name = $1 AND state < 'completed' AND singleton_key = ANY($2)`,
        [name, jobs.map(keyOf)],
      );
    const queued = new Set((rows as Array<{ key: string }>).map((row) => row.key));
    let sent = 0;
    for (const job of jobs) {
      if (queued.has(keyOf(job))) continue;
      if ((await boss.send(name, job, { singletonKey: keyOf(job) })) !== null) sent++;
    }
    return sent;
  }

  return {
    boss,
    async driveNegotiation(job) {
      await boss.send(DRIVE_NEGOTIATION, job, { singletonKey: negotiationKey(job) });
    },
    async readQuotation(job) {
      await boss.send(READ_QUOTATION, job, { singletonKey: fileKey(job) });
    },
    async sendReviewWorkbook(job) {
      await boss.send(SEND_REVIEW_WORKBOOK, job, { singletonKey: reviewWorkbookKey(job) });
    },
    driveUnqueued: (jobs) => sendUnqueued(DRIVE_NEGOTIATION, jobs, negotiationKey),
    readUnqueued: (jobs) => sendUnqueued(READ_QUOTATION, jobs, fileKey),
    async work(handlers) {
      const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
      const workOptions = {
        localConcurrency: options.concurrency,
        pollingIntervalSeconds,
        // A notification wakes a worker for a new job, not for a retry coming due or a key freed: those are polled.
        notifyPollingIntervalSeconds: pollingIntervalSeconds,
      };
      await boss.work<NegotiationJob>(DRIVE_NEGOTIATION, workOptions, async ([job]) => {
        if (job) await slots.run(() => handlers.driveNegotiation(job.data, job));
      });
      await boss.work<QuotationJob>(READ_QUOTATION, workOptions, async ([job]) => {
        if (job) await slots.run(() => handlers.readQuotation(job.data, job));
      });
      await boss.work<ReviewWorkbookJob>(SEND_REVIEW_WORKBOOK, workOptions, async ([job]) => {
        if (job) await slots.run(() => handlers.sendReviewWorkbook(job.data));
      });
    },
    pending,
    async idle() {
      while ((await pending()) > 0) await new Promise((resolve) => setTimeout(resolve, 25));
    },
    stop,
  };
}

/** One run of a negotiation at a time, across every instance. */
const negotiationKey = (job: NegotiationJob) => `negotiation:${job.negotiationId}`;
/**
 * One review workbook of a quotation at a time; a click while one waits is that same request (the waiting job writes
 * the lines as they are when it runs).
 */
const reviewWorkbookKey = (job: ReviewWorkbookJob) => `review-workbook:${job.quotationId}`;
/** One read of a Slack file at a time (one quotation per file). */
const fileKey = (job: QuotationJob) => `file:${job.workspaceId}:${job.fileId}`;

/** The queues, created by the first instance and brought to this version's settings by every later start. */
async function createQueues(boss: PgBoss, tuning: BackgroundWorkTuning): Promise<void> {
  const settings: Omit<Queue, 'name' | 'policy'> = {
    notify: true,
    heartbeatSeconds: tuning.heartbeatSeconds ?? 30,
    // A long negotiation heartbeats; expiry only bounds a run that hangs while its process lives.
    expireInSeconds: 60 * 60,
    retryLimit: tuning.retryLimit ?? 12,
    retryDelay: tuning.retryDelaySeconds ?? 2,
    retryBackoff: true,
    retryDelayMax: 60,
  };
  for (const name of QUEUE_NAMES) {
    // `stately`: per key (negotiation, file), one job waiting and one running; a policy cannot change later.
    if (await boss.getQueue(name)) await boss.updateQueue(name, settings);
    else await boss.createQueue(name, { ...settings, policy: 'stately' });
  }
}
