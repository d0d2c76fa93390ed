// Merge or Replace catalog on the catalog preview (a modal). The import is claimed before the acknowledgement (a
// double click finds it taken, or done); the catalog is written after the claim, and the modal follows: what the
// import did when it is done within the acknowledgement deadline, else "Importing…" until it is.
import type { CatalogImportMode } from '../../../app-types.js';
import type { SlackDeps } from '../../deps.js';
import { ACTION, catalogImportCodec } from '../../ids.js';
import { buildCatalogFailedModal, buildCatalogImportedModal, buildCatalogImportingModal } from '../../views/index.js';
import { ACK_DEADLINE_MS, settleWithin } from '../deadline.js';
import { catalogNotice, showLater, updateCatalogView } from '../views/catalog-view.js';
import { type ClickArgs, clickedAt, valueOf } from './click.js';

export function catalogImport({ parley }: SlackDeps, deadlineMs = ACK_DEADLINE_MS) {
  return async ({ ack, body, action, client }: ClickArgs): Promise<void> => {
    const started = Date.now();
    const value = catalogImportCodec.decode(valueOf(action));
    if (!value) return void (await ack());
    const mode: CatalogImportMode = action.action_id === ACTION.catalogReplace ? 'replace' : 'merge';
    const { teamId, userId } = clickedAt(body);
    const claimed = await parley.importCatalog(teamId, { importId: value.ci, by: userId, mode }).finally(() => ack());
    const viewId = body.view?.id;
    if (!viewId) return;
    if (!claimed.ok) return updateCatalogView(client, viewId, catalogNotice(claimed));

    const outcome = claimed.value.finished.then((report) =>
      report ? buildCatalogImportedModal(report) : buildCatalogFailedModal(),
    );
    const settled = await settleWithin(outcome, deadlineMs - (Date.now() - started));
    if (settled.status === 'fulfilled') return updateCatalogView(client, viewId, settled.value);
    await updateCatalogView(client, viewId, buildCatalogImportingModal(claimed.value.fileName, mode));
    showLater(client, viewId, outcome);
  };
}
