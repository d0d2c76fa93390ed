import { describe, expect, it } from 'vitest';
import { ACTION, supplierChoiceCodec } from '../../ids.js';
import { chooseSupplier } from './choose-supplier.js';
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
});
