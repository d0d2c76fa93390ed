// `/parley help | status | negotiate | suppliers | settings | catalog`. Help and status answer in the acknowledgement
// itself (ephemeral, within the 3 s — a status read slower than that is acknowledged first and answered by
// response_url); suppliers, settings and catalog open a modal for admins; negotiate reads a file named by its link or
// picked from the channel's recent ones (negotiate.ts).
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { log } from '../../../log.js';
import type { SlackDeps } from '../../deps.js';
import { buildHelp } from '../../views/index.js';
import { ACK_DEADLINE_MS, settleWithin } from '../deadline.js';
import { showModal } from '../modal.js';
import { negotiateCommand } from './negotiate.js';

export type CommandArgs = Pick<SlackCommandMiddlewareArgs, 'ack' | 'command' | 'respond'> &
  Pick<AllMiddlewareArgs, 'client'>;

export function parleyCommand({ parley, screens }: SlackDeps, deadlineMs = ACK_DEADLINE_MS) {
  return async (args: CommandArgs): Promise<void> => {
    const { ack, command, client, respond } = args;
    const [verb = 'help'] = command.text.trim().toLowerCase().split(/\s+/);
    const teamId = command.team_id;

    if (verb === 'status') {
      const reading = screens.channelStatus(teamId, command.channel_id);
      const settled = await settleWithin(reading, deadlineMs);
      if (settled.status === 'fulfilled') return void (await ack({ response_type: 'ephemeral', ...settled.value }));
      await ack();
      if (settled.status === 'rejected') throw settled.reason;
      reading
        .then((message) => respond({ response_type: 'ephemeral', ...message }))
        .catch((error: unknown) => log.error('a slow /parley status failed after its acknowledgement', { error }));
      return;
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
    if (verb === 'suppliers') {
      await ack();
      return showModal(client, command.trigger_id, {
        how: 'open',
        read: () => screens.suppliersModal(teamId, command.user_id),
      });
    }
    if (verb === 'negotiate') return negotiateCommand(parley, args, deadlineMs);
    await ack({ response_type: 'ephemeral', ...buildHelp() });
  };
}
