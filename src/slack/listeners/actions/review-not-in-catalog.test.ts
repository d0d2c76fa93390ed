import { describe, expect, it, vi } from 'vitest';
import { ACTION, reviewItemCodec } from '../../ids.js';
import { reviewNotInCatalog } from './review-not-in-catalog.js';
import {
  buttonClick,
  CHANNEL,
  type ClickOptions,
  DONE,
  fakeAck,
  fakeDeps,
  holdNext,
  IDS,
  pagerBlocks,
  refused,
  spiedClient,
  TEAM,
  USER,
} from '../../../../test/support/slack-payloads.js';

const value = reviewItemCodec.encode({ i: IDS.item });

function click(options: ClickOptions = { value }) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(ACTION.reviewNotInCatalog, options), ack, client: slack.client };
  return { run: () => reviewNotInCatalog(deps)(args), parley, slack, ack };
}

describe('reviewNotInCatalog', () => {
  it('marks the line the button names as not in the catalog, on the page the message shows', async () => {
    const { run, parley, ack } = click({ value, blocks: pagerBlocks(2) });
    await run();
    expect(parley.reviewItem).toHaveBeenCalledWith(TEAM, {
      itemId: IDS.item,
      by: USER,
      decision: { kind: 'not_in_catalog' },
      page: 2,
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('acknowledges once, only after the service resolved', async () => {
    const { run, parley, ack } = click();
    const release = holdNext(parley.reviewItem);
    const running = run();
    await vi.waitFor(() => expect(parley.reviewItem).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells a refusal to the person privately', async () => {
    const { run, parley, slack } = click();
    parley.reviewItem.mockResolvedValueOnce(refused('This quotation is already being negotiated.'));
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ channel: CHANNEL, user: USER, text: 'This quotation is already being negotiated.' }),
    );
  });

  it.each([
    ['garbage', '{"i":'],
    ['a confirm button’s value', JSON.stringify({ i: IDS.item, p: IDS.product })],
  ])('ignores a forged or stale value (%s)', async (_what, forged) => {
    const { run, parley, slack, ack } = click({ value: forged });
    await run();
    expect(parley.reviewItem).not.toHaveBeenCalled();
    expect(slack.postEphemeral).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  // Today's behaviour: acknowledged in a `finally`; the error goes on to Bolt's error handler.
  it('still acknowledges when the service throws, and passes the error on', async () => {
    const { run, parley, ack } = click();
    parley.reviewItem.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
