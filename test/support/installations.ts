// A Bolt OAuth installation of Parley in one team, as the installation store is handed it, and the query that fetches
// it back: for the tests of the store and of what an uninstall forgets.
import type { Installation } from '@slack/bolt';

export interface InstallationOptions {
  /** Who installed Parley (the installation's user). */
  installer?: string;
  botToken?: string;
  userToken?: string;
  scopes?: string[];
}

export function installationOf(teamId: string, options: InstallationOptions = {}): Installation<'v2', false> {
  const { installer = 'U0INSTALL1', botToken = `xoxb-${teamId}`, userToken, scopes = ['chat:write'] } = options;
  return {
    team: { id: teamId, name: `Team ${teamId}` },
    enterprise: undefined,
    isEnterpriseInstall: false,
    user: { id: installer, token: userToken, scopes: undefined },
    bot: { id: 'B0PARLEY01', userId: 'U0PARLEYBT', token: botToken, scopes },
    tokenType: 'bot',
    appId: 'A0PARLEY01',
    authVersion: 'v2',
  };
}

/** What Bolt asks the store for, for a team's installation. */
export const installationQuery = (teamId: string) => ({
  teamId,
  enterpriseId: undefined,
  isEnterpriseInstall: false as const,
});
