// The buyer's edit of a draft for a connected supplier is submitted: it is sent as they wrote it (supplier-drafts.ts
// puts the words in the history and sends them in one step). A refusal or failure is shown under the message.
import { BLOCK, draftRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { parseDraftEditModal } from '../../views/index.js';
import { closeWhenCommitted, type SubmitArgs, submittedBy } from './submission.js';

export function editDraft({ parley }: SlackDeps) {
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const ref = draftRefCodec.decode(view.private_metadata);
    if (!ref) return void (await ack());
    const form = parseDraftEditModal(view.state.values);
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const { teamId, userId } = submittedBy(body);
    await closeWhenCommitted(
      { ack, client },
      parley.decideDraft(teamId, {
        negotiationId: ref.n,
        sequence: ref.q,
        decision: 'send',
        text: form.value.text,
        by: userId,
      }),
      { userId, channel: () => Promise.resolve(null), field: BLOCK.draftText },
    );
  };
}
