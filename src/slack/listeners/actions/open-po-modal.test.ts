import { describe, expect, it, vi } from 'vitest';
import { ACTION, poIdCodec, poRefCodec } from '../../ids.js';
import { buildLoadingModal } from '../../views/index.js';
import { openPoModal } from './open-po-modal.js';
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

const value = poIdCodec.encode({ po: IDS.purchaseOrder });

function click(options: ClickOptions = { value }) {
  const { deps, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(ACTION.decisionOpenPo, options), ack, client: slack.client };
  return { run: () => openPoModal(deps)(args), screens, slack, ack };
}

describe('openPoModal', () => {
  it('opens a loading view with the click’s trigger, then puts the PO’s modal in its place', async () => {
    const { run, screens, slack, ack } = click();
    await run();
    expect(screens.poModal).toHaveBeenCalledWith(TEAM, IDS.purchaseOrder, USER);
    expect(slack.viewsOpen).toHaveBeenCalledWith({ trigger_id: TRIGGER_ID, view: buildLoadingModal('Parley') });
    expect(slack.viewsUpdate).toHaveBeenCalledWith({ view_id: OPENED_VIEW.id, hash: OPENED_VIEW.hash, view: MODAL });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('reads older buttons that carry the PO with a version', async () => {
    const { run, screens } = click({ value: poRefCodec.encode({ po: IDS.purchaseOrder, v: 2 }) });
    await run();
    expect(screens.poModal).toHaveBeenCalledWith(TEAM, IDS.purchaseOrder, USER);
  });

  it('acknowledges and shows the loading view before the PO is read', async () => {
    const { run, screens, slack, ack } = click();
    const release = holdNext(screens.poModal);
    const running = run();
    await vi.waitFor(() => expect(screens.poModal).toHaveBeenCalled());
    expect(ack).toHaveBeenCalledTimes(1);
    expect(ack.mock.invocationCallOrder[0]).toBeLessThan(slack.viewsOpen.mock.invocationCallOrder[0] ?? 0);
    expect(slack.viewsUpdate).not.toHaveBeenCalled();
    release({ ok: true, value: MODAL });
    await running;
    expect(slack.viewsUpdate).toHaveBeenCalledWith(expect.objectContaining({ view: MODAL }));
  });

  it('shows a refusal in place of the loading view, not in the channel', async () => {
    const { run, screens, slack } = click();
    screens.poModal.mockResolvedValueOnce(refused('This purchase order no longer exists.'));
    await run();
    const shown = JSON.stringify(slack.viewsUpdate.mock.calls[0]?.[0]);
    expect(shown).toContain('This purchase order no longer exists.');
    expect(shown).toContain(OPENED_VIEW.id);
    expect(slack.postEphemeral).not.toHaveBeenCalled();
  });

  it('ignores a forged or stale value: acknowledged, nothing opened', async () => {
    const { run, screens, slack, ack } = click({ value: JSON.stringify({ po: 'PO-2026-0001; drop' }) });
    await run();
    expect(screens.poModal).not.toHaveBeenCalled();
    expect(slack.viewsOpen).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('says so in the modal when reading it throws, and passes the error on', async () => {
    const { run, screens, slack, ack } = click();
    screens.poModal.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(slack.viewsUpdate.mock.calls[0]?.[0])).toContain('try again');
  });
});
