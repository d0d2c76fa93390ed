// Writing Slack output: one `SlackOutbox` row per call, inside the caller's transaction, so a state change and the
// messages that report it are committed (or rolled back) together. The poster (outbox-poster.ts) sends them later.
import { randomBytes } from 'node:crypto';
import { toJsonColumn } from '../db/json.js';
import type { WorkspaceDb, WorkspaceTx } from '../db/scoped.js';
import { canonicalJson } from '../canonical-json.js';
import { databaseNow } from '../db/database-now.js';
import { OUTBOX_REFERENCE_KEY, type OutboxCall, storedPayload, validateOutboxCall } from './outbox-call.js';

/** Anything scoped to one workspace that can write outbox rows. */
export type OutboxWriter = WorkspaceDb | WorkspaceTx;

let lastCreatedAt = 0;
let sequence = 0;

/**
 * Rows of one channel are sent in (createdAt, id) order. createdAt is the database's time (every instance reads the
 * same clock, so a skewed host cannot sort an edit ahead of the post it edits — issue 15, defect 5) and never goes
 * backwards within a process; the id starts with that time and a counter, so calls enqueued in one batch (same
 * createdAt) keep their order too. Ids are lowercase base36 of fixed width, so byte order and time order agree.
 */
function nextRowIdentity(databaseNowMs: number): { id: string; createdAt: Date } {
  const now = Math.max(databaseNowMs, lastCreatedAt);
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
 * error — ON CONFLICT DO NOTHING, so a PostgreSQL transaction around it stays usable. A chat.update whose payload is
 * the same as the last edit of that message (enqueued or sent, not failed) is skipped too: Slack would show nothing
 * new, and each edit costs a call against the channel's rate limit. Returns how many rows were written. Throws
 * InvalidOutboxCallError for a malformed call (which aborts the caller's transaction: it is a bug).
 */
export async function enqueueSlackCalls(writer: OutboxWriter, calls: readonly OutboxCall[]): Promise<number> {
  if (calls.length === 0) return 0;
  for (const call of calls) validateOutboxCall(call);
  const changing = await withoutRepeatedEdits(writer, calls);
  if (changing.length === 0) return 0;
  const databaseNowMs = (await databaseNow(writer)).getTime();
  const rows = changing.map((call) => {
    const { id, createdAt } = nextRowIdentity(databaseNowMs);
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

/** `calls` less every chat.update that repeats the last edit of its message (in the table, or earlier in `calls`). */
async function withoutRepeatedEdits(writer: OutboxWriter, calls: readonly OutboxCall[]): Promise<OutboxCall[]> {
  const lastEdit = new Map<string, string | null>();
  const kept: OutboxCall[] = [];
  for (const call of calls) {
    if (call.method !== 'chat.update' || !call.updateOf) {
      kept.push(call);
      continue;
    }
    const target = `${call.channelId ?? ''}\u0000${call.updateOf}`;
    if (!lastEdit.has(target)) lastEdit.set(target, await lastEditOf(writer, call.channelId, call.updateOf));
    const payload = canonicalJson(storedPayload(call));
    if (lastEdit.get(target) === payload) continue;
    lastEdit.set(target, payload);
    kept.push(call);
  }
  return kept;
}

/** The payload of the newest chat.update of a message, as canonical JSON; null when there is none or it failed. */
async function lastEditOf(writer: OutboxWriter, channelId: string | null | undefined, updateOf: string) {
  const row = await writer.slackOutbox.findFirst({
    where: {
      method: 'chat.update',
      channelId: channelId ?? null,
      payload: { path: [OUTBOX_REFERENCE_KEY, 'updateOf'], equals: updateOf },
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { payload: true, status: true },
  });
  return row && row.status !== 'failed' ? canonicalJson(row.payload) : null;
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
