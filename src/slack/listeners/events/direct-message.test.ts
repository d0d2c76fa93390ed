import { describe, expect, it, vi } from 'vitest';
import { log } from '../../../log.js';
import type { Context } from '@slack/bolt';
import { directMessage, type DirectMessageArgs } from './direct-message.js';
import {
  BOT_USER,
  CONTEXT,
  fileShareMessageEvent,
  messageEvent,
  spiedClient,
} from '../../../../test/support/slack-payloads.js';
import { buildDirectMessageHelp } from '../../views/index.js';

const DM = 'D0PARLEY01';

function inDm(event: DirectMessageArgs['event']): DirectMessageArgs['event'] {
  return { ...event, channel: DM, channel_type: 'im' } as DirectMessageArgs['event'];
}

function receive(event: DirectMessageArgs['event'], context: Context = CONTEXT) {
  const slack = spiedClient();
  return { run: () => directMessage({ event, client: slack.client, context }), slack };
}

describe('directMessage', () => {
  it('answers a message to Parley with how to get a quotation read, in the DM', async () => {
    const { run, slack } = receive(inDm(messageEvent('hi, can you read my quote?')));
    await run();
    expect(slack.postMessage).toHaveBeenCalledWith({ channel: DM, ...buildDirectMessageHelp() });
    expect(JSON.stringify(slack.postMessage.mock.calls[0])).toContain('/invite @Parley');
  });

  it('answers a file dropped in the DM the same way (it is not read as a quotation), in its thread if any', async () => {
    const file = { ...inDm(fileShareMessageEvent(['F0QUOTE001'])), thread_ts: '1767225000.000001' };
    const { run, slack } = receive(file as DirectMessageArgs['event']);
    await run();
    expect(slack.postMessage).toHaveBeenCalledWith(
      expect.objectContaining({ channel: DM, thread_ts: '1767225000.000001' }),
    );
  });

  it('returns (and so acknowledges) without waiting for Slack to take the help', async () => {
    const { run, slack } = receive(inDm(messageEvent('hello?')));
    slack.postMessage.mockReturnValueOnce(new Promise(() => {}));
    const returned = await Promise.race([
      run().then(() => 'returned'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_000)),
    ]);
    expect(returned).toBe('returned');
    expect(slack.postMessage).toHaveBeenCalledTimes(1);
  });

  it('logs a help Slack refused instead of failing the event', async () => {
    const { run, slack } = receive(inDm(messageEvent('hello?')));
    const logged = vi.spyOn(log, 'error').mockImplementation(() => {});
    slack.postMessage.mockRejectedValueOnce(new Error('channel_not_found'));
    await run();
    await vi.waitFor(() =>
      expect(logged).toHaveBeenCalledWith('could not answer a direct message with help', expect.anything()),
    );
    logged.mockRestore();
  });

  it('stays quiet for channel messages, bots, Parley itself, edits and Slack’s re-deliveries', async () => {
    const edit = { ...inDm(messageEvent('x')), subtype: 'message_changed' } as DirectMessageArgs['event'];
    const cases: [DirectMessageArgs['event'], Context][] = [
      [messageEvent('in a channel'), CONTEXT],
      [{ ...inDm(messageEvent('bot')), bot_id: 'B0OTHER001' } as DirectMessageArgs['event'], CONTEXT],
      [{ ...inDm(messageEvent('me')), user: BOT_USER } as DirectMessageArgs['event'], CONTEXT],
      [edit, CONTEXT],
      [inDm(messageEvent('again')), { ...CONTEXT, retryNum: 1, retryReason: 'http_timeout' }],
    ];
    for (const [event, context] of cases) {
      const { run, slack } = receive(event, context);
      await run();
      expect(slack.postMessage).not.toHaveBeenCalled();
    }
  });
});
