// Parley was uninstalled from a workspace, or its bot token revoked: Slack sends `app_uninstalled`, or
// `tokens_revoked` listing the revoked tokens (user tokens alone leave the bot working: nothing to do). Bolt runs
// these listeners without authorizing (the token is already dead). The receiver answers Slack when this returns, so
// the installation is removed and the workspace's unsent Slack calls given up in that one commit first; a team Parley
// has no installation for is acknowledged and ignored. The workspace's data stays for a reinstall.
import type { SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { eventTeamId } from '../../team.js';

export type AppUninstalledArgs = Pick<SlackEventMiddlewareArgs<'app_uninstalled'>, 'body'>;
export type TokensRevokedArgs = Pick<SlackEventMiddlewareArgs<'tokens_revoked'>, 'event' | 'body'>;

export function appUninstalled({ parley }: SlackDeps) {
  return async ({ body }: AppUninstalledArgs): Promise<void> => {
    const teamId = eventTeamId(body);
    if (teamId) await parley.uninstalled(teamId, 'app_uninstalled');
  };
}

export function tokensRevoked({ parley }: SlackDeps) {
  return async ({ event, body }: TokensRevokedArgs): Promise<void> => {
    const teamId = eventTeamId(body);
    if (teamId && (event.tokens.bot?.length ?? 0) > 0) await parley.uninstalled(teamId, 'tokens_revoked');
  };
}
