import { describe, expect, it, vi } from 'vitest';
import { ACTION, questionRefCodec } from '../../ids.js';
import { earlyTermination } from './early-termination.js';
import {
  buttonClick,
  CHANNEL,
  type ClickOptions,
  DONE,
  fakeAck,
  fakeDeps,
  holdNext,
  IDS,
  refused,
  spiedClient,
  TEAM,
  USER,
} from '../../../../test/support/slack-payloads.js';

const value = questionRefCodec.encode({ q: IDS.question });

function click(actionId: string = ACTION.earlyTerminationFinish, options: ClickOptions = { value }) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(actionId, options), ack, client: slack.client };
  return { run: () => earlyTermination(deps)(args), parley, slack, ack };
}

describe('earlyTermination', () => {
  it.each([
    [ACTION.earlyTerminationFinish, true],
    [ACTION.earlyTerminationContinue, false],
  ])('%s answers the question with finish = %s', async (actionId, finish) => {
    const { run, parley, ack } = click(actionId);
    await run();
    expect(parley.answerQuestion).toHaveBeenCalledWith(TEAM, {
      questionId: IDS.question,
      by: USER,
      choice: { kind: 'early_termination', finish },
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('acknowledges once, only after the answer is recorded', async () => {
    const { run, parley, ack } = click();
    const release = holdNext(parley.answerQuestion);
    const running = run();
    await vi.waitFor(() => expect(parley.answerQuestion).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells a refusal to the person privately', async () => {
    const { run, parley, slack } = click();
    parley.answerQuestion.mockResolvedValueOnce(refused('This question was already answered.'));
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ channel: CHANNEL, user: USER, text: 'This question was already answered.' }),
    );
  });

  it('ignores a forged or stale value', async () => {
    const { run, parley, ack } = click(ACTION.earlyTerminationContinue, { value: '{"q":""}' });
    await run();
    expect(parley.answerQuestion).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  // Today's behaviour: acknowledged in a `finally`; the error goes on to Bolt's error handler.
  it('still acknowledges when the service throws, and passes the error on', async () => {
    const { run, parley, ack } = click();
    parley.answerQuestion.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
