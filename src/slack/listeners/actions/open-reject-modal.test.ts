import { describe, expect, it, vi } from 'vitest';
import { ACTION, poRefCodec } from '../../ids.js';
import { openRejectModal } from './open-reject-modal.js';
import {
  buttonClick,
  type ClickOptions,
  fakeAck,
  fakeDeps,
  holdNext,
  IDS,
  MODAL,
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
  it('pushes the reject modal for the PO at the version the approver saw', async () => {
    const { run, screens, slack, ack } = click();
    await run();
    expect(screens.rejectModal).toHaveBeenCalledWith(TEAM, { po: IDS.purchaseOrder, v: 3 }, USER);
    expect(slack.viewsPush).toHaveBeenCalledWith({ trigger_id: TRIGGER_ID, view: MODAL });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('acknowledges once, after the modal was read', async () => {
    const { run, screens, ack } = click();
    const release = holdNext(screens.rejectModal);
    const running = run();
    await vi.waitFor(() => expect(screens.rejectModal).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release({ ok: true, value: MODAL });
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('refuses someone who is not an approver: nothing pushed, and (inside a modal, no channel) nothing posted', async () => {
    const { run, screens, slack, ack } = click();
    screens.rejectModal.mockResolvedValueOnce(refused('Only the approvers can reject a purchase order.'));
    await run();
    expect(slack.viewsPush).not.toHaveBeenCalled();
    expect(slack.postEphemeral).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells the refusal privately when the click came from a channel', async () => {
    const { run, screens, slack } = click({ value });
    screens.rejectModal.mockResolvedValueOnce(refused('Only the approvers can reject a purchase order.'));
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ user: USER, text: 'Only the approvers can reject a purchase order.' }),
    );
  });

  it('ignores a forged or stale value (no version)', async () => {
    const { run, screens, ack } = click({ value: JSON.stringify({ po: IDS.purchaseOrder }), channel: null });
    await run();
    expect(screens.rejectModal).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  // Today's behaviour: acknowledged in a `finally`; the error goes on to Bolt's error handler.
  it('still acknowledges when reading the modal throws, and passes the error on', async () => {
    const { run, screens, ack } = click();
    screens.rejectModal.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
