import { describe, expect, it } from 'vitest';
import { ACTION, answerCodec, indexedActionId } from '../../ids.js';
import { answerQuestion } from './answer-question.js';
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
});
