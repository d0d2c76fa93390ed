// The message shortcut "Negotiate this quote": reads the files on that message, whatever their type (a PDF gets a
// clear answer about what to upload), in the message's thread.
import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { SlackDeps } from '../../deps.js';
import { tellUser } from '../respond.js';

const filesSchema = z.object({
  files: z
    .array(z.object({ id: z.string() }))
    .catch([])
    .default([]),
});

export type ShortcutArgs = Pick<SlackShortcutMiddlewareArgs<MessageShortcut>, 'ack' | 'shortcut'> &
  Pick<AllMiddlewareArgs, 'client'>;

export function negotiateThisQuote({ parley }: SlackDeps) {
  return async ({ ack, shortcut, client }: ShortcutArgs): Promise<void> => {
    await ack();
    const teamId = shortcut.team?.id ?? shortcut.user.team_id;
    const files = filesSchema.parse(shortcut.message).files.map((file) => file.id);
    if (!teamId) return;
    if (files.length === 0) {
      return tellUser(
        client,
        { channelId: shortcut.channel.id, userId: shortcut.user.id },
        { error: 'no_file', message: 'That message has no file. Use the shortcut on the message with the .xlsx.' },
      );
    }
    for (const fileId of files) {
      await parley.fileShared({
        teamId,
        fileId,
        channelId: shortcut.channel.id,
        userId: shortcut.user.id,
        threadTs: shortcut.message.thread_ts ?? shortcut.message.ts,
        explicit: true,
      });
    }
  };
}
