// A `message` with subtype `file_share`: the upload's message, which names the thread (its own ts) the quotation's
// conversation happens in. Each file is claimed (once per file, whichever of the upload's two events comes first).
import type { SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { SlackDeps } from '../../deps.js';

const fileShareMessageSchema = z.object({
  subtype: z.literal('file_share'),
  channel: z.string(),
  user: z.string(),
  ts: z.string(),
  files: z.array(z.object({ id: z.string() })).default([]),
});

export type FileShareMessageArgs = Pick<SlackEventMiddlewareArgs<'message'>, 'event' | 'body'>;

export function fileShareMessage({ parley }: SlackDeps) {
  return async ({ event, body }: FileShareMessageArgs): Promise<void> => {
    const teamId = body.team_id;
    if (!teamId || ('bot_id' in event && event.bot_id)) return;
    const share = fileShareMessageSchema.safeParse(event);
    if (!share.success) return;
    for (const file of share.data.files) {
      await parley.fileShared({
        teamId,
        fileId: file.id,
        channelId: share.data.channel,
        userId: share.data.user,
        threadTs: share.data.ts,
        explicit: false,
      });
    }
  };
}
