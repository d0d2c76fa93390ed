// The people in the sandbox workspace. Each action a person takes in Slack (sharing a file, replying in a thread,
// clicking a button, submitting a modal, running /parley) becomes the request Slack would send the app: the same
// payload shape, signed with the signing secret, posted to the app's Bolt receiver. The low-level senders can also
// tamper (bad signature, stale timestamp, retry headers, replay) to prove the app rejects or dedupes them.
import { createHmac, randomUUID } from 'node:crypto';
import { createFile } from './files.js';
import {
  createMessage,
  type Json,
  type SandboxEphemeral,
  type SandboxMessage,
  type SandboxView,
  type SlackModel,
} from './model.js';
import { registerResponseUrl } from './response-url.js';
import { channelType, fileJson, isRecord, messageJson, viewJson } from './shapes.js';
import { subscriptionOf } from './scopes.js';
import { pushView, replaceView, threadRoot, type WebApiContext } from './web-api.js';
import { blockKitViolations } from '../../src/slack/views/limits.js';

export interface TamperOptions {
  /** Sign with the wrong secret: Bolt must answer 401. */
  badSignature?: boolean;
  /** The `x-slack-request-timestamp` to sign with (seconds); more than 5 minutes old is rejected by Bolt. */
  timestamp?: number;
  /** Slack's retry headers, as sent when the first delivery was not acknowledged in 3 seconds. */
  retryNum?: number;
  retryReason?: string;
}

export interface SignedRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface DriverResponse {
  status: number;
  /** Parsed JSON when the app answered JSON, else the text ('' for a bare ack). */
  body: unknown;
  /** Milliseconds until the app answered (Slack gives up after 3000). */
  ackMs: number;
  request: SignedRequest;
  /**
   * Set when Slack would not have sent it at all, and says why (an event the app does not subscribe to); `status` is
   * then 0 and nothing reached the app.
   */
  notDelivered?: string;
}

export interface AckRecord {
  /** What was delivered: `event:file_shared`, `block_actions:<action_id>`, `view_submission:<callback_id>`… */
  what: string;
  ms: number;
  /** When the request was sent (epoch ms), to place it on a story's timeline. */
  atMs: number;
}

export type MessageTarget = { channel: string; ts: string };
export type ClickTarget = MessageTarget | { viewId: string };

/**
 * Values a person enters in a modal, by input block_id (or the element's action_id). A file_input takes the ids of
 * files from `SlackDriver.uploadInForm`.
 */
export type SubmitValues = Record<string, string | string[] | null>;

export interface SubmitResult extends DriverResponse {
  responseAction: 'errors' | 'update' | 'push' | 'clear' | 'close' | 'none';
}

export interface DriverOptions {
  model: SlackModel;
  signingSecret: string;
  /** Where Slack would post events and interactions (Bolt's `/slack/events`). */
  eventsUrl: () => string | undefined;
  api: () => WebApiContext;
  /** The verification token Slack puts in payloads (deprecated, but still sent). */
  verificationToken?: string;
  /** The bot events the app subscribes to (manifest.yml); Slack sends no other event. Default: every event. */
  botEvents?: ReadonlySet<string>;
  /** Slack's side of an uninstall: the app's bot token in this workspace stops working. */
  uninstall?: () => void;
}

export function sign(signingSecret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

function richText(text: string): Json[] {
  return [
    {
      type: 'rich_text',
      block_id: randomUUID().slice(0, 5),
      elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }],
    },
  ];
}

function plainText(value: unknown): string {
  return isRecord(value) && typeof value.text === 'string' ? value.text : '';
}

interface FoundElement {
  element: Json;
  blockId: string;
}

/** Interactive elements in blocks, with the block they sit in. */
function elementsOf(blocks: readonly unknown[]): FoundElement[] {
  const found: FoundElement[] = [];
  for (const block of blocks) {
    if (!isRecord(block) || typeof block.block_id !== 'string') continue;
    const blockId = block.block_id;
    const candidates: unknown[] = [];
    if (Array.isArray(block.elements) && (block.type === 'actions' || block.type === 'context_actions')) {
      candidates.push(...block.elements);
    }
    if (block.accessory !== undefined) candidates.push(block.accessory);
    if (block.element !== undefined) candidates.push(block.element);
    for (const element of candidates) if (isRecord(element)) found.push({ element, blockId });
  }
  return found;
}

function optionsOf(element: Json): Json[] {
  const direct = Array.isArray(element.options) ? element.options.filter(isRecord) : [];
  const grouped = Array.isArray(element.option_groups)
    ? element.option_groups
        .filter(isRecord)
        .flatMap((g) => (Array.isArray(g.options) ? g.options.filter(isRecord) : []))
    : [];
  return [...direct, ...grouped];
}

export class SlackDriver {
  private readonly model: SlackModel;
  private readonly signingSecret: string;
  private readonly eventsUrl: () => string | undefined;
  private readonly api: () => WebApiContext;
  private readonly verificationToken: string;
  private readonly botEvents: ReadonlySet<string> | undefined;
  private readonly onUninstall: (() => void) | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private eventCounter = 0;
  /**
   * When the app cannot be reached (it crashed and is restarting), keep re-delivering for this long, as Slack retries
   * an event and as a person clicks again. 0 (default): fail at once.
   */
  redeliverForMs = 0;
  /** Every delivery's acknowledgement time and what it delivered, for benchmarks (in order). */
  readonly acks: AckRecord[] = [];

  constructor(options: DriverOptions) {
    this.model = options.model;
    this.signingSecret = options.signingSecret;
    this.eventsUrl = options.eventsUrl;
    this.api = options.api;
    this.verificationToken = options.verificationToken ?? 'sandbox-verification-token';
    this.botEvents = options.botEvents;
    this.onUninstall = options.uninstall;
  }

  // ---- low level ---------------------------------------------------------------------------------------------------

  /** Posts a signed body to the app. */
  async send(body: string, contentType: string, tamper: TamperOptions = {}): Promise<DriverResponse> {
    const url = this.eventsUrl();
    if (url === undefined)
      throw new Error('sandbox eventsUrl is not set (pass it to startSlackSandbox or setEventsUrl)');
    const timestamp = tamper.timestamp ?? Math.floor(Date.now() / 1000);
    const secret = tamper.badSignature ? `${this.signingSecret}-wrong` : this.signingSecret;
    const headers: Record<string, string> = {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': sign(secret, timestamp, body),
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
    };
    if (tamper.retryNum !== undefined) headers['x-slack-retry-num'] = String(tamper.retryNum);
    if (tamper.retryReason !== undefined) headers['x-slack-retry-reason'] = tamper.retryReason;
    return this.post({ url, body, headers });
  }

  /** Sends exactly the same bytes and headers again (a captured request replayed). */
  replay(previous: DriverResponse): Promise<DriverResponse> {
    return this.post(previous.request);
  }

  /**
   * Slack's retry of an event the app did not acknowledge in time: the same body (so the same `event_id`), freshly
   * signed, with `x-slack-retry-num` (1, 2, 3) and `x-slack-retry-reason` (`http_timeout`, `http_error`…)
   * (https://docs.slack.dev/apis/events-api/ — "Retries"). Alias of `retry`, named for the tests that replay events.
   */
  retryEvent(
    previous: DriverResponse,
    options: { retryNum?: number; retryReason?: string } = {},
  ): Promise<DriverResponse> {
    return this.retry(previous, options);
  }

  /** Sends the same body again as Slack's retry does: freshly signed, with the retry headers. */
  retry(previous: DriverResponse, options: { retryNum?: number; retryReason?: string } = {}): Promise<DriverResponse> {
    const contentType = previous.request.headers['content-type'] ?? 'application/json';
    return this.send(previous.request.body, contentType, {
      retryNum: options.retryNum ?? 1,
      retryReason: options.retryReason ?? 'http_timeout',
    });
  }

  private async post(request: SignedRequest): Promise<DriverResponse> {
    const giveUpAt = Date.now() + this.redeliverForMs;
    for (;;) {
      try {
        return await this.postOnce(request);
      } catch (error) {
        if (Date.now() >= giveUpAt) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  private async postOnce(request: SignedRequest): Promise<DriverResponse> {
    const sentAtMs = Date.now();
    const started = performance.now();
    const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body });
    const text = await response.text();
    const ackMs = performance.now() - started;
    this.acks.push({ what: describeRequest(request), ms: ackMs, atMs: sentAtMs });
    let body: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
    return { status: response.status, body, ackMs, request };
  }

  /**
   * Wraps an event in the Events API envelope (event_callback) and sends it as JSON, as Slack does
   * (https://docs.slack.dev/apis/events-api/ — "Callback field overview"): `authorizations` and `context_team_id` name
   * the installation the event is delivered to; in a Slack Connect channel `team_id` is the org that hosts the channel
   * and `is_ext_shared_channel` is true. An event the app does not subscribe to is not sent (`notDelivered`).
   */
  sendEvent(event: Json, tamper: TamperOptions = {}): Promise<DriverResponse> {
    this.eventCounter += 1;
    const now = Math.floor(this.model.clock() / 1000);
    const channelId = typeof event.channel === 'string' ? event.channel : event.channel_id;
    const shared = typeof channelId === 'string' ? this.model.channels.get(channelId)?.sharedWith : undefined;
    const envelope = {
      token: this.verificationToken,
      team_id: shared?.hostTeamId ?? this.model.teamId,
      context_team_id: this.model.teamId,
      context_enterprise_id: null,
      api_app_id: this.model.appId,
      event,
      type: 'event_callback',
      event_id: `Ev${String(this.eventCounter).padStart(9, '0')}`,
      event_time: now,
      authorizations: [
        {
          enterprise_id: null,
          team_id: this.model.teamId,
          user_id: this.model.botUserId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: shared !== undefined,
      event_context: `4-${Buffer.from(`${this.model.teamId}:${this.eventCounter}`).toString('base64')}`,
    };
    const body = JSON.stringify(envelope);
    const notDelivered = this.whyNotDelivered(event, typeof channelId === 'string' ? channelId : undefined);
    if (notDelivered !== undefined) {
      return Promise.resolve({
        status: 0,
        body: '',
        ackMs: 0,
        request: { url: this.eventsUrl() ?? '', body, headers: { 'content-type': 'application/json' } },
        notDelivered,
      });
    }
    return this.send(body, 'application/json', tamper);
  }

  /**
   * Why Slack would not send the app this event: it does not subscribe to it, or the event happened in a conversation
   * the bot is not a member of — message and file events reach only the conversations the app is in
   * (https://docs.slack.dev/reference/events/message.channels: "a message was posted to a channel" the app is in).
   */
  private whyNotDelivered(event: Json, channelId: string | undefined): string | undefined {
    const subscription = subscriptionOf(event);
    if (this.botEvents !== undefined && subscription !== undefined && !this.botEvents.has(subscription)) {
      return `the app does not subscribe to ${subscription} (manifest.yml settings.event_subscriptions.bot_events)`;
    }
    const channel = channelId === undefined ? undefined : this.model.channels.get(channelId);
    if (channel && !channel.members.has(this.model.botUserId)) {
      return `${this.model.botName} is not a member of #${channel.name}, so Slack sends it no events from there`;
    }
    return undefined;
  }

  /** Sends an interaction payload (block_actions, view_submission, message_action…) the way Slack does. */
  sendInteraction(payload: Json, tamper: TamperOptions = {}): Promise<DriverResponse> {
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    return this.send(body, 'application/x-www-form-urlencoded', tamper);
  }

  sendCommand(fields: Record<string, string>, tamper: TamperOptions = {}): Promise<DriverResponse> {
    return this.send(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded', tamper);
  }

  /** Resolves when every event the sandbox sent on its own (echoes of the app's posts) has been acknowledged. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private background(task: Promise<unknown>): void {
    const tracked = task.catch(() => undefined).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  // ---- payload parts ---------------------------------------------------------------------------------------------------

  private person(userId: string): Json {
    const user = this.model.users.get(userId);
    if (!user) throw new Error(`unknown sandbox user ${userId}`);
    // The person's own org: an external one for a Slack Connect guest (interaction payloads' `user.team_id`).
    return { id: user.id, username: user.name, name: user.name, team_id: user.teamId };
  }

  private team(): Json {
    return { id: this.model.teamId, domain: this.model.teamDomain };
  }

  private channelRef(channelId: string): Json {
    const channel = this.model.channels.get(channelId);
    return { id: channelId, name: channel?.name ?? channelId };
  }

  private messageEventFields(message: SandboxMessage): Json {
    const json = messageJson(this.model, this.api().baseUrl, message);
    const channel = this.model.channels.get(message.channel);
    const fields: Json = {
      ...json,
      channel: message.channel,
      event_ts: message.ts,
      channel_type: channelType(channel),
    };
    if (channel?.sharedWith !== undefined) {
      // In a shared channel a message event names the author's org (user_team) and the org it came from
      // (source_team); an external person's differs from the installation's.
      fields.user_team = this.model.teamOf(message.user);
      fields.source_team = this.model.teamOf(message.user);
    }
    return fields;
  }

  private requireMember(userId: string, channelId: string): void {
    const channel = this.model.channels.get(channelId);
    if (!channel) throw new Error(`unknown sandbox channel ${channelId}`);
    if (!channel.members.has(userId)) throw new Error(`${userId} is not a member of ${channelId}`);
  }

  // ---- people acting -------------------------------------------------------------------------------------------------

  /** A person writes a top-level message in a channel; Slack sends the app a `message` event. */
  async postMessage(userId: string, channelId: string, text: string) {
    this.requireMember(userId, channelId);
    const message = this.model.addMessage(
      createMessage({
        channel: channelId,
        ts: this.model.nextTs(),
        user: userId,
        text,
        blocks: richText(text),
        postedAt: this.model.clock(),
      }),
    );
    const response = await this.sendEvent({ ...this.messageEventFields(message), client_msg_id: randomUUID() });
    return { ts: message.ts, response };
  }

  /** A person replies in a thread; Slack sends a `message` event with thread_ts and parent_user_id. */
  async replyInThread(userId: string, channelId: string, threadTs: string, text: string) {
    this.requireMember(userId, channelId);
    const root = threadRoot(this.model, channelId, threadTs);
    const message = this.model.addMessage(
      createMessage({
        channel: channelId,
        ts: this.model.nextTs(),
        threadTs: root,
        user: userId,
        text,
        blocks: richText(text),
        postedAt: this.model.clock(),
      }),
    );
    const response = await this.sendEvent({ ...this.messageEventFields(message), client_msg_id: randomUUID() });
    return { ts: message.ts, response };
  }

  /**
   * A person writes to Parley in its Messages tab (a DM). Slack sends a `message` event with `channel_type: im` and a
   * `D…` channel, under the `message.im` subscription (https://docs.slack.dev/reference/events/message.im): an app
   * that does not subscribe to it gets nothing (`response.notDelivered`).
   */
  async sendDirectMessage(userId: string, text: string) {
    const channel = this.model.imChannel(userId);
    const message = this.model.addMessage(
      createMessage({
        channel: channel.id,
        ts: this.model.nextTs(),
        user: userId,
        text,
        blocks: richText(text),
        postedAt: this.model.clock(),
      }),
    );
    const response = await this.sendEvent({ ...this.messageEventFields(message), client_msg_id: randomUUID() });
    return { ts: message.ts, channel: channel.id, response };
  }

  /**
   * A person drops a file into an existing thread: the `message` (subtype `file_share`) has `ts` = the new reply and
   * `thread_ts` = the thread's parent, and `file_shared` names only the channel and the file — the thread is learnt
   * from the message or files.info's `shares` (https://docs.slack.dev/reference/events/file_shared).
   */
  shareFileInThread(
    userId: string,
    channelId: string,
    threadTs: string,
    input: { name: string; bytes: Buffer; text?: string; title?: string },
    options: { order?: 'message-first' | 'file-shared-first' | 'concurrent' } = {},
  ) {
    return this.shareFile(userId, channelId, { ...input, threadTs }, options);
  }

  /**
   * A person drops a file into a channel (optionally with a comment, optionally in a thread). Slack sends two events
   * for it — a `message` with subtype `file_share` and a `file_shared` — in no guaranteed order; `order` picks one, or
   * 'concurrent' sends both at once. The message ts is the thread the app will answer in.
   */
  async shareFile(
    userId: string,
    channelId: string,
    input: { name: string; bytes: Buffer; text?: string; title?: string; threadTs?: string },
    options: { order?: 'message-first' | 'file-shared-first' | 'concurrent' } = {},
  ) {
    this.requireMember(userId, channelId);
    const file = createFile(this.model, { name: input.name, user: userId, bytes: input.bytes, title: input.title });
    const threadTs = input.threadTs === undefined ? undefined : threadRoot(this.model, channelId, input.threadTs);
    const text = input.text ?? '';
    const message = this.model.addMessage(
      createMessage({
        channel: channelId,
        ts: this.model.nextTs(),
        threadTs,
        user: userId,
        subtype: 'file_share',
        text,
        blocks: text === '' ? undefined : richText(text),
        fileIds: [file.id],
        postedAt: this.model.clock(),
      }),
    );
    file.shares.push({ channel: channelId, ts: message.ts, threadTs });
    this.model.changed();
    const messageEvent = { ...this.messageEventFields(message), upload: true, display_as_bot: false };
    const fileShared = {
      type: 'file_shared',
      channel_id: channelId,
      file_id: file.id,
      user_id: userId,
      file: { id: file.id },
      event_ts: message.ts,
    };
    const order = options.order ?? 'message-first';
    let messageResponse: DriverResponse;
    let fileSharedResponse: DriverResponse;
    if (order === 'concurrent') {
      [messageResponse, fileSharedResponse] = await Promise.all([
        this.sendEvent(messageEvent),
        this.sendEvent(fileShared),
      ]);
    } else if (order === 'file-shared-first') {
      fileSharedResponse = await this.sendEvent(fileShared);
      messageResponse = await this.sendEvent(messageEvent);
    } else {
      messageResponse = await this.sendEvent(messageEvent);
      fileSharedResponse = await this.sendEvent(fileShared);
    }
    return { ts: message.ts, fileId: file.id, message: messageResponse, fileShared: fileSharedResponse };
  }

  private findInMessage(
    userId: string,
    target: MessageTarget,
  ): { blocks: Json[]; message?: SandboxMessage; ephemeral?: SandboxEphemeral } {
    const message = this.model.message(target.channel, target.ts);
    if (message) return { blocks: message.blocks ?? [], message };
    const ephemeral = this.model.ephemerals(userId).find((e) => e.channel === target.channel && e.ts === target.ts);
    if (ephemeral) return { blocks: ephemeral.blocks ?? [], ephemeral };
    throw new Error(`no message ${target.ts} in ${target.channel} (nor an ephemeral one for ${userId})`);
  }

  private openViewOf(userId: string, viewId: string): SandboxView {
    const view = this.model.view(viewId);
    if (!view || !view.open) throw new Error(`view ${viewId} is not open`);
    if (view.user !== userId) throw new Error(`view ${viewId} belongs to ${view.user}, not ${userId}`);
    if (view.type === 'modal' && this.model.modalStack(userId).at(-1) !== viewId) {
      throw new Error(`view ${viewId} is not the modal on top of ${userId}'s stack`);
    }
    return view;
  }

  private findElement(blocks: readonly unknown[], types: string[], actionId: string, value?: string): FoundElement {
    const all = elementsOf(blocks);
    const hit = all.find(
      (f) =>
        typeof f.element.type === 'string' &&
        types.includes(f.element.type) &&
        f.element.action_id === actionId &&
        (value === undefined || f.element.value === value),
    );
    if (hit) return hit;
    const seen = all.map((f) => `${String(f.element.type)}:${String(f.element.action_id)}`).join(', ') || 'none';
    throw new Error(
      `no ${types.join('/')} with action_id ${actionId}${value ? ` and value ${value}` : ''} (seen: ${seen})`,
    );
  }

  /** Common part of a block_actions payload, for a message or a view container. */
  private blockActionsPayload(userId: string, target: ClickTarget, action: Json) {
    const triggerId = this.model.issueTrigger(userId);
    const payload: Json = {
      type: 'block_actions',
      user: this.person(userId),
      api_app_id: this.model.appId,
      token: this.verificationToken,
      trigger_id: triggerId,
      team: this.team(),
      enterprise: null,
      is_enterprise_install: false,
      actions: [{ ...action, action_ts: `${(this.model.clock() / 1000).toFixed(6)}` }],
    };
    if ('viewId' in target) {
      const view = this.openViewOf(userId, target.viewId);
      payload.container = { type: 'view', view_id: view.id };
      payload.view = viewJson(this.model, view);
      payload.state = { values: view.state };
    } else {
      const found = this.findInMessage(userId, target);
      const threadTs = found.message?.threadTs ?? found.ephemeral?.threadTs;
      const container: Json = {
        type: 'message',
        message_ts: target.ts,
        channel_id: target.channel,
        is_ephemeral: found.ephemeral !== undefined,
      };
      if (threadTs !== undefined) container.thread_ts = threadTs;
      payload.container = container;
      payload.channel = this.channelRef(target.channel);
      if (found.message) payload.message = messageJson(this.model, this.api().baseUrl, found.message);
      payload.state = { values: {} };
      const responseId = registerResponseUrl(this.model, {
        user: userId,
        channel: target.channel,
        messageTs: target.ts,
        threadTs,
        ephemeral: found.ephemeral !== undefined,
      });
      payload.response_url = `${this.api().baseUrl}/response/${responseId}`;
    }
    return { payload, triggerId };
  }

  private blocksOf(userId: string, target: ClickTarget): readonly unknown[] {
    if ('viewId' in target) {
      const blocks = this.openViewOf(userId, target.viewId).view.blocks;
      return Array.isArray(blocks) ? blocks : [];
    }
    return this.findInMessage(userId, target).blocks;
  }

  /** A person clicks a button in a message (or ephemeral) or in an open view; fails if the button is not there. */
  async clickButton(userId: string, target: ClickTarget, actionId: string, options: { value?: string } = {}) {
    const blocks = this.blocksOf(userId, target);
    const { element, blockId } = this.findElement(blocks, ['button'], actionId, options.value);
    const action: Json = {
      type: 'button',
      action_id: actionId,
      block_id: blockId,
      text: { type: 'plain_text', text: plainText(element.text), emoji: true },
    };
    if (typeof element.value === 'string') action.value = element.value;
    if (typeof element.style === 'string') action.style = element.style;
    const { payload, triggerId } = this.blockActionsPayload(userId, target, action);
    const response = await this.sendInteraction(payload);
    return { ...response, triggerId };
  }

  /**
   * A person clicks 👍 (`positive`) or 👎 (`negative`) of a feedback_buttons element (in a context_actions block); the
   * action carries the clicked side's value.
   */
  async clickFeedback(userId: string, target: ClickTarget, actionId: string, side: 'positive' | 'negative') {
    const { element, blockId } = this.findElement(this.blocksOf(userId, target), ['feedback_buttons'], actionId);
    const button = element[`${side}_button`];
    if (!isRecord(button) || typeof button.value !== 'string') throw new Error(`${actionId} has no ${side}_button`);
    const action: Json = { type: 'feedback_buttons', action_id: actionId, block_id: blockId, value: button.value };
    const { payload, triggerId } = this.blockActionsPayload(userId, target, action);
    const response = await this.sendInteraction(payload);
    return { ...response, triggerId };
  }

  /** A person picks an option in a static select (or radio buttons / overflow menu). */
  async selectOption(userId: string, target: ClickTarget, actionId: string, optionValue: string) {
    const blocks = this.blocksOf(userId, target);
    const { element, blockId } = this.findElement(
      blocks,
      ['static_select', 'radio_buttons', 'overflow'],
      actionId,
      undefined,
    );
    const option = optionsOf(element).find((o) => o.value === optionValue);
    if (!option) throw new Error(`${actionId} has no option with value ${optionValue}`);
    const type = String(element.type);
    if ('viewId' in target) {
      const view = this.openViewOf(userId, target.viewId);
      (view.state[blockId] ??= {})[actionId] = { type, selected_option: option };
    }
    const action: Json = { type, action_id: actionId, block_id: blockId, selected_option: option };
    if (element.placeholder !== undefined) action.placeholder = element.placeholder;
    const { payload, triggerId } = this.blockActionsPayload(userId, target, action);
    const response = await this.sendInteraction(payload);
    return { ...response, triggerId };
  }

  /**
   * A person fills in the modal on top of their stack and presses its submit button. `values` are keyed by the input's
   * block_id (or its element's action_id); an input left out keeps what was selected before or its initial value.
   * The app's answer is applied as Slack applies it: errors shown, view updated/pushed, stack cleared or view closed.
   */
  async submitView(userId: string, viewId: string, values: SubmitValues = {}): Promise<SubmitResult> {
    const view = this.openViewOf(userId, viewId);
    if (view.type !== 'modal') throw new Error(`view ${viewId} is a ${view.type} tab, which has no submit button`);
    view.state = buildState(view, values, (fileId) => {
      const file = this.model.file(fileId);
      if (!file) throw new Error(`no sandbox file ${fileId} (upload it with uploadInForm first)`);
      return fileJson(this.model, this.api().baseUrl, file);
    });
    view.errors = {};
    const payload: Json = {
      type: 'view_submission',
      team: this.team(),
      user: this.person(userId),
      api_app_id: this.model.appId,
      token: this.verificationToken,
      trigger_id: this.model.issueTrigger(userId),
      view: viewJson(this.model, view),
      response_urls: [],
      is_enterprise_install: false,
      enterprise: null,
    };
    const response = await this.sendInteraction(payload);
    return { ...response, responseAction: this.applyViewAnswer(userId, view, response) };
  }

  private applyViewAnswer(userId: string, view: SandboxView, response: DriverResponse): SubmitResult['responseAction'] {
    // Anything but a 200 leaves the modal open with Slack's generic error; nothing changes.
    if (response.status !== 200) return 'none';
    const body = isRecord(response.body) ? response.body : undefined;
    const action = body?.response_action;
    const stack = this.model.modalStack(userId);
    switch (action) {
      case 'errors': {
        const errors = isRecord(body?.errors) ? body.errors : {};
        view.errors = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, String(v)]));
        this.model.changed();
        return 'errors';
      }
      case 'update': {
        const next = this.checkedView(body?.view);
        replaceView(this.model, view, next);
        return 'update';
      }
      case 'push':
        pushView(this.api(), userId, this.checkedView(body?.view));
        return 'push';
      case 'clear':
        this.model.setModalStack(userId, []);
        return 'clear';
      default:
        this.model.setModalStack(
          userId,
          stack.filter((id) => id !== view.id),
        );
        return 'close';
    }
  }

  private checkedView(view: unknown): Json {
    if (!isRecord(view)) throw new Error('the app answered the submission with a response_action but no view');
    const violations = blockKitViolations(view, 'modal');
    if (violations.length > 0) throw new Error(`the app answered with an invalid view: ${violations.join('; ')}`);
    return view;
  }

  /**
   * A person picks a file in a modal's file_input: Slack uploads it as theirs, shared in no conversation, and puts the
   * file object in the submission's `state.values` (`{ type: 'file_input', files: [...] }`). Returns the file id to
   * pass to `submitView`.
   */
  uploadInForm(userId: string, input: { name: string; bytes: Buffer; title?: string }): string {
    this.person(userId);
    return createFile(this.model, { ...input, user: userId, viaForm: true }).id;
  }

  /** A person closes the modal on top (the X); Slack tells the app only when the view asked for notify_on_close. */
  async closeView(userId: string, viewId: string): Promise<DriverResponse | undefined> {
    const view = this.openViewOf(userId, viewId);
    const notify = view.view.notify_on_close === true;
    const json = viewJson(this.model, view);
    this.model.setModalStack(
      userId,
      this.model.modalStack(userId).filter((id) => id !== viewId),
    );
    if (!notify) return undefined;
    return this.sendInteraction({
      type: 'view_closed',
      team: this.team(),
      user: this.person(userId),
      api_app_id: this.model.appId,
      token: this.verificationToken,
      view: json,
      is_cleared: false,
      is_enterprise_install: false,
      enterprise: null,
    });
  }

  /**
   * A person runs a slash command. What the app acks with is shown as Slack shows it: to the person only, or in the
   * channel when the answer says `response_type: in_channel`.
   */
  async slashCommand(userId: string, channelId: string, command: string, text = '') {
    const channel = this.model.channels.get(channelId);
    const user = this.person(userId);
    const triggerId = this.model.issueTrigger(userId);
    const responseId = registerResponseUrl(this.model, {
      user: userId,
      channel: channelId,
      messageTs: undefined,
      threadTs: undefined,
      ephemeral: true,
    });
    const response = await this.sendCommand({
      token: this.verificationToken,
      team_id: this.model.teamId,
      team_domain: this.model.teamDomain,
      channel_id: channelId,
      channel_name: channel?.isIm ? 'directmessage' : (channel?.name ?? channelId),
      user_id: userId,
      user_name: String(user.name),
      command,
      text,
      api_app_id: this.model.appId,
      is_enterprise_install: 'false',
      response_url: `${this.api().baseUrl}/response/${responseId}`,
      trigger_id: triggerId,
    });
    if (response.status === 200 && response.body !== '') {
      const answer = isRecord(response.body) ? response.body : { text: String(response.body) };
      const text = typeof answer.text === 'string' ? answer.text : '';
      const blocks = Array.isArray(answer.blocks) ? answer.blocks.filter(isRecord) : undefined;
      if (answer.response_type === 'in_channel') {
        this.model.addMessage(
          createMessage({
            channel: channelId,
            ts: this.model.nextTs(),
            user: this.model.botUserId,
            botId: this.model.botId,
            text,
            blocks,
            postedAt: this.model.clock(),
          }),
        );
      } else if (text !== '' || blocks !== undefined) {
        this.model.addEphemeral({
          user: userId,
          channel: channelId,
          ts: this.model.nextTs(),
          threadTs: undefined,
          text,
          blocks,
          source: 'command',
          postedAt: this.model.clock(),
        });
      }
    }
    return { ...response, triggerId };
  }

  /** A person runs a message shortcut (the ⋮ menu on a message). */
  async messageShortcut(userId: string, target: MessageTarget, callbackId: string) {
    const message = this.model.message(target.channel, target.ts);
    if (!message) throw new Error(`no message ${target.ts} in ${target.channel}`);
    const triggerId = this.model.issueTrigger(userId);
    const responseId = registerResponseUrl(this.model, {
      user: userId,
      channel: target.channel,
      messageTs: target.ts,
      threadTs: message.threadTs,
      ephemeral: false,
    });
    const response = await this.sendInteraction({
      type: 'message_action',
      token: this.verificationToken,
      action_ts: `${(this.model.clock() / 1000).toFixed(6)}`,
      team: this.team(),
      user: this.person(userId),
      channel: this.channelRef(target.channel),
      is_enterprise_install: false,
      enterprise: null,
      callback_id: callbackId,
      trigger_id: triggerId,
      response_url: `${this.api().baseUrl}/response/${responseId}`,
      message_ts: target.ts,
      message: messageJson(this.model, this.api().baseUrl, message),
    });
    return { ...response, triggerId };
  }

  /**
   * A workspace admin removes the app (or revokes its bot token): its token stops working at once, and Slack tells
   * the app with `tokens_revoked` (the bot user's token listed under `tokens.bot`), then — for an uninstall —
   * `app_uninstalled` (https://docs.slack.dev/reference/events/app_uninstalled,
   * https://docs.slack.dev/reference/events/tokens_revoked). Resolves with the app's answers, in that order.
   */
  async uninstallApp(options: { onlyRevokeToken?: boolean } = {}): Promise<DriverResponse[]> {
    this.onUninstall?.();
    const revoked = await this.sendEvent({
      type: 'tokens_revoked',
      tokens: { bot: [this.model.botUserId] },
      event_ts: this.model.nextTs(),
    });
    if (options.onlyRevokeToken) return [revoked];
    const uninstalled = await this.sendEvent({ type: 'app_uninstalled', event_ts: this.model.nextTs() });
    return [revoked, uninstalled];
  }

  /**
   * Another organisation joins a channel through Slack Connect; Slack tells the apps in it with `channel_shared`
   * (https://docs.slack.dev/reference/events/channel_shared: `connected_team_id`, the organisation that joined).
   */
  shareChannel(channelId: string, teamId: string): Promise<DriverResponse> {
    this.model.shareChannel(channelId, teamId);
    return this.sendEvent({
      type: 'channel_shared',
      connected_team_id: teamId,
      channel: channelId,
      event_ts: this.model.nextTs(),
    });
  }

  /**
   * An organisation leaves a shared channel (or is disconnected from it); Slack sends `channel_unshared`
   * (https://docs.slack.dev/reference/events/channel_unshared: `previously_connected_team_id`, and `is_ext_shared`
   * — whether the channel is still shared with another organisation).
   */
  unshareChannel(channelId: string, teamId: string): Promise<DriverResponse> {
    const stillShared = this.model.unshareChannel(channelId, teamId);
    return this.sendEvent({
      type: 'channel_unshared',
      previously_connected_team_id: teamId,
      channel: channelId,
      is_ext_shared: stillShared,
      event_ts: this.model.nextTs(),
    });
  }

  /** A person opens the app's Home tab; Slack sends `app_home_opened` (with the published view, if any). */
  openHome(userId: string): Promise<DriverResponse> {
    this.person(userId);
    const im = this.model.imChannel(userId);
    const event: Json = {
      type: 'app_home_opened',
      user: userId,
      channel: im.id,
      tab: 'home',
      event_ts: this.model.nextTs(),
    };
    const home = this.model.home(userId);
    if (home) event.view = viewJson(this.model, home);
    return this.sendEvent(event);
  }

  /**
   * Slack also sends the app events about its own posts (a `message` with bot_id; `file_shared` for its uploads).
   * Bolt drops the bot's own messages, but not file_shared: an app that reacts to files must skip its own.
   */
  echoBotPost(message: SandboxMessage): void {
    if (this.eventsUrl() === undefined) return;
    const event: Json = { ...this.messageEventFields(message) };
    if (message.fileIds.length > 0) {
      event.subtype = 'file_share';
      event.files = message.fileIds.flatMap((id) => {
        const file = this.model.file(id);
        return file ? [fileJson(this.model, this.api().baseUrl, file)] : [];
      });
    }
    this.background(this.sendEvent(event));
    for (const fileId of message.fileIds) {
      this.background(
        this.sendEvent({
          type: 'file_shared',
          channel_id: message.channel,
          file_id: fileId,
          user_id: this.model.botUserId,
          file: { id: fileId },
          event_ts: message.ts,
        }),
      );
    }
  }
}

function richTextValue(text: string): Json {
  return richText(text)[0] ?? {};
}

/** Slack's `view.state.values` for a submission: what was entered, else what was selected before, else initial. */
export function buildState(
  view: SandboxView,
  values: SubmitValues,
  fileOf: (fileId: string) => Json = (id) => ({ id }),
): Record<string, Record<string, Json>> {
  const blocks = Array.isArray(view.view.blocks) ? view.view.blocks.filter(isRecord) : [];
  const inputs = blocks.filter((b) => b.type === 'input' && isRecord(b.element));
  const known = new Set<string>();
  const state: Record<string, Record<string, Json>> = {};
  for (const block of inputs) {
    const blockId = String(block.block_id);
    const element = block.element as Json;
    const actionId = String(element.action_id);
    const type = String(element.type);
    known.add(blockId);
    known.add(actionId);
    const given = Object.hasOwn(values, blockId) ? values[blockId] : values[actionId];
    const previous = view.state[blockId]?.[actionId];
    const entry =
      given !== undefined
        ? stateEntry(type, element, given, blockId, fileOf)
        : (previous ?? initialEntry(type, element));
    if (block.optional !== true && isEmptyEntry(entry)) {
      throw new Error(`required input ${blockId} (${type}) is empty: Slack would not let the person submit`);
    }
    state[blockId] = { [actionId]: entry };
  }
  for (const key of Object.keys(values)) {
    if (!known.has(key)) throw new Error(`the modal has no input ${key} (inputs: ${[...known].join(', ')})`);
  }
  return state;
}

function isEmptyEntry(entry: Json): boolean {
  const keys = Object.keys(entry).filter((k) => k !== 'type');
  return keys.every((k) => {
    const v = entry[k];
    return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
  });
}

function findOption(element: Json, value: string, blockId: string): Json {
  const option = optionsOf(element).find((o) => o.value === value);
  if (!option) throw new Error(`input ${blockId} has no option with value ${value}`);
  return option;
}

function stateEntry(
  type: string,
  element: Json,
  given: string | string[] | null,
  blockId: string,
  fileOf: (fileId: string) => Json,
): Json {
  const one = Array.isArray(given) ? (given[0] ?? null) : given;
  const many = given === null ? [] : Array.isArray(given) ? given : [given];
  switch (type) {
    case 'static_select':
    case 'radio_buttons':
      return { type, selected_option: one === null ? null : findOption(element, one, blockId) };
    case 'multi_static_select':
    case 'checkboxes':
      return { type, selected_options: many.map((v) => findOption(element, v, blockId)) };
    case 'datepicker':
      return { type, selected_date: one };
    case 'timepicker':
      return { type, selected_time: one };
    case 'users_select':
      return { type, selected_user: one };
    case 'multi_users_select':
      return { type, selected_users: many };
    case 'conversations_select':
      return { type, selected_conversation: one };
    case 'channels_select':
      return { type, selected_channel: one };
    case 'rich_text_input':
      return { type, rich_text_value: one === null ? null : richTextValue(one) };
    case 'file_input':
      return { type, files: many.map(fileOf) };
    default:
      return { type, value: one };
  }
}

function initialEntry(type: string, element: Json): Json {
  switch (type) {
    case 'static_select':
    case 'radio_buttons':
      return { type, selected_option: isRecord(element.initial_option) ? element.initial_option : null };
    case 'multi_static_select':
    case 'checkboxes':
      return { type, selected_options: Array.isArray(element.initial_options) ? element.initial_options : [] };
    case 'datepicker':
      return { type, selected_date: typeof element.initial_date === 'string' ? element.initial_date : null };
    case 'users_select':
      return { type, selected_user: typeof element.initial_user === 'string' ? element.initial_user : null };
    case 'multi_users_select':
      return { type, selected_users: Array.isArray(element.initial_users) ? element.initial_users : [] };
    case 'file_input':
      return { type, files: [] };
    default:
      return { type, value: typeof element.initial_value === 'string' ? element.initial_value : null };
  }
}

/** Names a delivery for the benchmarks' breakdown of acknowledgement times. */
export function describeRequest(request: SignedRequest): string {
  try {
    if ((request.headers['content-type'] ?? '').includes('json')) {
      const envelope = JSON.parse(request.body) as { event?: { type?: string; subtype?: string } };
      return `event:${envelope.event?.type ?? '?'}${envelope.event?.subtype ? `/${envelope.event.subtype}` : ''}`;
    }
    const form = new URLSearchParams(request.body);
    const command = form.get('command');
    if (command) return `command:${command}`;
    const payload = JSON.parse(form.get('payload') ?? '{}') as {
      type?: string;
      actions?: { action_id?: string }[];
      view?: { callback_id?: string };
      callback_id?: string;
    };
    const detail = payload.actions?.[0]?.action_id ?? payload.view?.callback_id ?? payload.callback_id ?? '?';
    return `${payload.type ?? '?'}:${detail}`;
  } catch {
    return 'unreadable';
  }
}
