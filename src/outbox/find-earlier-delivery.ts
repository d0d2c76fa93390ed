// Before re-sending a row whose earlier attempt may have reached Slack (a crash, a timeout, a 5xx after Slack
// answered), the poster looks for what that attempt posted, in conversations.history or conversations.replies. Slack
// limits both to 1 request a minute and 15 messages a page for apps outside the Marketplace (since 2025), and the
// row's channel waits for the answer, so the check reads as few pages as it can:
//
// - It asks only for messages newer than the channel's latest recorded post. The lane sends in order, so this row was
//   claimed only after that post was recorded, and anything it posted is newer; the bound is Slack's own ts, not a
//   local clock. No `latest`: every earlier attempt precedes the check, and a bound from our clock would cut the
//   message off when our clock runs behind Slack's.
// - It asks for the largest page Slack allows (Slack returns fewer, 15, to apps outside the Marketplace).
// - It stops at the first page that holds the match.
// - A page that fails (a 429, a 5xx, a timeout) keeps the check's place: the next attempt, after Retry-After or the
//   backoff, resumes from the cursor it reached instead of page one.
//
// A chat.startStream cannot carry metadata, so its match is the stream's own mark: in the stream's thread, a message of
// a bot, newer than the bound, with neither the outbox's metadata (every post of the outbox has it) nor a file, that no
// other row recorded as its own. A thread holds one plan stream (its dedupe key is the quotation's), so that message
// can only be this row's.
//
// The place is kept in memory, per row, not on the row. Pages already read prove the message is not there only while
// no attempt that could have posted came in between, and the row's `attempts` tells exactly that within this process
// (see settle()); another instance that takes the row over after a crash starts from the top, which the narrow window
// makes a page or two. Keeping it on the row would cost a migration and a write per page for that rare case.
import type { webApi } from '@slack/bolt';
import { z } from 'zod';
import type { PrismaClient } from '../db/client.js';
import type { SlackOutbox } from '../generated/prisma/client.js';
import { classifySlackError } from './classify-slack-error.js';
import { OUTBOX_EVENT_TYPE, type OutboxMethod, POSTING_METHODS, uploadPayloadSchema } from './outbox-call.js';
import type { OutboxLog } from './outbox-poster.js';

type WebClient = webApi.WebClient;
type WebAPICallResult = webApi.WebAPICallResult;

/** When the channel has no recorded post: how far before the row's creation to look (covers clock skew with Slack). */
const LOOKUP_LOOKBACK_MS = 10 * 60_000;
/** The largest `limit` conversations.history accepts (replies accepts 1000). */
const LOOKUP_PAGE_LIMIT = 999;
/** Pages read over the whole check, resumptions included, before posting again is the lesser evil. */
const LOOKUP_MAX_PAGES = 5;
/** Recent posts of the channel whose ts bound the check (the newest is normally the first). */
const BOUNDING_POSTS = 20;
/** The methods whose earlier delivery can be found: a post (its metadata), an upload (its file), a stream (see above). */
const LOOKED_UP: ReadonlySet<OutboxMethod> = new Set(['chat.postMessage', 'files.uploadV2', 'chat.startStream']);
/** Rows whose place is remembered; a row another instance finished is never settled here, so the map is capped. */
const MAX_TRACKED_ROWS = 1_000;

/** The outcome kinds of one attempt, as the poster records them. */
export type AttemptOutcomeKind = 'sent' | 'postponed' | 'retry' | 'failed';

export interface ResendCheckOptions {
  prisma: PrismaClient;
  log: OutboxLog;
  /** Calls a Web API method under the poster's send timeout. */
  call: (client: WebClient, method: string, args: Record<string, unknown>) => Promise<WebAPICallResult>;
}

export interface ResendCheck {
  /**
   * The ts of what an earlier attempt of this row posted (a chat.postMessage by its metadata key, an upload by its
   * file name and title, a chat.startStream by its thread's one stream), or null when there is none or the lookup is refused (a missing scope: posting again is the
   * lesser evil). Throws on a retryable failure, keeping its place for the next attempt.
   */
  find(
    client: WebClient,
    row: SlackOutbox,
    method: OutboxMethod,
    args: Record<string, unknown>,
    threadTs: string | null,
  ): Promise<string | null>;
  /**
   * Whether an earlier attempt of this chat.update row already edited the message at `targetTs` (in the thread
   * `threadTs`, or at the channel's top level): every edit of the outbox names its row in the message's metadata, so
   * one read of that message tells. False when the lookup is refused (posting the same edit again is harmless, only
   * repeated); throws on a retryable failure.
   */
  editApplied(client: WebClient, row: SlackOutbox, targetTs: string, threadTs: string | null): Promise<boolean>;
  /** Called with every attempt's outcome: decides whether the next attempt may trust what this one read. */
  settle(row: SlackOutbox, outcome: AttemptOutcomeKind): void;
}

interface Progress {
  /** The method and arguments the cursor belongs to: a cursor is only valid for the same query. */
  query: string;
  /** The page to read next; undefined for the first. */
  cursor: string | undefined;
  pagesRead: number;
  /** Every page allowed was read and held no match. */
  exhausted: boolean;
  /** The `attempts` a claim of the row must carry to resume from here. */
  validFor: number;
}

export function createResendCheck(options: ResendCheckOptions): ResendCheck {
  const { prisma, log } = options;
  const places = new Map<string, Progress>();

  function remember(rowId: string, progress: Progress): void {
    places.delete(rowId);
    places.set(rowId, progress);
    const oldest = places.keys().next();
    if (places.size > MAX_TRACKED_ROWS && !oldest.done) places.delete(oldest.value);
  }

  /** Slack's ts of the channel's latest recorded post, or the row's creation less the lookback, whichever is newer. */
  async function lowerBound(row: SlackOutbox, channel: string): Promise<string> {
    const fallback = ((row.createdAt.getTime() - LOOKUP_LOOKBACK_MS) / 1000).toFixed(6);
    const posts = await prisma.slackOutbox.findMany({
      where: {
        workspaceId: row.workspaceId,
        channelId: channel,
        status: 'sent',
        method: { in: [...POSTING_METHODS] },
        resultTs: { not: null },
      },
      orderBy: { createdAt: 'desc' },
      take: BOUNDING_POSTS,
      select: { resultTs: true },
    });
    // An upload recorded without its share holds a file id, not a ts.
    return posts.reduce(
      (bound, post) => (post.resultTs && isNewerTs(post.resultTs, bound) ? post.resultTs : bound),
      fallback,
    );
  }

  /**
   * The match of one page's candidates; for an upload or a stream, skipping messages (and files) other rows of the
   * workspace already recorded.
   */
  async function pick(row: SlackOutbox, method: OutboxMethod, candidates: HistoryMessage[]): Promise<string | null> {
    if (method === 'chat.postMessage') return candidates[0]?.ts ?? null;
    const seen = candidates.flatMap((message) => [message.ts, ...(message.files ?? []).map((file) => file.id)]);
    if (seen.length === 0) return null;
    const taken = await prisma.slackOutbox.findMany({
      where: { workspaceId: row.workspaceId, resultTs: { in: seen }, id: { not: row.id } },
      select: { resultTs: true },
    });
    const takenTs = new Set(taken.map((other) => other.resultTs));
    const free = candidates.filter(
      (message) => !takenTs.has(message.ts) && !(message.files ?? []).some((file) => takenTs.has(file.id)),
    );
    // Oldest first: the earliest unclaimed match is the most likely to be ours.
    free.sort((a, b) => (isNewerTs(a.ts, b.ts) ? 1 : isNewerTs(b.ts, a.ts) ? -1 : 0));
    return free[0]?.ts ?? null;
  }

  return {
    async editApplied(client, row, targetTs, threadTs) {
      const channel = row.channelId;
      if (!channel) return false;
      // Just the message: its thread's parent comes back too whatever the window says, hence two.
      const window = { oldest: targetTs, latest: targetTs, inclusive: true, include_all_metadata: true, limit: 2 };
      const [lookupMethod, request] = threadTs
        ? (['conversations.replies', { channel, ts: threadTs, ...window }] as const)
        : (['conversations.history', { channel, ...window }] as const);
      try {
        const page = historySchema.parse(await options.call(client, lookupMethod, request));
        const message = page.messages.find((m) => m.ts === targetTs);
        return (
          message?.metadata?.event_type === OUTBOX_EVENT_TYPE && message.metadata.event_payload?.edit === row.dedupeKey
        );
      } catch (error) {
        if (classifySlackError(error).kind !== 'permanent') throw error;
        log.warn('Slack outbox could not look for an earlier edit; editing again', {
          rowId: row.id,
          dedupeKey: row.dedupeKey,
          error: error instanceof Error ? error.message : String(error),
        });
        return false;
      }
    },
    async find(client, row, method, args, threadTs) {
      const channel = row.channelId;
      if (!LOOKED_UP.has(method) || !channel) return null;
      // A stream always starts in a thread; one without is not looked up (it has nowhere to be).
      if (method === 'chat.startStream' && !threadTs) return null;
      const lookupMethod = threadTs ? 'conversations.replies' : 'conversations.history';
      const request = {
        channel,
        ...(threadTs ? { ts: threadTs } : {}),
        oldest: await lowerBound(row, channel),
        include_all_metadata: true,
        limit: LOOKUP_PAGE_LIMIT,
      };
      const query = JSON.stringify([lookupMethod, request]);
      const fields = { rowId: row.id, dedupeKey: row.dedupeKey, method: lookupMethod };
      let progress = places.get(row.id);
      if (progress?.validFor === row.attempts && progress.query === query) {
        log.info('Slack outbox resend check resumes where it stopped', {
          ...fields,
          pagesRead: progress.pagesRead,
          exhausted: progress.exhausted,
        });
      } else {
        progress = { query, cursor: undefined, pagesRead: 0, exhausted: false, validFor: row.attempts };
        remember(row.id, progress);
      }
      if (progress.exhausted) return null;
      const upload = method === 'files.uploadV2' ? uploadPayloadSchema.safeParse(args).data : undefined;
      const matches = (message: HistoryMessage): boolean => {
        switch (method) {
          case 'chat.postMessage':
            return (
              message.metadata?.event_type === OUTBOX_EVENT_TYPE &&
              message.metadata.event_payload?.key === row.dedupeKey
            );
          case 'chat.startStream':
            return (
              message.bot_id !== undefined &&
              message.metadata?.event_type !== OUTBOX_EVENT_TYPE &&
              (message.files ?? []).length === 0 &&
              // The thread's parent comes back whatever `oldest` says.
              message.ts !== threadTs
            );
          default:
            return (message.files ?? []).some(
              (file) =>
                file.name === upload?.filename && (file.title ?? file.name) === (upload?.title ?? upload?.filename),
            );
        }
      };
      try {
        while (progress.pagesRead < LOOKUP_MAX_PAGES) {
          const cursor = progress.cursor;
          const page = historySchema.parse(
            await options.call(client, lookupMethod, { ...request, ...(cursor ? { cursor } : {}) }),
          );
          const found = await pick(row, method, page.messages.filter(matches));
          progress.pagesRead += 1;
          if (found) {
            places.delete(row.id);
            return found;
          }
          const next = page.response_metadata?.next_cursor;
          if (!page.has_more || !next) break;
          progress.cursor = next;
          if (progress.pagesRead >= LOOKUP_MAX_PAGES) {
            log.warn('Slack outbox resend check gave up before the last page; sending again', fields);
          }
        }
      } catch (error) {
        const failure = classifySlackError(error);
        if (failure.kind !== 'permanent') throw error;
        places.delete(row.id);
        log.warn('Slack outbox could not look for an earlier delivery; sending again', {
          ...fields,
          error: failure.message,
        });
        return null;
      }
      progress.exhausted = true;
      return null;
    },

    settle(row, outcome) {
      const progress = places.get(row.id);
      if (!progress) return;
      // Read by an attempt that is not this one: something may have posted since.
      if (progress.validFor !== row.attempts) {
        places.delete(row.id);
        return;
      }
      switch (outcome) {
        case 'postponed':
          // A 429 or a reference not sent yet: nothing was posted, and the attempt is uncounted, so the next claim
          // carries the same number.
          return;
        case 'retry':
          // A check that was still reading failed before anything was posted: the next attempt (counted, one more)
          // resumes. One that had finished went on to post, which may have landed: look again from the top.
          if (progress.exhausted) places.delete(row.id);
          else progress.validFor = row.attempts + 1;
          return;
        case 'sent':
        case 'failed':
          places.delete(row.id);
      }
    },
  };
}

const TS = /^(\d+)\.(\d{1,6})$/;

/** Slack timestamps compared exactly (a double cannot hold seconds and microseconds of every ts); non-ts never win. */
function isNewerTs(candidate: string, than: string): boolean {
  const micros = (ts: string): bigint | null => {
    const parts = TS.exec(ts);
    return parts?.[1] && parts[2] ? BigInt(parts[1]) * 1_000_000n + BigInt(parts[2].padEnd(6, '0')) : null;
  };
  const a = micros(candidate);
  const b = micros(than);
  return a !== null && (b === null || a > b);
}

const historySchema = z.object({
  messages: z
    .array(
      z
        .object({
          ts: z.string(),
          bot_id: z.string().optional(),
          metadata: z
            .object({ event_type: z.string().optional(), event_payload: z.record(z.string(), z.unknown()).optional() })
            .optional(),
          files: z
            .array(z.object({ id: z.string(), name: z.string().optional(), title: z.string().optional() }))
            .optional(),
        })
        .loose(),
    )
    .default([]),
  has_more: z.boolean().optional(),
  response_metadata: z.object({ next_cursor: z.string().optional() }).loose().optional(),
});

type HistoryMessage = z.infer<typeof historySchema>['messages'][number];
