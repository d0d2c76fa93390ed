// A person's reply in a thread, also when sent to the channel too (not the thread's first message, not an edit, a
// deletion, a join, a file share or a bot's message). Parley records it once per message — a re-delivered event, with or without `x-slack-retry-num`,
// changes nothing — and takes it as the answer when exactly one question is open to its author; with several open it
// asks which one. Replies from anyone else are conversation: logged, nobody is told.
import type { SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { log } from '../../../log.js';
import type { SlackDeps } from '../../deps.js';
import { eventTeamId, eventUserTeamId } from '../../team.js';

const threadReplySchema = z.object({
  channel: z.string(),
  user: z.string(),
  text: z.string().default(''),
  ts: z.string(),
  thread_ts: z.string(),
  client_msg_id: z.string().optional(),
});

export type ThreadReplyArgs = Pick<SlackEventMiddlewareArgs<'message'>, 'event' | 'body'>;

export function threadReply({ parley }: SlackDeps) {
  return async ({ event, body }: ThreadReplyArgs): Promise<void> => {
    const teamId = eventTeamId(body);
    if (!teamId || ('bot_id' in event && event.bot_id)) return;
    // File shares, edits, deletions, joins are not answers; a reply also sent to the channel (`thread_broadcast`) is.
    if ('subtype' in event && event.subtype !== undefined && event.subtype !== 'thread_broadcast') return;
    const reply = threadReplySchema.safeParse(event);
    if (!reply.success || reply.data.thread_ts === reply.data.ts) return;
    const result = await parley.threadReply(teamId, {
      channelId: reply.data.channel,
      threadTs: reply.data.thread_ts,
      messageTs: reply.data.ts,
      clientMsgId: reply.data.client_msg_id ?? null,
      text: reply.data.text,
      by: reply.data.user,
      // In a shared channel, the author's organisation: a connected supplier's people write in its thread.
      byTeamId: eventUserTeamId(event),
    });
    if (result && !result.ok) log.info('thread reply not taken as an answer', { error: result.error });
  };
}
