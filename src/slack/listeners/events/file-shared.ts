// `file_shared`: a file appeared in a channel Parley is in (one upload also sends a `message` with subtype
// `file_share`; the quotation is claimed once per file). Only the claim happens before Slack is answered; reading the
// file is background work.
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { SlackDeps } from '../../deps.js';

const fileSharedSchema = z.object({ file_id: z.string(), channel_id: z.string(), user_id: z.string() });

export type FileSharedArgs = Pick<SlackEventMiddlewareArgs<'file_shared'>, 'event' | 'body'> &
  Pick<AllMiddlewareArgs, 'context'>;

export function fileShared({ parley }: SlackDeps) {
  return async ({ event, body, context }: FileSharedArgs): Promise<void> => {
    const parsed = fileSharedSchema.safeParse(event);
    // Parley's own uploads (the chart, the PO workbook) are files shared too.
    if (!parsed.success || !body.team_id || parsed.data.user_id === context.botUserId) return;
    await parley.fileShared({
      teamId: body.team_id,
      fileId: parsed.data.file_id,
      channelId: parsed.data.channel_id,
      userId: parsed.data.user_id,
      threadTs: null,
      explicit: false,
    });
  };
}
