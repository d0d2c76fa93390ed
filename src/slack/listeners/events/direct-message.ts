// A person writes to Parley directly (the app's Messages tab, or a DM), with text or a file: Parley answers with how
// to get a quotation read. A file in a DM is never read as a quotation — its thread would be a conversation nobody
// else, approvers included, can see — and a DM asks nothing of the database, so the help is posted right here (no
// state changes, nothing for the outbox to order). Slack's re-delivery of the same message gets no second answer.
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { buildDirectMessageHelp } from '../../views/index.js';

const directMessageSchema = z.object({
  channel: z.string(),
  channel_type: z.literal('im'),
  user: z.string(),
  ts: z.string(),
  thread_ts: z.string().optional(),
  // A message people write, or a file they drop; edits, deletions and joins are not someone asking.
  subtype: z.enum(['file_share']).optional(),
});

export type DirectMessageArgs = Pick<SlackEventMiddlewareArgs<'message'>, 'event'> &
  Pick<AllMiddlewareArgs, 'client' | 'context'>;

export async function directMessage({ event, client, context }: DirectMessageArgs): Promise<void> {
  if ('bot_id' in event && event.bot_id) return;
  const message = directMessageSchema.safeParse(event);
  if (!message.success || message.data.user === context.botUserId || context.retryNum !== undefined) return;
  const { channel, thread_ts: threadTs } = message.data;
  await client.chat.postMessage({ channel, ...buildDirectMessageHelp(), ...(threadTs ? { thread_ts: threadTs } : {}) });
}
