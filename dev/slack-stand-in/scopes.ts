// What the installed app may call: the bot scopes it was installed with (manifest.yml's, unless a test narrows them)
// against each Web API method's required scope. Slack refuses a call without its scope as
// `{ ok: false, error: 'missing_scope', needed, provided }` (https://docs.slack.dev/authentication/tokens — "missing
// scopes"; @slack/web-api's responses type both fields), and sends only the events the app subscribed to.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import type { SandboxChannel } from './model.js';
import { channelType } from './shapes.js';
import { hintedScopes } from './spec.js';

const manifestSchema = z.object({
  oauth_config: z.object({ scopes: z.object({ bot: z.array(z.string()).default([]) }) }),
  settings: z.object({
    event_subscriptions: z.object({ bot_events: z.array(z.string()).default([]) }).optional(),
  }),
});

export interface ManifestGrants {
  scopes: string[];
  botEvents: string[];
}

/** The bot scopes and bot events in the app's manifest (read when a sandbox starts, so edits count at once). */
export function readManifest(path: URL = new URL('../../manifest.yml', import.meta.url)): ManifestGrants {
  const manifest = manifestSchema.parse(parse(readFileSync(path, 'utf8')));
  return {
    scopes: manifest.oauth_config.scopes.bot,
    botEvents: manifest.settings.event_subscriptions?.bot_events ?? [],
  };
}

type ConversationKind = 'channel' | 'group' | 'im' | 'mpim';

/**
 * Methods whose bot scope depends on the conversation, from their reference pages (docs.slack.dev/reference/methods/
 * conversations.history, conversations.replies, conversations.info — "Bot token" scopes). The vendored spec's 2020
 * hint for conversations.info (`conversations:read`) is a retired workspace-app scope, so these override it.
 */
const BY_CONVERSATION: Record<string, Record<ConversationKind, string>> = {
  'conversations.history': {
    channel: 'channels:history',
    group: 'groups:history',
    im: 'im:history',
    mpim: 'mpim:history',
  },
  'conversations.replies': {
    channel: 'channels:history',
    group: 'groups:history',
    im: 'im:history',
    mpim: 'mpim:history',
  },
  'conversations.info': { channel: 'channels:read', group: 'groups:read', im: 'im:read', mpim: 'mpim:read' },
};

/**
 * Methods the vendored spec gives no hint for, from their reference pages: the upload pair needs `files:write`
 * (docs.slack.dev/reference/methods/files.getUploadURLExternal, files.completeUploadExternal), chat.getPermalink needs
 * none ("No scopes required"), chat.delete `chat:write`, assistant.threads.setStatus `chat:write` or `assistant:write`.
 */
const UNHINTED: Record<string, string[]> = {
  'files.getUploadURLExternal': ['files:write'],
  'files.completeUploadExternal': ['files:write'],
  'chat.getPermalink': [],
  'chat.delete': ['chat:write'],
  // Either, "for the time being" (docs.slack.dev/changelog/2026/03/05/set-status-scope-update): chat:write is the one
  // that stays, and it lets a channel app show a status without the assistant view.
  'assistant.threads.setStatus': ['chat:write', 'assistant:write'],
  // docs.slack.dev/reference/methods/chat.startStream, chat.appendStream, chat.stopStream — "Bot token: chat:write".
  'chat.startStream': ['chat:write'],
  'chat.appendStream': ['chat:write'],
  'chat.stopStream': ['chat:write'],
};

/** Scopes any one of which lets the bot call `method` (on `channel`, when the method's scope depends on it). */
export function acceptedScopes(method: string, channel: SandboxChannel | undefined): string[] {
  const byKind = BY_CONVERSATION[method];
  if (byKind) return channel === undefined ? Object.values(byKind) : [byKind[channelType(channel)]];
  return UNHINTED[method] ?? hintedScopes(method) ?? [];
}

export interface MissingScope {
  needed: string;
  provided: string;
}

/** Undefined when the granted scopes allow the call, else what Slack puts in its `missing_scope` answer. */
export function missingScope(
  method: string,
  channel: SandboxChannel | undefined,
  granted: ReadonlySet<string>,
): MissingScope | undefined {
  const accepted = acceptedScopes(method, channel);
  if (accepted.length === 0 || accepted.some((scope) => granted.has(scope))) return undefined;
  return { needed: accepted.join(','), provided: [...granted].join(',') };
}

/**
 * The subscription an event is delivered under (https://docs.slack.dev/reference/events/message — "message.channels",
 * "message.groups", "message.im", "message.mpim" by channel_type); other events subscribe by their own type.
 */
export function subscriptionOf(event: { type?: unknown; channel_type?: unknown }): string | undefined {
  if (typeof event.type !== 'string') return undefined;
  if (event.type !== 'message') return event.type;
  const kind = event.channel_type === 'group' ? 'groups' : event.channel_type === 'im' ? 'im' : 'channels';
  return event.channel_type === 'mpim' ? 'message.mpim' : `message.${kind}`;
}
