import { describe, expect, it } from 'vitest';
import { appHomeOpened } from './app-home-opened.js';
import {
  appHomeOpenedEvent,
  envelope,
  fakeDeps,
  HOME,
  spiedClient,
  TEAM,
  USER,
} from '../../../../test/support/slack-payloads.js';

function open(tab: 'home' | 'messages' = 'home', teamId: string = TEAM) {
  const { deps, parley, screens } = fakeDeps();
  const slack = spiedClient();
  const event = appHomeOpenedEvent(tab);
  const args = { event, body: envelope(event, teamId), client: slack.client };
  return { run: () => appHomeOpened(deps)(args), parley, screens, slack };
}

describe('appHomeOpened', () => {
  it('publishes the person’s App Home', async () => {
    const { run, screens, slack } = open();
    await run();
    expect(screens.home).toHaveBeenCalledWith(TEAM, USER);
    expect(slack.viewsPublish).toHaveBeenCalledWith({ user_id: USER, view: HOME });
  });

  it('lets Parley make a Slack admin the first approver before the Home is built, so it shows them as one', async () => {
    const { run, parley, screens } = open();
    const order: string[] = [];
    parley.homeOpened.mockImplementationOnce(async () => {
      order.push('homeOpened');
      return { becameApprover: true };
    });
    screens.home.mockImplementationOnce(async () => {
      order.push('home');
      return HOME;
    });
    await run();
    expect(parley.homeOpened).toHaveBeenCalledWith(TEAM, USER);
    expect(order).toEqual(['homeOpened', 'home']);
  });

  it('publishes nothing for the Messages tab, a team without Parley, or an event without a team', async () => {
    const messagesTab = open('messages');
    await messagesTab.run();
    expect(messagesTab.screens.home).not.toHaveBeenCalled();
    expect(messagesTab.parley.homeOpened).not.toHaveBeenCalled();

    const notInstalled = open();
    notInstalled.screens.home.mockResolvedValueOnce(null);
    await notInstalled.run();
    expect(notInstalled.slack.viewsPublish).not.toHaveBeenCalled();

    const noTeam = open('home', '');
    await noTeam.run();
    expect(noTeam.screens.home).not.toHaveBeenCalled();
  });

  it('passes a failure on to Bolt', async () => {
    const { run, screens, slack } = open();
    screens.home.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(slack.viewsPublish).not.toHaveBeenCalled();
  });
});
