import { describe, expect, it, vi } from 'vitest';
import { ACTION, feedbackCodec } from '../../ids.js';
import { rateRecommendation } from './rate-recommendation.js';
import {
  buttonClick,
  type ClickOptions,
  DONE,
  fakeAck,
  fakeDeps,
  holdNext,
  IDS,
  spiedClient,
  TEAM,
  USER,
} from '../../../../test/support/slack-payloads.js';

const value = feedbackCodec.encode({ n: IDS.negotiation, r: 'negative' });

function click(options: ClickOptions = { value }) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(ACTION.decisionFeedback, options), ack, client: slack.client };
  return { run: () => rateRecommendation(deps)(args), parley, ack };
}

describe('rateRecommendation', () => {
  it('stores the side clicked, for the negotiation the value names, as the person who clicked', async () => {
    const { run, parley, ack } = click();
    await run();
    expect(parley.rateRecommendation).toHaveBeenCalledWith(TEAM, {
      negotiationId: IDS.negotiation,
      rating: 'negative',
      by: USER,
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('acknowledges once, only after the rating is stored', async () => {
    const { run, parley, ack } = click();
    const release = holdNext(parley.rateRecommendation);
    const running = run();
    await vi.waitFor(() => expect(parley.rateRecommendation).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('ignores a value it cannot read', async () => {
    const { run, parley } = click({ value: 'not-a-rating' });
    await run();
    expect(parley.rateRecommendation).not.toHaveBeenCalled();
  });
});
