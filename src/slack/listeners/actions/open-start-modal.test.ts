import { describe, expect, it } from 'vitest';
import { ACTION, quotationRefCodec } from '../../ids.js';
import { buildLoadingModal } from '../../views/index.js';
import { openStartModal } from './open-start-modal.js';
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

const value = quotationRefCodec.encode({ qt: IDS.quotation });

function click(options: ClickOptions = { value }) {
  const { deps, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(ACTION.reviewStartNegotiation, options), ack, client: slack.client };
  return { run: () => openStartModal(deps)(args), screens, slack, ack };
}

describe('openStartModal', () => {
  it('opens a loading view with the click’s trigger, then the start modal of the quotation the button names', async () => {
    const { run, screens, slack, ack } = click();
    await run();
    expect(screens.startModal).toHaveBeenCalledWith(TEAM, IDS.quotation, USER);
    expect(slack.viewsOpen).toHaveBeenCalledWith({ trigger_id: TRIGGER_ID, view: buildLoadingModal('Parley') });
    expect(slack.viewsUpdate).toHaveBeenCalledWith({ view_id: OPENED_VIEW.id, hash: OPENED_VIEW.hash, view: MODAL });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('says in the modal why the person cannot start it', async () => {
    const { run, screens, slack } = click();
    screens.startModal.mockResolvedValueOnce({ ok: false, error: 'not_ready', message: 'Finish the review first.' });
    await run();
    const shown = JSON.stringify(slack.viewsUpdate.mock.calls[0]?.[0]);
    expect(shown).toContain(':warning: Finish the review first.');
    expect(shown).not.toContain('"submit"');
    expect(slack.postEphemeral).not.toHaveBeenCalled();
  });
});
