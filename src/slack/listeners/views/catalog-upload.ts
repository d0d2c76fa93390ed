// The catalog modal is submitted with a file. The answer to a submission is the next view (`response_action:
// update`): the preview when reading the file took less than the acknowledgement deadline, else "Reading…", which the
// preview (or why the file cannot be imported) replaces when it is ready. Nothing is changed by a submission: the
// preview's buttons do that (actions/catalog-import.ts).
import type { SlackDeps } from '../../deps.js';
import {
  buildCatalogFailedModal,
  buildCatalogPreviewModal,
  buildCatalogReadingModal,
  parseCatalogModal,
} from '../../views/index.js';
import { ACK_DEADLINE_MS, settleWithin } from '../deadline.js';
import { catalogNotice, showLater } from './catalog-view.js';
import { type SubmitArgs, submittedBy } from './submission.js';

export function catalogUpload({ parley }: SlackDeps, deadlineMs = ACK_DEADLINE_MS) {
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const form = parseCatalogModal(view.state.values);
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const { teamId, userId } = submittedBy(body);
    const next = parley
      .previewCatalog(teamId, { by: userId, fileId: form.value.fileId })
      .then((preview) => (preview.ok ? buildCatalogPreviewModal(preview.value) : catalogNotice(preview)));

    const settled = await settleWithin(next, deadlineMs);
    if (settled.status === 'fulfilled') return void (await ack({ response_action: 'update', view: settled.value }));
    if (settled.status === 'rejected') {
      await ack({ response_action: 'update', view: buildCatalogFailedModal() });
      throw settled.reason;
    }
    await ack({ response_action: 'update', view: buildCatalogReadingModal(form.value.fileName) });
    showLater(client, view.id, next);
  };
}
