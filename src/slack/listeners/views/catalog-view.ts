// The catalog modal is one view that changes as the import goes on (reading → preview → importing → done): each step
// replaces it by id. The HTTP receiver answers Slack only when a listener returns (deadline.ts), so a step that takes
// longer than that is shown from the background, after the listener has returned. A person may close the modal at
// any time; the work goes on, and `/parley catalog` shows the last import.
import type { ViewOutput } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { log } from '../../../log.js';
import type { Refusal } from '../../deps.js';
import { logFailure } from '../respond.js';
import { buildCatalogClickFailedModal, buildCatalogFailedModal, buildModalNotice } from '../../views/index.js';

const closedSchema = z.object({
  code: z.literal('slack_webapi_platform_error'),
  data: z.object({ error: z.literal('not_found') }),
});

/**
 * A later step waits this long after the listener returned: the answer that showed the step before (a submission's
 * `response_action: update`) is on its way to Slack, and must be applied before this one, not over it.
 */
const AFTER_ANSWER_MS = 1_000;

/** Replaces the catalog modal; a modal the person closed meanwhile (`not_found`) is left closed. */
export async function updateCatalogView(client: WebClient, viewId: string, view: ModalView): Promise<void> {
  try {
    // No hash: the modal is Parley's alone (its input was submitted), so the newest step is the one to show.
    await client.views.update({ view_id: viewId, view });
  } catch (error) {
    if (!closedSchema.safeParse(error).success) throw error;
    log.info('catalog modal closed before it could be updated', { viewId });
  }
}

/**
 * Shows `next` in the modal when it is ready, after the listener has returned: errors are logged here (Bolt's error
 * handler no longer sees them) and the modal says the step failed.
 */
export function showLater(client: WebClient, viewId: string, next: Promise<ModalView>): void {
  const answered = new Promise((resolve) => setTimeout(resolve, AFTER_ANSWER_MS));
  void Promise.all([next, answered])
    .then(([view]) => updateCatalogView(client, viewId, view))
    .catch(async (error: unknown) => {
      log.error('a catalog step failed after the acknowledgement', { error, viewId });
      await updateCatalogView(client, viewId, buildCatalogFailedModal()).catch(() => {});
    });
}

/** A refusal in the catalog modal's place (Parley's own words). */
export function catalogNotice(refusal: Refusal): ModalView {
  return buildModalNotice({ title: 'Import catalog', message: refusal.message, error: refusal.error });
}

/**
 * A click on the preview failed before its change was saved (the database was unreachable): logged whole under a
 * short reference, and the preview shown again under "that did not go through, please click again" — a click in a
 * modal has no channel for the ephemeral the other clicks get. Never throws.
 */
export async function catalogClickFailed(client: WebClient, shown: ViewOutput | undefined, error: unknown) {
  const ref = logFailure('a click on the catalog preview failed', error, { viewId: shown?.id });
  if (!shown) return;
  await updateCatalogView(client, shown.id, buildCatalogClickFailedModal(shown.blocks, ref)).catch((failed: unknown) =>
    log.error('could not tell a person their catalog click failed', { error: failed, ref }),
  );
}
