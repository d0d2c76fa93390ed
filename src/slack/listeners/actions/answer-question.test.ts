import { describe, expect, it, vi } from 'vitest';
import { ACTION, answerCodec, indexedActionId } from '../../ids.js';
import { answerQuestion } from './answer-question.js';
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
  THREAD_TS,
  USER,
} from '../../../../test/support/slack-payloads.js';

const value = answerCodec.encode({ q: IDS.question, a: 2 });

function click(options: ClickOptions = { value }) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(indexedActionId(ACTION.questionAnswer, 2), options), ack, client: slack.client };
  return { run: () => answerQuestion(deps)(args), parley, slack, ack };
}

describe('answerQuestion', () => {
  it('answers the question the button names with the suggestion it carries', async () => {
    const { run, parley, ack } = click();
    await run();
    expect(parley.answerQuestion).toHaveBeenCalledWith(TEAM, {
      questionId: IDS.question,
      by: USER,
      choice: { kind: 'suggested', index: 2 },
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

  it('tells a refusal to the person privately, in the thread', async () => {
    const { run, parley, slack } = click();
    parley.answerQuestion.mockResolvedValueOnce(refused('Only <@U0OTHER001> can answer.'));
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({
        channel: CHANNEL,
        user: USER,
        thread_ts: THREAD_TS,
        text: 'Only <@U0OTHER001> can answer.',
      }),
    );
  });

  it.each([
    ['an answer index out of range', JSON.stringify({ q: IDS.question, a: 10 })],
    ['a negative index', JSON.stringify({ q: IDS.question, a: -1 })],
  ])('ignores a forged or stale value (%s)', async (_what, forged) => {
    const { run, parley, ack } = click({ value: forged });
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
