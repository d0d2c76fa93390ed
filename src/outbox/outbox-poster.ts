// Sends the Slack outbox. pg-boss decides *when* and *where* a lane is sent: one `send-outbox` job per lane at a time
// across every instance, retried on another instance when its worker dies (src/jobs/background-work.ts). What is
// left here is what only the outbox can do, coordinated through the rows themselves:
//
// - A *lane* is one channel of one workspace (for views.publish: one user's Home tab; src/db/stores/outbox-lanes.ts).
//   Its rows go out one at a time in (createdAt, id) order: only the lane's oldest unsent row is ever claimed, by a
//   conditional update (count 0 → another sender took it), with a lock. A lane's job drains it (`sendLane`) under a
//   lock named after the job's attempt (src/jobs/job-lease.ts): since pg-boss runs one attempt per lane at a time, a
//   row locked by another attempt belongs to one pg-boss gave up on (its worker died), and is taken over at once.
// - Pacing reads the previous post's `sentAt` from the database, so two instances together still post at most one
//   message per interval per channel.
// - Every chat.postMessage carries metadata naming its dedupeKey. A row whose earlier attempt may have reached Slack
//   (a crash, a timeout, a 5xx) is first looked up in the channel or thread, and a message found there is recorded
//   instead of posted again (find-earlier-delivery.ts: a narrow window, stopping at the match, resuming after a 429).
//   Every chat.update names its row in the message's metadata too, so an edit retried after a crash reads the message
//   once and is not made twice.
// - The WebClient should be built with `retryConfig: { retries: 0 }` and `rejectRateLimitedCalls: true`: the poster
//   owns retries, so a 429 pauses the lane in the database (visible to every instance), not inside one process.
import { setTimeout as delay } from 'node:timers/promises';
import type { webApi } from '@slack/bolt';
import { z } from 'zod';
import type { PrismaClient } from '../db/client.js';
import { laneHead, laneHeads } from '../db/stores/outbox-lanes.js';
import { isTransientDatabaseError } from '../db/transient-errors.js';
import { isJobLease, jobLeaseTakeover } from '../jobs/job-lease.js';
import type { SlackOutbox } from '../generated/prisma/client.js';
import { log as defaultLog } from '../log.js';
import { mapWithConcurrency } from '../concurrency.js';
import { classifySlackError } from './classify-slack-error.js';
import { createResendCheck } from './find-earlier-delivery.js';
import {
  OUTBOX_EVENT_TYPE,
  OUTBOX_METHODS,
  type OutboxMethod,
  type OutboxReferences,
  POSTING_METHODS,
  STREAM_FALLBACK_KEY,
  STREAM_METHODS,
  streamFallbackSchema,
  readStoredPayload,
  uploadPayloadSchema,
} from './outbox-call.js';

type WebClient = webApi.WebClient;
type WebAPICallResult = webApi.WebAPICallResult;

export interface OutboxLog {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface OutboxPosterOptions {
  /** The unscoped client: one poster serves every workspace. */
  prisma: PrismaClient;
  /** The bot's WebClient for a workspace (see the file comment for how to build it). */
  clientFor: (workspaceId: string) => WebClient | Promise<WebClient>;
  /** This instance's id; written to `lockedBy` while a row is being sent. */
  owner: string;
  /** Least time between two posts (chat.postMessage, files.uploadV2) in one channel. Default 1000. */
  postIntervalMs?: number;
  /** How soon a row that waits for a row it refers to (not sent yet) is looked at again. Default 500. */
  recheckMs?: number;
  /** How long a claimed row stays locked; an expired lock lets another poster take the row. Default 60 000. */
  lockMs?: number;
  /** A call that has not answered by then counts as failed-maybe-delivered. Must be < lockMs. Default lockMs / 2. */
  sendTimeoutMs?: number;
  /** Attempts (429s excluded) before a row is marked failed. Default 5. */
  maxAttempts?: number;
  /** First retry delay after a 5xx / network error; doubles each attempt, with jitter. Default 1000. */
  backoffBaseMs?: number;
  /** Longest retry delay. Default 300 000. */
  backoffMaxMs?: number;
  /** How long a row waits for a referenced row that is not in the table yet before failing. Default 60 000. */
  referenceGraceMs?: number;
  /** Rows (of different lanes) sent at the same time. Default 8. */
  concurrency?: number;
  now?: () => Date;
  /** In [0, 1): the backoff jitter. */
  random?: () => number;
  log?: OutboxLog;
  /** Called after a row is recorded as sent; errors it throws are logged. */
  onSent?: (row: SlackOutbox, result: OutboxSendResult) => void | Promise<void>;
}

export interface OutboxSendResult {
  /** What was recorded as the row's resultTs. */
  ts: string | null;
  /** True when an earlier attempt's message was found in Slack and recorded instead of posting again. */
  recovered: boolean;
  /** Slack's answer to this attempt's call; null when nothing was called (recovered, already reacted). */
  response: WebAPICallResult | null;
}

export interface SendLaneOptions {
  /** The lock the rows are claimed under: the job attempt's lease owner (src/jobs/job-lease.ts). */
  lockOwner: string;
  /** A next row due within this long is waited for here (Slack's pace); a later one ends the run. Default 2 000. */
  waitUpToMs?: number;
  /**
   * The run ends (its job is sent again) once it has gone on this long, so no job holds a worker for ever and a
   * stopping instance hands its lanes over within pg-boss's graceful stop. Default 8 000.
   */
  runForMs?: number;
  /** pg-boss's: aborted when the job is given up on here (the run stops before its next row). */
  signal?: AbortSignal;
}

export interface SendLaneResult {
  /** In how long the lane's next row is due (its job is sent again to start then); null when the lane is empty. */
  dueInMs: number | null;
  /** Rows sent, failed or rescheduled by this run. */
  handled: number;
}

export interface OutboxPoster {
  /**
   * Sends one lane's rows in order, at Slack's pace, until it is empty or its next row is not due soon: what a
   * `send-outbox` job does. Throws when a row's outcome could not be recorded (the job is retried; the retry takes the
   * row over and looks for an earlier delivery before sending it again).
   */
  sendLane(lane: string, options: SendLaneOptions): Promise<SendLaneResult>;
  /** Lane runs stop before their next row (their jobs are sent again); waits for the sends in flight. */
  stop(): Promise<void>;
  /**
   * One pass in this process, outside the jobs: claims and sends the due head of every lane (tests, one-off tools).
   * Returns how many rows it finished or rescheduled.
   */
  drainOnce(): Promise<number>;
  /**
   * Passes until no unsent row is due before the deadline (now + timeoutMs). Rejects with OutboxDrainTimeoutError
   * when such rows remain at the deadline.
   */
  drain(timeoutMs: number): Promise<void>;
  /**
   * Waits, without sending, until no unsent row is due before the deadline (the jobs send them); `nudge` is called
   * every second meanwhile (to queue jobs for lanes that have none). Rejects like `drain`.
   */
  sent(timeoutMs: number, nudge?: () => Promise<unknown>): Promise<void>;
}

export class OutboxDrainTimeoutError extends Error {
  override name = 'OutboxDrainTimeoutError';
  constructor(readonly remaining: number) {
    super(`The Slack outbox still holds ${remaining} due row(s) after the drain timeout`);
  }
}

class SendTimeoutError extends Error {
  override name = 'SendTimeoutError';
}

/** Recording a sent row through a database blip: 4 tries over about 3.5 s (well inside any lock). */
const RECORD_ATTEMPTS = 4;
const RECORD_RETRY_BASE_MS = 500;

type Outcome =
  | {
      kind: 'sent';
      resultTs: string | null;
      threadTs: string | null;
      recovered: boolean;
      response: WebAPICallResult | null;
    }
  /** Not sent, through no fault of the row (a 429, a reference not sent yet): try again later, attempt not counted. */
  | { kind: 'postponed'; delayMs: number; reason: string }
  /** May or may not have reached Slack: retry with backoff (at least minDelayMs), counted. */
  | { kind: 'retry'; error: string; minDelayMs?: number }
  | { kind: 'failed'; error: string };

interface PassResult {
  handled: number;
  /** When the earliest lane that is waiting becomes sendable (epoch ms), if any. */
  nextAt: number | null;
}

/** How long a claimed row stays locked unless `lockMs` says otherwise. */
export const OUTBOX_LOCK_MS = 60_000;

export function createOutboxPoster(options: OutboxPosterOptions): OutboxPoster {
  const prisma = options.prisma;
  const postIntervalMs = options.postIntervalMs ?? 1_000;
  const recheckMs = options.recheckMs ?? 500;
  const lockMs = options.lockMs ?? OUTBOX_LOCK_MS;
  const sendTimeoutMs = options.sendTimeoutMs ?? Math.floor(lockMs / 2);
  const maxAttempts = options.maxAttempts ?? 5;
  const backoffBaseMs = options.backoffBaseMs ?? 1_000;
  const backoffMaxMs = options.backoffMaxMs ?? 300_000;
  const referenceGraceMs = options.referenceGraceMs ?? 60_000;
  const concurrency = options.concurrency ?? 8;
  const clock = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const log = options.log ?? defaultLog;
  if (sendTimeoutMs >= lockMs) throw new Error('sendTimeoutMs must be shorter than lockMs');

  let claimSequence = 0;
  let stopping = false;
  const inFlight = new Set<Promise<unknown>>();
  const resendCheck = createResendCheck({
    prisma,
    log,
    call: (client, method, args) => withTimeout(client.apiCall(method, args), sendTimeoutMs),
  });

  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => {});
    return promise;
  }

  // ───────────── Reading the lanes ─────────────

  /** When each channel (of the given heads that post) last received a post, within the pacing window. */
  async function lastPostTimes(heads: SlackOutbox[], now: Date): Promise<Map<string, number>> {
    const channels = [...new Set(heads.filter(isPosting).flatMap((head) => head.channelId ?? []))];
    const last = new Map<string, number>();
    if (channels.length === 0) return last;
    const groups = await prisma.slackOutbox.groupBy({
      by: ['workspaceId', 'channelId'],
      where: {
        status: 'sent',
        method: { in: [...POSTING_METHODS] },
        channelId: { in: channels },
        sentAt: { gt: new Date(now.getTime() - postIntervalMs) },
      },
      _max: { sentAt: true },
    });
    for (const group of groups) {
      const sentAt = group._max.sentAt;
      if (sentAt && group.channelId) last.set(`${group.workspaceId}/${group.channelId}`, sentAt.getTime());
    }
    return last;
  }

  /** When the head may be claimed by `lockedBy`: a row locked by a dead job attempt at once (see the file comment). */
  function readyAt(head: SlackOutbox, lastPosts: Map<string, number>, lockedBy?: string): number {
    const takenOver = lockedBy !== undefined && mayTakeOver(head, lockedBy);
    const locked = takenOver ? 0 : (head.lockedUntil?.getTime() ?? 0);
    const free = head.status === 'sending' ? locked : head.notBefore.getTime();
    const lastPost = isPosting(head) ? lastPosts.get(`${head.workspaceId}/${head.channelId}`) : undefined;
    return Math.max(free, lastPost === undefined ? 0 : lastPost + postIntervalMs);
  }

  /**
   * A Home tab shows only its latest state: when a user's oldest unsent publish has newer ones behind it, every
   * publish but the newest is marked sent (superseded) without a call. Returns how many rows it marked.
   */
  async function supersedeOlderPublishes(head: SlackOutbox, now: Date): Promise<number> {
    // A malformed payload must not stop the pass for every lane: the row fails on its own when it is sent.
    const user = publishUserSchema.safeParse(head.payload).data?.user_id;
    if (user === undefined) return 0;
    const rows = await prisma.slackOutbox.findMany({
      where: {
        workspaceId: head.workspaceId,
        method: 'views.publish',
        status: { in: ['pending', 'sending'] },
        payload: { path: ['user_id'], equals: user },
      },
      select: { id: true, createdAt: true, dedupeKey: true },
    });
    rows.sort(compareRows);
    const newest = rows.at(-1);
    if (!newest || newest.id === head.id) return 0;
    const { count } = await prisma.slackOutbox.updateMany({
      where: { id: { in: rows.slice(0, -1).map((row) => row.id) }, OR: claimableWhere(now) },
      data: {
        status: 'sent',
        sentAt: now,
        lastError: `superseded by ${newest.dedupeKey}`,
        lockedBy: null,
        lockedUntil: null,
      },
    });
    return count;
  }

  function claimableWhere(now: Date, lockedBy?: string) {
    return [
      { status: 'pending' as const, notBefore: { lte: now } },
      { status: 'sending' as const, OR: [{ lockedUntil: { lt: now } }, { lockedUntil: null }] },
      ...(lockedBy === undefined ? [] : jobLeaseTakeover('lockedBy', lockedBy)).map((takeover) => ({
        status: 'sending' as const,
        ...takeover,
      })),
    ];
  }

  // ───────────── One pass ─────────────

  async function pass(): Promise<PassResult> {
    const now = clock();
    let handled = 0;
    let nextAt: number | null = null;
    const heads: SlackOutbox[] = [];
    for (const head of await laneHeads(prisma)) {
      if (head.method === 'views.publish') {
        const superseded = await supersedeOlderPublishes(head, now);
        handled += superseded;
        if (superseded > 0) continue; // the lane's head changed; the next pass sees the newest
      }
      heads.push(head);
    }
    const lastPosts = await lastPostTimes(heads, now);
    const ready: SlackOutbox[] = [];
    for (const head of heads) {
      const at = readyAt(head, lastPosts);
      if (at <= now.getTime()) ready.push(head);
      else nextAt = Math.min(nextAt ?? at, at);
    }
    const results = await mapWithConcurrency(ready, concurrency, (head) => claimAndSend(head));
    handled += results.filter(Boolean).length;
    return { handled, nextAt };
  }

  async function guardedPass(): Promise<PassResult> {
    try {
      return await track(pass());
    } catch (error) {
      log.error('Slack outbox pass failed', { error, owner: options.owner });
      return { handled: 0, nextAt: null };
    }
  }

  /**
   * Claims one lane head and sends it. False when another sender claimed it first. A lane's job (`jobLock`: its
   * attempt's lease owner) may take over a dead attempt's lock, and has a failure to record thrown, to be retried.
   */
  async function claimAndSend(head: SlackOutbox, jobLock?: string): Promise<boolean> {
    const now = clock();
    const lockedBy = jobLock ?? `${options.owner}#${++claimSequence}`;
    let row: SlackOutbox | undefined;
    try {
      [row] = await prisma.slackOutbox.updateManyAndReturn({
        where: { id: head.id, OR: claimableWhere(now, jobLock) },
        data: {
          status: 'sending',
          lockedBy,
          lockedUntil: new Date(now.getTime() + lockMs),
          attempts: { increment: 1 },
        },
      });
    } catch (error) {
      log.error('Slack outbox row could not be claimed', { error, rowId: head.id });
      return false;
    }
    if (!row) return false;
    try {
      const outcome = await attempt(row);
      resendCheck.settle(row, outcome.kind);
      await recordThroughBlips(row, outcome);
    } catch (error) {
      // Only the database can get here (attempt() turns every Slack failure into an outcome). The row stays locked:
      // a job's retry takes it over at once, anything else waits until lockMs passes; either looks it up first.
      log.error('Slack outbox row could not be recorded', { error, rowId: row.id, dedupeKey: row.dedupeKey });
      if (jobLock !== undefined) throw error;
    }
    return true;
  }

  async function sendLane(lane: string, run: SendLaneOptions): Promise<SendLaneResult> {
    const waitUpToMs = run.waitUpToMs ?? 2_000;
    const endBy = clock().getTime() + (run.runForMs ?? 8_000);
    let handled = 0;
    for (;;) {
      if (stopping || run.signal?.aborted) return { dueInMs: 0, handled };
      const now = clock();
      const head = await laneHead(prisma, lane);
      if (!head) return { dueInMs: null, handled };
      if (head.method === 'views.publish') {
        const superseded = await supersedeOlderPublishes(head, now);
        handled += superseded;
        if (superseded > 0) continue; // the lane's head changed
      }
      const dueInMs = readyAt(head, await lastPostTimes([head], now), run.lockOwner) - now.getTime();
      if (dueInMs <= 0) {
        // False only when a sender outside the jobs holds the row: looked at again a little later.
        if (!(await track(claimAndSend(head, run.lockOwner)))) return { dueInMs: recheckMs, handled };
        handled++;
        continue;
      }
      // Slack's pace between two posts is waited out here: sending the job again would add pg-boss's polling delay
      // to every post. A longer wait (a backoff, a Retry-After) ends the run; its job is sent again to start then.
      if (dueInMs > waitUpToMs || now.getTime() + dueInMs > endBy) return { dueInMs, handled };
      await delay(dueInMs);
    }
  }

  // ───────────── Sending one row ─────────────

  async function attempt(row: SlackOutbox): Promise<Outcome> {
    const method = z.enum(OUTBOX_METHODS).safeParse(row.method);
    if (!method.success) return { kind: 'failed', error: `unknown outbox method ${row.method}` };
    let stored: ReturnType<typeof readStoredPayload>;
    try {
      stored = readStoredPayload(row.payload);
    } catch (error) {
      return { kind: 'failed', error: `unreadable payload: ${errorMessage(error)}` };
    }
    const references = await resolveReferences(row, stored.references);
    if (references.kind !== 'resolved') return references;
    const threadTs = row.threadTs ?? references.threadTs ?? null;
    try {
      const client = await options.clientFor(row.workspaceId);
      // attempts counts this one: more than one means an earlier attempt may have reached Slack.
      if (row.attempts > 1) {
        const found = await resendCheck.find(client, row, method.data, stored.args, threadTs);
        if (found) {
          log.info('Slack outbox row was already delivered; recording it', { rowId: row.id, ts: found });
          return { kind: 'sent', resultTs: found, threadTs, recovered: true, response: null };
        }
      }
      if (row.attempts > 1 && method.data === 'chat.update' && references.targetTs) {
        if (await resendCheck.editApplied(client, row, references.targetTs, references.targetThreadTs)) {
          log.info('Slack outbox edit was already applied; recording it', { rowId: row.id, ts: references.targetTs });
          return { kind: 'sent', resultTs: references.targetTs, threadTs, recovered: true, response: null };
        }
      }
      if (isStreaming(method.data)) {
        return await sendStreaming(client, row, method.data, stored.args, threadTs, references);
      }
      const request = buildRequest(row, method.data, stored.args, threadTs, references);
      if ('failed' in request) return { kind: 'failed', error: request.failed };
      const response = await withTimeout(client.apiCall(method.data, request.args), sendTimeoutMs);
      const resultTs = resultTsOf(method.data, row.channelId, response);
      return { kind: 'sent', resultTs, threadTs, recovered: false, response };
    } catch (error) {
      return failedAttempt(error, method.data, threadTs);
    }
  }

  /**
   * A streamed plan's call, or its fallback: a chat.update of the status card (`fallbackOf`) with `payload.fallback`.
   * The fallback is used when Slack refuses the streaming methods here, and from then on for the rest of that stream —
   * a start that fell back records the card's ts as its own, which no real stream can have.
   */
  async function sendStreaming(
    client: WebClient,
    row: SlackOutbox,
    method: OutboxMethod,
    storedArgs: Record<string, unknown>,
    threadTs: string | null,
    references: Extract<ResolvedReferences, { kind: 'resolved' }>,
  ): Promise<Outcome> {
    const { [STREAM_FALLBACK_KEY]: rawFallback, ...args } = storedArgs;
    const fallback = streamFallbackSchema.safeParse(rawFallback);
    const channel = row.channelId;
    if (!fallback.success || !channel || !references.fallbackTs) {
      return { kind: 'failed', error: `${method} needs a channel, payload.fallback and a sent fallbackOf` };
    }
    const cardTs = references.fallbackTs;
    const sendFallback = async (why: string): Promise<Outcome> => {
      log.info('streamed plan shown on the status card instead', { rowId: row.id, method, why });
      const response = await withTimeout(
        client.apiCall('chat.update', { channel, ts: cardTs, ...fallback.data }),
        sendTimeoutMs,
      );
      return { kind: 'sent', resultTs: cardTs, threadTs, recovered: false, response };
    };
    if (method !== 'chat.startStream' && (references.targetTs === null || references.targetTs === cardTs)) {
      return sendFallback('the stream fell back at its start');
    }
    const place = method === 'chat.startStream' ? { channel, ...(threadTs ? { thread_ts: threadTs } : {}) } : {};
    const target = method === 'chat.startStream' ? {} : { channel, ts: references.targetTs };
    try {
      const response = await withTimeout(client.apiCall(method, { ...args, ...place, ...target }), sendTimeoutMs);
      const resultTs = messageSchema.safeParse(response).data?.ts ?? references.targetTs;
      return { kind: 'sent', resultTs, threadTs, recovered: false, response };
    } catch (error) {
      const failure = classifySlackError(error);
      if (failure.kind === 'permanent' && STREAM_REFUSALS.has(failure.code)) return sendFallback(failure.code);
      throw error;
    }
  }

  /** What a failed call means for its row (every Slack failure becomes an outcome here). */
  function failedAttempt(error: unknown, method: OutboxMethod, threadTs: string | null): Outcome {
    const failure = classifySlackError(error);
    if (failure.kind === 'permanent' && failure.code === 'already_reacted' && method === 'reactions.add') {
      return { kind: 'sent', resultTs: null, threadTs, recovered: false, response: null };
    }
    if (failure.kind === 'rate_limited') {
      return { kind: 'postponed', delayMs: failure.retryAfterMs, reason: `rate limited: ${failure.message}` };
    }
    if (failure.kind === 'permanent') return { kind: 'failed', error: failure.message };
    // An unanswered call may still land. Waiting as long again before the next attempt (and its lookup) lets a slow
    // success show up in the history instead of being posted twice.
    const timedOut = failure.timedOut || error instanceof SendTimeoutError;
    return { kind: 'retry', error: failure.message, ...(timedOut ? { minDelayMs: sendTimeoutMs } : {}) };
  }

  type ResolvedReferences =
    | {
        kind: 'resolved';
        threadTs: string | null;
        /** The message an edit or a reaction is for (`updateOf`), its row's key, and the thread it is in. */
        targetTs: string | null;
        targetKey: string | null;
        targetThreadTs: string | null;
        fallbackTs: string | null;
      }
    | Extract<Outcome, { kind: 'postponed' | 'failed' }>;

  async function resolveReferences(row: SlackOutbox, references: OutboxReferences): Promise<ResolvedReferences> {
    let threadTs: string | null = null;
    let targetTs: string | null = null;
    let targetThreadTs: string | null = null;
    let fallbackTs: string | null = null;
    for (const [role, key] of [
      ['threadOf', references.threadOf],
      ['updateOf', references.updateOf],
      ['fallbackOf', references.fallbackOf],
    ] as const) {
      if (!key) continue;
      const target = await prisma.slackOutbox.findUnique({
        where: { workspaceId_dedupeKey: { workspaceId: row.workspaceId, dedupeKey: key } },
      });
      if (!target) {
        if (clock().getTime() - row.createdAt.getTime() < referenceGraceMs) {
          return { kind: 'postponed', delayMs: recheckMs, reason: `${role} ${key} is not in the outbox yet` };
        }
        return { kind: 'failed', error: `${role} ${key} names no outbox row` };
      }
      if (target.status === 'failed') {
        return { kind: 'failed', error: `${role} ${key} failed: ${target.lastError ?? 'unknown error'}` };
      }
      if (target.status === 'sent') {
        if (!target.resultTs) return { kind: 'failed', error: `${role} ${key} was sent without a ts` };
        if (role === 'threadOf') threadTs = target.resultTs;
        else if (role === 'updateOf') {
          targetTs = target.resultTs;
          targetThreadTs = target.threadTs;
        } else fallbackTs = target.resultTs;
        continue;
      }
      // Unsent. In the same lane it is necessarily newer than this row (older unsent rows block the lane): waiting
      // would deadlock the channel.
      if (target.channelId === row.channelId && compareRows(target, row) > 0) {
        return { kind: 'failed', error: `${role} ${key} was enqueued after this row` };
      }
      return { kind: 'postponed', delayMs: recheckMs, reason: `${role} ${key} is not sent yet` };
    }
    return { kind: 'resolved', threadTs, targetTs, targetKey: references.updateOf ?? null, targetThreadTs, fallbackTs };
  }

  /**
   * Slack has answered; a database blip (a failover, connections cut) must not leave the row locked until lockMs
   * passes — the thread would stall for a minute — so recording is tried a few times over a few seconds.
   */
  async function recordThroughBlips(row: SlackOutbox, outcome: Outcome): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await record(row, outcome);
      } catch (error) {
        if (attempt >= RECORD_ATTEMPTS || !isTransientDatabaseError(error)) throw error;
        log.warn('Slack outbox row not recorded yet; trying again', { error, rowId: row.id, attempt });
        await delay(RECORD_RETRY_BASE_MS * 2 ** (attempt - 1));
      }
    }
  }

  async function record(row: SlackOutbox, outcome: Outcome): Promise<void> {
    const now = clock();
    const mine = { id: row.id, status: 'sending' as const, lockedBy: row.lockedBy };
    const unlock = { lockedBy: null, lockedUntil: null };
    const fields = { rowId: row.id, workspaceId: row.workspaceId, dedupeKey: row.dedupeKey, method: row.method };
    let count: number;
    switch (outcome.kind) {
      case 'sent': {
        const data = {
          ...unlock,
          status: 'sent' as const,
          resultTs: outcome.resultTs,
          threadTs: outcome.threadTs,
          sentAt: now,
          lastError: null,
        };
        ({ count } = await prisma.slackOutbox.updateMany({ where: mine, data }));
        if (count === 1) {
          log.debug('Slack outbox row sent', { ...fields, ts: outcome.resultTs });
          await notifySent(
            { ...row, ...data },
            { ts: outcome.resultTs, recovered: outcome.recovered, response: outcome.response },
          );
        }
        break;
      }
      case 'postponed':
        ({ count } = await prisma.slackOutbox.updateMany({
          where: mine,
          data: {
            ...unlock,
            status: 'pending',
            attempts: { decrement: 1 },
            notBefore: new Date(now.getTime() + outcome.delayMs),
            lastError: outcome.reason,
          },
        }));
        log.info('Slack outbox row postponed', { ...fields, reason: outcome.reason, delayMs: outcome.delayMs });
        break;
      case 'retry':
        if (row.attempts >= maxAttempts) {
          ({ count } = await prisma.slackOutbox.updateMany({
            where: mine,
            data: {
              ...unlock,
              status: 'failed',
              lastError: `gave up after ${row.attempts} attempts: ${outcome.error}`,
            },
          }));
          log.error('Slack outbox row failed', { ...fields, attempts: row.attempts, error: outcome.error });
        } else {
          const waitMs = Math.max(backoff(row.attempts), outcome.minDelayMs ?? 0);
          ({ count } = await prisma.slackOutbox.updateMany({
            where: mine,
            data: {
              ...unlock,
              status: 'pending',
              notBefore: new Date(now.getTime() + waitMs),
              lastError: outcome.error,
            },
          }));
          log.warn('Slack outbox row will be retried', {
            ...fields,
            attempts: row.attempts,
            waitMs,
            error: outcome.error,
          });
        }
        break;
      case 'failed':
        ({ count } = await prisma.slackOutbox.updateMany({
          where: mine,
          data: { ...unlock, status: 'failed', lastError: outcome.error },
        }));
        log.error('Slack outbox row failed', { ...fields, error: outcome.error });
        break;
    }
    if (count === 0) {
      // The send outlived the lock and another poster took the row; it looks the message up before posting.
      log.warn('Slack outbox row was taken over before its outcome was recorded', { ...fields, outcome: outcome.kind });
    }
  }

  async function notifySent(row: SlackOutbox, result: OutboxSendResult): Promise<void> {
    try {
      await options.onSent?.(row, result);
    } catch (error) {
      log.error('Slack outbox onSent hook failed', { error, rowId: row.id });
    }
  }

  function backoff(attempts: number): number {
    const ceiling = Math.min(backoffMaxMs, backoffBaseMs * 2 ** Math.max(0, attempts - 1));
    return Math.round(ceiling * (0.5 + random() / 2));
  }

  /** Rows not sent yet that are due by the deadline (or locked for sending). */
  const dueBy = (deadline: Date) =>
    prisma.slackOutbox.count({
      where: { OR: [{ status: 'sending' }, { status: 'pending', notBefore: { lte: deadline } }] },
    });

  return {
    sendLane,
    async stop() {
      stopping = true;
      await Promise.allSettled([...inFlight]);
    },
    async drainOnce() {
      return (await guardedPass()).handled;
    },
    async drain(timeoutMs) {
      const deadline = new Date(clock().getTime() + timeoutMs);
      for (;;) {
        const { handled, nextAt } = await guardedPass();
        if (handled > 0) continue;
        const remaining = await dueBy(deadline);
        if (remaining === 0) return;
        const now = clock().getTime();
        if (now >= deadline.getTime()) throw new OutboxDrainTimeoutError(remaining);
        const untilNext = nextAt === null ? recheckMs : nextAt - now;
        await delay(Math.max(5, Math.min(untilNext, recheckMs, deadline.getTime() - now)));
      }
    },
    async sent(timeoutMs, nudge) {
      const deadline = new Date(clock().getTime() + timeoutMs);
      let nudgedAt = 0;
      for (;;) {
        if (nudge && Date.now() - nudgedAt >= 1_000) {
          nudgedAt = Date.now();
          await nudge();
        }
        const remaining = await dueBy(deadline);
        if (remaining === 0) return;
        if (clock().getTime() >= deadline.getTime()) throw new OutboxDrainTimeoutError(remaining);
        await delay(25);
      }
    },
  };
}

// ───────────── Pure helpers ─────────────

/** A row locked by another job attempt is a dead attempt's: pg-boss runs one attempt per lane at a time. */
function mayTakeOver(row: Pick<SlackOutbox, 'status' | 'lockedBy'>, lockedBy: string): boolean {
  return row.status === 'sending' && isJobLease(lockedBy) && row.lockedBy !== null && isJobLease(row.lockedBy);
}

function isPosting(row: Pick<SlackOutbox, 'method'>): boolean {
  return (POSTING_METHODS as readonly string[]).includes(row.method);
}

/** The lane order: createdAt, then id byte by byte (what `COLLATE "C"` does in the heads query). */
export function compareRows(a: Pick<SlackOutbox, 'createdAt' | 'id'>, b: Pick<SlackOutbox, 'createdAt' | 'id'>) {
  const byTime = a.createdAt.getTime() - b.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function buildRequest(
  row: SlackOutbox,
  method: OutboxMethod,
  args: Record<string, unknown>,
  threadTs: string | null,
  target: { targetTs: string | null; targetKey: string | null },
): { args: Record<string, unknown> } | { failed: string } {
  const { targetTs } = target;
  const channel = row.channelId;
  const thread = threadTs ? { thread_ts: threadTs } : {};
  if (method === 'views.publish') return { args };
  if (!channel) return { failed: `${method} needs a channel` };
  switch (method) {
    case 'chat.postMessage':
      return {
        args: {
          ...args,
          channel,
          ...thread,
          metadata: { event_type: OUTBOX_EVENT_TYPE, event_payload: { key: row.dedupeKey } },
        },
      };
    case 'chat.postEphemeral':
      return { args: { ...args, channel, ...thread } };
    case 'chat.update':
      if (!targetTs) return { failed: 'chat.update has no message to edit (updateOf)' };
      return {
        args: {
          ...args,
          channel,
          ts: targetTs,
          // The message keeps its post's key (what a resend check of the post looks for) and names this edit, so a
          // retry after a crash can tell whether the edit was made (ResendCheck.editApplied).
          metadata: { event_type: OUTBOX_EVENT_TYPE, event_payload: { key: target.targetKey, edit: row.dedupeKey } },
        },
      };
    case 'reactions.add': {
      const timestamp = targetTs ?? args.timestamp;
      return { args: { ...args, channel, timestamp } };
    }
    case 'files.uploadV2': {
      const upload = uploadPayloadSchema.safeParse(args);
      if (!upload.success) return { failed: `files.uploadV2 payload: ${z.prettifyError(upload.error)}` };
      const { filename, title, contentBase64, initial_comment } = upload.data;
      return {
        args: {
          channel_id: channel,
          ...thread,
          file: Buffer.from(contentBase64, 'base64'),
          filename,
          title: title ?? filename,
          ...(initial_comment ? { initial_comment } : {}),
        },
      };
    }
    case 'chat.startStream':
    case 'chat.appendStream':
    case 'chat.stopStream':
      return { failed: `${method} is sent by sendStreaming` };
  }
}

function isStreaming(method: OutboxMethod): boolean {
  return STREAM_METHODS.includes(method);
}

/**
 * Errors that mean "no streaming here": the workspace or plan lacks the methods (`unknown_method`, `not_allowed`,
 * `feature_not_enabled`, `method_not_supported_for_channel_type`), the token may not use them (`missing_scope`,
 * `not_allowed_token_type`), or the stream already ended (`message_not_in_streaming_state`, as after a long wait for
 * the buyer). All are answered by editing the status card instead.
 */
const STREAM_REFUSALS: ReadonlySet<string> = new Set([
  'unknown_method',
  'not_allowed',
  'feature_not_enabled',
  'method_not_supported_for_channel_type',
  'missing_scope',
  'not_allowed_token_type',
  'message_not_in_streaming_state',
]);

const publishUserSchema = z.object({ user_id: z.string() });

const messageSchema = z.object({ ts: z.string(), message_ts: z.string().optional() }).loose();
const uploadResultSchema = z.object({
  files: z.array(
    z.object({
      files: z
        .array(
          z.object({
            id: z.string(),
            shares: z
              .object({
                public: z.record(z.string(), z.array(z.object({ ts: z.string() }))).optional(),
                private: z.record(z.string(), z.array(z.object({ ts: z.string() }))).optional(),
              })
              .optional(),
          }),
        )
        .optional(),
    }),
  ),
});

/** The ts later calls refer to: the message's, or for an upload its share's (else the file id). */
function resultTsOf(method: OutboxMethod, channel: string | null, response: WebAPICallResult): string | null {
  switch (method) {
    case 'chat.postMessage':
    case 'chat.update':
      return messageSchema.safeParse(response).data?.ts ?? null;
    case 'chat.postEphemeral': {
      const parsed = z.object({ message_ts: z.string() }).safeParse(response);
      return parsed.success ? parsed.data.message_ts : null;
    }
    case 'files.uploadV2': {
      const parsed = uploadResultSchema.safeParse(response);
      const file = parsed.data?.files[0]?.files?.[0];
      if (!file) return null;
      const shares = channel ? (file.shares?.public?.[channel] ?? file.shares?.private?.[channel]) : undefined;
      return shares?.[0]?.ts ?? file.id;
    }
    case 'reactions.add':
    case 'views.publish':
    case 'chat.startStream':
    case 'chat.appendStream':
    case 'chat.stopStream':
      return null;
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SendTimeoutError(`no answer from Slack within ${ms} ms`)), ms);
  });
  // The losing call may still settle later; nobody waits for it, so its rejection must not go unhandled.
  promise.catch(() => {});
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
