import { describe, expect, it, vi } from 'vitest';
import { ACTION, indexedActionId, whichQuestionCodec } from '../../ids.js';
import { answerWhichQuestion } from './answer-which-question.js';
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

const REPLY = 'clthreadreply0000000000001';
const value = whichQuestionCodec.encode({ r: REPLY, q: IDS.question });

function click(options: ClickOptions = { value }, actionId = indexedActionId(ACTION.whichQuestion, 1)) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(actionId, options), ack, client: slack.client };
  return { run: () => answerWhichQuestion(deps)(args), parley, slack, ack };
}

describe('answerWhichQuestion', () => {
  it('answers the question the button names with the reply it carries', async () => {
    const { run, parley, ack } = click();
    await run();
    expect(parley.answerWhichQuestion).toHaveBeenCalledWith(TEAM, {
      replyId: REPLY,
      questionId: IDS.question,
      by: USER,
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('passes None of these on as no question', async () => {
    const none = whichQuestionCodec.encode({ r: REPLY, q: null });
    const { run, parley } = click({ value: none }, ACTION.whichQuestionNone);
    await run();
    expect(parley.answerWhichQuestion).toHaveBeenCalledWith(TEAM, { replyId: REPLY, questionId: null, by: USER });
  });

  it('acknowledges once, only after the choice is recorded', async () => {
    const { run, parley, ack } = click();
    const release = holdNext(parley.answerWhichQuestion);
    const running = run();
    await vi.waitFor(() => expect(parley.answerWhichQuestion).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells a refusal (someone else’s reply, a question answered meanwhile) to the person privately', async () => {
    const { run, parley, slack } = click();
    parley.answerWhichQuestion.mockResolvedValueOnce(refused('That question was answered meanwhile.'));
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({
        channel: CHANNEL,
        user: USER,
        thread_ts: THREAD_TS,
        text: 'That question was answered meanwhile.',
      }),
    );
  });

  it.each([
    ['a value that is not JSON', 'not json'],
    ['a reply id with markup', JSON.stringify({ r: '<!channel>', q: IDS.question })],
    ['a missing question field', JSON.stringify({ r: REPLY })],
    ['an extra field', JSON.stringify({ r: REPLY, q: null, by: 'U0OTHER001' })],
  ])('ignores a forged or stale value (%s)', async (_what, forged) => {
    const { run, parley, ack } = click({ value: forged });
    await run();
    expect(parley.answerWhichQuestion).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('still acknowledges when the service throws, and passes the error on', async () => {
    const { run, parley, ack } = click();
    parley.answerWhichQuestion.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
