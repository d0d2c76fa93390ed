// How a listener answers one person: an ephemeral message in the channel they clicked in (a refusal, a problem with
// what they asked). Errors addressed to one person never go to the thread.
import type { WebClient } from '@slack/web-api';
import type { Refusal } from '../deps.js';
import { section } from '../views/index.js';
import { log } from '../../log.js';

export async function tellUser(
  client: WebClient,
  where: { channelId: string | null | undefined; userId: string; threadTs?: string | null },
  refusal: Refusal,
): Promise<void> {
  if (!where.channelId) return log.info('refusal with no channel to show it in', { ...refusal, userId: where.userId });
  // Refusal sentences are written by Parley's services (fixed words, ids, PO numbers): trusted mrkdwn.
  const message = { text: refusal.message, blocks: [section(`:lock: ${refusal.message} Nothing was changed.`)] };
  await client.chat.postEphemeral({
    channel: where.channelId,
    user: where.userId,
    text: message.text,
    blocks: message.blocks,
    ...(where.threadTs ? { thread_ts: where.threadTs } : {}),
  });
}
