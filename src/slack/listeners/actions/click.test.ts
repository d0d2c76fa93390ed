// How every click runs (onClick): acknowledged after the save when the save is quick, at the deadline when it is not
// — and then the person still hears how it ended. The service is a held promise released by each test.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Outcome } from '../../deps.js';
import { ACK_DEADLINE_MS } from '../deadline.js';
import { onClick } from './click.js';
import {
  buttonClick,
  CHANNEL,
  DONE,
  fakeAck,
  refused,
  spiedClient,
  THREAD_TS,
  USER,
} from '../../../../test/support/slack-payloads.js';

function click() {
  let release: (outcome: Outcome | null) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const service = vi.fn(
    () =>
      new Promise<Outcome | null>((resolve, reject) => {
        release = resolve;
        fail = reject;
      }),
  );
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick('some_action', { value: 'v' }), ack, client: slack.client };
  const listener = onClick(() => service());
  return {
    run: () => listener(args),
    release: (outcome: Outcome | null) => release(outcome),
    fail: (error: Error) => fail(error),
    service,
    slack,
    ack,
  };
}

afterEach(() => vi.useRealTimers());

describe('onClick', () => {
  it('acknowledges only once a quick save is done, then tells a refusal privately', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { run, release, ack, slack } = click();
    const running = run();
    await vi.advanceTimersByTimeAsync(ACK_DEADLINE_MS - 100);
    expect(ack).not.toHaveBeenCalled();
    release(refused('Only the approvers can do that.'));
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ channel: CHANNEL, user: USER, thread_ts: THREAD_TS }),
    );
  });

  it('acknowledges at the deadline when the save is slow, and returns without waiting for it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { run, release, ack, slack } = click();
    const running = run();
    await vi.advanceTimersByTimeAsync(ACK_DEADLINE_MS);
    await running; // the listener has returned: the HTTP receiver answers Slack now
    expect(ack).toHaveBeenCalledTimes(1);
    expect(slack.postEphemeral).not.toHaveBeenCalled();
    release(DONE);
    await vi.waitFor(() => expect(ack).toHaveBeenCalledTimes(1));
    expect(slack.postEphemeral).not.toHaveBeenCalled();
  });

  it('tells a refusal that comes after the deadline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { run, release, slack } = click();
    const running = run();
    await vi.advanceTimersByTimeAsync(ACK_DEADLINE_MS);
    await running;
    release(refused('PO-2026-0001 is already approved.'));
    await vi.waitFor(() =>
      expect(slack.postEphemeral).toHaveBeenCalledWith(
        expect.objectContaining({ user: USER, text: 'PO-2026-0001 is already approved.' }),
      ),
    );
  });

  it('tells the person when the slow save then fails, with a reference for the logs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { run, fail, ack, slack } = click();
    const running = run();
    await vi.advanceTimersByTimeAsync(ACK_DEADLINE_MS);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
    fail(new Error('database unavailable'));
    await vi.waitFor(() => expect(slack.postEphemeral).toHaveBeenCalled());
    expect(slack.postEphemeral.mock.calls[0]?.[0]).toMatchObject({
      channel: CHANNEL,
      user: USER,
      text: expect.stringMatching(/Something went wrong; it has been logged \(ref `[0-9a-f]{8}`\)/),
    });
  });

  it('when a quick save fails: acknowledged, the person told, the error passed on to Bolt', async () => {
    const { run, fail, ack, slack } = click();
    const running = run();
    fail(new Error('database unavailable'));
    await expect(running).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
    expect(slack.postEphemeral).toHaveBeenCalledWith(expect.objectContaining({ text: expect.stringMatching(/ref/) }));
  });
});
