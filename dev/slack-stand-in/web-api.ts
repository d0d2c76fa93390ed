// The Web API methods Parley calls, answered the way Slack answers them: `{ ok: true, … }` or `{ ok: false, error }`,
// with the same argument checks (from the vendored spec), the same error codes and the same Block Kit rejections.
// Each handler validates its arguments with zod, then reads or writes the model.
import { z } from 'zod';
import { blockKitViolations, type Surface } from '../../src/slack/views/limits.js';
import { createFile } from './files.js';
import type {
  Json,
  MessageMetadata,
  SandboxChannel,
  SandboxMessage,
  SandboxStream,
  SandboxView,
  SlackModel,
} from './model.js';
import { compareTs, createMessage } from './model.js';
import {
  channelJson,
  fileJson,
  isRecord,
  messageJson,
  permalink,
  userJson,
  viewJson,
  withGeneratedIds,
} from './shapes.js';
import { argumentLimitViolations } from './argument-limits.js';
import { missingScope } from './scopes.js';
import { missingArguments, specMethod } from './spec.js';

export type MethodResult =
  ({ ok: true } & Json) | { ok: false; error: string; response_metadata?: Json; needed?: string; provided?: string };

export interface WebApiContext {
  model: SlackModel;
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  baseUrl: string;
  triggerTtlMs: number;
  /** files.completeUploadExternal answers with whole file objects, shares included (see the sandbox option). */
  uploadAnswerNamesShare: boolean;
  /** The bot scopes the app was installed with. */
  scopes: ReadonlySet<string>;
  /** Called after the app itself posts, so the sandbox can echo Slack's own events back (when configured). */
  onBotPost: (message: SandboxMessage) => void;
}

/** Fields Slack takes as JSON strings in form-encoded calls (the WebClient JSON-encodes every object argument). */
const JSON_FIELDS: Record<string, string> = {
  blocks: 'invalid_blocks_format',
  attachments: 'invalid_attachments',
  view: 'invalid_arguments',
  metadata: 'invalid_metadata_format',
  files: 'invalid_arguments',
  unfurls: 'invalid_arguments',
  file_uploads: 'invalid_arguments',
  chunks: 'invalid_arguments',
  loading_messages: 'invalid_arguments',
};

/** A Slack-level failure: answered as `{ ok: false, error: code }`, with details in response_metadata.messages. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly details: string[] = [],
    /** Fields Slack adds beside `error` (missing_scope's `needed` and `provided`). */
    readonly fields: { needed?: string; provided?: string } = {},
  ) {
    super(code);
  }
}

/** Decodes JSON-string fields; a field that does not parse is the error Slack gives for it. */
export function decodeArgs(raw: Json): Json {
  const args: Json = {};
  for (const [key, value] of Object.entries(raw)) {
    const code = JSON_FIELDS[key];
    if (code !== undefined && typeof value === 'string') {
      try {
        args[key] = JSON.parse(value);
      } catch {
        throw new ApiError(code, [`${key} is not valid JSON`]);
      }
    } else {
      args[key] = value;
    }
  }
  return args;
}

// ---- argument schemas ---------------------------------------------------------------------------------------------------

const boolish = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');
const blocksArg = z.array(z.record(z.string(), z.unknown()));
const metadataArg = z.object({ event_type: z.string().min(1), event_payload: z.record(z.string(), z.unknown()) });
const viewArg = z.record(z.string(), z.unknown());
const limitArg = z.coerce.number().int().min(1).max(999);

const postMessageArgs = z.object({
  channel: z.string(),
  text: z.string().optional(),
  blocks: blocksArg.optional(),
  attachments: z.array(z.unknown()).optional(),
  markdown_text: z.string().optional(),
  thread_ts: z.string().optional(),
  reply_broadcast: boolish.optional(),
  username: z.string().optional(),
  icon_emoji: z.string().optional(),
  icon_url: z.string().optional(),
  metadata: z.unknown().optional(),
  unfurl_links: boolish.optional(),
  unfurl_media: boolish.optional(),
  mrkdwn: boolish.optional(),
});

const updateArgs = z.object({
  channel: z.string(),
  ts: z.string(),
  text: z.string().optional(),
  blocks: blocksArg.optional(),
  attachments: z.array(z.unknown()).optional(),
  markdown_text: z.string().optional(),
  metadata: z.unknown().optional(),
});

const ephemeralArgs = z.object({
  channel: z.string(),
  user: z.string(),
  text: z.string().optional(),
  blocks: blocksArg.optional(),
  attachments: z.array(z.unknown()).optional(),
  markdown_text: z.string().optional(),
  thread_ts: z.string().optional(),
});

const paginationArgs = {
  limit: limitArg.optional(),
  cursor: z.string().optional(),
  oldest: z.string().optional(),
  latest: z.string().optional(),
  inclusive: boolish.optional(),
  include_all_metadata: boolish.optional(),
};

const historyArgs = z.object({ channel: z.string(), ...paginationArgs });
const repliesArgs = z.object({ channel: z.string(), ts: z.string(), ...paginationArgs });

// ---- helpers -----------------------------------------------------------------------------------------------------------

function parse<T extends z.ZodType>(schema: T, args: Json): z.infer<T> {
  const result = schema.safeParse(args);
  if (!result.success) {
    throw new ApiError(
      'invalid_arguments',
      result.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`),
    );
  }
  return result.data;
}

function resolveChannel(model: SlackModel, ref: string): SandboxChannel {
  const byId = model.channels.get(ref);
  if (byId) return byId;
  if (/^[UW][A-Z0-9]+$/.test(ref) && model.users.has(ref)) return model.imChannel(ref);
  const name = ref.replace(/^#/, '');
  for (const channel of model.channels.values()) if (!channel.isIm && channel.name === name) return channel;
  throw new ApiError('channel_not_found');
}

/**
 * A channel the bot is a member of (an IM with the bot always is). A private channel the bot is not in is invisible to
 * it (`channel_not_found`); a public one answers what the method's reference page lists: `not_in_channel` for
 * chat.postMessage, chat.postEphemeral, files.completeUploadExternal and conversations.history/replies; chat.update
 * and reactions.add list only `channel_not_found` (docs.slack.dev/reference/methods/<method> — "Errors").
 */
function memberChannel(
  model: SlackModel,
  ref: string,
  publicError: 'not_in_channel' | 'channel_not_found' = 'not_in_channel',
): SandboxChannel {
  const channel = resolveChannel(model, ref);
  if (!channel.members.has(model.botUserId)) {
    throw new ApiError(channel.isPrivate ? 'channel_not_found' : publicError, [
      `${model.botName} is not a member of ${channel.isIm ? 'this conversation' : `#${channel.name}`}`,
    ]);
  }
  return channel;
}

/** The parent ts a person's reply goes under: Slack's composer always threads a reply under the thread's parent. */
export function threadRoot(model: SlackModel, channel: string, threadTs: string): string {
  const target = model.message(channel, threadTs);
  if (!target) throw new ApiError('thread_not_found', [`no message ${threadTs} in ${channel}`]);
  return target.threadTs ?? target.ts;
}

/**
 * The thread an app's post goes into: the message its `thread_ts` names, as given. Slack's reference says to pass the
 * parent's ts, never a reply's ("Avoid using a reply's ts value; use its parent instead" — chat.postMessage,
 * chat.postEphemeral; "Never use a reply's ts value" — files.completeUploadExternal), so the stand-in does not move
 * such a post into the parent's thread: it hangs off the reply, where nobody reading the thread sees it.
 */
export function appThread(model: SlackModel, channel: string, threadTs: string): string {
  if (!model.message(channel, threadTs))
    throw new ApiError('thread_not_found', [`no message ${threadTs} in ${channel}`]);
  return threadTs;
}

export function checkMessageBlocks(text: string | undefined, blocks: Json[] | undefined): void {
  if (blocks === undefined) return;
  // Slack accepts a message without fallback text (the SDK only warns), so only the blocks decide here;
  // checkCallLog still reports the missing text.
  const violations = blockKitViolations({ text: text ?? 'x', blocks }, 'message').filter((v) => !v.startsWith('text:'));
  if (violations.length > 0) throw new ApiError('invalid_blocks', violations);
}

function checkView(view: Json, surface: Surface): void {
  const violations = blockKitViolations(view, surface);
  if (violations.length > 0) throw new ApiError('invalid_blocks', violations);
}

function metadataOf(value: unknown): MessageMetadata | undefined {
  if (value === undefined) return undefined;
  const result = metadataArg.safeParse(value);
  if (!result.success) throw new ApiError('invalid_metadata_schema', ['metadata needs event_type and event_payload']);
  return result.data;
}

function requireMessageBody(args: { text?: string; blocks?: unknown; attachments?: unknown; markdown_text?: string }) {
  if (!args.text && args.blocks === undefined && args.attachments === undefined && !args.markdown_text) {
    throw new ApiError('no_text');
  }
}

function hashFor(model: SlackModel): string {
  return `${Math.floor(model.clock() / 1000)}.${model.nextId('h').slice(1)}`;
}

export function idGen(model: SlackModel): () => string {
  return () => model.nextId('sbx').replace(/^sbx0+/, 'sbx');
}

function paginate<T>(items: T[], cursor: string | undefined, limit: number): { page: T[]; next: string } {
  let offset = 0;
  if (cursor !== undefined && cursor !== '') {
    const decodedCursor = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
    if (!decodedCursor?.[1]) throw new ApiError('invalid_cursor');
    offset = Number(decodedCursor[1]);
  }
  const page = items.slice(offset, offset + limit);
  const nextOffset = offset + page.length;
  const next = nextOffset < items.length ? Buffer.from(`offset:${nextOffset}`).toString('base64') : '';
  return { page, next };
}

function inWindow(ts: string, oldest?: string, latest?: string, inclusive = false): boolean {
  if (oldest !== undefined && (inclusive ? compareTs(ts, oldest) < 0 : compareTs(ts, oldest) <= 0)) return false;
  if (latest !== undefined && (inclusive ? compareTs(ts, latest) > 0 : compareTs(ts, latest) >= 0)) return false;
  return true;
}

/** Checks a trigger_id the way views.open/push do: unknown or older than the TTL is expired; each works once. */
function takeTrigger(ctx: WebApiContext, triggerId: unknown): string {
  if (typeof triggerId !== 'string') throw new ApiError('invalid_arguments', ['trigger_id is required']);
  const trigger = ctx.model.triggers.get(triggerId);
  if (!trigger || ctx.model.clock() - trigger.issuedAt > ctx.triggerTtlMs) throw new ApiError('expired_trigger_id');
  if (trigger.used) throw new ApiError('exchanged_trigger_id');
  trigger.used = true;
  return trigger.user;
}

function newView(ctx: WebApiContext, user: string, view: Json, type: 'modal' | 'home', links: Partial<SandboxView>) {
  const { model } = ctx;
  const blocks = Array.isArray(view.blocks) ? view.blocks.filter(isRecord) : [];
  const stored: SandboxView = {
    id: model.nextId('V'),
    user,
    type,
    view: { ...view, blocks: withGeneratedIds(blocks, idGen(model)) },
    hash: hashFor(model),
    externalId: typeof view.external_id === 'string' && view.external_id !== '' ? view.external_id : undefined,
    rootViewId: links.rootViewId,
    previousViewId: links.previousViewId,
    state: {},
    errors: {},
    open: true,
    history: [],
  };
  if (stored.externalId !== undefined) {
    for (const other of model.views.values()) {
      if (other.externalId === stored.externalId && other.open) throw new ApiError('duplicate_external_id');
    }
  }
  model.views.set(stored.id, stored);
  return stored;
}

/** Replaces a view's content in place (views.update, views.publish again, response_action: update). */
export function replaceView(model: SlackModel, view: SandboxView, next: Json): void {
  view.history.push(view.view);
  const blocks = Array.isArray(next.blocks) ? next.blocks.filter(isRecord) : [];
  view.view = { ...next, blocks: withGeneratedIds(blocks, idGen(model)) };
  view.hash = hashFor(model);
  view.errors = {};
  if (typeof next.external_id === 'string' && next.external_id !== '') view.externalId = next.external_id;
  // Inputs keep what was typed only while their block_id/action_id survive, as in Slack.
  const keep: Record<string, Record<string, Json>> = {};
  for (const block of view.view.blocks as Json[]) {
    const blockId = typeof block.block_id === 'string' ? block.block_id : undefined;
    if (blockId !== undefined && view.state[blockId]) keep[blockId] = view.state[blockId];
  }
  view.state = keep;
  model.changed();
}

/** Opens a pushed modal on top of the user's stack (views.push, response_action: push). */
export function pushView(ctx: WebApiContext, user: string, view: Json): SandboxView {
  const stack = ctx.model.modalStack(user);
  const top = stack.at(-1);
  if (top === undefined) throw new ApiError('not_found', ['no open modal to push onto']);
  if (stack.length >= 3) throw new ApiError('push_limit_reached');
  const root = stack[0];
  const pushed = newView(ctx, user, view, 'modal', { rootViewId: root, previousViewId: top });
  ctx.model.setModalStack(user, [...stack, pushed.id]);
  return pushed;
}

// ---- methods -------------------------------------------------------------------------------------------------------------

type Handler = (ctx: WebApiContext, args: Json) => Json;

function postMessage(ctx: WebApiContext, raw: Json): Json {
  const { model } = ctx;
  const args = parse(postMessageArgs, raw);
  const channel = memberChannel(model, args.channel);
  requireMessageBody(args);
  checkMessageBlocks(args.text, args.blocks);
  const metadata = metadataOf(args.metadata);
  const threadTs = args.thread_ts !== undefined ? appThread(model, channel.id, args.thread_ts) : undefined;
  const message = model.addMessage(
    createMessage({
      channel: channel.id,
      ts: model.nextTs(),
      threadTs,
      user: model.botUserId,
      botId: model.botId,
      subtype: args.reply_broadcast && threadTs !== undefined ? 'thread_broadcast' : undefined,
      username: args.username,
      iconEmoji: args.icon_emoji,
      iconUrl: args.icon_url,
      text: args.text ?? args.markdown_text ?? '',
      blocks: args.blocks === undefined ? undefined : withGeneratedIds(args.blocks, idGen(model)),
      metadata,
      replyBroadcast: args.reply_broadcast === true && threadTs !== undefined,
      unfurlLinks: args.unfurl_links,
      unfurlMedia: args.unfurl_media,
      postedAt: model.clock(),
    }),
  );
  ctx.onBotPost(message);
  return {
    channel: channel.id,
    ts: message.ts,
    message: messageJson(model, ctx.baseUrl, message, { includeMetadata: true }),
  };
}

function update(ctx: WebApiContext, raw: Json): Json {
  const { model } = ctx;
  const args = parse(updateArgs, raw);
  const channel = memberChannel(model, args.channel, 'channel_not_found');
  const message = model.message(channel.id, args.ts);
  if (!message) throw new ApiError('message_not_found');
  if (message.user !== model.botUserId) throw new ApiError('cant_update_message');
  requireMessageBody(args);
  checkMessageBlocks(args.text ?? message.text, args.blocks);
  const metadata = metadataOf(args.metadata);
  message.history.push({ text: message.text, blocks: message.blocks, replacedAt: model.clock() });
  if (args.text !== undefined || args.markdown_text !== undefined) message.text = args.text ?? args.markdown_text ?? '';
  // Slack keeps the previous blocks when the update leaves `blocks` out; an empty array removes them.
  if (args.blocks !== undefined) message.blocks = withGeneratedIds(args.blocks, idGen(model));
  if (metadata !== undefined) message.metadata = metadata;
  message.editedAt = model.nextTs();
  model.changed();
  return {
    channel: channel.id,
    ts: message.ts,
    text: message.text,
    message: messageJson(model, ctx.baseUrl, message, { includeMetadata: true }),
  };
}

function postEphemeral(ctx: WebApiContext, raw: Json): Json {
  const { model } = ctx;
  const args = parse(ephemeralArgs, raw);
  const channel = memberChannel(model, args.channel);
  if (!model.users.has(args.user)) throw new ApiError('user_not_found');
  if (!channel.members.has(args.user)) throw new ApiError('user_not_in_channel');
  requireMessageBody(args);
  checkMessageBlocks(args.text, args.blocks);
  const threadTs = args.thread_ts !== undefined ? appThread(model, channel.id, args.thread_ts) : undefined;
  const ts = model.nextTs();
  model.addEphemeral({
    user: args.user,
    channel: channel.id,
    ts,
    threadTs,
    text: args.text ?? args.markdown_text ?? '',
    blocks: args.blocks === undefined ? undefined : withGeneratedIds(args.blocks, idGen(model)),
    source: 'chat.postEphemeral',
    postedAt: model.clock(),
  });
  return { message_ts: ts };
}

function getPermalink(ctx: WebApiContext, raw: Json): Json {
  const args = parse(z.object({ channel: z.string(), message_ts: z.string() }), raw);
  const channel = resolveChannel(ctx.model, args.channel);
  const message = ctx.model.message(channel.id, args.message_ts);
  if (!message) throw new ApiError('message_not_found');
  return { channel: channel.id, permalink: permalink(ctx.model, channel.id, message.ts, message.threadTs) };
}

function viewsOpen(ctx: WebApiContext, raw: Json): Json {
  const args = parse(z.object({ trigger_id: z.string().optional(), view: viewArg }), raw);
  const user = takeTrigger(ctx, args.trigger_id);
  if (args.view.type !== 'modal') throw new ApiError('invalid_arguments', ['views.open takes a modal']);
  checkView(args.view, 'modal');
  const view = newView(ctx, user, args.view, 'modal', {});
  ctx.model.setModalStack(user, [view.id]);
  return { view: viewJson(ctx.model, view) };
}

function viewsPush(ctx: WebApiContext, raw: Json): Json {
  const args = parse(z.object({ trigger_id: z.string().optional(), view: viewArg }), raw);
  const user = takeTrigger(ctx, args.trigger_id);
  if (args.view.type !== 'modal') throw new ApiError('invalid_arguments', ['views.push takes a modal']);
  checkView(args.view, 'modal');
  return { view: viewJson(ctx.model, pushView(ctx, user, args.view)) };
}

function viewsUpdate(ctx: WebApiContext, raw: Json): Json {
  const { model } = ctx;
  const args = parse(
    z.object({
      view: viewArg,
      view_id: z.string().optional(),
      external_id: z.string().optional(),
      hash: z.string().optional(),
    }),
    raw,
  );
  const view =
    args.view_id !== undefined
      ? model.views.get(args.view_id)
      : [...model.views.values()].find((v) => v.externalId === args.external_id && v.open);
  if (!view || !view.open) throw new ApiError('not_found');
  if (args.hash !== undefined && args.hash !== view.hash) throw new ApiError('hash_conflict');
  const surface: Surface = args.view.type === 'home' ? 'home' : 'modal';
  if (surface !== view.type) throw new ApiError('invalid_arguments', [`cannot turn a ${view.type} into a ${surface}`]);
  checkView(args.view, surface);
  replaceView(model, view, args.view);
  return { view: viewJson(model, view) };
}

function viewsPublish(ctx: WebApiContext, raw: Json): Json {
  const { model } = ctx;
  const args = parse(z.object({ user_id: z.string(), view: viewArg, hash: z.string().optional() }), raw);
  if (!model.users.has(args.user_id)) throw new ApiError('user_not_found');
  if (args.view.type !== 'home') throw new ApiError('invalid_arguments', ['views.publish takes a home view']);
  checkView(args.view, 'home');
  const existing = model.home(args.user_id);
  if (existing) {
    if (args.hash !== undefined && args.hash !== existing.hash) throw new ApiError('hash_conflict');
    replaceView(model, existing, args.view);
    return { view: viewJson(model, existing) };
  }
  const view = newView(ctx, args.user_id, args.view, 'home', {});
  model.setHome(args.user_id, view.id);
  return { view: viewJson(model, view) };
}

function filesInfo(ctx: WebApiContext, raw: Json): Json {
  const args = parse(z.object({ file: z.string() }), raw);
  const file = ctx.model.file(args.file);
  // A file the bot cannot see (shared only where it is not a member) is `file_not_found` to it, as to any token
  // without access (docs.slack.dev/reference/methods/files.info — "Errors").
  if (!file || !file.completed || !ctx.model.botCanSeeFile(file)) throw new ApiError('file_not_found');
  return { file: fileJson(ctx.model, ctx.baseUrl, file), comments: [], response_metadata: { next_cursor: '' } };
}

function getUploadUrl(ctx: WebApiContext, raw: Json): Json {
  const args = parse(
    z.object({
      filename: z.string().min(1),
      length: z.coerce.number().int().positive(),
      alt_text: z.string().optional(),
    }),
    raw,
  );
  const file = createFile(ctx.model, {
    name: args.filename,
    user: ctx.model.botUserId,
    declaredSize: args.length,
    altText: args.alt_text,
  });
  return { upload_url: `${ctx.baseUrl}/upload/${file.id}?k=${file.uploadSecret}`, file_id: file.id };
}

function completeUpload(ctx: WebApiContext, raw: Json): Json {
  const { model } = ctx;
  const args = parse(
    z.object({
      files: z.array(z.object({ id: z.string(), title: z.string().optional() })).min(1),
      channel_id: z.string().optional(),
      channels: z.string().optional(),
      thread_ts: z.string().optional(),
      initial_comment: z.string().optional(),
      blocks: blocksArg.optional(),
    }),
    raw,
  );
  const files = args.files.map(({ id, title }) => {
    const file = model.file(id);
    if (!file) throw new ApiError('file_not_found', [`unknown file ${id}`]);
    if (file.bytes === undefined) throw new ApiError('file_not_found', [`file ${id} was never uploaded`]);
    if (title !== undefined) file.title = title;
    file.completed = true;
    return file;
  });
  const channelRef = args.channel_id ?? args.channels;
  if (channelRef !== undefined) {
    const channel = memberChannel(model, channelRef);
    if (args.initial_comment === undefined) checkMessageBlocks('file', args.blocks);
    const threadTs = args.thread_ts !== undefined ? appThread(model, channel.id, args.thread_ts) : undefined;
    const message = model.addMessage(
      createMessage({
        channel: channel.id,
        ts: model.nextTs(),
        threadTs,
        user: model.botUserId,
        botId: model.botId,
        text: args.initial_comment ?? '',
        blocks:
          args.initial_comment === undefined && args.blocks !== undefined
            ? withGeneratedIds(args.blocks, idGen(model))
            : undefined,
        fileIds: files.map((f) => f.id),
        postedAt: model.clock(),
      }),
    );
    for (const file of files) file.shares.push({ channel: channel.id, ts: message.ts, threadTs });
    ctx.onBotPost(message);
  } else if (args.thread_ts !== undefined) {
    throw new ApiError('invalid_arguments', ['thread_ts requires channel_id']);
  }
  model.changed();
  return {
    files: files.map((f) =>
      ctx.uploadAnswerNamesShare ? fileJson(model, ctx.baseUrl, f) : { id: f.id, title: f.title },
    ),
  };
}

function reactionsAdd(ctx: WebApiContext, raw: Json): Json {
  const { model } = ctx;
  const args = parse(z.object({ channel: z.string(), timestamp: z.string(), name: z.string() }), raw);
  const channel = memberChannel(model, args.channel, 'channel_not_found');
  if (!/^[a-z0-9_+'-]+$/.test(args.name)) throw new ApiError('invalid_name');
  const message = model.message(channel.id, args.timestamp);
  if (!message) throw new ApiError('message_not_found');
  let reaction = message.reactions.find((r) => r.name === args.name);
  if (reaction?.users.includes(model.botUserId)) throw new ApiError('already_reacted');
  if (!reaction) {
    reaction = { name: args.name, users: [] };
    message.reactions.push(reaction);
  }
  reaction.users.push(model.botUserId);
  model.changed();
  return {};
}

function usersInfo(ctx: WebApiContext, raw: Json): Json {
  const args = parse(z.object({ user: z.string() }), raw);
  const user = ctx.model.users.get(args.user);
  if (!user) throw new ApiError('user_not_found');
  return { user: userJson(ctx.model, user) };
}

function conversationsInfo(ctx: WebApiContext, raw: Json): Json {
  const args = parse(z.object({ channel: z.string() }), raw);
  const channel = resolveChannel(ctx.model, args.channel);
  if (channel.isPrivate && !channel.members.has(ctx.model.botUserId)) throw new ApiError('channel_not_found');
  return { channel: channelJson(ctx.model, channel) };
}

function history(ctx: WebApiContext, raw: Json): Json {
  const { model } = ctx;
  const args = parse(historyArgs, raw);
  const channel = memberChannel(model, args.channel);
  const newestFirst = model
    .topLevel(channel.id)
    .filter((m) => inWindow(m.ts, args.oldest, args.latest, args.inclusive))
    .reverse();
  const { page, next } = paginate(newestFirst, args.cursor, args.limit ?? 100);
  return {
    messages: page.map((m) => messageJson(model, ctx.baseUrl, m, { includeMetadata: args.include_all_metadata })),
    has_more: next !== '',
    pin_count: 0,
    channel_actions_ts: null,
    channel_actions_count: 0,
    response_metadata: { next_cursor: next },
  };
}

function replies(ctx: WebApiContext, raw: Json): Json {
  const { model } = ctx;
  const args = parse(repliesArgs, raw);
  const channel = memberChannel(model, args.channel);
  const parent = model.message(channel.id, args.ts);
  if (!parent) throw new ApiError('thread_not_found');
  const thread = model
    .thread(channel.id, parent.threadTs ?? parent.ts)
    .filter((m) => inWindow(m.ts, args.oldest, args.latest, args.inclusive));
  const { page, next } = paginate(thread, args.cursor, args.limit ?? 1000);
  return {
    messages: page.map((m) => messageJson(model, ctx.baseUrl, m, { includeMetadata: args.include_all_metadata })),
    has_more: next !== '',
    response_metadata: { next_cursor: next },
  };
}

const setStatusArgs = z.object({
  channel_id: z.string(),
  thread_ts: z.string(),
  // An empty status clears it (Bolt's `setStatus('')` does that).
  status: z.string(),
  loading_messages: z.array(z.string()).optional(),
  icon_emoji: z.string().optional(),
  icon_url: z.string().optional(),
  username: z.string().optional(),
});

/**
 * The "Parley is …" line under a thread. Not a message: nothing is posted and there is no ts; setting it again
 * replaces it. The thread must exist (`invalid_thread_ts`) in a conversation the bot is in.
 */
function setThreadStatus(ctx: WebApiContext, raw: Json): Json {
  const { model } = ctx;
  const args = parse(setStatusArgs, raw);
  const channel = memberChannel(model, args.channel_id, 'channel_not_found');
  if (!model.message(channel.id, args.thread_ts)) throw new ApiError('invalid_thread_ts');
  const key = `${channel.id}:${args.thread_ts}`;
  if (args.status === '') model.threadStatus.delete(key);
  else model.threadStatus.set(key, args.status);
  model.threadStatusLog.push({ channel: channel.id, threadTs: args.thread_ts, status: args.status });
  model.changed();
  return {};
}

const chunkArg = z.array(z.record(z.string(), z.unknown()));
const startStreamArgs = z.object({
  channel: z.string(),
  thread_ts: z.string(),
  markdown_text: z.string().optional(),
  chunks: chunkArg.optional(),
  recipient_user_id: z.string().optional(),
  recipient_team_id: z.string().optional(),
  task_display_mode: z.enum(['timeline', 'plan']).optional(),
  username: z.string().optional(),
  icon_emoji: z.string().optional(),
  icon_url: z.string().optional(),
});
const appendStreamArgs = z.object({
  channel: z.string(),
  ts: z.string(),
  markdown_text: z.string().optional(),
  chunks: chunkArg.optional(),
});
const stopStreamArgs = appendStreamArgs.extend({ blocks: blocksArg.optional(), metadata: z.unknown().optional() });

/** Applies chunks (already checked by argument-limits.ts) to a streamed message: text grows, tasks change in place. */
function applyChunks(message: SandboxMessage, markdown: string | undefined, chunks: Json[] | undefined): void {
  const stream = message.stream;
  if (!stream) return;
  if (markdown !== undefined) message.text += markdown;
  for (const chunk of chunks ?? []) {
    if (chunk.type === 'markdown_text' && typeof chunk.text === 'string') message.text += chunk.text;
    if (chunk.type === 'plan_update' && typeof chunk.title === 'string') stream.planTitle = chunk.title;
    if (chunk.type === 'task_update') {
      const task = {
        id: String(chunk.id),
        title: String(chunk.title),
        status: chunk.status as SandboxStream['tasks'][number]['status'],
        ...(typeof chunk.details === 'string' ? { details: chunk.details } : {}),
        ...(typeof chunk.output === 'string' ? { output: chunk.output } : {}),
      };
      const at = stream.tasks.findIndex((t) => t.id === task.id);
      if (at >= 0) stream.tasks[at] = task;
      else stream.tasks.push(task);
      stream.updates.push({ id: task.id, status: task.status });
    }
  }
}

/**
 * chat.startStream: a new message in the thread that later calls extend. Outside a DM it names who it streams to
 * (argument-limits.ts); that person must be in the conversation, and the team must be theirs.
 */
function startStream(ctx: WebApiContext, raw: Json): Json {
  const { model } = ctx;
  const args = parse(startStreamArgs, raw);
  const channel = memberChannel(model, args.channel);
  const threadTs = appThread(model, channel.id, args.thread_ts);
  if (args.recipient_user_id !== undefined) {
    if (!model.users.has(args.recipient_user_id)) throw new ApiError('user_not_found');
    if (!channel.members.has(args.recipient_user_id)) throw new ApiError('user_not_in_channel');
    if (args.recipient_team_id !== undefined && args.recipient_team_id !== model.teamOf(args.recipient_user_id)) {
      throw new ApiError('invalid_arguments', ['recipient_team_id is not the recipient’s team']);
    }
  }
  const message = createMessage({
    channel: channel.id,
    ts: model.nextTs(),
    threadTs,
    user: model.botUserId,
    botId: model.botId,
    username: args.username,
    iconEmoji: args.icon_emoji,
    iconUrl: args.icon_url,
    text: '',
    postedAt: model.clock(),
  });
  message.stream = {
    state: 'streaming',
    recipientUserId: args.recipient_user_id,
    displayMode: args.task_display_mode,
    planTitle: undefined,
    tasks: [],
    updates: [],
  };
  applyChunks(message, args.markdown_text, args.chunks);
  model.addMessage(message);
  return { channel: channel.id, ts: message.ts };
}

/** The app's own message that is still streaming, or the error Slack gives for one that is not. */
function streamingMessage(ctx: WebApiContext, channelRef: string, ts: string): SandboxMessage {
  const channel = memberChannel(ctx.model, channelRef, 'channel_not_found');
  const message = ctx.model.message(channel.id, ts);
  if (!message) throw new ApiError('message_not_found');
  if (message.user !== ctx.model.botUserId) throw new ApiError('cant_update_message');
  if (message.stream?.state !== 'streaming') throw new ApiError('message_not_in_streaming_state');
  return message;
}

function appendStream(ctx: WebApiContext, raw: Json): Json {
  const args = parse(appendStreamArgs, raw);
  const message = streamingMessage(ctx, args.channel, args.ts);
  applyChunks(message, args.markdown_text, args.chunks);
  message.editedAt = ctx.model.nextTs();
  ctx.model.changed();
  return { channel: message.channel, ts: message.ts };
}

function stopStream(ctx: WebApiContext, raw: Json): Json {
  const args = parse(stopStreamArgs, raw);
  const message = streamingMessage(ctx, args.channel, args.ts);
  // The blocks "will be appended to the end of the message" (the SDK's ChatStopStreamArguments).
  checkMessageBlocks('streamed', args.blocks);
  const metadata = metadataOf(args.metadata);
  applyChunks(message, args.markdown_text, args.chunks);
  if (args.blocks !== undefined) message.blocks = withGeneratedIds(args.blocks, idGen(ctx.model));
  if (metadata !== undefined) message.metadata = metadata;
  if (message.stream) message.stream.state = 'stopped';
  message.editedAt = ctx.model.nextTs();
  ctx.model.changed();
  return { channel: message.channel, ts: message.ts, message: messageJson(ctx.model, ctx.baseUrl, message) };
}

function authTest(ctx: WebApiContext): Json {
  const { model } = ctx;
  return {
    url: `https://${model.teamDomain}.slack.com/`,
    team: model.teamName,
    user: model.botName,
    team_id: model.teamId,
    user_id: model.botUserId,
    bot_id: model.botId,
    is_enterprise_install: false,
  };
}

const HANDLERS: Record<string, Handler> = {
  'auth.test': authTest,
  'chat.postMessage': postMessage,
  'chat.update': update,
  'chat.postEphemeral': postEphemeral,
  'chat.getPermalink': getPermalink,
  'views.open': viewsOpen,
  'views.push': viewsPush,
  'views.update': viewsUpdate,
  'views.publish': viewsPublish,
  'files.info': filesInfo,
  'files.getUploadURLExternal': getUploadUrl,
  'files.completeUploadExternal': completeUpload,
  'reactions.add': reactionsAdd,
  'users.info': usersInfo,
  'conversations.info': conversationsInfo,
  'conversations.history': history,
  'conversations.replies': replies,
  'assistant.threads.setStatus': setThreadStatus,
  'chat.startStream': startStream,
  'chat.appendStream': appendStream,
  'chat.stopStream': stopStream,
};

export function implementedMethods(): string[] {
  return Object.keys(HANDLERS);
}

/** The conversation a call names (for scopes that depend on it), when it names one the sandbox knows. */
function channelArg(model: SlackModel, args: Json): SandboxChannel | undefined {
  const ref = typeof args.channel === 'string' ? args.channel : args.channel_id;
  if (typeof ref !== 'string') return undefined;
  try {
    return resolveChannel(model, ref);
  } catch {
    return undefined;
  }
}

/** Argument names the spec requires that map to a specific Slack error rather than `invalid_arguments`. */
function missingArgumentError(method: string, missing: string[]): ApiError {
  if (missing.some((m) => m === 'channel' || m === 'channel_id')) return new ApiError('channel_not_found');
  if (missing.some((m) => m.startsWith('one of text|'))) return new ApiError('no_text');
  return new ApiError(
    'invalid_arguments',
    missing.map((m) => `missing required ${m}`),
  );
}

/** Runs one Web API method on already-authenticated, decoded-or-raw arguments. Never throws. */
export function callMethod(ctx: WebApiContext, method: string, rawArgs: Json): MethodResult {
  try {
    const handler = HANDLERS[method];
    if (!handler) {
      const why = specMethod(method) ? 'the sandbox does not implement it' : 'no such Web API method';
      return { ok: false, error: 'unknown_method', response_metadata: { messages: [`[ERROR] ${method}: ${why}`] } };
    }
    const args = decodeArgs(rawArgs);
    const scope = missingScope(method, channelArg(ctx.model, args), ctx.scopes);
    if (scope) throw new ApiError('missing_scope', [`${method} needs ${scope.needed}`], scope);
    const missing = missingArguments(method, args);
    if (missing.length > 0) throw missingArgumentError(method, missing);
    const overLimits = argumentLimitViolations(method, args);
    if (overLimits.length > 0) throw new ApiError('invalid_arguments', overLimits);
    return { ok: true, ...handler(ctx, args) };
  } catch (error) {
    if (error instanceof ApiError) {
      const result: MethodResult = { ok: false, error: error.code, ...error.fields };
      if (error.details.length > 0) result.response_metadata = { messages: error.details.map((d) => `[ERROR] ${d}`) };
      return result;
    }
    throw error;
  }
}
