import { describe, expect, it, vi } from 'vitest';
import { log } from '../../../log.js';
import { threadReply, type ThreadReplyArgs } from './thread-reply.js';
import {
  CHANNEL,
  DONE,
  envelope,
  fakeDeps,
  fileShareMessageEvent,
  messageEvent,
  refused,
  TEAM,
  THREAD_TS,
  USER,
} from '../../../../test/support/slack-payloads.js';

function receive(event: ThreadReplyArgs['event'], teamId: string = TEAM) {
  const { deps, parley } = fakeDeps();
  const args = { event, body: envelope(event, teamId) };
  return { run: () => threadReply(deps)(args), parley };
}

describe('threadReply', () => {
  it('offers a reply in a thread as the answer to the thread’s open question', async () => {
    const { run, parley } = receive(messageEvent('Net 60, please', { threadTs: THREAD_TS }));
    await run();
    expect(parley.threadReply).toHaveBeenCalledWith(TEAM, {
      channelId: CHANNEL,
      threadTs: THREAD_TS,
      text: 'Net 60, please',
      by: USER,
    });
  });

  it('ignores a thread’s first message, a message outside threads, a bot, an edit or a file share', async () => {
    const edit = { ...messageEvent('x'), subtype: 'message_changed' as const, hidden: true as const };
    const cases: ThreadReplyArgs['event'][] = [
      messageEvent('first', { threadTs: THREAD_TS, ts: THREAD_TS }),
      messageEvent('not in a thread'),
      { ...messageEvent('from a bot', { threadTs: THREAD_TS }), bot_id: 'B0OTHER001' },
      { ...edit, message: messageEvent('x'), previous_message: messageEvent('y') },
      fileShareMessageEvent(['F0QUOTE001']),
    ];
    for (const event of cases) {
      const { run, parley } = receive(event);
      await run();
      expect(parley.threadReply).not.toHaveBeenCalled();
    }
  });

  it('logs a reply not taken as an answer, and tells nobody', async () => {
    const info = vi.spyOn(log, 'info').mockImplementation(() => {});
    const { run, parley } = receive(messageEvent('thanks!', { threadTs: THREAD_TS }));
    parley.threadReply.mockResolvedValueOnce(refused('That question was already answered.'));
    await run();
    expect(info).toHaveBeenCalledWith('thread reply not taken as an answer', { error: 'not_allowed' });
    info.mockRestore();
  });

  it('is done once the answer is recorded (or there was nothing to answer)', async () => {
    for (const answer of [DONE, null]) {
      const { run, parley } = receive(messageEvent('Net 60', { threadTs: THREAD_TS }));
      parley.threadReply.mockResolvedValueOnce(answer);
      await expect(run()).resolves.toBeUndefined();
    }
  });

  it('passes a failure on to Bolt', async () => {
    const { run, parley } = receive(messageEvent('Net 60', { threadTs: THREAD_TS }));
    parley.threadReply.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
  });
});
