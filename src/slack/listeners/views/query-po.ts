// A connected supplier's question on its part of the approved PO is submitted: it goes to the buyer. Who may ask is
// the service's to say, from the person's own team; the modal's view id makes a redelivered submission ask once.
import { BLOCK, supplierPoRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { interactionUserTeamId } from '../../team.js';
import { parsePoQueryModal } from '../../views/index.js';
import { closeWhenCommitted, type SubmitArgs, submittedBy } from './submission.js';

export function queryPo({ parley }: SlackDeps) {
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const ref = supplierPoRefCodec.decode(view.private_metadata);
    if (!ref) return void (await ack());
    const form = parsePoQueryModal(view.state.values);
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const { teamId, userId } = submittedBy(body);
    await closeWhenCommitted(
      { ack, client },
      parley.querySupplierPo(teamId, {
        purchaseOrderId: ref.po,
        supplierId: ref.s,
        by: userId,
        byTeamId: interactionUserTeamId(body),
        text: form.value.text,
        submissionId: view.id,
      }),
      // The person is of another organisation: Parley cannot write to them elsewhere, so the form says what went wrong.
      { userId, channel: () => Promise.resolve(null), field: BLOCK.poQueryText },
    );
  };
}
