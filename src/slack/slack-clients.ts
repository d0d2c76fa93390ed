// One WebClient per bot token, pointed at SLACK_API_URL (Slack, or the local stand-in). Two flavours: the outbox
// poster's, which never retries by itself (the poster owns retries, pacing and Retry-After, durably), and the
// interactive one used for files and modals, which may retry briefly.
import { WebClient } from '@slack/web-api';

export interface SlackClientsOptions {
  slackApiUrl: string;
  /** The bot token for a workspace (its installation, or the single-workspace token); null when there is none. */
  tokenFor: (workspaceId: string) => Promise<string | null>;
}

/**
 * The workspace has no bot token: Parley was uninstalled there (or its token revoked), or was never installed. Like
 * Slack's `not_authed`, trying again cannot help until someone installs Parley again (classify-slack-error.ts).
 */
export class NoBotTokenError extends Error {
  override name = 'NoBotTokenError';
  readonly code = NO_BOT_TOKEN;
  constructor(workspaceId: string) {
    super(`No Slack bot token for workspace ${workspaceId}: Parley is not installed there (or was uninstalled)`);
  }
}
export const NO_BOT_TOKEN = 'parley_no_bot_token';

export function createSlackClients(options: SlackClientsOptions) {
  const posters = new Map<string, WebClient>();
  const interactive = new Map<string, WebClient>();

  async function token(workspaceId: string): Promise<string> {
    const found = await options.tokenFor(workspaceId);
    if (!found) throw new NoBotTokenError(workspaceId);
    return found;
  }

  return {
    async forPoster(workspaceId: string): Promise<WebClient> {
      const key = await token(workspaceId);
      let client = posters.get(key);
      if (!client) {
        client = new WebClient(key, {
          slackApiUrl: options.slackApiUrl,
          retryConfig: { retries: 0 },
          rejectRateLimitedCalls: true,
          timeout: 10_000,
        });
        posters.set(key, client);
      }
      return client;
    },
    async forWorkspace(workspaceId: string): Promise<{ client: WebClient; token: string }> {
      const key = await token(workspaceId);
      let client = interactive.get(key);
      if (!client) {
        client = new WebClient(key, { slackApiUrl: options.slackApiUrl, retryConfig: { retries: 2 }, timeout: 10_000 });
        interactive.set(key, client);
      }
      return { client, token: key };
    },
  };
}
export type SlackClients = ReturnType<typeof createSlackClients>;
