// `/parley help | status | negotiate | settings`. Help and status answer in the acknowledgement itself (ephemeral,
// within the 3 s); settings opens a modal for admins; negotiate, run in a file's thread, reads that file.
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs, SlashCommand } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { buildHelp } from '../../views/index.js';
import { tellUser } from '../respond.js';

export type CommandArgs = Pick<SlackCommandMiddlewareArgs, 'ack' | 'command'> & Pick<AllMiddlewareArgs, 'client'>;

export const NEGOTIATE_OUTSIDE_THREAD =
  'Run `/parley negotiate` in the thread of the message that has the .xlsx, or use the message shortcut ' +
  '*Negotiate this quote* on that message.';

export function parleyCommand({ parley, screens }: SlackDeps) {
  return async ({ ack, command, client }: CommandArgs): Promise<void> => {
    const [verb = 'help'] = command.text.trim().toLowerCase().split(/\s+/);
    const teamId = command.team_id;

    if (verb === 'status') {
      const message = await screens.channelStatus(teamId, command.channel_id);
      return void (await ack({ response_type: 'ephemeral', ...message }));
    }
    if (verb === 'settings') {
      await ack();
      const modal = await screens.settingsModal(teamId, command.user_id);
      if (!modal.ok) return tellUser(client, { channelId: command.channel_id, userId: command.user_id }, modal);
      await client.views.open({ trigger_id: command.trigger_id, view: modal.value });
      return;
    }
    if (verb === 'negotiate') {
      const threadTs = threadOf(command);
      if (!threadTs) return void (await ack({ response_type: 'ephemeral', text: NEGOTIATE_OUTSIDE_THREAD }));
      await ack();
      await parley.negotiateFilesOf(teamId, {
        channelId: command.channel_id,
        messageTs: threadTs,
        userId: command.user_id,
      });
      return;
    }
    await ack({ response_type: 'ephemeral', ...buildHelp() });
  };
}

/** Slack includes the thread's ts when a command is run in a thread (newer clients); older payloads do not. */
function threadOf(command: SlashCommand): string | null {
  const value = (command as SlashCommand & { thread_ts?: unknown }).thread_ts;
  return typeof value === 'string' && value !== '' ? value : null;
}
