// The start modal is submitted: bad input comes back as field errors in the modal; otherwise the negotiation starts
// (committed before the modal closes) and runs in the background. A refusal, or a start that could not be saved, keeps
// the modal open with a notice over it.
import { quotationRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { parseStartModal } from '../../views/index.js';
import { closeWhenCommitted, type SubmitArgs, submittedBy } from './submission.js';

export function startNegotiation({ parley, screens }: SlackDeps) {
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const ref = quotationRefCodec.decode(view.private_metadata);
    const form = parseStartModal(view.state.values);
    if (!ref) return void (await ack());
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const { teamId, userId } = submittedBy(body);
    await closeWhenCommitted(
      { ack, client },
      parley.beginNegotiation(teamId, { quotationId: ref.qt, by: userId, request: form.value }),
      { userId, channel: () => screens.quotationChannel(teamId, ref.qt) },
    );
  };
}
