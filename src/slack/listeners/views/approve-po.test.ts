import { describe, expect, it, vi } from 'vitest';
import type { ViewResponseAction } from '@slack/bolt';
import { CALLBACK, poRefCodec } from '../../ids.js';
import { approvePo } from './approve-po.js';
import {
  DONE,
  fakeAck,
  fakeDeps,
  holdNext,
  IDS,
  refused,
  spiedClient,
  TEAM,
  USER,
  viewSubmission,
} from '../../../../test/support/slack-payloads.js';

const metadata = poRefCodec.encode({ po: IDS.purchaseOrder, v: 4 });

function submit(privateMetadata: string = metadata) {
  const { deps, parley, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck<ViewResponseAction>();
  const args = { ...viewSubmission(CALLBACK.poModal, { privateMetadata }), ack, client: slack.client };
  return { run: () => approvePo(deps)(args), parley, screens, slack, ack };
}

describe('approvePo', () => {
  it('approves the PO in private_metadata at the version the approver saw', async () => {
    const { run, parley, ack } = submit();
    await run();
    expect(parley.approvePo).toHaveBeenCalledWith(TEAM, {
      purchaseOrderId: IDS.purchaseOrder,
      by: USER,
      expectedVersion: 4,
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('closes the modal once, only after the approval is committed', async () => {
    const { run, parley, ack } = submit();
    const release = holdNext(parley.approvePo);
    const running = run();
    await vi.waitFor(() => expect(parley.approvePo).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('keeps the modal open with a notice over it on a refusal (a stale modal, someone not an approver)', async () => {
    const { run, parley, slack, ack } = submit();
    parley.approvePo.mockResolvedValueOnce(refused('This purchase order changed since you opened it.'));
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    const answer = ack.mock.calls[0]?.[0];
    expect(answer).toMatchObject({ response_action: 'push', view: { type: 'modal' } });
    expect(JSON.stringify(answer)).toContain('This purchase order changed since you opened it.');
    expect(slack.postEphemeral).not.toHaveBeenCalled();
  });

  it.each([
    ['no version', JSON.stringify({ po: IDS.purchaseOrder })],
    ['a negative version', JSON.stringify({ po: IDS.purchaseOrder, v: -1 })],
    ['empty', ''],
  ])('closes a modal whose private_metadata is forged or stale (%s), and approves nothing', async (_what, forged) => {
    const { run, parley, ack } = submit(forged);
    await run();
    expect(parley.approvePo).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('keeps the modal open saying the approval did not go through when it cannot be saved', async () => {
    const { run, parley, ack } = submit();
    parley.approvePo.mockRejectedValueOnce(new Error('database unavailable'));
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    const answer = ack.mock.calls[0]?.[0];
    expect(answer).toMatchObject({ response_action: 'push' });
    expect(JSON.stringify(answer)).toMatch(/did not go through \(ref `[0-9a-f]{8}`\)\. Please submit again/);
  });
});
