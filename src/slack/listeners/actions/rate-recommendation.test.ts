import { describe, expect, it } from 'vitest';
import { ACTION, feedbackCodec } from '../../ids.js';
import { rateRecommendation } from './rate-recommendation.js';
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
});
