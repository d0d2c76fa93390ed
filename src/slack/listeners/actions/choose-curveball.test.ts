import { describe, expect, it, vi } from 'vitest';
import { ACTION, curveballChoiceCodec, indexedActionId } from '../../ids.js';
import { chooseCurveball } from './choose-curveball.js';
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

  it('acknowledges once, only after the choice is recorded', async () => {
    const { run, parley, ack } = click();
    const release = holdNext(parley.chooseCurveballStrategy);
    const running = run();
    await vi.waitFor(() => expect(parley.chooseCurveballStrategy).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells a refusal to the person privately', async () => {
    const { run, parley, slack } = click();
    parley.chooseCurveballStrategy.mockResolvedValueOnce(refused('A strategy was already chosen.'));
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ channel: CHANNEL, user: USER, text: 'A strategy was already chosen.' }),
    );
  });

  it('ignores a forged or stale value', async () => {
    const { run, parley, ack } = click({ value: JSON.stringify({ n: IDS.negotiation }) });
    await run();
    expect(parley.chooseCurveballStrategy).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  // Today's behaviour: acknowledged in a `finally`; the error goes on to Bolt's error handler.
  it('still acknowledges when the service throws, and passes the error on', async () => {
    const { run, parley, ack } = click();
    parley.chooseCurveballStrategy.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
