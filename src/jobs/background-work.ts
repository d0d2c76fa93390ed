// Slow work that a click or an event starts — reading a shared file, driving a negotiation, writing a review workbook
// or an approved PO's, sending a lane of the Slack outbox — as durable jobs of pg-boss in the same database (a schema
// of its own; PGlite through `fromPglite`, PostgreSQL through pg-boss's own pool).
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
//
// The outbox (`send-outbox`, one job per lane: a channel, a Home tab) is sent after the commit that wrote its rows
// (`queueOutbox`), and by queue-unqueued-work for rows whose job was never sent. A run drains its lane at Slack's pace
// and, when the next row is due later (a backoff, a Retry-After), sends its job again to start then rather than
// holding a worker. Order, pace (on the database's clock), dedupe and the earlier-delivery lookup stay the outbox's
// (src/outbox/outbox-poster.ts).
// The instance that queued a lane's job wakes one of its own idle outbox workers for it, not the queue's
// notification: that woke every outbox worker of every instance for each job (eight fetches racing for one job, on
// PGlite all in line on its one connection ahead of the run that sends the click's edit). A job another instance
// queued, a retry, or a run due later is found at the workers' next poll.
//
// A job that has used up its retries lands in the `dead-letter` queue: logged with what it was about, and the buyer's
// thread told the work failed for good (JobHandlers.deadLetter).
import { PgBoss, type ConstructorOptions, type Queue } from 'pg-boss';
import type { PrismaClient } from '../db/client.js';
import { unsentOutboxLanes } from '../db/stores/outbox-lanes.js';
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

export interface PurchaseOrderWorkbookJob {
  workspaceId: string;
  purchaseOrderId: string;
}

export interface OutboxLaneJob {
  /** src/db/stores/outbox-lanes.ts */
  lane: string;
}

/** A job that used up its retries, as the dead-letter queue hands it over. */
export interface DeadJob {
  /** The queue it failed in. */
  queue: string;
  data: unknown;
  /** Its id there, and how many times it was retried. */
  id: string | null;
  retryCount: number | null;
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
  /** Writes the approved PO's workbook and queues its upload into the thread (once per PO: the outbox key). */
  sendPurchaseOrderWorkbook(job: PurchaseOrderWorkbookJob): Promise<void>;
  /**
   * Sends the lane; `dueInMs`: when its next row is due (null: the lane is empty). Without it this instance sends no
   * outbox (a tool that only runs negotiations): the lanes' jobs wait for an instance that does.
   */
  sendOutbox?(job: OutboxLaneJob, attempt: JobAttempt & { signal?: AbortSignal }): Promise<{ dueInMs: number | null }>;
  /** A job that failed for good: tell whoever waits for it. Without it, dead jobs are only logged. */
  deadLetter?(job: DeadJob): Promise<void>;
}

export const DRIVE_NEGOTIATION = 'drive-negotiation';
export const READ_QUOTATION = 'read-quotation';
export const SEND_REVIEW_WORKBOOK = 'send-review-workbook';
export const SEND_PO_WORKBOOK = 'send-po-workbook';
export const SEND_OUTBOX = 'send-outbox';
export const DEAD_LETTER = 'dead-letter';
const QUEUE_NAMES = [DRIVE_NEGOTIATION, READ_QUOTATION, SEND_REVIEW_WORKBOOK, SEND_PO_WORKBOOK, SEND_OUTBOX];
/** The jobs a person waits for (not the outbox's: its rows say what is left to send). */
export const WORK_QUEUES = [DRIVE_NEGOTIATION, READ_QUOTATION, SEND_REVIEW_WORKBOOK, SEND_PO_WORKBOOK];

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
  /** Jobs this instance runs at once, reads and negotiations together (WORK_CONCURRENCY). */
  concurrency: number;
  /** Outbox lanes this instance sends at once; apart from the work above, so a long run never holds up a post. */
  outboxConcurrency?: number;
  /** The outbox's table, for `queueOutbox` (the lanes that have rows to send). */
  prisma: Pick<PrismaClient, '$queryRaw'>;
}

export interface BackgroundWork {
  /** Stores a run of the negotiation; resolves once it is in the database. */
  driveNegotiation(job: NegotiationJob): Promise<void>;
  /** Stores a read of the quotation; resolves once it is in the database. */
  readQuotation(job: QuotationJob): Promise<void>;
  /** Stores a request for the review workbook ("Download all lines"); resolves once it is in the database. */
  sendReviewWorkbook(job: ReviewWorkbookJob): Promise<void>;
  /** Stores the upload of an approved PO's workbook; resolves once it is in the database. */
  sendPurchaseOrderWorkbook(job: PurchaseOrderWorkbookJob): Promise<void>;
  /**
   * Sends a run for each negotiation that has none waiting, retrying or running (src/jobs/queue-unqueued-work.ts);
   * returns how many were sent.
   */
  driveUnqueued(jobs: NegotiationJob[]): Promise<number>;
  /** Sends a read for each quotation whose file has none waiting, retrying or running; returns how many were sent. */
  readUnqueued(jobs: QuotationJob[]): Promise<number>;
  /** Sends a workbook job for each PO that has none waiting, retrying or running; returns how many were sent. */
  sendPurchaseOrderWorkbookUnqueued(jobs: PurchaseOrderWorkbookJob[]): Promise<number>;
  /**
   * After a commit that may have written outbox rows: sends a job for every lane with rows to send and no job waiting
   * (one running may have looked at its lane before the commit). Calls while one runs are folded into one more run.
   */
  queueOutbox(): Promise<void>;
  /** Sends a job for each lane that has none waiting, retrying or running (queue-unqueued-work); returns how many. */
  sendOutboxUnqueued(lanes: string[]): Promise<number>;
  /** Starts this instance's workers on the queues. */
  work(handlers: JobHandlers): Promise<void>;
  /** Jobs waiting, retrying or running, on any instance (by default every queue's, the outbox's too). */
  pending(queues?: string[]): Promise<number>;
  /** Resolves when no read or negotiation job is waiting, retrying or running anywhere (tests, the demo). */
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
  // Once stopping, a commit's ask to queue its outbox does nothing (the next process's sweep queues the rows), and the
  // queueing under way finishes before pg-boss stops: it would otherwise meet a closed queue or database.
  let stopping = false;
  const stop = async () => {
    stopping = true;
    await outboxRun?.catch(() => undefined);
    await boss.stop({ graceful: true, timeout: 10_000 });
  };

  const pending = async (queues: string[] = QUEUE_NAMES) => {
    const { rows } = await boss
      .getDb()
      .executeSql(`SELECT count(*)::int AS n FROM ${schema}.job WHERE name = ANY($1) AND state < 'completed'`, [
        queues,
      ]);
    return Number((rows[0] as { n: number } | undefined)?.n ?? 0);
  };

  /**
   * A sweep's jobs: each job whose key has no job waiting, retrying or running. Two sweeps at once (the schedule's and
   * the start's recovery) would each find a key free and each queue it, and the stately queue takes the second job as
   * soon as the first one's worker has made it active; so this instance's sweeps take turns, and the later one sees
   * the job the earlier one sent. Across instances the schedule runs one sweep a minute; a second job a recovery may
   * still send finds its work done. A commit's queueing (queueOutboxNow) does not wait for a sweep.
   */
  const sweeps = new Semaphore(1);
  function sendUnqueued<T extends object>(name: string, jobs: T[], keyOf: (job: T) => string): Promise<number> {
    return sweeps.run(() => sendJobsNotQueued(name, jobs, keyOf, ['created', 'retry', 'active']));
  }

  /** Sends each job whose key has no job in one of `states`. */
  async function sendJobsNotQueued<T extends object>(
    name: string,
    jobs: T[],
    keyOf: (job: T) => string,
    states: readonly string[],
  ): Promise<number> {
    if (jobs.length === 0) return 0;
    const { rows } = await boss
      .getDb()
      .executeSql(
        `SELECT DISTINCT singleton_key AS key FROM ${schema}.job WHERE name = $1 AND state::text = ANY($3) AND singleton_key = ANY($2)`,
        [name, jobs.map(keyOf), states],
      );
    const queued = new Set((rows as Array<{ key: string }>).map((row) => row.key));
    let sent = 0;
    for (const job of jobs) {
      if (queued.has(keyOf(job))) continue;
      if ((await boss.send(name, job, { singletonKey: keyOf(job) })) !== null) sent++;
    }
    return sent;
  }

  const toLaneJob = (lane: string): OutboxLaneJob => ({ lane });
  // This instance's outbox workers (pg-boss worker ids), and those not running a lane now.
  const outboxWorkers: string[] = [];
  const idleOutboxWorkers = new Set<string>();
  /**
   * Wakes an idle outbox worker per job just sent, and has each busy one look again as soon as its run is done: a job
   * of a lane whose run is still going cannot start before that run ends (one per key), and is then taken at once
   * rather than at the next poll.
   */
  function wakeOutboxWorkers(jobs: number) {
    const busy = outboxWorkers.filter((id) => !idleOutboxWorkers.has(id));
    for (const id of [...[...idleOutboxWorkers].slice(0, jobs), ...busy]) boss.notifyWorker(id);
  }
  // One run at a time, and one more if asked meanwhile: every commit asks, and a burst needs one look afterwards.
  let outboxRun: Promise<void> | null = null;
  let outboxAgain = false;
  async function queueOutboxNow(): Promise<void> {
    const lanes = await unsentOutboxLanes(options.prisma, OUTBOX_LANES_PER_LOOK);
    // A running job may have found its lane empty just before this commit: only a waiting one is enough.
    const sent = await sendJobsNotQueued(SEND_OUTBOX, lanes.map(toLaneJob), laneKey, ['created', 'retry']);
    if (sent > 0) wakeOutboxWorkers(sent);
  }
  function queueOutbox(): Promise<void> {
    if (stopping) return Promise.resolve();
    if (outboxRun) {
      outboxAgain = true;
      return outboxRun;
    }
    outboxRun = (async () => {
      try {
        do {
          outboxAgain = false;
          await queueOutboxNow();
        } while (outboxAgain);
      } finally {
        outboxRun = null;
      }
    })();
    return outboxRun;
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
    async sendPurchaseOrderWorkbook(job) {
      await boss.send(SEND_PO_WORKBOOK, job, { singletonKey: purchaseOrderWorkbookKey(job) });
    },
    driveUnqueued: (jobs) => sendUnqueued(DRIVE_NEGOTIATION, jobs, negotiationKey),
    readUnqueued: (jobs) => sendUnqueued(READ_QUOTATION, jobs, fileKey),
    sendPurchaseOrderWorkbookUnqueued: (jobs) => sendUnqueued(SEND_PO_WORKBOOK, jobs, purchaseOrderWorkbookKey),
    queueOutbox,
    async sendOutboxUnqueued(lanes) {
      const sent = await sendUnqueued(SEND_OUTBOX, lanes.map(toLaneJob), laneKey);
      if (sent > 0) wakeOutboxWorkers(sent);
      return sent;
    },
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
      await boss.work<PurchaseOrderWorkbookJob>(SEND_PO_WORKBOOK, workOptions, async ([job]) => {
        if (job) await slots.run(() => handlers.sendPurchaseOrderWorkbook(job.data));
      });
      const sendOutbox = handlers.sendOutbox?.bind(handlers);
      if (sendOutbox) {
        // One pg-boss worker per slot, each with its own id, so that one of them can be woken (wakeOutboxWorkers).
        for (let slot = 0; slot < (options.outboxConcurrency ?? 8); slot++) {
          let id = '';
          id = await boss.work<OutboxLaneJob>(SEND_OUTBOX, { ...workOptions, localConcurrency: 1 }, async ([job]) => {
            if (!job) return;
            idleOutboxWorkers.delete(id);
            try {
              const { dueInMs } = await sendOutbox(job.data, job);
              if (dueInMs === null) return;
              // Due later: the job is sent again to start then (on the database's clock). While this one runs, the
              // stately queue keeps one more waiting per lane; if one waits already, it will look at the lane itself.
              const startAfter = Math.max(1, Math.ceil(dueInMs / 1000));
              await boss.send(SEND_OUTBOX, job.data, { singletonKey: laneKey(job.data), startAfter });
            } finally {
              idleOutboxWorkers.add(id);
            }
          });
          outboxWorkers.push(id);
          idleOutboxWorkers.add(id);
        }
      }
      await boss.work(DEAD_LETTER, { ...workOptions, includeMetadata: true as const }, async ([job]) => {
        if (!job) return;
        const dead: DeadJob = {
          queue: job.sourceName ?? 'unknown',
          data: job.data,
          id: job.sourceId,
          retryCount: job.sourceRetryCount,
        };
        log.error('a job failed for good and went to the dead-letter queue', { ...dead });
        await handlers.deadLetter?.(dead);
      });
    },
    pending,
    async idle() {
      while ((await pending(WORK_QUEUES)) > 0) await new Promise((resolve) => setTimeout(resolve, 25));
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
/** One approved PO's workbook at a time; a second request while one waits is the same one. */
const purchaseOrderWorkbookKey = (job: PurchaseOrderWorkbookJob) => `po-workbook:${job.purchaseOrderId}`;
/** One read of a Slack file at a time (one quotation per file). */
const fileKey = (job: QuotationJob) => `file:${job.workspaceId}:${job.fileId}`;
/** One sender per outbox lane at a time: the lane's order and pace need one. */
const laneKey = (job: OutboxLaneJob) => `lane:${job.lane}`;
/** Lanes one look after a commit sends jobs for at most (the oldest first); the sweep finds any others. */
const OUTBOX_LANES_PER_LOOK = 500;

/** The queues, created by the first instance and brought to this version's settings by every later start. */
async function createQueues(boss: PgBoss, tuning: BackgroundWorkTuning): Promise<void> {
  // Where jobs that used up their retries go (it logs them and tells the thread; a failure of that is retried twice).
  if (!(await boss.getQueue(DEAD_LETTER))) {
    await boss.createQueue(DEAD_LETTER, { retryLimit: 2, retryDelay: 5, notify: true });
  }
  const settings: Omit<Queue, 'name' | 'policy'> = {
    deadLetter: DEAD_LETTER,
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
    // The outbox's jobs wake one worker of the instance that queued them (wakeOutboxWorkers), not every worker.
    const queueSettings = name === SEND_OUTBOX ? { ...settings, notify: false } : settings;
    // `stately`: per key (negotiation, file), one job waiting and one running; a policy cannot change later.
    if (await boss.getQueue(name)) await boss.updateQueue(name, queueSettings);
    else await boss.createQueue(name, { ...queueSettings, policy: 'stately' });
  }
}
