import { describe, expect, it } from 'vitest';
import { ACTION, poIdCodec, poRefCodec } from '../../ids.js';
import { buildLoadingModal } from '../../views/index.js';
import { openPoModal } from './open-po-modal.js';
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
});
