import { describe, expect, it, vi } from 'vitest';
import type { CatalogImportReport } from '../../../app-types.js';
import { ACTION, CALLBACK, catalogImportCodec } from '../../ids.js';
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
function click(actionId: string, options: { value?: string; deadlineMs?: number } = {}) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const viewsUpdate = vi.spyOn(slack.client.views, 'update').mockResolvedValue({ ok: true });
  const ack = fakeAck();
  const { body, action } = buttonClick(actionId, { value: options.value ?? value, channel: null });
  body.view = viewSubmission(CALLBACK.catalogModal).view;
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

  it('still acknowledges when claiming throws, and passes the error on', async () => {
    const { run, parley, ack } = click(ACTION.catalogMerge);
    parley.importCatalog.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
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
