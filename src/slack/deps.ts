// What the listeners get: Parley's services (one call per user action) and the screens (modals, App Home, command
// replies) rendered from the database. Nothing else: no Prisma, Anthropic or exceljs in the Slack layer.
import type { Parley } from '../services/parley.js';
import type { Screens } from '../services/screens.js';

export interface SlackDeps {
  parley: Parley;
  screens: Screens;
}
