import { describe, expect, it, vi } from 'vitest';
import { ACTION, poRefCodec } from '../../ids.js';
import { buildLoadingModal } from '../../views/index.js';
import { openRejectModal } from './open-reject-modal.js';
import {
  buttonClick,
  type ClickOptions,
  fakeAck,
  fakeDeps,
  holdNext,
  IDS,
  MODAL,
  OPENED_VIEW,
  refused,
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

  it('acknowledges before the reject modal is read', async () => {
    const { run, screens, ack, slack } = click();
    const release = holdNext(screens.rejectModal);
    const running = run();
    await vi.waitFor(() => expect(screens.rejectModal).toHaveBeenCalled());
    expect(ack).toHaveBeenCalledTimes(1);
    expect(slack.viewsPush).toHaveBeenCalledTimes(1);
    release({ ok: true, value: MODAL });
    await running;
    expect(slack.viewsUpdate).toHaveBeenCalledTimes(1);
  });

  it('tells someone who is not an approver why, in the pushed view (a modal has no channel)', async () => {
    const { run, screens, slack } = click();
    screens.rejectModal.mockResolvedValueOnce(refused('Only the approvers can reject a purchase order.'));
    await run();
    const shown = JSON.stringify(slack.viewsUpdate.mock.calls[0]?.[0]);
    expect(shown).toContain(':lock: Only the approvers can reject a purchase order.');
    expect(slack.postEphemeral).not.toHaveBeenCalled();
  });

  it('ignores a value without the version it was shown at', async () => {
    const { run, screens, slack, ack } = click({ value: JSON.stringify({ po: IDS.purchaseOrder }), channel: null });
    await run();
    expect(screens.rejectModal).not.toHaveBeenCalled();
    expect(slack.viewsPush).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
