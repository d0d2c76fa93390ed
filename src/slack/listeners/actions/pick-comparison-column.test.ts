import { describe, expect, it } from 'vitest';
import { ACTION, comparisonColumnCodec } from '../../ids.js';
import { pickComparisonColumn } from './pick-comparison-column.js';
import {
  buttonClick,
  CHANNEL,
  type ClickOptions,
  fakeAck,
  fakeDeps,
  IDS,
  refused,
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

  it('tells a refusal (someone who may not review it) to the person privately', async () => {
    const { run, parley, slack } = click();
    parley.chooseComparisonColumn.mockResolvedValueOnce(refused('Only the buyer can pick.'));
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ channel: CHANNEL, user: USER, text: 'Only the buyer can pick.' }),
    );
  });

  it('ignores a forged value', async () => {
    const { run, parley, ack } = click({ value: JSON.stringify({ qt: IDS.quotation, c: -1 }) });
    await run();
    expect(parley.chooseComparisonColumn).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
