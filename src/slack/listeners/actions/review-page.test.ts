import { describe, expect, it } from 'vitest';
import { ACTION, reviewPageCodec } from '../../ids.js';
import { reviewPage } from './review-page.js';
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
});
