// A person writes to Parley directly (the app's Messages tab, or a DM), with text or a file: Parley answers with how
// to get a quotation read. A file in a DM is never read as a quotation — its thread would be a conversation nobody
// else, approvers included, can see — and a DM asks nothing of the database, so the help is posted from here (no
// state changes, nothing for the outbox to order). The listener returns without waiting for that post: the receiver
// answers Slack only when it returns, and nothing here needs saving first. A help that fails is logged and lost, as it
// was before (Slack's re-delivery of the same message gets no second answer); the person can write again.
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { buildDirectMessageHelp } from '../../views/index.js';
import { log } from '../../../log.js';

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
  void client.chat
    .postMessage({ channel, ...buildDirectMessageHelp(), ...(threadTs ? { thread_ts: threadTs } : {}) })
    .catch((error: unknown) => log.error('could not answer a direct message with help', { error, channel }));
}
