// The lanes of the Slack outbox, in one place: the outbox sends a lane's rows one at a time in order
// (src/outbox/outbox-poster.ts), pg-boss runs one `send-outbox` job per lane at a time (its singleton key, see
// src/jobs/background-work.ts), and queue-unqueued-work finds lanes with unsent rows but no job. All three must name a
// lane the same way, so the expression is written once, here.
//
// A lane is one channel of one workspace (`<workspace>/c:<channel>`); a views.publish, which has no channel, is one
// person's Home tab (`<workspace>/u:<user>`); any other row without a channel is a lane of its own (`<workspace>/r:<id>`).
import { Prisma, type SlackOutbox } from '../../generated/prisma/client.js';
import type { PrismaClient } from '../client.js';

/** The lane of a `SlackOutbox` row, as SQL over its columns. */
export const OUTBOX_LANE_SQL = Prisma.sql`("workspaceId" || '/' || COALESCE('c:' || "channelId", 'u:' || (payload ->> 'user_id'), 'r:' || id))`;

/** The lanes that have rows to send (pending, or locked by a sender that may have died), oldest first. */
export async function unsentOutboxLanes(prisma: Pick<PrismaClient, '$queryRaw'>, limit: number): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ lane: string }[]>`
    SELECT lane FROM (
      SELECT ${OUTBOX_LANE_SQL} AS lane, min("createdAt") AS since
      FROM "SlackOutbox"
      WHERE status IN ('pending', 'sending')
      GROUP BY 1
    ) AS lanes
    ORDER BY since
    LIMIT ${limit}`;
  return rows.map((row) => row.lane);
}

/** The SQL that picks the rows of one lane (see the file comment for the shapes a lane takes). */
export function outboxLaneWhere(lane: string): Prisma.Sql {
  const slash = lane.indexOf('/');
  const workspaceId = lane.slice(0, slash);
  const kind = lane.slice(slash + 1, slash + 3);
  const value = lane.slice(slash + 3);
  // The workspace and channel are named on their own too, so the channel lane uses the (channelId, status) index.
  if (slash > 0 && kind === 'c:') return Prisma.sql`"workspaceId" = ${workspaceId} AND "channelId" = ${value}`;
  return Prisma.sql`"workspaceId" = ${workspaceId} AND ${OUTBOX_LANE_SQL} = ${lane}`;
}

/**
 * Every column of a `SlackOutbox` row, for raw reads that return whole rows. A `Record` over the model's fields: a
 * column added to the model and not here is a type error, not a row read back without it.
 */
const OUTBOX_COLUMNS: Record<keyof SlackOutbox, Prisma.Sql> = {
  id: Prisma.sql`id`,
  workspaceId: Prisma.sql`"workspaceId"`,
  dedupeKey: Prisma.sql`"dedupeKey"`,
  method: Prisma.sql`method`,
  channelId: Prisma.sql`"channelId"`,
  threadTs: Prisma.sql`"threadTs"`,
  payload: Prisma.sql`payload`,
  status: Prisma.sql`status::text AS status`,
  attempts: Prisma.sql`attempts`,
  notBefore: Prisma.sql`"notBefore"`,
  lockedBy: Prisma.sql`"lockedBy"`,
  lockedUntil: Prisma.sql`"lockedUntil"`,
  resultTs: Prisma.sql`"resultTs"`,
  lastError: Prisma.sql`"lastError"`,
  sentAt: Prisma.sql`"sentAt"`,
  createdAt: Prisma.sql`"createdAt"`,
};
const OUTBOX_ROW_SQL = Prisma.join(Object.values(OUTBOX_COLUMNS));

/** A lane's order: oldest first, then id byte by byte (`COLLATE "C"`, whatever the database locale). */
const LANE_ORDER_SQL = Prisma.sql`"createdAt", id COLLATE "C"`;

/** The oldest unsent row of one lane, if any, in one statement (a lane's run reads it before every row it sends). */
export async function laneHead(prisma: Pick<PrismaClient, '$queryRaw'>, lane: string): Promise<SlackOutbox | null> {
  const [head] = await prisma.$queryRaw<SlackOutbox[]>`
    SELECT ${OUTBOX_ROW_SQL}
    FROM "SlackOutbox"
    WHERE status IN ('pending', 'sending') AND ${outboxLaneWhere(lane)}
    ORDER BY ${LANE_ORDER_SQL}
    LIMIT 1`;
  return head ?? null;
}

/** The oldest unsent row of every lane, in one statement. */
export function laneHeads(prisma: Pick<PrismaClient, '$queryRaw'>): Promise<SlackOutbox[]> {
  return prisma.$queryRaw<SlackOutbox[]>`
    SELECT DISTINCT ON (${OUTBOX_LANE_SQL}) ${OUTBOX_ROW_SQL}
    FROM "SlackOutbox"
    WHERE status IN ('pending', 'sending')
    ORDER BY ${OUTBOX_LANE_SQL}, ${LANE_ORDER_SQL}`;
}
