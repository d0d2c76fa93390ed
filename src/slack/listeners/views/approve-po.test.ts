import { describe, expect, it } from 'vitest';
import type { ViewResponseAction } from '@slack/bolt';
import { CALLBACK, poRefCodec } from '../../ids.js';
import { approvePo } from './approve-po.js';
import {
  fakeAck,
  fakeDeps,
  IDS,
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
});
