import { describe, expect, it } from 'vitest';
import { fileShareMessage } from './file-share-message.js';
import {
  CHANNEL,
  envelope,
  fakeDeps,
  fileShareMessageEvent,
  MESSAGE_TS,
  messageEvent,
  TEAM,
  THREAD_TS,
  USER,
} from '../../../../test/support/slack-payloads.js';
import type { FileShareMessageArgs } from './file-share-message.js';

function receive(event: FileShareMessageArgs['event'], teamId: string = TEAM) {
  const { deps, parley } = fakeDeps();
  const args = { event, body: envelope(event, teamId) };
  return { run: () => fileShareMessage(deps)(args), parley };
}

describe('fileShareMessage', () => {
  it('hands each file of the upload to Parley, threaded on the upload’s message', async () => {
    const { run, parley } = receive(fileShareMessageEvent(['F0QUOTE001', 'F0QUOTE002']));
    await run();
    expect(parley.fileShared).toHaveBeenCalledTimes(2);
    for (const fileId of ['F0QUOTE001', 'F0QUOTE002']) {
      expect(parley.fileShared).toHaveBeenCalledWith({
        teamId: TEAM,
        fileId,
        channelId: CHANNEL,
        userId: USER,
        userTeamId: null,
        threadTs: THREAD_TS,
        messageTs: THREAD_TS,
        requestedBy: null,
      });
    }
  });

  it('keeps the thread of a file shared inside a thread, and the reply as the file’s own message', async () => {
    const reply = { ...fileShareMessageEvent(['F0QUOTE001']), ts: MESSAGE_TS, thread_ts: THREAD_TS };
    const { run, parley } = receive(reply);
    await run();
    expect(parley.fileShared).toHaveBeenCalledWith(
      expect.objectContaining({ threadTs: THREAD_TS, messageTs: MESSAGE_TS }),
    );
  });

  it('passes on the author’s team from a Slack Connect channel, in the workspace the event was delivered to', async () => {
    const { deps, parley } = fakeDeps();
    const event = { ...fileShareMessageEvent(['F0QUOTE001']), user_team: 'T0SUPPLIER' };
    const body = { ...envelope(event, 'T0SUPPLIER'), context_team_id: TEAM };
    await fileShareMessage(deps)({ event, body });
    expect(parley.fileShared).toHaveBeenCalledWith(expect.objectContaining({ teamId: TEAM, userTeamId: 'T0SUPPLIER' }));
  });

  it('ignores a bot’s upload, an event without a team, a DM and messages that share no file', async () => {
    const fromBot = { ...fileShareMessageEvent(['F0QUOTE001']), bot_id: 'B0OTHER001' };
    const inDm = { ...fileShareMessageEvent(['F0QUOTE001']), channel: 'D0PARLEY01', channel_type: 'im' as const };
    for (const { run, parley } of [
      receive(fromBot),
      receive(inDm),
      receive(fileShareMessageEvent(['F0QUOTE001']), ''),
      receive(messageEvent('hello', { threadTs: THREAD_TS })),
    ]) {
      await run();
      expect(parley.fileShared).not.toHaveBeenCalled();
    }
  });

  it('passes a failed claim on to Bolt, leaving the upload’s later files to Slack’s retry', async () => {
    const { run, parley } = receive(fileShareMessageEvent(['F0QUOTE001', 'F0QUOTE002']));
    parley.fileShared.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(parley.fileShared).toHaveBeenCalledTimes(1);
  });
});
