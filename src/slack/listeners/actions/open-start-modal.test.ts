import { describe, expect, it, vi } from 'vitest';
import { ACTION, quotationRefCodec } from '../../ids.js';
import { openStartModal } from './open-start-modal.js';
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

const value = quotationRefCodec.encode({ qt: IDS.quotation });

function click(options: ClickOptions = { value }) {
  const { deps, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(ACTION.reviewStartNegotiation, options), ack, client: slack.client };
  return { run: () => openStartModal(deps)(args), screens, slack, ack };
}

describe('openStartModal', () => {
  it('opens the start modal of the quotation the button names, with the click’s trigger', async () => {
    const { run, screens, slack, ack } = click();
    await run();
    expect(screens.startModal).toHaveBeenCalledWith(TEAM, IDS.quotation, USER);
    expect(slack.viewsOpen).toHaveBeenCalledWith({ trigger_id: TRIGGER_ID, view: MODAL });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('acknowledges once, after the modal was read and opened', async () => {
    const { run, screens, slack, ack } = click();
    const release = holdNext(screens.startModal);
    const running = run();
    await vi.waitFor(() => expect(screens.startModal).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release({ ok: true, value: MODAL });
    await running;
    expect(slack.viewsOpen.mock.invocationCallOrder[0]).toBeLessThan(ack.mock.invocationCallOrder[0] ?? 0);
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells the person privately why they cannot start it, and opens nothing', async () => {
    const { run, screens, slack } = click();
    screens.startModal.mockResolvedValueOnce(refused('Finish the review first.'));
    await run();
    expect(slack.viewsOpen).not.toHaveBeenCalled();
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ channel: CHANNEL, user: USER, text: 'Finish the review first.' }),
    );
  });

  it('ignores a forged or stale value', async () => {
    const { run, screens, slack, ack } = click({ value: JSON.stringify({ qt: IDS.quotation, extra: 1 }) });
    await run();
    expect(screens.startModal).not.toHaveBeenCalled();
    expect(slack.viewsOpen).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  // Today's behaviour: acknowledged in a `finally`; the error goes on to Bolt's error handler.
  it('still acknowledges when reading the modal throws, and passes the error on', async () => {
    const { run, screens, slack, ack } = click();
    screens.startModal.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
    expect(slack.viewsOpen).not.toHaveBeenCalled();
  });
});
