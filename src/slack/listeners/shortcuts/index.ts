// Shortcuts: the message shortcut on a file's message.
import type { App, MessageShortcut } from '@slack/bolt';
import { CALLBACK } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { negotiateThisQuote } from './negotiate-this-quote.js';

export function register(app: App, deps: SlackDeps): void {
  app.shortcut<MessageShortcut>(CALLBACK.negotiateShortcut, negotiateThisQuote(deps));
}
