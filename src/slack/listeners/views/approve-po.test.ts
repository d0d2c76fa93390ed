import { describe, expect, it, vi } from 'vitest';
import type { ViewResponseAction } from '@slack/bolt';
import { CALLBACK, poRefCodec } from '../../ids.js';
import { approvePo } from './approve-po.js';
import {
  CHANNEL,
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

  it('tells a refusal (a stale modal, someone not an approver) privately in the PO’s channel', async () => {
    const { run, parley, screens, slack } = submit();
    parley.approvePo.mockResolvedValueOnce(refused('This purchase order changed since you opened it.'));
    await run();
    expect(screens.purchaseOrderChannel).toHaveBeenCalledWith(TEAM, IDS.purchaseOrder);
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({
        channel: CHANNEL,
        user: USER,
        text: 'This purchase order changed since you opened it.',
      }),
    );
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

  // Today's behaviour: the modal closes in a `finally`; the error goes on to Bolt's error handler.
  it('still closes the modal when the service throws, and passes the error on', async () => {
    const { run, parley, ack } = submit();
    parley.approvePo.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
