import type { ModalView } from '@slack/types';
import { describe, expect, it, vi } from 'vitest';
import type { CatalogImportReport } from '../../../app-types.js';
import { ACTION, CALLBACK, catalogImportCodec } from '../../ids.js';
import { buildCatalogPreviewModal } from '../../views/index.js';
import { catalogImport } from './catalog-import.js';
import { catalogCancel } from './catalog-cancel.js';
import {
  buttonClick,
  CATALOG_PREVIEW,
  CATALOG_REPORT,
  fakeAck,
  fakeDeps,
  refused,
  spiedClient,
  TEAM,
  USER,
  viewSubmission,
} from '../../../../test/support/slack-payloads.js';

const value = catalogImportCodec.encode({ ci: CATALOG_PREVIEW.importId });

/** A click on the preview modal's button (a click in a modal: no channel, the view instead). */
function click(actionId: string, options: { value?: string; deadlineMs?: number; shown?: ModalView } = {}) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const viewsUpdate = vi.spyOn(slack.client.views, 'update').mockResolvedValue({ ok: true });
  const ack = fakeAck();
  const { body, action } = buttonClick(actionId, { value: options.value ?? value, channel: null });
  body.view = viewSubmission(CALLBACK.catalogModal).view;
  body.view.blocks = (options.shown ?? buildCatalogPreviewModal(CATALOG_PREVIEW)).blocks;
  const args = { body, action, ack, client: slack.client };
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

  it('shows a refusal in the modal', async () => {
    const { run, parley, ack, viewsUpdate } = click(ACTION.catalogMerge);
    parley.importCatalog.mockResolvedValueOnce(refused('Only the approvers and workspace admins can change it.'));
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(lastView(viewsUpdate)).toContain(':lock: Only the approvers');
  });

  it('ignores a forged or stale value', async () => {
    const { run, parley, ack, viewsUpdate } = click(ACTION.catalogMerge, { value: '{"ci":"<x>"}' });
    await run();
    expect(parley.importCatalog).not.toHaveBeenCalled();
    expect(viewsUpdate).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('acknowledges only once the claim is saved', async () => {
    const { run, parley, ack } = click(ACTION.catalogMerge);
    let saved: () => void = () => {};
    parley.importCatalog.mockImplementationOnce(
      () =>
        new Promise((resolve) => {
          saved = () => resolve({ ok: true, value: { fileName: 'c.csv', finished: Promise.resolve(CATALOG_REPORT) } });
        }),
    );
    const running = run();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ack).not.toHaveBeenCalled();
    saved();
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('when the claim cannot be saved, shows the preview again asking to click again', async () => {
    const { run, parley, ack, viewsUpdate } = click(ACTION.catalogMerge);
    parley.importCatalog.mockRejectedValueOnce(new Error('database unavailable'));
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    const shown = viewsUpdate.mock.calls.at(-1)?.[0]?.view as ModalView;
    expect(JSON.stringify(shown.blocks[0])).toMatch(/did not go through.*Please click again/);
    // The preview's buttons are still there to click.
    expect(JSON.stringify(shown)).toContain(ACTION.catalogReplace);

    // A second failure replaces the warning instead of stacking a second one.
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

  it('when the cancellation cannot be saved, shows the preview again asking to click again', async () => {
    const { run, parley, ack, viewsUpdate } = click(ACTION.catalogCancel);
    parley.cancelCatalogImport.mockRejectedValueOnce(new Error('database unavailable'));
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(lastView(viewsUpdate)).toMatch(/did not go through.*Please click again/);
    expect(lastView(viewsUpdate)).not.toContain('Cancelled');
  });
});
