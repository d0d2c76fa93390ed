// The settings modal (`/parley settings`) is submitted: field errors in the modal, or the settings saved. The modal
// carries the settings version it showed; a save over a newer version (someone saved meanwhile) or by someone who may
// no longer change them is refused in the modal itself, where the person is looking — a modal has no channel.
import { log } from '../../../log.js';
import type { SlackDeps } from '../../deps.js';
import { BLOCK, settingsVersionCodec } from '../../ids.js';
import { parseSettingsModal } from '../../views/index.js';
import { ACK_DEADLINE_MS, settleWithin } from '../deadline.js';
import { type SubmitArgs, submittedBy } from './submission.js';

export const SETTINGS_FORM_OUTDATED = 'This form is out of date. Close it and run /parley settings again.';

export function saveSettings({ screens }: SlackDeps, deadlineMs = ACK_DEADLINE_MS) {
  return async ({ ack, body, view }: SubmitArgs): Promise<void> => {
    const form = parseSettingsModal(view.state.values);
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const shown = settingsVersionCodec.decode(view.private_metadata);
    if (!shown) return void (await ack(refusedInModal(SETTINGS_FORM_OUTDATED)));
    const { teamId, userId } = submittedBy(body);
    const saving = screens.saveSettings(teamId, userId, form.value, shown.sv);
    const settled = await settleWithin(saving, deadlineMs);
    if (settled.status === 'fulfilled') {
      return void (await ack(settled.value.ok ? undefined : refusedInModal(settled.value.message)));
    }
    // A failure, or a save slower than Slack's 3 s, still closes the modal; a failure goes on to Bolt's handler, and a
    // slow save's outcome is logged (a modal has no channel to tell it in; the settings show it when reopened).
    await ack();
    if (settled.status === 'rejected') throw settled.reason;
    saving
      .then((result) => log.info('a slow settings save ended', { userId, ok: result.ok }))
      .catch((error: unknown) => log.error('a slow settings save failed', { error, userId }));
  };
}

/** The refusal under the modal's first field: Slack shows view_submission errors only next to an input block. */
function refusedInModal(message: string) {
  return { response_action: 'errors' as const, errors: { [BLOCK.settingsBrandName]: message } };
}
