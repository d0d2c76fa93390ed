import { describe, expect, it, vi } from 'vitest';
import { CALLBACK } from '../../ids.js';
import { negotiateThisQuote } from './negotiate-this-quote.js';
import {
  CHANNEL,
  DONE,
  fakeAck,
  fakeDeps,
  fakeRespond,
  holdNext,
  messageShortcut,
  MESSAGE_TS,
  refused,
  spiedClient,
  TEAM,
  THREAD_TS,
  USER,
} from '../../../../test/support/slack-payloads.js';

const AUTHOR = 'U0AUTHOR01';

function use(options: Parameters<typeof messageShortcut>[1] = {}) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const respond = fakeRespond();
  const args = { shortcut: messageShortcut(CALLBACK.negotiateShortcut, options), ack, respond, client: slack.client };
  return { run: () => negotiateThisQuote(deps)(args), parley, slack, ack, respond };
}

describe('negotiateThisQuote', () => {
  it('reads each file of the message as its author’s, asked for by whoever ran it, threaded on that message', async () => {
    const { run, parley, ack } = use({ author: AUTHOR, files: [{ id: 'F0QUOTE001' }, { id: 'F0SCAN0002' }] });
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(parley.fileShared).toHaveBeenCalledTimes(2);
    expect(parley.fileShared).toHaveBeenCalledWith({
      teamId: TEAM,
      fileId: 'F0QUOTE001',
      channelId: CHANNEL,
      userId: AUTHOR,
      userTeamId: null,
      threadTs: MESSAGE_TS,
      messageTs: MESSAGE_TS,
      requestedBy: { userId: USER, teamId: TEAM },
    });
  });

  it('threads on the message’s thread when the message is a reply', async () => {
    const { run, parley } = use({ files: [{ id: 'F0QUOTE001' }], threadTs: THREAD_TS });
    await run();
    expect(parley.fileShared).toHaveBeenCalledWith(
      expect.objectContaining({ threadTs: THREAD_TS, messageTs: MESSAGE_TS }),
    );
  });

  it('passes on the team of someone running it from another organisation (the service refuses them)', async () => {
    const { run, parley } = use({ files: [{ id: 'F0QUOTE001' }], userTeam: 'T0SUPPLIER' });
    await run();
    expect(parley.fileShared).toHaveBeenCalledWith(
      expect.objectContaining({ teamId: TEAM, requestedBy: { userId: USER, teamId: 'T0SUPPLIER' } }),
    );
  });

  it('acknowledges once every file’s claim is saved (acknowledged means saved)', async () => {
    const { run, parley, ack } = use({ files: [{ id: 'F0QUOTE001' }, { id: 'F0QUOTE002' }] });
    const release = holdNext(parley.fileShared);
    const running = run();
    await vi.waitFor(() => expect(parley.fileShared).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(parley.fileShared).toHaveBeenCalledTimes(2);
    expect(ack).toHaveBeenCalledTimes(1);
    expect(ack.mock.invocationCallOrder[0]).toBeGreaterThan(parley.fileShared.mock.invocationCallOrder[1] ?? Infinity);
  });

  it('tells the person through the response_url why not, once per reason (it works where Parley is not)', async () => {
    const { run, parley, respond, slack } = use({ files: [{ id: 'F0QUOTE001' }, { id: 'F0QUOTE002' }] });
    const notIn = refused('Parley is not in this channel. Invite it with `/invite @Parley`, then try again.');
    parley.fileShared.mockResolvedValueOnce(notIn).mockResolvedValueOnce(notIn);
    await run();
    expect(respond).toHaveBeenCalledTimes(1);
    expect(respond).toHaveBeenCalledWith(
      expect.objectContaining({ response_type: 'ephemeral', text: expect.stringContaining('/invite @Parley') }),
    );
    expect(slack.postEphemeral).not.toHaveBeenCalled();
  });

  it('tells the person privately when the message has no file', async () => {
    const { run, parley, respond } = use();
    await run();
    expect(parley.fileShared).not.toHaveBeenCalled();
    expect(respond).toHaveBeenCalledWith(expect.objectContaining({ text: expect.stringMatching(/has no file/) }));
  });

  it('ignores files Slack describes in a shape it does not know, as no file', async () => {
    const { run, parley, respond } = use({ files: [{ id: 42 }] });
    await run();
    expect(parley.fileShared).not.toHaveBeenCalled();
    expect(respond).toHaveBeenCalledTimes(1);
  });

  it('passes a failed claim on to Bolt, after acknowledging', async () => {
    const { run, parley, ack } = use({ files: [{ id: 'F0QUOTE001' }] });
    parley.fileShared.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
