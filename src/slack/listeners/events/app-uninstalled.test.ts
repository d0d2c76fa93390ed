import type { AppUninstalledEvent, TokensRevokedEvent } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { appUninstalled, tokensRevoked } from './app-uninstalled.js';
import { BOT_USER, envelope, fakeDeps, TEAM, USER } from '../../../../test/support/slack-payloads.js';

const revoked = (tokens: TokensRevokedEvent['tokens']): TokensRevokedEvent => ({
  type: 'tokens_revoked',
  tokens,
});

describe('appUninstalled and tokensRevoked', () => {
  it('return (and so acknowledge) once Parley has removed the installation', async () => {
    const { deps, parley } = fakeDeps();
    let removed = false;
    parley.uninstalled.mockImplementationOnce(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      removed = true;
    });
    const event: AppUninstalledEvent = { type: 'app_uninstalled' };
    await appUninstalled(deps)({ body: envelope(event) });
    expect(parley.uninstalled).toHaveBeenCalledWith(TEAM, 'app_uninstalled');
    expect(removed).toBe(true);
  });

  it('remove it when the bot token is revoked, not when only user tokens are', async () => {
    const { deps, parley } = fakeDeps();
    const userOnly = revoked({ oauth: [USER] });
    await tokensRevoked(deps)({ event: userOnly, body: envelope(userOnly) });
    expect(parley.uninstalled).not.toHaveBeenCalled();

    const bot = revoked({ oauth: [USER], bot: [BOT_USER] });
    await tokensRevoked(deps)({ event: bot, body: envelope(bot) });
    expect(parley.uninstalled).toHaveBeenCalledWith(TEAM, 'tokens_revoked');
  });

  it('do nothing for an event without a team', async () => {
    const { deps, parley } = fakeDeps();
    const event: AppUninstalledEvent = { type: 'app_uninstalled' };
    await appUninstalled(deps)({ body: envelope(event, '') });
    expect(parley.uninstalled).not.toHaveBeenCalled();
  });
});
