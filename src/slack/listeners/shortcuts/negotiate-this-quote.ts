// The message shortcut "Negotiate this quote": reads the files on that message, whatever their type (a PDF gets a
// clear answer about what to upload), in the message's thread. The quotation's buyer is the message's author, not
// whoever ran the shortcut; only they or an approver may run it, and only where Parley is a member. Every answer goes
// through the payload's response_url: it reaches the person even in a channel Parley is not in.
import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { SlackDeps } from '../../deps.js';
import { eventUserTeamId, interactionTeamId, interactionUserTeamId } from '../../team.js';
import { ACK_DEADLINE_MS, ackWhenSettled } from '../deadline.js';
import { respondPrivately } from '../respond.js';

const messageSchema = z.object({
  ts: z.string(),
  thread_ts: z.string().optional(),
  // Absent on an app's message: the file's owner (files.info) is then its uploader.
  user: z.string().optional(),
  files: z
    .array(z.object({ id: z.string() }))
    .catch([])
    .default([]),
});

export type ShortcutArgs = Pick<SlackShortcutMiddlewareArgs<MessageShortcut>, 'ack' | 'shortcut' | 'respond'> &
  Pick<AllMiddlewareArgs, 'client'>;

export function negotiateThisQuote({ parley }: SlackDeps, deadlineMs = ACK_DEADLINE_MS) {
  return async ({ ack, shortcut, respond }: ShortcutArgs): Promise<void> => {
    const teamId = interactionTeamId(shortcut);
    const message = messageSchema.safeParse(shortcut.message);
    const files = message.success ? message.data.files.map((file) => file.id) : [];
    if (!teamId || !message.success || files.length === 0) await ack();
    if (!teamId) return;
    if (!message.success || files.length === 0) {
      return respondPrivately(respond, {
        error: 'no_file',
        message: 'That message has no file. Use the shortcut on the message with the .xlsx.',
      });
    }
    const { ts, thread_ts: threadTs, user } = message.data;
    const claims = (async () => {
      const outcomes = [];
      for (const fileId of files) {
        outcomes.push(
          await parley.fileShared({
            teamId,
            fileId,
            channelId: shortcut.channel.id,
            userId: user ?? null,
            userTeamId: eventUserTeamId(shortcut.message),
            threadTs: threadTs ?? ts,
            messageTs: ts,
            requestedBy: { userId: shortcut.user.id, teamId: interactionUserTeamId(shortcut) },
          }),
        );
      }
      return outcomes;
    })();
    // Acknowledged once every file's claim is saved: the reads are durable jobs by then.
    const told = new Set<string>();
    for (const outcome of await ackWhenSettled(ack, claims, deadlineMs)) {
      // Each sentence once: "Parley is not in this channel" is true of every file on the message.
      if (!outcome.ok && !told.has(outcome.message)) {
        told.add(outcome.message);
        await respondPrivately(respond, outcome);
      }
    }
  };
}
