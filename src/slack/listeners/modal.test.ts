// showModal on its own: what the person sees when reading the real modal is slow, fails, or outlives the modal, and
// when the listener returns (the HTTP receiver answers Slack only then).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModalView } from '@slack/types';
import { log } from '../../log.js';
import type { Shown } from '../deps.js';
import { buildLoadingModal } from '../views/index.js';
import { showModal } from './modal.js';
import { MODAL, OPENED_VIEW, spiedClient, TRIGGER_ID } from '../../../test/support/slack-payloads.js';

const DEADLINE_MS = 50;

/** A read that answers only when released. */
function heldRead() {
  let release: (shown: Shown<ModalView>) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const read = vi.fn(
    () =>
      new Promise<Shown<ModalView>>((resolve, reject) => {
        release = resolve;
        fail = reject;
      }),
  );
  return { read, release: (shown: Shown<ModalView>) => release(shown), fail: (error: Error) => fail(error) };
}

/** An error as the WebClient throws it for `ok: false`. */
function platformError(code: string): Error {
  return Object.assign(new Error(`An API error occurred: ${code}`), {
    code: 'slack_webapi_platform_error',
    data: { ok: false, error: code },
  });
}

afterEach(() => vi.restoreAllMocks());

describe('showModal', () => {
  it('returns by the deadline while the read is slow, and fills the modal when the read comes', async () => {
    const slack = spiedClient();
    const { read, release } = heldRead();
    const started = Date.now();
    await showModal(slack.client, TRIGGER_ID, { how: 'open', read }, DEADLINE_MS);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(slack.viewsOpen).toHaveBeenCalledWith({ trigger_id: TRIGGER_ID, view: buildLoadingModal('Parley') });
    expect(slack.viewsUpdate).not.toHaveBeenCalled();
    release({ ok: true, value: MODAL });
    await vi.waitFor(() =>
      expect(slack.viewsUpdate).toHaveBeenCalledWith({ view_id: OPENED_VIEW.id, hash: OPENED_VIEW.hash, view: MODAL }),
    );
  });

  it('after the deadline, a failed read is logged here and the modal says to try again', async () => {
    const slack = spiedClient();
    const logged = vi.spyOn(log, 'error').mockImplementation(() => {});
    const { read, fail } = heldRead();
    await showModal(slack.client, TRIGGER_ID, { how: 'open', read }, DEADLINE_MS);
    fail(new Error('database unavailable'));
    await vi.waitFor(() => expect(logged).toHaveBeenCalled());
    expect(logged.mock.calls[0]?.[1]).toMatchObject({
      error: expect.objectContaining({ message: 'database unavailable' }),
    });
    expect(JSON.stringify(slack.viewsUpdate.mock.calls[0]?.[0])).toContain('try again');
  });

  it('leaves it when the person closed the modal before it was filled', async () => {
    const slack = spiedClient();
    slack.viewsUpdate.mockRejectedValueOnce(platformError('not_found'));
    await expect(
      showModal(slack.client, TRIGGER_ID, { how: 'open', read: async () => ({ ok: true, value: MODAL }) }),
    ).resolves.toBeUndefined();
  });

  it('passes on any other refusal of the update', async () => {
    const slack = spiedClient();
    slack.viewsUpdate.mockRejectedValueOnce(platformError('invalid_arguments'));
    await expect(
      showModal(slack.client, TRIGGER_ID, { how: 'open', read: async () => ({ ok: true, value: MODAL }) }),
    ).rejects.toThrow('invalid_arguments');
  });

  it('reads nothing when the trigger had already expired', async () => {
    const slack = spiedClient();
    slack.viewsOpen.mockRejectedValueOnce(platformError('expired_trigger_id'));
    const read = vi.fn(async (): Promise<Shown<ModalView>> => ({ ok: true, value: MODAL }));
    await expect(showModal(slack.client, TRIGGER_ID, { how: 'open', read })).rejects.toThrow('expired_trigger_id');
    expect(read).not.toHaveBeenCalled();
  });
});
