import { describe, expect, it } from 'vitest';
import { ACTION, indexedActionId, whichQuestionCodec } from '../../ids.js';
import { answerWhichQuestion } from './answer-which-question.js';
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
});
