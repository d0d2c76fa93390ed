import { describe, expect, it } from 'vitest';
import { ACTION, questionRefCodec } from '../../ids.js';
import { earlyTermination } from './early-termination.js';
import {
  buttonClick,
  type ClickOptions,
  fakeAck,
  fakeDeps,
  IDS,
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
});
