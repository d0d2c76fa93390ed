// `file_shared`: a file appeared in a channel Parley is in (one upload also sends a `message` with subtype
// `file_share`; the quotation is claimed once per file). Only the claim happens before Slack is answered; reading the
// file is background work. The event names neither the thread nor the uploader's team: Parley asks files.info.
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { log } from '../../../log.js';
import type { SlackDeps } from '../../deps.js';
import { eventTeamId } from '../../team.js';

const fileSharedSchema = z.object({ file_id: z.string(), channel_id: z.string(), user_id: z.string() });

export type FileSharedArgs = Pick<SlackEventMiddlewareArgs<'file_shared'>, 'event' | 'body'> &
  Pick<AllMiddlewareArgs, 'context'>;

export function fileShared({ parley }: SlackDeps) {
  return async ({ event, body, context }: FileSharedArgs): Promise<void> => {
    const parsed = fileSharedSchema.safeParse(event);
    const teamId = eventTeamId(body);
    // Parley's own uploads (the chart, the PO workbook) are files shared too.
    if (!parsed.success || !teamId || parsed.data.user_id === context.botUserId) return;
    const outcome = await parley.fileShared({
      teamId,
      fileId: parsed.data.file_id,
      channelId: parsed.data.channel_id,
      userId: parsed.data.user_id,
      userTeamId: null,
      threadTs: null,
      messageTs: null,
      requestedBy: null,
    });
    if (!outcome.ok) log.info('shared file not taken', { error: outcome.error, teamId });
  };
}
