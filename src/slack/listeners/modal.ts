// Opening a modal in time. A click's (or command's) trigger_id expires 3 s after it was made, and reading the real
// modal takes the database — slow at the worst moment. So the modal opens at once with a loading view, the real view
// (or the refusal, in its place) replaces it with views.update, and the listener returns by the ack deadline even when
// the read is still running.
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { log } from '../../log.js';
import type { Shown } from '../deps.js';
import { buildLoadingModal, buildModalFailed, buildModalNotice } from '../views/index.js';
import { type ClickArgs, type ClickedAt, clickedAt, OUTSIDER_CLICK } from './actions/click.js';
import { ACK_DEADLINE_MS, settleWithin } from './deadline.js';
import { tellUser } from './respond.js';

export interface ModalToShow {
  /** 'push': on top of the modal the click came from (the reject modal over the PO modal). */
  how: 'open' | 'push';
  /** Reads the real modal; a refusal is shown in its place. */
  read: () => Promise<Shown<ModalView>>;
}

/** The title every loading or notice view shows: the real modal brings its own. */
const TITLE = 'Parley';

const openedSchema = z.object({ view: z.object({ id: z.string(), hash: z.string() }) });
const platformErrorSchema = z.object({
  code: z.literal('slack_webapi_platform_error'),
  data: z.object({ error: z.string() }),
});

/**
 * Opens (or pushes) the loading view with the trigger at once, then fills it. Waits for the filling up to `deadlineMs`
 * from the start; past that it returns — the update still comes, and a failure then is logged here, as Bolt's error
 * handler no longer sees it. A failure within the time is thrown, for Bolt's handler, after the view says so.
 */
export async function showModal(
  client: WebClient,
  triggerId: string,
  modal: ModalToShow,
  deadlineMs = ACK_DEADLINE_MS,
): Promise<void> {
  const started = Date.now();
  const loading = { trigger_id: triggerId, view: buildLoadingModal(TITLE) };
  const opened = openedSchema.parse(
    modal.how === 'push' ? await client.views.push(loading) : await client.views.open(loading),
  );
  const filling = fill(client, opened.view, modal.read);
  const settled = await settleWithin(filling, deadlineMs - (Date.now() - started));
  if (settled.status === 'rejected') throw settled.reason;
  if (settled.status === 'pending') {
    filling.catch((error: unknown) => log.error('a modal failed after the acknowledgement', { error }));
  }
}

/** The real view, or what to say instead, in place of the loading view. */
async function fill(client: WebClient, loading: { id: string; hash: string }, read: ModalToShow['read']) {
  let shown: Shown<ModalView>;
  try {
    shown = await read();
  } catch (error) {
    await replace(client, loading, buildModalFailed(TITLE)).catch((failed: unknown) =>
      log.error('could not tell a person their modal failed', { error: failed }),
    );
    throw error;
  }
  const view = shown.ok ? shown.value : buildModalNotice({ title: TITLE, message: shown.message, error: shown.error });
  await replace(client, loading, view);
}

/**
 * views.update over the loading view, with its hash: it replaces exactly the view opened. A person who closed the
 * modal meanwhile (`not_found`) or a view already replaced (`hash_conflict`) leaves nothing to show.
 */
async function replace(client: WebClient, loading: { id: string; hash: string }, view: ModalView): Promise<void> {
  try {
    await client.views.update({ view_id: loading.id, hash: loading.hash, view });
  } catch (error) {
    const platform = platformErrorSchema.safeParse(error);
    const gone = platform.success && ['not_found', 'hash_conflict'].includes(platform.data.data.error);
    if (!gone) throw error;
    log.info('modal gone before it could be filled', { viewId: loading.id, error: platform.data?.data.error });
  }
}

/**
 * A click that opens a modal: acknowledged first (nothing is saved, and the trigger is already running out), then
 * `plan` decodes the value — null for a stale or forged one, which opens nothing. `outsiders: 'their own form'`: a
 * connected supplier's button (Submit offer), pressed by people of its organisation, whom the screen then checks.
 */
export function onModalClick(
  plan: (args: ClickArgs, at: ClickedAt) => ModalToShow | null,
  options: { outsiders?: 'their own form' } = {},
) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const at = clickedAt(args.body);
    // Anyone else from another organisation (Slack Connect) sees no modal of Parley's, as with any click.
    if (at.outsider && options.outsiders !== 'their own form') return tellUser(args.client, at, OUTSIDER_CLICK);
    const modal = plan(args, at);
    if (modal) await showModal(args.client, args.body.trigger_id, modal);
  };
}
