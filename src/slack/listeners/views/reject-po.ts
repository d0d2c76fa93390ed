// The reject modal is submitted: a reason is required (a field error otherwise); the rejection is committed, then
// both modals close (`clear`: the PO modal under it is stale now). A refusal or failure is a field error on the reason.
import { BLOCK, poRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { parseRejectModal } from '../../views/index.js';
import { closeWhenCommitted, type SubmitArgs, submittedBy } from './submission.js';

export function rejectPo({ parley, screens }: SlackDeps) {
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const ref = poRefCodec.decode(view.private_metadata);
    if (!ref) return void (await ack());
    const form = parseRejectModal(view.state.values);
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const { teamId, userId } = submittedBy(body);
    await closeWhenCommitted(
      { ack, client },
      parley.rejectPo(teamId, {
        purchaseOrderId: ref.po,
        by: userId,
        reason: form.value.reason,
        expectedVersion: ref.v,
      }),
      { userId, channel: () => screens.purchaseOrderChannel(teamId, ref.po), field: BLOCK.rejectReason },
      { response_action: 'clear' },
    );
  };
}
