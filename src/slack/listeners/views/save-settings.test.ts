import { describe, expect, it } from 'vitest';
import type { ViewResponseAction } from '@slack/bolt';
import { BLOCK, CALLBACK, settingsVersionCodec } from '../../ids.js';
import { saveSettings } from './save-settings.js';
import {
  DONE,
  fakeAck,
  fakeDeps,
  holdNext,
  settingsModalValues,
  spiedClient,
  type StateValues,
  TEAM,
  USER,
  viewSubmission,
} from '../../../../test/support/slack-payloads.js';

const valid = settingsModalValues({ approvers: ['U0APPROVE1'], amount: '25000', brandName: 'Fjell Gear' });
const SHOWN_VERSION = settingsVersionCodec.encode({ sv: 4 });

function submit(values: StateValues = valid, privateMetadata: string = SHOWN_VERSION, deadlineMs?: number) {
  const { deps, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck<ViewResponseAction>();
  const args = { ...viewSubmission(CALLBACK.settingsModal, { values, privateMetadata }), ack, client: slack.client };
  return { run: () => saveSettings(deps, deadlineMs)(args), screens, slack, ack };
}

describe('saveSettings', () => {
  it('saves what the modal asked, over the version it showed', async () => {
    const { run, screens, ack } = submit();
    await run();
    expect(screens.saveSettings).toHaveBeenCalledWith(
      TEAM,
      USER,
      {
        brandName: 'Fjell Gear',
        approvers: ['U0APPROVE1'],
        dualApprovalAboveUsd: 25000,
        defaultMode: 'balanced',
        defaultRounds: 3,
        defaultQuestionBudget: 2,
        // The disclosure box is not ticked in this submission: Alex keeps competitors anonymous.
        discloseCompetitors: false,
        autoSendToSuppliers: false,
      },
      4,
    );
    expect(ack).toHaveBeenCalledTimes(1);
    expect(ack).toHaveBeenCalledWith(undefined);
  });

  it('closes the modal at the deadline when the database is slow, letting the save finish', async () => {
    const { run, screens, ack } = submit(valid, SHOWN_VERSION, 20);
    const release = holdNext(screens.saveSettings);
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(ack).toHaveBeenCalledWith();
    release(DONE);
  });

  it('answers bad input with field errors, and saves nothing', async () => {
    const { run, screens, ack } = submit(settingsModalValues({ approvers: ['U0APPROVE1'], amount: '-1' }));
    await run();
    expect(screens.saveSettings).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledWith({
      response_action: 'errors',
      errors: { [BLOCK.settingsDualApproval]: expect.any(String) },
    });
  });
});
