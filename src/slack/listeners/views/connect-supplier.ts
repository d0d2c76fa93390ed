// `/parley suppliers` is submitted: which supplier, which channel (field errors otherwise). Parley asks Slack how the
// channel is shared before it records anything, so a channel that is not fit (Parley not in it, not shared, shared
// with several organisations) keeps the modal open with why under the channel; once connected, the modal closes and
// Parley's welcome appears in the channel.
import type { SlackDeps } from '../../deps.js';
import { BLOCK } from '../../ids.js';
import { parseSuppliersModal } from '../../views/index.js';
import { closeWhenCommitted, type SubmitArgs, submittedBy } from './submission.js';

export function connectSupplier({ parley }: SlackDeps) {
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const form = parseSuppliersModal(view.state.values);
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const { teamId, userId } = submittedBy(body);
    await closeWhenCommitted(
      { ack, client },
      parley.connectSupplier(teamId, { by: userId, ...form.value }),
      // A refusal told after the deadline goes to the person's DM with Parley, not to the supplier's channel.
      { userId, channel: async () => null, field: BLOCK.supplierChannel },
    );
  };
}
