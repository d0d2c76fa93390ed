import { describe, expect, it, vi } from 'vitest';
import type { RespondArguments } from '@slack/bolt';
import { NEGOTIATE_OUTSIDE_THREAD, parleyCommand } from './parley.js';
import { buildHelp } from '../../views/index.js';
import {
  CHANNEL,
  fakeAck,
  fakeDeps,
  holdNext,
  MODAL,
  refused,
  slashCommand,
  spiedClient,
  TEAM,
  THREAD_TS,
  TRIGGER_ID,
  USER,
} from '../../../../test/support/slack-payloads.js';

function run(text: string, options: { threadTs?: string } = {}) {
  const { deps, parley, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck<string | RespondArguments>();
  const args = { command: slashCommand(text, options), ack, client: slack.client };
  return { run: () => parleyCommand(deps)(args), parley, screens, slack, ack };
}

describe('/parley', () => {
  it.each(['', 'help', 'what is this'])(
    'answers “%s” with the help, privately, in the acknowledgement',
    async (text) => {
      const command = run(text);
      await command.run();
      expect(command.ack).toHaveBeenCalledTimes(1);
      expect(command.ack).toHaveBeenCalledWith({ response_type: 'ephemeral', ...buildHelp() });
    },
  );

  it('answers status with the channel’s negotiations, in the acknowledgement', async () => {
    const command = run('status');
    await command.run();
    expect(command.screens.channelStatus).toHaveBeenCalledWith(TEAM, CHANNEL);
    expect(command.ack).toHaveBeenCalledTimes(1);
    expect(command.ack).toHaveBeenCalledWith({
      response_type: 'ephemeral',
      text: 'Nothing in this channel yet.',
      blocks: [],
    });
  });

  it('opens the settings modal for an approver, after acknowledging', async () => {
    const command = run('Settings');
    await command.run();
    expect(command.ack).toHaveBeenCalledTimes(1);
    expect(command.ack).toHaveBeenCalledWith();
    expect(command.screens.settingsModal).toHaveBeenCalledWith(TEAM, USER);
    expect(command.slack.viewsOpen).toHaveBeenCalledWith({ trigger_id: TRIGGER_ID, view: MODAL });
  });

  it('tells someone who may not change the settings privately, and opens nothing', async () => {
    const command = run('settings');
    command.screens.settingsModal.mockResolvedValueOnce(refused('Only the approvers can change Parley’s settings.'));
    await command.run();
    expect(command.slack.viewsOpen).not.toHaveBeenCalled();
    expect(command.slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({
        channel: CHANNEL,
        user: USER,
        text: 'Only the approvers can change Parley’s settings.',
      }),
    );
  });

  it('reads the files of the thread it is run in (acknowledged first: reading the files takes a while)', async () => {
    const command = run('negotiate', { threadTs: THREAD_TS });
    const release = holdNext(command.parley.negotiateFilesOf);
    const running = command.run();
    await vi.waitFor(() => expect(command.parley.negotiateFilesOf).toHaveBeenCalled());
    expect(command.ack).toHaveBeenCalledTimes(1);
    release(undefined);
    await running;
    expect(command.parley.negotiateFilesOf).toHaveBeenCalledWith(TEAM, {
      channelId: CHANNEL,
      messageTs: THREAD_TS,
      userId: USER,
    });
  });

  it('explains where to run negotiate when it is run outside a thread', async () => {
    const command = run('negotiate');
    await command.run();
    expect(command.parley.negotiateFilesOf).not.toHaveBeenCalled();
    expect(command.ack).toHaveBeenCalledWith({ response_type: 'ephemeral', text: NEGOTIATE_OUTSIDE_THREAD });
  });

  it('passes a failure after the acknowledgement on to Bolt', async () => {
    const command = run('negotiate', { threadTs: THREAD_TS });
    command.parley.negotiateFilesOf.mockRejectedValueOnce(new Error('conversations.replies failed'));
    await expect(command.run()).rejects.toThrow('conversations.replies failed');
    expect(command.ack).toHaveBeenCalledTimes(1);
  });
});
