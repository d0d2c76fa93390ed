import { describe, expect, it } from 'vitest';
import { ACTION, curveballChoiceCodec, indexedActionId } from '../../ids.js';
import { chooseCurveball } from './choose-curveball.js';
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

const value = curveballChoiceCodec.encode({ n: IDS.negotiation, s: IDS.strategy });

function click(options: ClickOptions = { value }) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(indexedActionId(ACTION.curveballChoose, 1), options), ack, client: slack.client };
  return { run: () => chooseCurveball(deps)(args), parley, slack, ack };
}

describe('chooseCurveball', () => {
  it('chooses the strategy the button names for its negotiation', async () => {
    const { run, parley, ack } = click();
    await run();
    expect(parley.chooseCurveballStrategy).toHaveBeenCalledWith(TEAM, {
      negotiationId: IDS.negotiation,
      strategyId: IDS.strategy,
      by: USER,
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
