import { describe, expect, it } from 'vitest';
import type { ViewResponseAction } from '@slack/bolt';
import { BLOCK, CALLBACK, poRefCodec } from '../../ids.js';
import { rejectPo } from './reject-po.js';
import {
  fakeAck,
  fakeDeps,
  IDS,
  rejectModalValues,
  spiedClient,
  type StateValues,
  TEAM,
  USER,
  viewSubmission,
} from '../../../../test/support/slack-payloads.js';

const metadata = poRefCodec.encode({ po: IDS.purchaseOrder, v: 4 });

function submit(options: { privateMetadata?: string; values?: StateValues } = {}) {
  const { deps, parley, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck<ViewResponseAction>();
  const submitted = viewSubmission(CALLBACK.rejectModal, {
    privateMetadata: metadata,
    values: rejectModalValues('  Lead time too long  '),
    ...options,
  });
  const args = { ...submitted, ack, client: slack.client };
  return { run: () => rejectPo(deps)(args), parley, screens, slack, ack };
}

describe('rejectPo', () => {
  it('rejects the PO at the version seen, with the trimmed reason, and closes both modals', async () => {
    const { run, parley, ack } = submit();
    await run();
    expect(parley.rejectPo).toHaveBeenCalledWith(TEAM, {
      purchaseOrderId: IDS.purchaseOrder,
      by: USER,
      reason: 'Lead time too long',
      expectedVersion: 4,
    });
    expect(ack).toHaveBeenCalledTimes(1);
    expect(ack).toHaveBeenCalledWith({ response_action: 'clear' });
  });

  it('asks for a reason with a field error, and rejects nothing', async () => {
    const { run, parley, ack } = submit({ values: rejectModalValues('   ') });
    await run();
    expect(parley.rejectPo).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledWith({
      response_action: 'errors',
      errors: { [BLOCK.rejectReason]: expect.any(String) },
    });
  });
});
