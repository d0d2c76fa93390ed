// Events: a file shared in a channel (as `message`/file_share and as `file_shared` — one upload sends both; the
// quotation is claimed once per file), a reply in a negotiation's thread (it answers the oldest open question), and
// the App Home being opened. The receiver acknowledges an event when its listener is done (processBeforeResponse), so
// each listener does only the quick, durable part — the claim, the answer — and leaves slow work to the background.
import type { App } from '@slack/bolt';
import { z } from 'zod';
import { log } from '../../../log.js';
import type { SlackDeps } from '../../deps.js';

const fileSharedSchema = z.object({ file_id: z.string(), channel_id: z.string(), user_id: z.string() });
const fileShareMessageSchema = z.object({
  subtype: z.literal('file_share'),
  channel: z.string(),
  user: z.string(),
  ts: z.string(),
  files: z.array(z.object({ id: z.string() })).default([]),
});
const threadReplySchema = z.object({
  channel: z.string(),
  user: z.string(),
  text: z.string().default(''),
  ts: z.string(),
  thread_ts: z.string(),
});

export function register(app: App, deps: SlackDeps): void {
  app.event('file_shared', async ({ event, body, context }) => {
    const parsed = fileSharedSchema.safeParse(event);
    // Parley's own uploads (the chart, the PO workbook) are files shared too.
    if (!parsed.success || !body.team_id || parsed.data.user_id === context.botUserId) return;
    await deps.parley.fileShared({
      teamId: body.team_id,
      fileId: parsed.data.file_id,
      channelId: parsed.data.channel_id,
      userId: parsed.data.user_id,
      threadTs: null,
      explicit: false,
    });
  });

  app.event('message', async ({ event, body }) => {
    const teamId = body.team_id;
    if (!teamId || ('bot_id' in event && event.bot_id)) return;
    const share = fileShareMessageSchema.safeParse(event);
    if (share.success) {
      for (const file of share.data.files) {
        await deps.parley.fileShared({
          teamId,
          fileId: file.id,
          channelId: share.data.channel,
          userId: share.data.user,
          threadTs: share.data.ts,
          explicit: false,
        });
      }
      return;
    }
    if ('subtype' in event && event.subtype !== undefined) return; // edits, joins, bot messages: not answers
    const reply = threadReplySchema.safeParse(event);
    if (!reply.success || reply.data.thread_ts === reply.data.ts) return;
    const result = await deps.parley.threadReply(teamId, {
      channelId: reply.data.channel,
      threadTs: reply.data.thread_ts,
      text: reply.data.text,
      by: reply.data.user,
    });
    if (result && !result.ok) log.info('thread reply not taken as an answer', { error: result.error });
  });

  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home' || !body.team_id) return;
    const view = await deps.screens.home(body.team_id, event.user);
    if (view) await client.views.publish({ user_id: event.user, view });
  });
}
