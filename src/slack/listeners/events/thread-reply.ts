// A person's reply in a thread (not the thread's first message, not an edit, a join or a bot's message): it answers
// the oldest open question of the thread's negotiation, if there is one.
import type { SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { log } from '../../../log.js';
import type { SlackDeps } from '../../deps.js';

const threadReplySchema = z.object({
  channel: z.string(),
  user: z.string(),
  text: z.string().default(''),
  ts: z.string(),
  thread_ts: z.string(),
});

export type ThreadReplyArgs = Pick<SlackEventMiddlewareArgs<'message'>, 'event' | 'body'>;

export function threadReply({ parley }: SlackDeps) {
  return async ({ event, body }: ThreadReplyArgs): Promise<void> => {
    const teamId = body.team_id;
    if (!teamId || ('bot_id' in event && event.bot_id)) return;
    if ('subtype' in event && event.subtype !== undefined) return; // file shares, edits, joins: not answers
    const reply = threadReplySchema.safeParse(event);
    if (!reply.success || reply.data.thread_ts === reply.data.ts) return;
    const result = await parley.threadReply(teamId, {
      channelId: reply.data.channel,
      threadTs: reply.data.thread_ts,
      text: reply.data.text,
      by: reply.data.user,
    });
    if (result && !result.ok) log.info('thread reply not taken as an answer', { error: result.error });
  };
}
