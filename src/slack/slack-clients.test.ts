// A workspace without a bot token (Parley uninstalled there): asking for its client fails with an error the outbox
// gives up on at once (permanent), as it does Slack's own dead-token answers, instead of retrying a call that cannot
// be made.
import { describe, expect, it } from 'vitest';
import { classifySlackError } from '../outbox/classify-slack-error.js';
import { createSlackClients, NoBotTokenError } from './slack-clients.js';

const clients = createSlackClients({
  slackApiUrl: 'http://127.0.0.1:9/api/',
  tokenFor: async (workspaceId) => (workspaceId === 'installed' ? 'xoxb-installed' : null),
});

describe('Slack clients for a workspace without a bot token', () => {
  it('fail with an error the outbox gives up on at once', async () => {
    const error: unknown = await clients.forPoster('uninstalled').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NoBotTokenError);
    expect(classifySlackError(error)).toMatchObject({ kind: 'permanent', code: 'not_authed' });
    await expect(clients.forWorkspace('uninstalled')).rejects.toThrow(/No Slack bot token for workspace uninstalled/);
    await expect(clients.forPoster('installed')).resolves.toBeDefined();
  });

  it('as do the dead-token answers Slack gives (not retried)', () => {
    for (const code of ['invalid_auth', 'account_inactive', 'token_revoked', 'not_authed']) {
      const slackError = Object.assign(new Error(`An API error occurred: ${code}`), {
        code: 'slack_webapi_platform_error',
        data: { ok: false, error: code },
      });
      expect(classifySlackError(slackError)).toMatchObject({ kind: 'permanent', code });
    }
  });
});
