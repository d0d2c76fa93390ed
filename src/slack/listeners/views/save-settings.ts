// The settings modal (`/parley settings`) is submitted: field errors in the modal, or the settings saved. The modal
// carries the settings version it showed; a save over a newer version (someone saved meanwhile) or by someone who may
// no longer change them is refused in the modal itself, where the person is looking — a modal has no channel.
import type { SlackDeps } from '../../deps.js';
import { BLOCK, settingsVersionCodec } from '../../ids.js';
import { parseSettingsModal } from '../../views/index.js';
import { type SubmitArgs, submittedBy } from './submission.js';

export const SETTINGS_FORM_OUTDATED = 'This form is out of date. Close it and run /parley settings again.';

export function saveSettings({ screens }: SlackDeps) {
  return async ({ ack, body, view }: SubmitArgs): Promise<void> => {
    const form = parseSettingsModal(view.state.values);
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const shown = settingsVersionCodec.decode(view.private_metadata);
    if (!shown) return void (await ack(refusedInModal(SETTINGS_FORM_OUTDATED)));
    const { teamId, userId } = submittedBy(body);
    let acked = false;
    try {
      const result = await screens.saveSettings(teamId, userId, form.value, shown.sv);
      acked = true;
      await ack(result.ok ? undefined : refusedInModal(result.message));
    } finally {
      // A failure still closes the modal (the error goes on to Bolt's handler): Slack wants an answer within 3 s.
      if (!acked) await ack();
    }
  };
}

/** The refusal under the modal's first field: Slack shows view_submission errors only next to an input block. */
function refusedInModal(message: string) {
  return { response_action: 'errors' as const, errors: { [BLOCK.settingsBrandName]: message } };
}
