import { describe, expect, it, vi } from 'vitest';
import type { ViewResponseAction } from '@slack/bolt';
import { BLOCK, CALLBACK } from '../../ids.js';
import { saveSettings } from './save-settings.js';
import {
  DONE,
  fakeAck,
  fakeDeps,
  holdNext,
  refused,
  settingsModalValues,
  spiedClient,
  type StateValues,
  TEAM,
  USER,
  viewSubmission,
} from '../../../../test/support/slack-payloads.js';

const valid = settingsModalValues({ approvers: ['U0APPROVE1'], amount: '25000' });

function submit(values: StateValues = valid) {
  const { deps, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck<ViewResponseAction>();
  const args = { ...viewSubmission(CALLBACK.settingsModal, { values }), ack, client: slack.client };
  return { run: () => saveSettings(deps)(args), screens, slack, ack };
}

describe('saveSettings', () => {
  it('saves what the modal asked', async () => {
    const { run, screens, ack } = submit();
    await run();
    expect(screens.saveSettings).toHaveBeenCalledWith(TEAM, USER, {
      approvers: ['U0APPROVE1'],
      dualApprovalAboveUsd: 25000,
      defaultMode: 'balanced',
      defaultRounds: 3,
      defaultQuestionBudget: 2,
      // The disclosure box is not ticked in this submission: Alex keeps competitors anonymous.
      discloseCompetitors: false,
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('closes the modal once, only after the settings are saved', async () => {
    const { run, screens, ack } = submit();
    const release = holdNext(screens.saveSettings);
    const running = run();
    await vi.waitFor(() => expect(screens.saveSettings).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
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

  it('logs a refusal (a modal has no channel to show it in) and posts nothing', async () => {
    const { run, screens, slack, ack } = submit();
    screens.saveSettings.mockResolvedValueOnce(refused('Only the approvers can change Parley’s settings.'));
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(slack.postEphemeral).not.toHaveBeenCalled();
  });

  // Today's behaviour: the modal closes in a `finally`; the error goes on to Bolt's error handler.
  it('still closes the modal when saving throws, and passes the error on', async () => {
    const { run, screens, ack } = submit();
    screens.saveSettings.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
