// What Parley asks Slack about a channel before working in it: is Parley a member (else nothing it posts arrives), is
// it a DM, is it shared with another organisation (conversations.info, scopes channels:read / groups:read / im:read);
// and the files on its latest messages (conversations.history, channels:history / groups:history).
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';

const conversationSchema = z.object({
  channel: z.object({
    is_member: z.boolean().optional(),
    is_im: z.boolean().optional(),
    is_ext_shared: z.boolean().optional(),
    is_pending_ext_shared: z.boolean().optional(),
    // Every organisation the channel is connected to, the installation's own included
    // (https://docs.slack.dev/reference/methods/conversations.info, a shared channel's example).
    connected_team_ids: z.array(z.string()).optional(),
  }),
});

export interface SlackChannelInfo {
  isMember: boolean;
  isIm: boolean;
  isExternal: boolean;
  /** The organisations a Slack Connect channel is connected to, the installation's own included; [] for others. */
  connectedTeamIds: string[];
}

/** Slack's answer for a channel the token cannot see: a private channel Parley is not in, or one that is gone. */
const UNSEEN = new Set(['channel_not_found', 'not_in_channel', 'method_not_supported_for_channel_type']);

/** The WebClient's platform error (`ok: false`), as far as its code goes. */
const platformErrorSchema = z.object({ data: z.object({ error: z.string() }) });

export async function slackChannelInfo(client: WebClient, channelId: string): Promise<SlackChannelInfo> {
  let answer: unknown;
  try {
    answer = await client.conversations.info({ channel: channelId });
  } catch (error) {
    const code = platformErrorSchema.safeParse(error).data?.data.error;
    if (code !== undefined && UNSEEN.has(code))
      return { isMember: false, isIm: false, isExternal: false, connectedTeamIds: [] };
    throw error;
  }
  const { channel } = conversationSchema.parse(answer);
  return {
    // A DM with Parley is Parley's own; Slack leaves is_member out for IMs.
    isMember: channel.is_member === true || channel.is_im === true,
    isIm: channel.is_im === true,
    // An invitation to another organisation still pending counts: it will show the thread to them once accepted.
    isExternal: channel.is_ext_shared === true || channel.is_pending_ext_shared === true,
    connectedTeamIds: channel.connected_team_ids ?? [],
  };
}

const historySchema = z.object({
  messages: z
    .array(
      z.object({
        ts: z.string(),
        user: z.string().optional(),
        bot_id: z.string().optional(),
        files: z
          .array(z.object({ id: z.string(), name: z.string().default('file'), filetype: z.string().optional() }))
          .optional(),
      }),
    )
    .default([]),
});

/** How far back `/parley negotiate` looks: the latest messages, one page (Slack's history is newest first). */
export const HISTORY_LOOKBACK = 100;

export interface ChannelFile {
  fileId: string;
  name: string;
  filetype: string | null;
  userId: string;
  ts: string;
}

/** The files people (not bots: Parley's own chart and PO) put on the channel's latest messages, newest first. */
export async function recentChannelFiles(client: WebClient, channelId: string): Promise<ChannelFile[]> {
  const history = historySchema.parse(
    await client.conversations.history({ channel: channelId, limit: HISTORY_LOOKBACK }),
  );
  return history.messages.flatMap((message) => {
    const { user } = message;
    if (message.bot_id !== undefined || user === undefined) return [];
    return (message.files ?? []).map((file) => ({
      fileId: file.id,
      name: file.name,
      filetype: file.filetype ?? null,
      userId: user,
      ts: message.ts,
    }));
  });
}
