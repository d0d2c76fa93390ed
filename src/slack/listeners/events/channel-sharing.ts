// A channel's Slack Connect sharing changed: `channel_shared` (another organisation joined it) or `channel_unshared`
// (one left, or was removed). Parley re-reads the channel, so its supplier stays connected only while the channel is
// shared with that supplier's organisation alone (services/suppliers/connect-supplier.ts).
import type { SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { eventTeamId } from '../../team.js';

export type ChannelSharingArgs = Pick<
  SlackEventMiddlewareArgs<'channel_shared' | 'channel_unshared'>,
  'event' | 'body'
>;

export function channelSharing({ parley }: SlackDeps) {
  return async ({ event, body }: ChannelSharingArgs): Promise<void> => {
    const teamId = eventTeamId(body);
    if (teamId) await parley.channelSharingChanged(teamId, event.channel);
  };
}
