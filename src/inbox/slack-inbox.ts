// The Socket Mode inbox. Over Socket Mode Bolt acknowledges an event before any listener runs, so "acknowledged
// means saved" needs the event saved first: the receiver writes it here (once per Slack event id) before it lets the
// acknowledgement go, and this processor runs it through the same Bolt listeners afterwards, from the row. A listener
// that fails leaves the row to be tried again later (with backoff, on the database's clock); a row whose processor
// died mid-run is taken over when its lock expires. Every instance may run a processor: rows are claimed with
// FOR UPDATE SKIP LOCKED, so each is run by one of them at a time.
import { setTimeout as delay } from 'node:timers/promises';
import type { PrismaClient } from '../db/client.js';
import { toJsonColumn } from '../db/json.js';
import { log } from '../log.js';

/** An event as Slack delivered it: its id, its team, and the whole envelope (what Bolt's listeners read). */
export interface InboxEvent {
  eventId: string;
  teamId: string | null;
  body: Record<string, unknown>;
}

/** Saves an event; false when its id was saved before (Slack redelivered it): it is then not processed again. */
export async function saveInboxEvent(prisma: PrismaClient, event: InboxEvent): Promise<boolean> {
  const { count } = await prisma.slackInbox.createMany({
    data: [{ eventId: event.eventId, teamId: event.teamId, body: toJsonColumn(event.body) }],
    skipDuplicates: true,
  });
  return count === 1;
}

interface ClaimedRow {
  id: string;
  body: Record<string, unknown>;
  attempts: number;
}

/** Claims up to `limit` due rows for `owner`, oldest first, locked for `lockMs` of database time. */
export function claimInboxEvents(
  prisma: PrismaClient,
  options: { owner: string; lockMs: number; limit: number },
): Promise<ClaimedRow[]> {
  return prisma.$queryRaw<ClaimedRow[]>`
    UPDATE "SlackInbox" SET "lockedBy" = ${options.owner},
      "lockedUntil" = clock_timestamp() + make_interval(secs => ${options.lockMs / 1000})
    WHERE id IN (
      SELECT id FROM "SlackInbox"
      WHERE status = 'pending' AND "notBefore" <= clock_timestamp()
        AND ("lockedUntil" IS NULL OR "lockedUntil" < clock_timestamp())
      ORDER BY "createdAt", id
      LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, body, attempts`;
}

/** The row was processed: done for good (only by the processor still holding it). */
async function markDone(prisma: PrismaClient, id: string, owner: string): Promise<void> {
  await prisma.$executeRaw`
    UPDATE "SlackInbox" SET status = 'done', "processedAt" = clock_timestamp(), "lockedBy" = NULL, "lockedUntil" = NULL
    WHERE id = ${id} AND "lockedBy" = ${owner}`;
}

/** Processing failed: tried again after `retryInMs` (database time), or failed for good after the last attempt. */
async function markFailed(
  prisma: PrismaClient,
  row: ClaimedRow,
  owner: string,
  error: unknown,
  retry: { retryInMs: number; giveUp: boolean },
): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  const status = retry.giveUp ? 'failed' : 'pending';
  await prisma.$executeRaw`
    UPDATE "SlackInbox" SET status = ${status}::"InboxStatus", attempts = attempts + 1, "lastError" = ${message},
      "notBefore" = clock_timestamp() + make_interval(secs => ${retry.retryInMs / 1000}),
      "lockedBy" = NULL, "lockedUntil" = NULL
    WHERE id = ${row.id} AND "lockedBy" = ${owner}`;
}

export interface InboxProcessorOptions {
  prisma: PrismaClient;
  /** This instance's id, written to `lockedBy`. */
  owner: string;
  /** Runs one saved event through the app's listeners; rejects when a listener failed. */
  handle: (body: Record<string, unknown>) => Promise<void>;
  /** How often to look for due rows when nothing woke the processor. Default 1000. */
  pollMs?: number;
  /** How long a claimed row stays locked; past it another processor may take it. Default 120 000. */
  lockMs?: number;
  /** Attempts before a row is marked failed (and logged as lost). Default 8. */
  maxAttempts?: number;
  /** Retry delay after the n-th failure: base × 2^(n-1), at most 5 minutes. Default base 1000. */
  backoffBaseMs?: number;
  /** Rows run at once per pass. Default 4. */
  batch?: number;
}

export interface InboxProcessor {
  /** Saves an event delivered by Slack and wakes the processor; false for an event id saved before. */
  save(event: InboxEvent): Promise<boolean>;
  start(): void;
  /** Looks for due rows now. */
  kick(): void;
  /** Runs passes until no row is due (tests, settle). */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export function createInboxProcessor(options: InboxProcessorOptions): InboxProcessor {
  const { prisma, owner, handle } = options;
  const pollMs = options.pollMs ?? 1_000;
  const lockMs = options.lockMs ?? 120_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const backoffBaseMs = options.backoffBaseMs ?? 1_000;
  const batch = options.batch ?? 4;
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let passing: Promise<number> = Promise.resolve(0);

  async function runRow(row: ClaimedRow): Promise<void> {
    try {
      await handle(row.body);
      await markDone(prisma, row.id, owner);
    } catch (error) {
      const attempt = row.attempts + 1;
      const giveUp = attempt >= maxAttempts;
      const retryInMs = Math.min(300_000, backoffBaseMs * 2 ** (attempt - 1));
      if (giveUp) log.error('a saved Slack event failed for good', { error, inboxId: row.id, attempt });
      else log.warn('a saved Slack event failed; it will be tried again', { error, inboxId: row.id, attempt });
      await markFailed(prisma, row, owner, error, { retryInMs, giveUp });
    }
  }

  /** One pass: claims due rows and runs them; the number run. Passes never overlap within a process. */
  function pass(): Promise<number> {
    passing = passing
      .catch(() => 0)
      .then(async () => {
        const rows = await claimInboxEvents(prisma, { owner, lockMs, limit: batch });
        await Promise.all(rows.map(runRow));
        return rows.length;
      });
    return passing;
  }

  async function run(): Promise<void> {
    while (running) {
      const ran = await pass().catch((error: unknown) => {
        log.error('the Slack inbox pass failed', { error });
        return 0;
      });
      if (ran > 0) continue;
      await Promise.race([delay(pollMs), new Promise<void>((resolve) => (wake = resolve))]);
      wake = null;
    }
  }

  return {
    async save(event) {
      const saved = await saveInboxEvent(prisma, event);
      if (saved) wake?.();
      return saved;
    },
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    kick() {
      wake?.();
    },
    async drain() {
      while ((await pass()) > 0) {
        // run until nothing is due
      }
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      await passing.catch(() => 0);
    },
  };
}
