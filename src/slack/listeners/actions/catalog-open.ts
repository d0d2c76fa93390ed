// Import catalog on the App Home: the catalog upload modal, opened at once (as `/parley catalog` does).
import type { SlackDeps } from '../../deps.js';
import { onModalClick } from '../modal.js';

export function catalogOpen({ screens }: SlackDeps) {
  return onModalClick((_args, at) => ({ how: 'open', read: () => screens.catalogModal(at.teamId, at.userId) }));
}
