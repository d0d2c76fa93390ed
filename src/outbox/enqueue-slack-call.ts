// Writing Slack output: one `SlackOutbox` row per call, inside the caller's transaction, so a state change and the
// messages that report it are committed (or rolled back) together. The poster (outbox-poster.ts) sends them later.
import { randomBytes } from 'node:crypto';
import { toJsonColumn } from '../db/json.js';
import type { WorkspaceDb, WorkspaceTx } from '../db/scoped.js';
import { type OutboxCall, storedPayload, validateOutboxCall } from './outbox-call.js';

/** Anything scoped to one workspace that can write outbox rows. */
export type OutboxWriter = WorkspaceDb | WorkspaceTx;

let lastCreatedAt = 0;
let sequence = 0;

/**
 * Rows of one channel are sent in (createdAt, id) order. createdAt never goes backwards within a process, and the id
 * starts with the time and a counter, so calls enqueued in one batch (same createdAt) keep their order too. Ids are
 * lowercase base36 of fixed width, so byte order and time order agree.
 */
function nextRowIdentity(): { id: string; createdAt: Date } {
  const now = Math.max(Date.now(), lastCreatedAt);
  lastCreatedAt = now;
  sequence = (sequence + 1) % 36 ** 5;
  const id = `o${now.toString(36).padStart(9, '0')}${sequence.toString(36).padStart(5, '0')}${randomSuffix()}`;
  return { id, createdAt: new Date(now) };
}

function randomSuffix(): string {
  return BigInt(`0x${randomBytes(6).toString('hex')}`)
    .toString(36)
    .padStart(10, '0');
}

/**
 * Enqueues calls in order. A dedupeKey that is already in the table (or repeated in `calls`) is skipped without an
 * error — ON CONFLICT DO NOTHING, so a PostgreSQL transaction around it stays usable. Returns how many rows were
 * written. Throws InvalidOutboxCallError for a malformed call (which aborts the caller's transaction: it is a bug).
 */
export async function enqueueSlackCalls(writer: OutboxWriter, calls: readonly OutboxCall[]): Promise<number> {
  if (calls.length === 0) return 0;
  const rows = calls.map((call) => {
    validateOutboxCall(call);
    const { id, createdAt } = nextRowIdentity();
    return {
      id,
      createdAt,
      workspaceId: writer.$workspaceId,
      dedupeKey: call.dedupeKey,
      method: call.method,
      channelId: call.channelId,
      threadTs: call.threadTs ?? null,
      payload: toJsonColumn(storedPayload(call)),
      notBefore: call.notBefore ?? createdAt,
    };
  });
  const { count } = await writer.slackOutbox.createMany({ data: rows, skipDuplicates: true });
  return count;
}

/** Enqueues one call; true when a row was written, false when its dedupeKey was already there. */
export async function enqueueSlackCall(writer: OutboxWriter, call: OutboxCall): Promise<boolean> {
  return (await enqueueSlackCalls(writer, [call])) === 1;
}

/**
 * The Slack ts recorded for a sent row (for an upload: the share's ts, or the file id when Slack did not report a
 * share), or null when the row is not sent yet, failed, was superseded, or does not exist.
 */
export async function sentTs(db: OutboxWriter, dedupeKey: string): Promise<string | null> {
  const row = await db.slackOutbox.findFirst({ where: { dedupeKey, status: 'sent' }, select: { resultTs: true } });
  return row?.resultTs ?? null;
}

/** Whether a row with this key was ever enqueued in the workspace (sent or not). */
export async function isEnqueued(db: OutboxWriter, dedupeKey: string): Promise<boolean> {
  return (await db.slackOutbox.findFirst({ where: { dedupeKey }, select: { id: true } })) !== null;
}
