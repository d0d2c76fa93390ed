// The slash command.
import type { App } from '@slack/bolt';
import { SLASH_COMMAND } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { parleyCommand } from './parley.js';

export function register(app: App, deps: SlackDeps): void {
  app.command(SLASH_COMMAND, parleyCommand(deps));
}
