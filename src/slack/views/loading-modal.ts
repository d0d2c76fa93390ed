// The modal a click opens at once, while the real one is read from the database (a click's trigger_id lasts 3 s), and
// what replaces it when the real one cannot be shown: a refusal in Parley's words, or a short "try again".
import type { ModalView } from '@slack/types';
import { context, section } from './blocks.js';
import { label } from './escape.js';

/** What the modal is for, shown as its title while it loads (cut to Slack's 24 characters). */
function shell(title: string, blocks: ModalView['blocks']): ModalView {
  return { type: 'modal', title: label(title, 24), close: label('Close', 24), blocks };
}

export function buildLoadingModal(title: string): ModalView {
  return shell(title, [section(':hourglass_flowing_sand: Loading…')]);
}

export interface ModalNoticeModel {
  title: string;
  /** Why the modal cannot be shown (a service's refusal: Parley's own words, trusted mrkdwn). */
  message: string;
  /** `not_allowed` reads as a lock; anything else as a warning. */
  error: string;
}

export function buildModalNotice(model: ModalNoticeModel): ModalView {
  const icon = model.error === 'not_allowed' ? ':lock:' : ':warning:';
  return shell(model.title, [section(`${icon} ${model.message}`), context(['Nothing was changed.'])]);
}

/** Reading the modal failed unexpectedly: the error is logged; the person is asked to try again. */
export function buildModalFailed(title: string): ModalView {
  return shell(title, [
    section(':warning: Parley could not load this just now. It has been logged; please try again in a minute.'),
  ]);
}
