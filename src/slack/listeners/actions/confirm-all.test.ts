import { describe, expect, it, vi } from 'vitest';
import { ACTION, confirmAllCodec } from '../../ids.js';
import { confirmAll } from './confirm-all.js';
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

  it('acknowledges once, only after the service resolved', async () => {
    const { run, parley, ack } = click();
    const release = holdNext(parley.confirmAll);
    const running = run();
    await vi.waitFor(() => expect(parley.confirmAll).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells a refusal to the person privately', async () => {
    const { run, parley, slack } = click();
    parley.confirmAll.mockResolvedValueOnce(refused());
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledWith(expect.objectContaining({ channel: CHANNEL, user: USER }));
  });

  it('ignores a forged or stale value', async () => {
    const { run, parley, ack } = click({ value: JSON.stringify({ qt: '../../etc' }) });
    await run();
    expect(parley.confirmAll).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  // Today's behaviour: acknowledged in a `finally`; the error goes on to Bolt's error handler.
  it('still acknowledges when the service throws, and passes the error on', async () => {
    const { run, parley, ack } = click();
    parley.confirmAll.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
