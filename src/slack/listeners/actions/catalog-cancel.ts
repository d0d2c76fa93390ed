// Cancel on the catalog preview: the preview can no longer be imported, and the modal says the catalog is unchanged.
// Acknowledged once the cancellation is saved (or at the ack deadline, the modal then following in the background); a
// cancellation that fails shows the preview again with "did not go through, please click again".
import type { SlackDeps } from '../../deps.js';
import { catalogImportCodec } from '../../ids.js';
import { buildCatalogCancelledModal } from '../../views/index.js';
import { ACK_DEADLINE_MS, settleWithin } from '../deadline.js';
import { catalogClickFailed, catalogNotice, showLater, updateCatalogView } from '../views/catalog-view.js';
import { type ClickArgs, clickedAt, refuseOutsider, valueOf } from './click.js';

export function catalogCancel({ parley }: SlackDeps, deadlineMs = ACK_DEADLINE_MS) {
  return async (args: ClickArgs): Promise<void> => {
    const { ack, body, action, client } = args;
    const value = catalogImportCodec.decode(valueOf(action));
    if (!value) return void (await ack());
    const at = clickedAt(body);
    const refused = refuseOutsider(args, at);
    if (refused) return refused;
    const { teamId, userId } = at;
    const cancelling = parley
      .cancelCatalogImport(teamId, { importId: value.ci, by: userId })
      .then((result) => (result.ok ? buildCatalogCancelledModal() : catalogNotice(result)));
    const settled = await settleWithin(cancelling, deadlineMs);
    await ack();
    if (settled.status === 'rejected') return catalogClickFailed(client, body.view, settled.reason);
    const viewId = body.view?.id;
    if (!viewId) return;
    if (settled.status === 'pending') return showLater(client, viewId, cancelling);
    await updateCatalogView(client, viewId, settled.value);
  };
}
