import { describe, expect, it, vi } from 'vitest';
import { ACTION } from '../../ids.js';
import { catalogOpen } from './catalog-open.js';
import {
  buttonClick,
  fakeAck,
  fakeDeps,
  MODAL,
  spiedClient,
  TEAM,
  TRIGGER_ID,
  USER,
} from '../../../../test/support/slack-payloads.js';

describe('catalogOpen', () => {
  it('opens the catalog modal from the App Home at once, then fills it', async () => {
    const { deps, screens } = fakeDeps();
    const slack = spiedClient();
    slack.viewsOpen.mockResolvedValue({ ok: true, view: { id: 'V0LOADING1', hash: 'h1' } });
    const viewsUpdate = vi.spyOn(slack.client.views, 'update').mockResolvedValue({ ok: true });
    const ack = fakeAck();
    await catalogOpen(deps)({ ...buttonClick(ACTION.catalogOpen, { channel: null }), ack, client: slack.client });
    expect(ack).toHaveBeenCalledTimes(1);
    expect(slack.viewsOpen).toHaveBeenCalledWith(expect.objectContaining({ trigger_id: TRIGGER_ID }));
    expect(screens.catalogModal).toHaveBeenCalledWith(TEAM, USER);
    expect(viewsUpdate).toHaveBeenCalledWith({ view_id: 'V0LOADING1', hash: 'h1', view: MODAL });
  });
});
