import { describe, expect, it } from 'vitest';
import { ACTION, poRefCodec } from '../../ids.js';
import { buildLoadingModal } from '../../views/index.js';
import { openRejectModal } from './open-reject-modal.js';
import {
  buttonClick,
  type ClickOptions,
  fakeAck,
  fakeDeps,
  IDS,
  MODAL,
  OPENED_VIEW,
  spiedClient,
  TEAM,
  TRIGGER_ID,
  USER,
} from '../../../../test/support/slack-payloads.js';

const value = poRefCodec.encode({ po: IDS.purchaseOrder, v: 3 });

/** Reject… is clicked inside the PO modal: no channel. */
function click(options: ClickOptions = { value, channel: null }) {
  const { deps, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(ACTION.poReject, options), ack, client: slack.client };
  return { run: () => openRejectModal(deps)(args), screens, slack, ack };
}

describe('openRejectModal', () => {
  it('pushes a loading view over the PO modal, then the reject modal for the PO at the version seen', async () => {
    const { run, screens, slack, ack } = click();
    await run();
    expect(screens.rejectModal).toHaveBeenCalledWith(TEAM, { po: IDS.purchaseOrder, v: 3 }, USER);
    expect(slack.viewsPush).toHaveBeenCalledWith({ trigger_id: TRIGGER_ID, view: buildLoadingModal('Parley') });
    expect(slack.viewsOpen).not.toHaveBeenCalled();
    expect(slack.viewsUpdate).toHaveBeenCalledWith({ view_id: OPENED_VIEW.id, hash: OPENED_VIEW.hash, view: MODAL });
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
