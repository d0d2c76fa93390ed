import { describe, expect, it, vi } from 'vitest';
import { ACTION, premiumChoiceCodec } from '../../ids.js';
import { acceptPremium } from './accept-premium.js';
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

  it('acknowledges once, only after the consent is recorded', async () => {
    const { run, parley, ack } = click();
    const release = holdNext(parley.acceptPremium);
    const running = run();
    await vi.waitFor(() => expect(parley.acceptPremium).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells a refusal to the person privately (not allowed, or the PO already approved)', async () => {
    const { run, parley, slack } = click();
    parley.acceptPremium.mockResolvedValueOnce(refused('PO-2026-0001 is already approved: that award stands.'));
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({
        channel: CHANNEL,
        user: USER,
        text: 'PO-2026-0001 is already approved: that award stands.',
      }),
    );
  });

  it('ignores a forged or stale value', async () => {
    for (const forged of [
      JSON.stringify({ n: IDS.negotiation }),
      JSON.stringify({ n: IDS.negotiation, p: '<!here>' }),
    ]) {
      const { run, parley, ack } = click({ value: forged });
      await run();
      expect(parley.acceptPremium).not.toHaveBeenCalled();
      expect(ack).toHaveBeenCalledTimes(1);
    }
  });

  it('still acknowledges when the service throws, and passes the error on', async () => {
    const { run, parley, ack } = click();
    parley.acceptPremium.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
