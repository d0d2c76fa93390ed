// `/parley help | status | negotiate | settings | catalog`. Help and status answer in the acknowledgement itself
// (ephemeral, within the 3 s); settings and catalog open a modal for admins; negotiate reads a file named by its link or picked from the
// channel's recent ones (negotiate.ts).
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { buildHelp } from '../../views/index.js';
import { showModal } from '../modal.js';
import { negotiateCommand } from './negotiate.js';

export type CommandArgs = Pick<SlackCommandMiddlewareArgs, 'ack' | 'command' | 'respond'> &
  Pick<AllMiddlewareArgs, 'client'>;

export function parleyCommand({ parley, screens }: SlackDeps) {
  return async (args: CommandArgs): Promise<void> => {
    const { ack, command, client } = args;
    const [verb = 'help'] = command.text.trim().toLowerCase().split(/\s+/);
    const teamId = command.team_id;

    if (verb === 'status') {
      const message = await screens.channelStatus(teamId, command.channel_id);
      return void (await ack({ response_type: 'ephemeral', ...message }));
    }
    if (verb === 'settings') {
      await ack();
      // A loading view at once (the trigger lasts 3 s), then the settings or why this person may not change them.
      return showModal(client, command.trigger_id, {
        how: 'open',
        read: () => screens.settingsModal(teamId, command.user_id),
      });
    }
    if (verb === 'catalog') {
      await ack();
      // The upload modal at once; a person who may not import sees why in its place.
      return showModal(client, command.trigger_id, {
        how: 'open',
        read: () => screens.catalogModal(teamId, command.user_id),
      });
    }
    if (verb === 'negotiate') return negotiateCommand(parley, args);
    await ack({ response_type: 'ephemeral', ...buildHelp() });
  };
}
