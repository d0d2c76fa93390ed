import { describe, expect, it, vi } from 'vitest';
import { ACTION, supplierChoiceCodec } from '../../ids.js';
import { chooseSupplier } from './choose-supplier.js';
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

const existing = supplierChoiceCodec.encode({ qt: IDS.quotation, s: IDS.supplier });
const createNew = supplierChoiceCodec.encode({ qt: IDS.quotation });

function click(options: ClickOptions = { value: existing }, actionId: string = ACTION.reviewSupplierUseExisting) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(actionId, options), ack, client: slack.client };
  return { run: () => chooseSupplier(deps)(args), parley, slack, ack };
}

describe('chooseSupplier', () => {
  it('links the quotation to the supplier the button names', async () => {
    const { run, parley, ack } = click({ value: existing, blocks: pagerBlocks(2) });
    await run();
    expect(parley.chooseSupplier).toHaveBeenCalledWith(TEAM, {
      quotationId: IDS.quotation,
      by: USER,
      choice: { kind: 'existing', supplierId: IDS.supplier },
      page: 2,
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('creates a new supplier when the button names none', async () => {
    const { run, parley } = click({ value: createNew }, ACTION.reviewSupplierCreate);
    await run();
    expect(parley.chooseSupplier).toHaveBeenCalledWith(TEAM, {
      quotationId: IDS.quotation,
      by: USER,
      choice: { kind: 'new' },
      page: 1,
    });
  });

  it('acknowledges once, only after the service resolved', async () => {
    const { run, parley, ack } = click();
    const release = holdNext(parley.chooseSupplier);
    const running = run();
    await vi.waitFor(() => expect(parley.chooseSupplier).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells a refusal to the person privately', async () => {
    const { run, parley, slack } = click();
    parley.chooseSupplier.mockResolvedValueOnce(refused('That supplier is not in this workspace.'));
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ channel: CHANNEL, user: USER, text: 'That supplier is not in this workspace.' }),
    );
  });

  it('ignores a forged or stale value', async () => {
    const { run, parley, ack } = click({ value: JSON.stringify({ qt: IDS.quotation, s: 'x y' }) });
    await run();
    expect(parley.chooseSupplier).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  // Today's behaviour: acknowledged in a `finally`; the error goes on to Bolt's error handler.
  it('still acknowledges when the service throws, and passes the error on', async () => {
    const { run, parley, ack } = click();
    parley.chooseSupplier.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
