import { describe, expect, it } from 'vitest';
import { ACTION, confirmAllCodec } from '../../ids.js';
import { confirmAll } from './confirm-all.js';
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

const value = confirmAllCodec.encode({ qt: IDS.quotation });

function click(options: ClickOptions = { value }) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(ACTION.reviewConfirmAll, options), ack, client: slack.client };
  return { run: () => confirmAll(deps)(args), parley, slack, ack };
}

describe('confirmAll', () => {
  it('confirms every suggestion of the quotation the button names, keeping the page shown', async () => {
    const { run, parley, ack } = click({ value, blocks: pagerBlocks(4) });
    await run();
    expect(parley.confirmAll).toHaveBeenCalledWith(TEAM, { quotationId: IDS.quotation, by: USER, page: 4 });
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
