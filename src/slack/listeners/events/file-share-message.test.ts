import { describe, expect, it } from 'vitest';
import { fileShareMessage } from './file-share-message.js';
import {
  CHANNEL,
  envelope,
  fakeDeps,
  fileShareMessageEvent,
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
        threadTs: THREAD_TS,
        explicit: false,
      });
    }
  });

  it('ignores a bot’s upload, an event without a team, and messages that share no file', async () => {
    const fromBot = { ...fileShareMessageEvent(['F0QUOTE001']), bot_id: 'B0OTHER001' };
    for (const { run, parley } of [
      receive(fromBot),
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
