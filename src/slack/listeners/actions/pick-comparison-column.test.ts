import { describe, expect, it } from 'vitest';
import { ACTION, comparisonColumnCodec } from '../../ids.js';
import { pickComparisonColumn } from './pick-comparison-column.js';
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

const second = comparisonColumnCodec.encode({ qt: IDS.quotation, c: 1 });

function click(options: ClickOptions = { value: second }) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(`${ACTION.comparisonPickColumn}:1`, options), ack, client: slack.client };
  return { run: () => pickComparisonColumn(deps)(args), parley, slack, ack };
}

describe('pickComparisonColumn', () => {
  it('saves the supplier column the button names, then acknowledges', async () => {
    const { run, parley, ack } = click();
    await run();
    expect(parley.chooseComparisonColumn).toHaveBeenCalledWith(TEAM, {
      quotationId: IDS.quotation,
      by: USER,
      column: 1,
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
