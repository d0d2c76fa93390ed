import type { ModalView } from '@slack/types';
import { describe, expect, it, vi } from 'vitest';
import type { CatalogImportReport } from '../../../app-types.js';
import { ACTION, catalogImportCodec } from '../../ids.js';
import { catalogImport } from './catalog-import.js';
import { catalogCancel } from './catalog-cancel.js';
import {
  CATALOG_PREVIEW,
  CATALOG_REPORT,
  catalogPreviewClick,
  fakeAck,
  fakeDeps,
  spiedClient,
  TEAM,
  USER,
} from '../../../../test/support/slack-payloads.js';

const value = catalogImportCodec.encode({ ci: CATALOG_PREVIEW.importId });

/** A click on the preview modal's button (a click in a modal: no channel, the view instead). */
function click(actionId: string, options: { value?: string; deadlineMs?: number; shown?: ModalView } = {}) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const viewsUpdate = vi.spyOn(slack.client.views, 'update').mockResolvedValue({ ok: true });
  const ack = fakeAck();
  const clicked = catalogPreviewClick(actionId, { value: options.value ?? value, shown: options.shown });
  const args = { ...clicked, ack, client: slack.client };
  const handler = actionId === ACTION.catalogCancel ? catalogCancel(deps) : catalogImport(deps, options.deadlineMs);
  return { run: () => handler(args), parley, ack, viewsUpdate };
}

const lastView = (spy: ReturnType<typeof click>['viewsUpdate']) => JSON.stringify(spy.mock.calls.at(-1)?.[0]);

describe('catalogImport', () => {
  it('merges or replaces as the button says, acknowledges once, and shows what the import did', async () => {
    const { run, parley, ack, viewsUpdate } = click(ACTION.catalogReplace);
    await run();
    expect(parley.importCatalog).toHaveBeenCalledWith(TEAM, {
      importId: CATALOG_PREVIEW.importId,
      by: USER,
      mode: 'replace',
    });
    expect(ack).toHaveBeenCalledTimes(1);
    expect(lastView(viewsUpdate)).toContain('Imported');

    const merge = click(ACTION.catalogMerge);
    await merge.run();
    expect(merge.parley.importCatalog).toHaveBeenCalledWith(TEAM, expect.objectContaining({ mode: 'merge' }));
  });

  it('shows "Importing…" past the deadline and the result when the import is done', async () => {
    const { run, parley, viewsUpdate } = click(ACTION.catalogMerge, { deadlineMs: 10 });
    let finish: (report: CatalogImportReport | null) => void = () => {};
    const finished = new Promise<CatalogImportReport | null>((resolve) => (finish = resolve));
    parley.importCatalog.mockResolvedValueOnce({ ok: true, value: { fileName: 'catalog.csv', finished } });
    await run();
    expect(lastView(viewsUpdate)).toContain('Importing');
    finish(CATALOG_REPORT);
    await vi.waitFor(() => expect(lastView(viewsUpdate)).toContain('Imported'), { timeout: 3000 });
  });

  it('says the import failed when it did (the catalog is unchanged)', async () => {
    const { run, parley, viewsUpdate } = click(ACTION.catalogMerge);
    parley.importCatalog.mockResolvedValueOnce({
      ok: true,
      value: { fileName: 'c.csv', finished: Promise.resolve(null) },
    });
    await run();
    expect(lastView(viewsUpdate)).toMatch(/failed.*unchanged/);
  });

  // That the failed click shows the preview again, asking to click again, is the contract's (../contract.test.ts).
  it('a second failed click replaces the warning of the first instead of stacking a second one', async () => {
    const first = click(ACTION.catalogMerge);
    first.parley.importCatalog.mockRejectedValueOnce(new Error('database unavailable'));
    await first.run();
    const shown = first.viewsUpdate.mock.calls.at(-1)?.[0]?.view as ModalView;

    const again = click(ACTION.catalogMerge, { shown });
    again.parley.importCatalog.mockRejectedValueOnce(new Error('database unavailable'));
    await again.run();
    const twice = again.viewsUpdate.mock.calls.at(-1)?.[0]?.view as ModalView;
    expect(twice.blocks.filter((b) => JSON.stringify(b).includes('did not go through'))).toHaveLength(1);
    expect(twice.blocks).toHaveLength(shown.blocks.length);
  });
});

describe('catalogCancel', () => {
  it('cancels the preview and says the catalog is unchanged', async () => {
    const { run, parley, ack, viewsUpdate } = click(ACTION.catalogCancel);
    await run();
    expect(parley.cancelCatalogImport).toHaveBeenCalledWith(TEAM, { importId: CATALOG_PREVIEW.importId, by: USER });
    expect(ack).toHaveBeenCalledTimes(1);
    expect(lastView(viewsUpdate)).toContain('Cancelled');
  });
});
