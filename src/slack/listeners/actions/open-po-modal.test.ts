import { describe, expect, it, vi } from 'vitest';
import { ACTION, poIdCodec, poRefCodec } from '../../ids.js';
import { openPoModal } from './open-po-modal.js';
import {
  buttonClick,
  CHANNEL,
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

const value = poIdCodec.encode({ po: IDS.purchaseOrder });

function click(options: ClickOptions = { value }) {
  const { deps, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(ACTION.decisionOpenPo, options), ack, client: slack.client };
  return { run: () => openPoModal(deps)(args), screens, slack, ack };
}

describe('openPoModal', () => {
  it('opens the modal of the PO the button names', async () => {
    const { run, screens, slack, ack } = click();
    await run();
    expect(screens.poModal).toHaveBeenCalledWith(TEAM, IDS.purchaseOrder, USER);
    expect(slack.viewsOpen).toHaveBeenCalledWith({ trigger_id: TRIGGER_ID, view: MODAL });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('reads older buttons that carry the PO with a version', async () => {
    const { run, screens } = click({ value: poRefCodec.encode({ po: IDS.purchaseOrder, v: 2 }) });
    await run();
    expect(screens.poModal).toHaveBeenCalledWith(TEAM, IDS.purchaseOrder, USER);
  });

  it('acknowledges once, after the modal was read', async () => {
    const { run, screens, ack } = click();
    const release = holdNext(screens.poModal);
    const running = run();
    await vi.waitFor(() => expect(screens.poModal).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release({ ok: true, value: MODAL });
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells a refusal privately and opens nothing', async () => {
    const { run, screens, slack } = click();
    screens.poModal.mockResolvedValueOnce(refused('This purchase order no longer exists.'));
    await run();
    expect(slack.viewsOpen).not.toHaveBeenCalled();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ channel: CHANNEL, user: USER, text: 'This purchase order no longer exists.' }),
    );
  });

  it('ignores a forged or stale value', async () => {
    const { run, screens, ack } = click({ value: JSON.stringify({ po: 'PO-2026-0001; drop' }) });
    await run();
    expect(screens.poModal).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  // Today's behaviour: acknowledged in a `finally`; the error goes on to Bolt's error handler.
  it('still acknowledges when reading the modal throws, and passes the error on', async () => {
    const { run, screens, ack } = click();
    screens.poModal.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
