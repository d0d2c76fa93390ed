// Writing Slack output: one `SlackOutbox` row per call, inside the caller's transaction, so a state change and the
// messages that report it are committed (or rolled back) together. The poster (outbox-poster.ts) sends them later.
import { randomBytes } from 'node:crypto';
import { toJsonColumn } from '../db/json.js';
import type { WorkspaceDb, WorkspaceTx } from '../db/scoped.js';
import { canonicalJson } from '../canonical-json.js';
import { Prisma } from '../generated/prisma/client.js';
import { z } from 'zod';
import { type SupplierRecipient, screenSupplierChannelCalls } from './supplier-channels.js';
import { OUTBOX_REFERENCE_KEY, type OutboxCall, storedPayload, validateOutboxCall } from './outbox-call.js';

/** Anything scoped to one workspace that can write outbox rows. */
export type OutboxWriter = WorkspaceDb | WorkspaceTx;

let lastCreatedAt = 0;
let sequence = 0;

/**
 * Rows of one channel are sent in (createdAt, id) order. createdAt is the database's time (every instance reads the
 * same clock, so a skewed host cannot sort an edit ahead of the post it edits) and never goes
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
  const known = await readBeforeWriting(writer, calls);
  const screened = await screenSupplierChannelCalls(writer, calls, known.recipients);
  for (const call of screened) validateOutboxCall(call);
  const changing = withoutRepeatedEdits(screened, known.lastEdits);
  if (changing.length === 0) return 0;
  const databaseNowMs = known.databaseNow.getTime();
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

/** The message a chat.update edits, as a key of `lastEdits`. */
const editTarget = (channelId: string, updateOf: string) => `${channelId}\u0000${updateOf}`;

/** The supplier channels among a batch's channels (as `screenSupplierChannelCalls` takes them), from SQL. */
const recipientsSchema = z.array(z.object({ code: z.string(), name: z.string(), channelId: z.string() }));

/**
 * What writing the calls needs to know first, in one statement (a transaction waits for each, and a click's
 * acknowledgement for its transaction): the payload (canonical JSON) of the newest chat.update of each message the
 * calls edit — null when there is none or it failed —, the database's time, and which of the calls' channels are a
 * connected supplier's (the discretion gate, supplier-channels.ts).
 */
async function readBeforeWriting(
  writer: OutboxWriter,
  calls: readonly OutboxCall[],
): Promise<{ lastEdits: Map<string, string | null>; databaseNow: Date; recipients: SupplierRecipient[] }> {
  const targets = new Map<string, { channelId: string; updateOf: string }>();
  for (const call of calls) {
    // A chat.update always has a channel (validateOutboxCall: only views.publish has none).
    if (call.method !== 'chat.update' || !call.updateOf || call.channelId === null) continue;
    targets.set(editTarget(call.channelId, call.updateOf), { channelId: call.channelId, updateOf: call.updateOf });
  }
  const channels = [...new Set(calls.flatMap((call) => (call.channelId === null ? [] : [call.channelId])))];
  const recipientsSql = Prisma.sql`(
    SELECT COALESCE(json_agg(json_build_object('code', s.code, 'name', s.name, 'channelId', s."slackChannelId")), '[]')
    FROM "Supplier" s
    WHERE s."workspaceId" = ${writer.$workspaceId} AND s."slackChannelId" = ANY(${channels}::text[])
  )`;
  const lastEdits = new Map<string, string | null>();
  const wanted = [...targets.values()];
  if (wanted.length === 0) {
    const [row] = await writer.$queryRaw<{ at: Date; recipients: unknown }[]>`
      SELECT clock_timestamp() AS at, ${recipientsSql} AS recipients`;
    if (!(row?.at instanceof Date)) throw new Error('clock_timestamp() returned no time');
    return { lastEdits, databaseNow: row.at, recipients: recipientsSchema.parse(row.recipients) };
  }
  const rows = await writer.$queryRaw<
    { channelId: string; updateOf: string; payload: unknown; status: string | null; at: Date; recipients: unknown }[]
  >`
    SELECT t."channelId", t."updateOf", e.payload, e.status, clock_timestamp() AS at, ${recipientsSql} AS recipients
    FROM unnest(${wanted.map((t) => t.channelId)}::text[], ${wanted.map((t) => t.updateOf)}::text[])
      AS t("channelId", "updateOf")
    LEFT JOIN LATERAL (
      SELECT payload, status::text AS status FROM "SlackOutbox"
      WHERE "workspaceId" = ${writer.$workspaceId} AND "channelId" = t."channelId" AND method = 'chat.update'
        AND payload #> ${[OUTBOX_REFERENCE_KEY, 'updateOf']}::text[] = to_jsonb(t."updateOf")
      ORDER BY "createdAt" DESC, id DESC
      LIMIT 1
    ) AS e ON true`;
  for (const row of rows) {
    const found = row.status !== null && row.status !== 'failed';
    lastEdits.set(editTarget(row.channelId, row.updateOf), found ? canonicalJson(row.payload) : null);
  }
  const first = rows[0];
  if (!(first?.at instanceof Date)) throw new Error('clock_timestamp() returned no time');
  return { lastEdits, databaseNow: first.at, recipients: recipientsSchema.parse(first.recipients) };
}

/** `calls` less every chat.update that repeats the last edit of its message (in the table, or earlier in `calls`). */
function withoutRepeatedEdits(calls: readonly OutboxCall[], lastEdits: Map<string, string | null>): OutboxCall[] {
  const lastEdit = new Map(lastEdits);
  const kept: OutboxCall[] = [];
  for (const call of calls) {
    if (call.method !== 'chat.update' || !call.updateOf || call.channelId === null) {
      kept.push(call);
      continue;
    }
    const target = editTarget(call.channelId, call.updateOf);
    const payload = canonicalJson(storedPayload(call));
    if (lastEdit.get(target) === payload) continue;
    lastEdit.set(target, payload);
    kept.push(call);
  }
  return kept;
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
