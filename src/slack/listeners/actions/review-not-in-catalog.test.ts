import { describe, expect, it } from 'vitest';
import { ACTION, reviewItemCodec } from '../../ids.js';
import { reviewNotInCatalog } from './review-not-in-catalog.js';
import {
  buttonClick,
  type ClickOptions,
  fakeAck,
  fakeDeps,
  IDS,
  pagerBlocks,
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
});
