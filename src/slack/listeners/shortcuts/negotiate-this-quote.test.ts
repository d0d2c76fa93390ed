import { describe, expect, it } from 'vitest';
import { CALLBACK } from '../../ids.js';
import { negotiateThisQuote } from './negotiate-this-quote.js';
import {
  CHANNEL,
  fakeAck,
  fakeDeps,
  messageShortcut,
  MESSAGE_TS,
  spiedClient,
  TEAM,
  THREAD_TS,
  USER,
} from '../../../../test/support/slack-payloads.js';

function use(options: Parameters<typeof messageShortcut>[1] = {}) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { shortcut: messageShortcut(CALLBACK.negotiateShortcut, options), ack, client: slack.client };
  return { run: () => negotiateThisQuote(deps)(args), parley, slack, ack };
}

describe('negotiateThisQuote', () => {
  it('reads each file of the message, whatever its type, threaded on that message', async () => {
    const { run, parley, ack } = use({ files: [{ id: 'F0QUOTE001' }, { id: 'F0SCAN0002' }] });
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(parley.fileShared).toHaveBeenCalledTimes(2);
    expect(parley.fileShared).toHaveBeenCalledWith({
      teamId: TEAM,
      fileId: 'F0QUOTE001',
      channelId: CHANNEL,
      userId: USER,
      threadTs: MESSAGE_TS,
      explicit: true,
    });
  });

  it('threads on the message’s thread when the message is a reply', async () => {
    const { run, parley } = use({ files: [{ id: 'F0QUOTE001' }], threadTs: THREAD_TS });
    await run();
    expect(parley.fileShared).toHaveBeenCalledWith(expect.objectContaining({ threadTs: THREAD_TS }));
  });

  it('acknowledges first: the shortcut only has to be received within 3 s', async () => {
    const { run, parley, ack } = use({ files: [{ id: 'F0QUOTE001' }] });
    await run();
    expect(ack.mock.invocationCallOrder[0]).toBeLessThan(parley.fileShared.mock.invocationCallOrder[0] ?? 0);
  });

  it('tells the person privately when the message has no file', async () => {
    const { run, parley, slack } = use();
    await run();
    expect(parley.fileShared).not.toHaveBeenCalled();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ channel: CHANNEL, user: USER, text: expect.stringMatching(/has no file/) }),
    );
  });

  it('ignores files Slack describes in a shape it does not know, as no file', async () => {
    const { run, parley, slack } = use({ files: [{ id: 42 }] });
    await run();
    expect(parley.fileShared).not.toHaveBeenCalled();
    expect(slack.postEphemeral).toHaveBeenCalledTimes(1);
  });

  it('passes a failed claim on to Bolt, after acknowledging', async () => {
    const { run, parley, ack } = use({ files: [{ id: 'F0QUOTE001' }] });
    parley.fileShared.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
