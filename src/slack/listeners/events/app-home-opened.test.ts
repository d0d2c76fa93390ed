import { describe, expect, it } from 'vitest';
import { appHomeOpened } from './app-home-opened.js';
import { appHomeOpenedEvent, envelope, fakeDeps, TEAM, USER } from '../../../../test/support/slack-payloads.js';

function open(tab: 'home' | 'messages' = 'home', teamId: string = TEAM) {
  const { deps, parley } = fakeDeps();
  const event = appHomeOpenedEvent(tab);
  return { run: () => appHomeOpened(deps)({ event, body: envelope(event, teamId) }), parley };
}

describe('appHomeOpened', () => {
  it('returns (and so acknowledges) once Parley has saved what the open changes, publishing nothing itself', async () => {
    const { run, parley } = open();
    let saved = false;
    parley.homeOpened.mockImplementationOnce(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      saved = true;
      return { becameApprover: true };
    });
    await run();
    expect(parley.homeOpened).toHaveBeenCalledWith(TEAM, USER, null);
    expect(saved).toBe(true);
  });

  it('passes on what the Home shows now (the hash Parley published it with), so an unchanged Home is not sent again', async () => {
    const { deps, parley } = fakeDeps();
    const event = { ...appHomeOpenedEvent(), view: { type: 'home' as const, blocks: [], private_metadata: 'abc123' } };
    await appHomeOpened(deps)({ event, body: envelope(event, TEAM) });
    expect(parley.homeOpened).toHaveBeenCalledWith(TEAM, USER, 'abc123');
  });

  it('does nothing for the Messages tab or an event without a team', async () => {
    const messagesTab = open('messages');
    await messagesTab.run();
    expect(messagesTab.parley.homeOpened).not.toHaveBeenCalled();

    const noTeam = open('home', '');
    await noTeam.run();
    expect(noTeam.parley.homeOpened).not.toHaveBeenCalled();
  });

  it('passes a failure to save on to Bolt (an event is then answered 500, and Slack sends it again)', async () => {
    const { run, parley } = open();
    parley.homeOpened.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
  });
});
