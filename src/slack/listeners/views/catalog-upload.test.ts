import { describe, expect, it, vi } from 'vitest';
import type { ViewResponseAction } from '@slack/bolt';
import { BLOCK, CALLBACK } from '../../ids.js';
import { catalogUpload } from './catalog-upload.js';
import {
  CATALOG_PREVIEW,
  catalogModalValues,
  fakeAck,
  fakeDeps,
  holdNext,
  spiedClient,
  TEAM,
  USER,
  viewSubmission,
} from '../../../../test/support/slack-payloads.js';

const FILE = { id: 'F0CATALOG1', name: 'catalog.csv' };

function submit(files = [FILE], deadlineMs?: number) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const viewsUpdate = vi.spyOn(slack.client.views, 'update').mockResolvedValue({ ok: true });
  const ack = fakeAck<ViewResponseAction>();
  const args = {
    ...viewSubmission(CALLBACK.catalogModal, { values: catalogModalValues(files) }),
    ack,
    client: slack.client,
  };
  return { run: () => catalogUpload(deps, deadlineMs)(args), parley, ack, viewsUpdate };
}

const shown = (ack: ReturnType<typeof fakeAck<ViewResponseAction>>) => JSON.stringify(ack.mock.calls[0]?.[0]);

describe('catalogUpload', () => {
  it('answers with the preview when it is ready within the deadline', async () => {
    const { run, parley, ack, viewsUpdate } = submit();
    await run();
    expect(parley.previewCatalog).toHaveBeenCalledWith(TEAM, { by: USER, fileId: FILE.id });
    expect(ack).toHaveBeenCalledTimes(1);
    expect(ack.mock.calls[0]?.[0]).toMatchObject({ response_action: 'update' });
    expect(shown(ack)).toContain(BLOCK.catalogActions);
    expect(viewsUpdate).not.toHaveBeenCalled();
  });

  it('answers "Reading…" past the deadline, then shows the preview when it is ready', async () => {
    const { run, parley, ack, viewsUpdate } = submit([FILE], 10);
    const release = holdNext(parley.previewCatalog);
    await run();
    expect(shown(ack)).toContain('Reading');
    expect(viewsUpdate).not.toHaveBeenCalled();
    release({ ok: true, value: CATALOG_PREVIEW });
    await vi.waitFor(() => expect(viewsUpdate).toHaveBeenCalledTimes(1), { timeout: 3000 });
    expect(viewsUpdate.mock.calls[0]?.[0]).toMatchObject({ view_id: 'V0MODAL001' });
    expect(JSON.stringify(viewsUpdate.mock.calls[0]?.[0])).toContain(BLOCK.catalogActions);
  });

  it('answers a submission without a usable file with a field error, and reads nothing', async () => {
    const { run, parley, ack } = submit([{ id: 'F0CATALOG2', name: 'catalog.pdf' }]);
    await run();
    expect(parley.previewCatalog).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledWith({
      response_action: 'errors',
      errors: { [BLOCK.catalogFile]: expect.any(String) },
    });
  });
});
