// The PO modal is submitted: the approval, at the version the approver saw, is committed before the modal closes. A
// refusal (a stale modal, someone not an approver) or an approval that could not be saved keeps the modal open with a
// notice over it (the PO modal has no input to hang a field error on), so the approver can submit again.
import { poRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { closeWhenCommitted, type SubmitArgs, submittedBy } from './submission.js';

export function approvePo({ parley, screens }: SlackDeps) {
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const ref = poRefCodec.decode(view.private_metadata);
    if (!ref) return void (await ack());
    const { teamId, userId } = submittedBy(body);
    await closeWhenCommitted(
      { ack, client },
      parley.approvePo(teamId, { purchaseOrderId: ref.po, by: userId, expectedVersion: ref.v }),
      { userId, channel: () => screens.purchaseOrderChannel(teamId, ref.po) },
    );
  };
}
