// The message shortcut "Negotiate this quote": reads the files on that message, whatever their type (a PDF gets a
// clear answer about what to upload), in the message's thread.
import type { App, MessageShortcut } from '@slack/bolt';
import { CALLBACK } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { tellUser } from '../respond.js';
import { z } from 'zod';

const filesSchema = z.object({
  files: z
    .array(z.object({ id: z.string() }))
    .catch([])
    .default([]),
});

export function register(app: App, deps: SlackDeps): void {
  app.shortcut<MessageShortcut>(CALLBACK.negotiateShortcut, async ({ ack, shortcut, client }) => {
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
      await deps.parley.fileShared({
        teamId,
        fileId,
        channelId: shortcut.channel.id,
        userId: shortcut.user.id,
        threadTs: shortcut.message.thread_ts ?? shortcut.message.ts,
        explicit: true,
      });
    }
  });
}
