// Cancel on the catalog preview: the preview can no longer be imported, and the modal says the catalog is unchanged.
import type { SlackDeps } from '../../deps.js';
import { catalogImportCodec } from '../../ids.js';
import { buildCatalogCancelledModal } from '../../views/index.js';
import { catalogNotice, updateCatalogView } from '../views/catalog-view.js';
import { type ClickArgs, clickedAt, valueOf } from './click.js';

export function catalogCancel({ parley }: SlackDeps) {
  return async ({ ack, body, action, client }: ClickArgs): Promise<void> => {
    const value = catalogImportCodec.decode(valueOf(action));
    if (!value) return void (await ack());
    const { teamId, userId } = clickedAt(body);
    const result = await parley.cancelCatalogImport(teamId, { importId: value.ci, by: userId }).finally(() => ack());
    const viewId = body.view?.id;
    if (viewId)
      await updateCatalogView(client, viewId, result.ok ? buildCatalogCancelledModal() : catalogNotice(result));
  };
}
