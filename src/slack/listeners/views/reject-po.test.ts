import { describe, expect, it, vi } from 'vitest';
import type { ViewResponseAction } from '@slack/bolt';
import { BLOCK, CALLBACK, poRefCodec } from '../../ids.js';
import { rejectPo } from './reject-po.js';
import {
  DONE,
  fakeAck,
  fakeDeps,
  holdNext,
  IDS,
  refused,
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

  it('closes the modals once, only after the rejection is committed', async () => {
    const { run, parley, ack } = submit();
    const release = holdNext(parley.rejectPo);
    const running = run();
    await vi.waitFor(() => expect(parley.rejectPo).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
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

  it('shows a refusal as a field error on the reason, keeping the modals open', async () => {
    const { run, parley, slack, ack } = submit();
    parley.rejectPo.mockResolvedValueOnce(refused('This purchase order is approved.'));
    await run();
    expect(ack).toHaveBeenCalledWith({
      response_action: 'errors',
      errors: { [BLOCK.rejectReason]: 'This purchase order is approved.' },
    });
    expect(slack.postEphemeral).not.toHaveBeenCalled();
  });

  it('closes a modal whose private_metadata is forged or stale, and rejects nothing', async () => {
    const { run, parley, ack } = submit({ privateMetadata: '{"po":"x","v":"4"}' });
    await run();
    expect(parley.rejectPo).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(ack).toHaveBeenCalledWith();
  });

  it('keeps the modals open with a field error when the rejection cannot be saved', async () => {
    const { run, parley, ack } = submit();
    parley.rejectPo.mockRejectedValueOnce(new Error('database unavailable'));
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(ack).toHaveBeenCalledWith({
      response_action: 'errors',
      errors: { [BLOCK.rejectReason]: expect.stringMatching(/did not go through.*Please submit again/) },
    });
  });
});
