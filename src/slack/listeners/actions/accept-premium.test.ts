import { describe, expect, it } from 'vitest';
import { ACTION, premiumChoiceCodec } from '../../ids.js';
import { acceptPremium } from './accept-premium.js';
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

const value = premiumChoiceCodec.encode({ n: IDS.negotiation, p: IDS.premium });

function click(options: ClickOptions = { value }) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(ACTION.decisionAcceptPremium, options), ack, client: slack.client };
  return { run: () => acceptPremium(deps)(args), parley, slack, ack };
}

describe('acceptPremium', () => {
  it('accepts the offer the button names, for its negotiation, as the person who clicked', async () => {
    const { run, parley, ack } = click();
    await run();
    expect(parley.acceptPremium).toHaveBeenCalledWith(TEAM, {
      negotiationId: IDS.negotiation,
      optionId: IDS.premium,
      by: USER,
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
