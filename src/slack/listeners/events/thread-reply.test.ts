import { describe, expect, it, vi } from 'vitest';
import { log } from '../../../log.js';
import { threadReply, type ThreadReplyArgs } from './thread-reply.js';
import {
  CHANNEL,
  DONE,
  envelope,
  fakeDeps,
  fileShareMessageEvent,
  MESSAGE_TS,
  messageEvent,
  refused,
  TEAM,
  THREAD_TS,
  USER,
} from '../../../../test/support/slack-payloads.js';

const CLIENT_MSG_ID = '4b2f0e4c-0c55-4d3a-9b8e-2f6a1c9d7e10';

function receive(event: ThreadReplyArgs['event'], teamId: string = TEAM) {
  const { deps, parley } = fakeDeps();
  const args = { event, body: envelope(event, teamId) };
  return { run: () => threadReply(deps)(args), parley };
}

describe('threadReply', () => {
  it('offers a reply in a thread as the answer to the thread’s open question, keyed by its own ts', async () => {
    const event = { ...messageEvent('Net 60, please', { threadTs: THREAD_TS }), client_msg_id: CLIENT_MSG_ID };
    const { run, parley } = receive(event);
    await run();
    expect(parley.threadReply).toHaveBeenCalledWith(TEAM, {
      channelId: CHANNEL,
      threadTs: THREAD_TS,
      messageTs: MESSAGE_TS,
      clientMsgId: CLIENT_MSG_ID,
      text: 'Net 60, please',
      by: USER,
      byTeamId: null,
    });
  });

  it('names the author’s organisation where a shared channel’s event says (a connected supplier’s people)', async () => {
    const event = { ...messageEvent('We can do 5% less', { threadTs: THREAD_TS }), user_team: 'T0NINGBO01' };
    const { run, parley } = receive(event as unknown as ThreadReplyArgs['event']);
    await run();
    expect(parley.threadReply).toHaveBeenCalledWith(TEAM, expect.objectContaining({ byTeamId: 'T0NINGBO01' }));
  });

  it('takes a reply also sent to the channel (thread_broadcast) as an answer too', async () => {
    const broadcast = { ...messageEvent('Net 60', { threadTs: THREAD_TS }), subtype: 'thread_broadcast' as const };
    const { run, parley } = receive(broadcast as unknown as ThreadReplyArgs['event']);
    await run();
    expect(parley.threadReply).toHaveBeenCalledWith(TEAM, expect.objectContaining({ text: 'Net 60' }));
  });

  it('answers in the workspace the event is delivered for, not the Slack Connect host’s top-level team', async () => {
    const event = messageEvent('Net 60', { threadTs: THREAD_TS });
    const { deps, parley } = fakeDeps();
    const body = {
      ...envelope(event, 'T0HOSTORG1'),
      context_team_id: TEAM,
      authorizations: [{ enterprise_id: null, team_id: TEAM, user_id: 'U0PARLEYBOT', is_bot: true }],
    };
    await threadReply(deps)({ event, body });
    expect(parley.threadReply).toHaveBeenCalledWith(TEAM, expect.objectContaining({ text: 'Net 60' }));
  });

  it('passes a reply without client_msg_id on with none', async () => {
    const { run, parley } = receive(messageEvent('Net 60', { threadTs: THREAD_TS }));
    await run();
    expect(parley.threadReply).toHaveBeenCalledWith(TEAM, expect.objectContaining({ clientMsgId: null }));
  });

  it('ignores a thread’s first message, a message outside threads, a bot, an edit, a deletion or a file share', async () => {
    const edit = { ...messageEvent('x'), subtype: 'message_changed' as const, hidden: true as const };
    const deletion = {
      type: 'message' as const,
      subtype: 'message_deleted' as const,
      hidden: true as const,
      channel: CHANNEL,
      channel_type: 'channel' as const,
      ts: '1767225700.000300',
      event_ts: '1767225700.000300',
      deleted_ts: MESSAGE_TS,
      previous_message: messageEvent('Net 60', { threadTs: THREAD_TS }),
    };
    const cases: ThreadReplyArgs['event'][] = [
      messageEvent('first', { threadTs: THREAD_TS, ts: THREAD_TS }),
      messageEvent('not in a thread'),
      { ...messageEvent('from a bot', { threadTs: THREAD_TS }), bot_id: 'B0OTHER001' },
      { ...edit, message: messageEvent('x'), previous_message: messageEvent('y') },
      deletion,
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
