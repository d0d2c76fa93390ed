// Suppliers on the App Home: the suppliers modal, opened at once (as `/parley suppliers` does).
import type { SlackDeps } from '../../deps.js';
import { onModalClick } from '../modal.js';

export function suppliersOpen({ screens }: SlackDeps) {
  return onModalClick((_args, at) => ({ how: 'open', read: () => screens.suppliersModal(at.teamId, at.userId) }));
}
