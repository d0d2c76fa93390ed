// How a listener answers one person: an ephemeral message in the channel they clicked in (a refusal, a problem with
// what they asked). Errors addressed to one person never go to the thread.
import { randomUUID } from 'node:crypto';
import type { RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Refusal } from '../deps.js';
import { buildGenericError, section } from '../views/index.js';
import { log } from '../../log.js';

export async function tellUser(
  client: WebClient,
  where: { channelId: string | null | undefined; userId: string; threadTs?: string | null },
  refusal: Refusal,
): Promise<void> {
  if (!where.channelId) return log.info('refusal with no channel to show it in', { ...refusal, userId: where.userId });
  const message = refusalMessage(refusal);
  await client.chat.postEphemeral({
    channel: where.channelId,
    user: where.userId,
    text: message.text,
    blocks: message.blocks,
    ...(where.threadTs ? { thread_ts: where.threadTs } : {}),
  });
}

/**
 * Something failed unexpectedly while doing what the person asked: logged whole under a short reference, which the
 * person is told (privately) with a "try again". Never throws: a Slack that cannot take the message is logged too.
 */
export async function tellFailure(
  client: WebClient,
  where: { channelId: string | null | undefined; userId: string; threadTs?: string | null },
  what: string,
  error: unknown,
): Promise<void> {
  const ref = logFailure(what, error, { userId: where.userId, channelId: where.channelId });
  if (!where.channelId) return;
  const message = buildGenericError({ ref });
  await client.chat
    .postEphemeral({
      channel: where.channelId,
      user: where.userId,
      text: message.text,
      blocks: message.blocks,
      ...(where.threadTs ? { thread_ts: where.threadTs } : {}),
    })
    .catch((failed: unknown) => log.error('could not tell a person about a failure', { error: failed, ref }));
}

/** Logs an unexpected failure whole under a short reference, which is what the person is told. */
export function logFailure(what: string, error: unknown, context: Record<string, unknown> = {}): string {
  const ref = randomUUID().slice(0, 8);
  log.error(what, { error, ref, ...context });
  return ref;
}

/** A refusal as the person reads it. Its sentence is written by Parley's services (fixed words, ids): trusted mrkdwn. */
export function refusalMessage(refusal: Refusal) {
  return { text: refusal.message, blocks: [section(`:lock: ${refusal.message} Nothing was changed.`)] };
}

/**
 * Tells one person through the payload's response_url (Bolt's `respond`): it reaches them in any channel, including
 * one Parley is not in, where chat.postEphemeral fails with `not_in_channel`.
 */
export async function respondPrivately(respond: RespondFn, refusal: Refusal): Promise<void> {
  await respond({ response_type: 'ephemeral', ...refusalMessage(refusal) });
}
