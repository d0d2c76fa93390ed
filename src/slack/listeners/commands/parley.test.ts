import { describe, expect, it, vi } from 'vitest';
import type { RespondArguments } from '@slack/bolt';
import { parleyCommand } from './parley.js';
import { buildHelp, buildLoadingModal, buildNegotiateChoices } from '../../views/index.js';
import {
  CHANNEL,
  DONE,
  fakeAck,
  fakeDeps,
  fakeRespond,
  holdNext,
  MODAL,
  OPENED_VIEW,
  refused,
  slashCommand,
  spiedClient,
  TEAM,
  TRIGGER_ID,
  USER,
} from '../../../../test/support/slack-payloads.js';

function run(text: string, options: { threadTs?: string; deadlineMs?: number } = {}) {
  const { deps, parley, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck<string | RespondArguments>();
  const respond = fakeRespond();
  const args = { command: slashCommand(text, options), ack, respond, client: slack.client };
  return { run: () => parleyCommand(deps, options.deadlineMs)(args), parley, screens, slack, ack, respond };
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

  it('acknowledges a status read slower than the deadline at once, then answers it by response_url', async () => {
    const command = run('status', { deadlineMs: 20 });
    const status = { text: 'One negotiation here.', blocks: [] };
    const release = holdNext(command.screens.channelStatus);
    await command.run();
    expect(command.ack).toHaveBeenCalledTimes(1);
    expect(command.ack).toHaveBeenCalledWith();
    expect(command.respond).not.toHaveBeenCalled();
    release(status);
    await vi.waitFor(() => expect(command.respond).toHaveBeenCalledWith({ response_type: 'ephemeral', ...status }));
  });

  it('opens the settings modal for an approver: acknowledged, a loading view at once, then the settings', async () => {
    const command = run('Settings');
    const release = holdNext(command.screens.settingsModal);
    const running = command.run();
    await vi.waitFor(() => expect(command.screens.settingsModal).toHaveBeenCalledWith(TEAM, USER));
    expect(command.ack).toHaveBeenCalledTimes(1);
    expect(command.ack).toHaveBeenCalledWith();
    expect(command.slack.viewsOpen).toHaveBeenCalledWith({ trigger_id: TRIGGER_ID, view: buildLoadingModal('Parley') });
    release({ ok: true, value: MODAL });
    await running;
    expect(command.slack.viewsUpdate).toHaveBeenCalledWith({
      view_id: OPENED_VIEW.id,
      hash: OPENED_VIEW.hash,
      view: MODAL,
    });
  });

  it('tells someone who may not change the settings why, in the modal that opened', async () => {
    const command = run('settings');
    command.screens.settingsModal.mockResolvedValueOnce(refused('Only the approvers can change Parley’s settings.'));
    await command.run();
    expect(JSON.stringify(command.slack.viewsUpdate.mock.calls[0]?.[0])).toContain(
      ':lock: Only the approvers can change Parley’s settings.',
    );
    expect(command.slack.postEphemeral).not.toHaveBeenCalled();
  });

  it('reads the file its link names, asked for by the person who ran it, acknowledged once its claim is saved', async () => {
    const command = run('negotiate https://parley-test.slack.com/files/U0BUYER001/F0QUOTE001/quote.xlsx');
    const release = holdNext(command.parley.fileShared);
    const running = command.run();
    await vi.waitFor(() => expect(command.parley.fileShared).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(command.ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(command.ack).toHaveBeenCalledTimes(1);
    expect(command.parley.fileShared).toHaveBeenCalledWith({
      teamId: TEAM,
      fileId: 'F0QUOTE001',
      channelId: CHANNEL,
      userId: null,
      userTeamId: null,
      threadTs: null,
      messageTs: null,
      requestedBy: { userId: USER, teamId: null },
    });
    expect(command.respond).not.toHaveBeenCalled();
  });

  it('tells the person why a file was not read, through the response_url', async () => {
    const command = run('negotiate F0QUOTE001');
    command.parley.fileShared.mockResolvedValueOnce(refused('Parley has read that file already.'));
    await command.run();
    expect(command.parley.fileShared).toHaveBeenCalledWith(expect.objectContaining({ fileId: 'F0QUOTE001' }));
    expect(command.respond).toHaveBeenCalledWith(
      expect.objectContaining({ response_type: 'ephemeral', text: 'Parley has read that file already.' }),
    );
  });

  it('offers the channel’s recent spreadsheets when no link is given', async () => {
    const command = run('negotiate');
    const files = [{ fileId: 'F0QUOTE001', name: 'quote.xlsx', sharedBy: USER, readInThread: null }];
    command.parley.recentFiles.mockResolvedValueOnce({ ok: true, value: files });
    await command.run();
    expect(command.parley.recentFiles).toHaveBeenCalledWith(TEAM, CHANNEL);
    expect(command.respond).toHaveBeenCalledWith({ response_type: 'ephemeral', ...buildNegotiateChoices(files) });
    expect(command.parley.fileShared).not.toHaveBeenCalled();
  });

  it('says what it takes when the argument is not a file’s link', async () => {
    const command = run('negotiate the blue one');
    await command.run();
    expect(command.parley.fileShared).not.toHaveBeenCalled();
    expect(command.respond).toHaveBeenCalledWith(expect.objectContaining({ text: expect.stringMatching(/link/) }));
  });

  it('acknowledges a claim still being saved at the deadline, and tells the person how it ended', async () => {
    const command = run('negotiate F0QUOTE001', { deadlineMs: 10 });
    const release = holdNext(command.parley.fileShared);
    const running = command.run();
    await vi.waitFor(() => expect(command.ack).toHaveBeenCalledTimes(1));
    release(refused('Parley has read that file already.'));
    await running;
    expect(command.respond).toHaveBeenCalledWith(
      expect.objectContaining({ text: 'Parley has read that file already.' }),
    );
  });

  it('passes a failure after the acknowledgement on to Bolt', async () => {
    const command = run('negotiate F0QUOTE001');
    command.parley.fileShared.mockRejectedValueOnce(new Error('files.info failed'));
    await expect(command.run()).rejects.toThrow('files.info failed');
    expect(command.ack).toHaveBeenCalledTimes(1);
  });
});
