// A submission that changes something closes its modal once the change is committed, but never after the ack
// deadline: a slow database must not leave the person looking at Slack's "trouble connecting" error.
import type { ViewResponseAction } from '@slack/bolt';
import { describe, expect, it, vi } from 'vitest';
import type { Outcome } from '../../deps.js';
import { CHANNEL, DONE, fakeAck, refused, spiedClient, USER } from '../../../../test/support/slack-payloads.js';
import { closeWhenCommitted } from './submission.js';

function held() {
  let settle: { resolve: (o: Outcome) => void; reject: (e: unknown) => void } = {
    resolve: () => {},
    reject: () => {},
  };
  const running = new Promise<Outcome>((resolve, reject) => (settle = { resolve, reject }));
  return { running, ...settle };
}

function submission(deadlineMs = 50) {
  const ack = fakeAck<ViewResponseAction>();
  const slack = spiedClient();
  const channel = vi.fn(async () => CHANNEL);
  const close = (running: Promise<Outcome>, closeWith?: ViewResponseAction) =>
    closeWhenCommitted({ ack, client: slack.client }, running, { userId: USER, channel }, closeWith, deadlineMs);
  return { ack, slack, channel, close };
}

describe('closeWhenCommitted', () => {
  it('closes the modal only once the change is committed when it is quick, and says nothing more', async () => {
    const { ack, slack, close } = submission(10_000);
    const call = held();
    let done = false;
    const answering = close(call.running, { response_action: 'clear' }).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ack).not.toHaveBeenCalled();
    call.resolve(DONE);
    await answering;
    expect(done).toBe(true);
    expect(ack).toHaveBeenCalledWith({ response_action: 'clear' });
    expect(slack.postEphemeral).not.toHaveBeenCalled();
  });

  it('keeps the modal open on a quick refusal: a field error under its input, else a notice pushed over it', async () => {
    const { ack, slack } = submission(10_000);
    const refusal = refused('This purchase order changed since you opened it.');
    await closeWhenCommitted({ ack, client: slack.client }, Promise.resolve(refusal), {
      userId: USER,
      channel: async () => CHANNEL,
      field: 'reason',
    });
    expect(ack).toHaveBeenCalledWith({
      response_action: 'errors',
      errors: { reason: 'This purchase order changed since you opened it.' },
    });
    const noInput = submission(10_000);
    await noInput.close(Promise.resolve(refusal), { response_action: 'clear' });
    expect(noInput.ack).toHaveBeenCalledWith(expect.objectContaining({ response_action: 'push' }));
    expect(slack.postEphemeral).not.toHaveBeenCalled();
    expect(noInput.slack.postEphemeral).not.toHaveBeenCalled();
  });

  it('closes the modal at the deadline when the database is slow, then tells how the call ended', async () => {
    const { ack, slack, close } = submission(30);
    const call = held();
    await close(call.running);
    expect(ack).toHaveBeenCalledTimes(1);
    expect(ack).toHaveBeenCalledWith();
    expect(slack.postEphemeral).not.toHaveBeenCalled();
    call.resolve(refused('Only an approver can approve this purchase order.'));
    await vi.waitFor(() =>
      expect(slack.postEphemeral).toHaveBeenCalledWith(
        expect.objectContaining({ text: 'Only an approver can approve this purchase order.' }),
      ),
    );
  });

  it('tells a failure after the deadline with a reference; a quick one keeps the modal open saying so', async () => {
    const late = submission(30);
    const call = held();
    await late.close(call.running);
    call.reject(new Error('connection terminated'));
    await vi.waitFor(() => expect(late.slack.postEphemeral).toHaveBeenCalledTimes(1));
    expect(JSON.stringify(late.slack.postEphemeral.mock.calls[0])).toMatch(/try again/i);

    const quick = submission(10_000);
    await quick.close(Promise.reject(new Error('database unavailable')), { response_action: 'clear' });
    expect(quick.ack).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(quick.ack.mock.calls[0]?.[0])).toMatch(/"push".*did not go through \(ref/);
  });
});
