// Merge or Replace catalog on the catalog preview (a modal). The import is claimed before the acknowledgement (a
// double click finds it taken, or done), and acknowledged only once the claim is saved — or at the ack deadline, when
// a slow database is still saving it and the modal then follows in the background. A claim that fails shows the
// preview again with "did not go through, please click again". The catalog is written after the claim, and the modal
// follows: what the import did when it is done within the acknowledgement deadline, else "Importing…" until it is.
import type { ModalView } from '@slack/types';
import type { CatalogImportMode, CatalogImportReport } from '../../../app-types.js';
import type { SlackDeps } from '../../deps.js';
import { ACTION, catalogImportCodec } from '../../ids.js';
import { buildCatalogFailedModal, buildCatalogImportedModal, buildCatalogImportingModal } from '../../views/index.js';
import { ACK_DEADLINE_MS, settleWithin } from '../deadline.js';
import { catalogClickFailed, catalogNotice, showLater, updateCatalogView } from '../views/catalog-view.js';
import { type ClickArgs, clickedAt, refuseOutsider, valueOf } from './click.js';

export function catalogImport({ parley }: SlackDeps, deadlineMs = ACK_DEADLINE_MS) {
  return async (args: ClickArgs): Promise<void> => {
    const { ack, body, action, client } = args;
    const started = Date.now();
    const value = catalogImportCodec.decode(valueOf(action));
    if (!value) return void (await ack());
    const mode: CatalogImportMode = action.action_id === ACTION.catalogReplace ? 'replace' : 'merge';
    const at = clickedAt(body);
    const refused = refuseOutsider(args, at);
    if (refused) return refused;
    const { teamId, userId } = at;
    const claiming = parley.importCatalog(teamId, { importId: value.ci, by: userId, mode });
    const claimed = await settleWithin(claiming, deadlineMs);
    await ack();
    const viewId = body.view?.id;
    if (claimed.status === 'rejected') return catalogClickFailed(client, body.view, claimed.reason);
    if (!viewId) return;
    if (claimed.status === 'pending') {
      const later = claiming.then((result) =>
        result.ok ? result.value.finished.then(importedModal) : catalogNotice(result),
      );
      return showLater(client, viewId, later);
    }
    if (!claimed.value.ok) return updateCatalogView(client, viewId, catalogNotice(claimed.value));

    const outcome = claimed.value.value.finished.then(importedModal);
    const settled = await settleWithin(outcome, deadlineMs - (Date.now() - started));
    if (settled.status === 'fulfilled') return updateCatalogView(client, viewId, settled.value);
    await updateCatalogView(client, viewId, buildCatalogImportingModal(claimed.value.value.fileName, mode));
    showLater(client, viewId, outcome);
  };
}

function importedModal(report: CatalogImportReport | null): ModalView {
  return report ? buildCatalogImportedModal(report) : buildCatalogFailedModal();
}
