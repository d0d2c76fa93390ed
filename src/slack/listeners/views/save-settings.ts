// The settings modal (`/parley settings`) is submitted: field errors in the modal, or the settings saved. Only approvers
// get the modal; a refusal here (approvers changed meanwhile) has no channel to be shown in and is logged.
import type { SlackDeps } from '../../deps.js';
import { parseSettingsModal } from '../../views/index.js';
import { tellUser } from '../respond.js';
import { type SubmitArgs, submittedBy } from './submission.js';

export function saveSettings({ screens }: SlackDeps) {
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const form = parseSettingsModal(view.state.values);
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const { teamId, userId } = submittedBy(body);
    const result = await screens.saveSettings(teamId, userId, form.value).finally(() => ack());
    if (!result.ok) await tellUser(client, { channelId: null, userId }, result);
  };
}
