// A `message` with subtype `file_share`: the upload's message. Its `thread_ts` (when the file was shared inside a
// thread) or else its own ts is the thread the quotation's conversation happens in; its ts is where the 👀 goes. Each
// file is claimed (once per file, whichever of the upload's two events comes first). `user_team` tells a Slack
// Connect channel's external member apart: their files are not read as the workspace's quotations. DMs are the
// direct-message listener's.
import type { SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { log } from '../../../log.js';
import type { SlackDeps } from '../../deps.js';
import { eventTeamId, eventUserTeamId } from '../../team.js';

const fileShareMessageSchema = z.object({
  subtype: z.literal('file_share'),
  channel: z.string(),
  channel_type: z.string().optional(),
  user: z.string(),
  ts: z.string(),
  thread_ts: z.string().optional(),
  files: z.array(z.object({ id: z.string() })).default([]),
});

export type FileShareMessageArgs = Pick<SlackEventMiddlewareArgs<'message'>, 'event' | 'body'>;

export function fileShareMessage({ parley }: SlackDeps) {
  return async ({ event, body }: FileShareMessageArgs): Promise<void> => {
    const teamId = eventTeamId(body);
    if (!teamId || ('bot_id' in event && event.bot_id)) return;
    const share = fileShareMessageSchema.safeParse(event);
    if (!share.success || share.data.channel_type === 'im') return;
    const { channel, user, ts, thread_ts: threadTs } = share.data;
    for (const file of share.data.files) {
      const outcome = await parley.fileShared({
        teamId,
        fileId: file.id,
        channelId: channel,
        userId: user,
        userTeamId: eventUserTeamId(event),
        threadTs: threadTs ?? ts,
        messageTs: ts,
        requestedBy: null,
      });
      if (!outcome.ok) log.info('shared file not taken', { error: outcome.error, teamId });
    }
  };
}
