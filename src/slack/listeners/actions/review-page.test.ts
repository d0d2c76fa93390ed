import { describe, expect, it, vi } from 'vitest';
import { ACTION, reviewPageCodec } from '../../ids.js';
import { reviewPage } from './review-page.js';
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

const value = reviewPageCodec.encode({ qt: IDS.quotation, pg: 3 });

function click(options: ClickOptions = { value }, actionId: string = ACTION.reviewPageNext) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(actionId, options), ack, client: slack.client };
  return { run: () => reviewPage(deps)(args), parley, slack, ack };
}

describe('reviewPage', () => {
  it.each([ACTION.reviewPageNext, ACTION.reviewPagePrev])('%s shows the page its value names', async (actionId) => {
    const { run, parley, ack } = click({ value }, actionId);
    await run();
    expect(parley.showReviewPage).toHaveBeenCalledWith(TEAM, { quotationId: IDS.quotation, by: USER, page: 3 });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('acknowledges once, only after the service resolved', async () => {
    const { run, parley, ack } = click();
    const release = holdNext(parley.showReviewPage);
    const running = run();
    await vi.waitFor(() => expect(parley.showReviewPage).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells a refusal to the person privately', async () => {
    const { run, parley, slack } = click();
    parley.showReviewPage.mockResolvedValueOnce(refused('This quotation no longer exists.'));
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ channel: CHANNEL, user: USER, text: 'This quotation no longer exists.' }),
    );
  });

  it.each([
    ['page 0', JSON.stringify({ qt: IDS.quotation, pg: 0 })],
    ['a page past any review', JSON.stringify({ qt: IDS.quotation, pg: 1e9 })],
    ['no quotation', JSON.stringify({ pg: 2 })],
  ])('ignores a forged or stale value (%s)', async (_what, forged) => {
    const { run, parley, ack } = click({ value: forged });
    await run();
    expect(parley.showReviewPage).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  // Today's behaviour: acknowledged in a `finally`; the error goes on to Bolt's error handler.
  it('still acknowledges when the service throws, and passes the error on', async () => {
    const { run, parley, ack } = click();
    parley.showReviewPage.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
