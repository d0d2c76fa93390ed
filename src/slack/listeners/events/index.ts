// Events, one named handler each: a file shared in a channel (as `file_shared` and as a `message` with subtype
// `file_share` — one upload sends both; the quotation is claimed once per file), a reply in a negotiation's thread
// (recorded once per message; it answers the one question open to its author, or Parley asks which), a direct message
// to Parley (answered with help), the App Home being opened, Parley uninstalled or its bot token revoked, and a
// channel's Slack Connect sharing changing (a supplier's channel). The
// receiver acknowledges an event when its listeners are done (processBeforeResponse), so each does only the quick,
// durable part — the claim, the answer — and leaves slow work to the background.
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { appHomeOpened } from './app-home-opened.js';
import { appUninstalled, tokensRevoked } from './app-uninstalled.js';
import { channelSharing } from './channel-sharing.js';
import { directMessage } from './direct-message.js';
import { fileShareMessage } from './file-share-message.js';
import { fileShared } from './file-shared.js';
import { threadReply } from './thread-reply.js';

export function register(app: App, deps: SlackDeps): void {
  app.event('file_shared', fileShared(deps));
  app.event('message', fileShareMessage(deps));
  app.event('message', threadReply(deps));
  app.event('message', directMessage);
  app.event('app_home_opened', appHomeOpened(deps));
  app.event('app_uninstalled', appUninstalled(deps));
  app.event('tokens_revoked', tokensRevoked(deps));
  app.event('channel_shared', channelSharing(deps));
  app.event('channel_unshared', channelSharing(deps));
}
