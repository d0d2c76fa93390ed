// The sandbox's picture of a Slack workspace: channels and their messages (threads, edits, reactions, files), what each
// person sees privately (ephemerals, open modals, the Home tab) and every Web API call received. Tests read it through
// the helpers at the bottom; the Web API and the driver are the only writers, besides tests that set up what an earlier
// process left behind.

export type Json = Record<string, unknown>;

export interface SandboxUser {
  id: string;
  name: string;
  realName: string;
  isBot: boolean;
  /** The person's home workspace: the sandbox's own team, or an external org's in a Slack Connect channel. */
  teamId: string;
  /** A workspace admin (users.info `is_admin`); nobody is unless a test says so. */
  isAdmin?: boolean;
}

export interface SandboxChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  isIm: boolean;
  members: Set<string>;
  /**
   * Slack Connect: the external org the channel is shared with, and which org hosts it. Slack puts the host org's id
   * in an event envelope's `team_id` and the receiving installation's in `context_team_id` / `authorizations`
   * (https://docs.slack.dev/apis/slack-connect/ — "working with shared channels").
   */
  sharedWith: { teamId: string; hostTeamId: string } | undefined;
  /**
   * Organisations beyond `sharedWith` that the channel is shared with too (a channel shared with two suppliers): each
   * is in conversations.info's connected_team_ids.
   */
  alsoSharedWith: string[];
}

export interface MessageMetadata {
  event_type: string;
  event_payload: Json;
}

export interface MessageVersion {
  text: string;
  blocks: Json[] | undefined;
  /** When this version was replaced (epoch ms). */
  replacedAt: number;
}

export interface SandboxMessage {
  channel: string;
  ts: string;
  /** Set on thread replies (and on a thread's parent once it has replies, as Slack does). */
  threadTs: string | undefined;
  /** The person who wrote it, or the bot user for the app's own messages. */
  user: string;
  botId: string | undefined;
  subtype: string | undefined;
  /** Persona overrides (chat:write.customize). */
  username: string | undefined;
  iconEmoji: string | undefined;
  iconUrl: string | undefined;
  text: string;
  blocks: Json[] | undefined;
  metadata: MessageMetadata | undefined;
  fileIds: string[];
  reactions: { name: string; users: string[] }[];
  /** Earlier versions, oldest first; the fields above are always the latest. */
  history: MessageVersion[];
  editedAt: string | undefined;
  replyBroadcast: boolean;
  unfurlLinks: boolean | undefined;
  unfurlMedia: boolean | undefined;
  deleted: boolean;
  postedAt: number;
  /** A streamed message (chat.startStream): its plan and tasks as the chunks left them, and whether it still streams. */
  stream?: SandboxStream;
}

export interface SandboxStreamTask {
  id: string;
  title: string;
  status: 'pending' | 'in_progress' | 'complete' | 'error';
  details?: string;
  output?: string;
}

export interface SandboxStream {
  state: 'streaming' | 'stopped';
  recipientUserId: string | undefined;
  displayMode: string | undefined;
  planTitle: string | undefined;
  /** In the order they first appeared; a later task_update with the same id changes the task in place. */
  tasks: SandboxStreamTask[];
  /** Every task_update received, in order (a test can follow a task from pending to complete). */
  updates: { id: string; status: string }[];
}

export interface SandboxEphemeral {
  user: string;
  channel: string;
  ts: string;
  threadTs: string | undefined;
  text: string;
  blocks: Json[] | undefined;
  /** Whether the app itself (Web API) or a command/response_url answer produced it. */
  source: 'chat.postEphemeral' | 'response_url' | 'command';
  postedAt: number;
}

export interface SandboxView {
  id: string;
  user: string;
  type: 'modal' | 'home';
  /** The view as the app sent it (blocks carry generated block_id/action_id where the app left them out). */
  view: Json;
  hash: string;
  externalId: string | undefined;
  rootViewId: string | undefined;
  previousViewId: string | undefined;
  /** Values a person has entered so far, `{ [block_id]: { [action_id]: state } }`. */
  state: Record<string, Record<string, Json>>;
  /** Field errors the app returned with `response_action: errors`, shown under the inputs. */
  errors: Record<string, string>;
  open: boolean;
  history: Json[];
}

export interface SandboxFile {
  id: string;
  name: string;
  title: string;
  filetype: string;
  mimetype: string;
  /** Declared size until the bytes arrive, then the real one. */
  size: number;
  bytes: Buffer | undefined;
  user: string;
  created: number;
  altText: string | undefined;
  /** Where the file has been shared: channel → message ts (with the thread it went into). */
  shares: { channel: string; ts: string; threadTs: string | undefined }[];
  uploadSecret: string;
  completed: boolean;
  /**
   * Uploaded in a modal's file_input: the person's file, shared nowhere, which the app may read all the same
   * (https://docs.slack.dev/reference/block-kit/block-elements/file-input-element).
   */
  viaForm: boolean;
}

/**
 * One Web API call, listed from its arrival, so a call that hangs is seen while it waits; its outcome is filled in
 * when it is answered.
 */
export interface SandboxCall {
  /** ISO time the call arrived. */
  at: string;
  atMs: number;
  method: string;
  /** Arguments as decoded (JSON fields parsed), token removed. */
  args: Json;
  /** Whether the answer was `ok: true` (false while the call still waits for its answer). */
  ok: boolean;
  error?: string;
  /** HTTP status answered (200, or 429/5xx for injected faults); 0 until answered, and for a dropped connection. */
  status: number;
  fault?: string;
  /** When the call was over (epoch ms): answered, or its connection dropped. Unset while it hangs. */
  doneAtMs?: number;
}

/** Where an answer to an interaction's response_url goes. */
export interface ResponseTarget {
  user: string;
  channel: string;
  /** The message the interaction came from (replace_original / delete_original act on it). */
  messageTs: string | undefined;
  threadTs: string | undefined;
  /** Set when that message was an ephemeral one, which only the user sees. */
  ephemeral: boolean;
}

export interface Trigger {
  user: string;
  issuedAt: number;
  used: boolean;
}

/** A message with every optional field at its default; `fields` names what differs. */
export function createMessage(
  fields: Pick<SandboxMessage, 'channel' | 'ts' | 'user' | 'text' | 'postedAt'> & Partial<SandboxMessage>,
): SandboxMessage {
  return {
    threadTs: undefined,
    botId: undefined,
    subtype: undefined,
    username: undefined,
    iconEmoji: undefined,
    iconUrl: undefined,
    blocks: undefined,
    metadata: undefined,
    fileIds: [],
    reactions: [],
    history: [],
    editedAt: undefined,
    replyBroadcast: false,
    unfurlLinks: undefined,
    unfurlMedia: undefined,
    deleted: false,
    ...fields,
  };
}

export interface NewChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  /** Everyone in the channel, the bot included when it is a member. */
  members: string[];
  /** A Slack Connect channel: the external org, and whether that org (rather than the sandbox team) hosts it. */
  sharedWith?: { teamId: string; hostedByExternal?: boolean };
}

export interface ModelOptions {
  teamId: string;
  teamName: string;
  teamDomain: string;
  botUserId: string;
  botId: string;
  botName: string;
  appId: string;
  users: (Omit<SandboxUser, 'teamId'> & { teamId?: string })[];
  channels: NewChannel[];
  clock: () => number;
  /**
   * Added to the id counter: each workspace of one sandbox gets its own range, so ids the stand-in looks up across
   * workspaces (response_url paths, upload URLs) never collide.
   */
  idOffset?: number;
}

/** Orders Slack timestamps numerically ("10.5" after "9.9"), which string comparison gets wrong. */
export function compareTs(a: string, b: string): number {
  const [as = '0', af = '0'] = a.split('.');
  const [bs = '0', bf = '0'] = b.split('.');
  return Number(as) - Number(bs) || Number(af) - Number(bf);
}

export class SlackModel {
  readonly teamId: string;
  readonly teamName: string;
  readonly teamDomain: string;
  readonly botUserId: string;
  readonly botId: string;
  readonly botName: string;
  readonly appId: string;
  readonly clock: () => number;

  readonly users = new Map<string, SandboxUser>();
  readonly channels = new Map<string, SandboxChannel>();
  /** channel id → messages in ts order. */
  private readonly byChannel = new Map<string, SandboxMessage[]>();
  private readonly ephemeralsByUser = new Map<string, SandboxEphemeral[]>();
  readonly views = new Map<string, SandboxView>();
  /** user → ids of the open modal stack, root first. */
  private readonly modalStacks = new Map<string, string[]>();
  private readonly homes = new Map<string, string>();
  readonly files = new Map<string, SandboxFile>();
  readonly calls: SandboxCall[] = [];
  readonly triggers = new Map<string, Trigger>();
  readonly responseUrls = new Map<string, ResponseTarget>();
  /**
   * assistant.threads.setStatus: the status shown under each thread (`channel:thread_ts`) now, and every change in
   * order, so a test can see a status that was set and cleared between two looks.
   */
  readonly threadStatus = new Map<string, string>();
  readonly threadStatusLog: { channel: string; threadTs: string; status: string }[] = [];

  private lastTsMicros = 0;
  /**
   * Ids count up from the start time (in tenths of a second), so two sandbox runs against one persistent database (the
   * demo's) never hand out the same file or view id.
   */
  private counter = 0;
  private readonly listeners = new Set<() => void>();

  constructor(options: ModelOptions) {
    this.teamId = options.teamId;
    this.teamName = options.teamName;
    this.teamDomain = options.teamDomain;
    this.botUserId = options.botUserId;
    this.botId = options.botId;
    this.botName = options.botName;
    this.appId = options.appId;
    this.clock = options.clock;
    this.counter = (Math.floor(options.clock() / 100) % 1e9) + (options.idOffset ?? 0);
    this.users.set(options.botUserId, {
      id: options.botUserId,
      name: options.botName,
      realName: options.botName,
      isBot: true,
      teamId: options.teamId,
    });
    for (const user of options.users) this.addUser(user);
    for (const c of options.channels) this.addChannel(c);
  }

  // ---- workspace set-up (options, or a test that changes the workspace as it runs) ---------------------------------

  addUser(user: Omit<SandboxUser, 'teamId'> & { teamId?: string }): SandboxUser {
    const added: SandboxUser = { ...user, teamId: user.teamId ?? this.teamId };
    this.users.set(added.id, added);
    this.changed();
    return added;
  }

  addChannel(c: NewChannel): SandboxChannel {
    const channel: SandboxChannel = {
      id: c.id,
      name: c.name,
      isPrivate: c.isPrivate,
      isIm: false,
      members: new Set(c.members),
      sharedWith:
        c.sharedWith === undefined
          ? undefined
          : {
              teamId: c.sharedWith.teamId,
              hostTeamId: c.sharedWith.hostedByExternal ? c.sharedWith.teamId : this.teamId,
            },
      alsoSharedWith: [],
    };
    this.channels.set(channel.id, channel);
    this.changed();
    return channel;
  }

  /**
   * Another organisation joins the channel (it accepted a Slack Connect invitation): the first makes it a shared
   * channel hosted by this team; later ones are added beside it.
   */
  shareChannel(channelId: string, teamId: string): void {
    const channel = this.channels.get(channelId);
    if (!channel) throw new Error(`unknown sandbox channel ${channelId}`);
    if (channel.sharedWith === undefined) channel.sharedWith = { teamId, hostTeamId: this.teamId };
    else if (channel.sharedWith.teamId !== teamId && !channel.alsoSharedWith.includes(teamId)) {
      channel.alsoSharedWith.push(teamId);
    }
    this.changed();
  }

  /** An organisation leaves the channel (or is removed from it); true while another one is still in it. */
  unshareChannel(channelId: string, teamId: string): boolean {
    const channel = this.channels.get(channelId);
    if (!channel) throw new Error(`unknown sandbox channel ${channelId}`);
    channel.alsoSharedWith = channel.alsoSharedWith.filter((id) => id !== teamId);
    if (channel.sharedWith?.teamId === teamId) {
      const [next, ...rest] = channel.alsoSharedWith;
      channel.sharedWith = next === undefined ? undefined : { teamId: next, hostTeamId: this.teamId };
      channel.alsoSharedWith = rest;
    }
    this.changed();
    return channel.sharedWith !== undefined;
  }

  /** `/invite @Parley` (true) or removing the app from the channel (false). */
  setBotMember(channelId: string, member: boolean): void {
    const channel = this.channels.get(channelId);
    if (!channel) throw new Error(`unknown sandbox channel ${channelId}`);
    if (member) channel.members.add(this.botUserId);
    else channel.members.delete(this.botUserId);
    this.changed();
  }

  /** Whether the bot can see a file: it uploaded it, or it is a member of a channel the file is shared in. */
  botCanSeeFile(file: SandboxFile): boolean {
    if (file.user === this.botUserId || file.viaForm) return true;
    return file.shares.some((share) => this.channels.get(share.channel)?.members.has(this.botUserId) ?? false);
  }

  /** A user's home team (the sandbox's own for the bot and unknown ids). */
  teamOf(userId: string): string {
    return this.users.get(userId)?.teamId ?? this.teamId;
  }

  // ---- identifiers -------------------------------------------------------------------------------------------------

  /** A message ts: the clock in microseconds, bumped so every ts is strictly greater than the one before. */
  nextTs(): string {
    const micros = Math.max(Math.floor(this.clock() * 1000), this.lastTsMicros + 1);
    this.lastTsMicros = micros;
    const seconds = Math.floor(micros / 1_000_000);
    return `${seconds}.${String(micros % 1_000_000).padStart(6, '0')}`;
  }

  /** Slack-looking ids (`F0000000007`), unique within the sandbox. */
  nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}${String(this.counter).padStart(10, '0')}`;
  }

  /** A fresh trigger_id for something the user just did (valid for one views.open/push, for a few seconds). */
  issueTrigger(user: string): string {
    const id = `${Math.floor(this.clock() / 1000)}.${this.nextId('').replace(/^0+/, '')}.sandbox${this.teamId.toLowerCase()}`;
    this.triggers.set(id, { user, issuedAt: this.clock(), used: false });
    return id;
  }

  // ---- change notification (tests wait on it) -----------------------------------------------------------------------

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  // ---- writers -----------------------------------------------------------------------------------------------------

  /** The DM channel between the bot and a user, created on first use (Slack opens it the same way). */
  imChannel(userId: string): SandboxChannel {
    const id = `D${userId.replace(/^[UW]/, '')}`;
    let channel = this.channels.get(id);
    if (!channel) {
      channel = {
        id,
        name: userId,
        isPrivate: true,
        isIm: true,
        members: new Set([userId, this.botUserId]),
        sharedWith: undefined,
        alsoSharedWith: [],
      };
      this.channels.set(id, channel);
    }
    return channel;
  }

  addMessage(message: SandboxMessage): SandboxMessage {
    const list = this.byChannel.get(message.channel) ?? [];
    const last = list.at(-1);
    list.push(message);
    // Every ts comes from nextTs(), so appending keeps the order; sort only if a caller brought its own ts.
    if (last !== undefined && compareTs(last.ts, message.ts) > 0) list.sort((a, b) => compareTs(a.ts, b.ts));
    this.byChannel.set(message.channel, list);
    if (message.threadTs !== undefined && message.threadTs !== message.ts) {
      // A reply marks its parent as a thread parent, unless the "parent" is itself a reply (an app that passed a
      // reply's ts as thread_ts): that one stays in its own thread.
      const parent = this.message(message.channel, message.threadTs);
      if (parent && parent.threadTs === undefined) parent.threadTs = parent.ts;
    }
    // The app's reply in a thread ends the status it set there, as in Slack ("removed … if no message has been sent"
    // implies a sent message removes it; docs.slack.dev/reference/methods/assistant.threads.setStatus).
    if (message.user === this.botUserId && message.threadTs !== undefined) {
      this.threadStatus.delete(`${message.channel}:${message.threadTs}`);
    }
    this.changed();
    return message;
  }

  addEphemeral(ephemeral: SandboxEphemeral): void {
    const list = this.ephemeralsByUser.get(ephemeral.user) ?? [];
    list.push(ephemeral);
    this.ephemeralsByUser.set(ephemeral.user, list);
    this.changed();
  }

  /** Lists a call as it arrives; the server calls `changed()` again when it fills in the outcome. */
  addCall(call: SandboxCall): void {
    this.calls.push(call);
    this.changed();
  }

  modalStack(user: string): string[] {
    return this.modalStacks.get(user) ?? [];
  }

  setModalStack(user: string, ids: string[]): void {
    const previous = this.modalStack(user);
    for (const id of previous) {
      if (!ids.includes(id)) {
        const view = this.views.get(id);
        if (view) view.open = false;
      }
    }
    this.modalStacks.set(user, ids);
    this.changed();
  }

  setHome(user: string, viewId: string): void {
    this.homes.set(user, viewId);
    this.changed();
  }

  homeViewId(user: string): string | undefined {
    return this.homes.get(user);
  }

  // ---- read helpers for tests ----------------------------------------------------------------------------------------

  /** Every message in a channel (thread replies included), oldest first; deleted ones left out. */
  messages(channel: string): SandboxMessage[] {
    return (this.byChannel.get(channel) ?? []).filter((m) => !m.deleted);
  }

  /** Messages shown in the channel itself: thread parents, unthreaded messages and broadcast replies. */
  topLevel(channel: string): SandboxMessage[] {
    return this.messages(channel).filter((m) => m.threadTs === undefined || m.threadTs === m.ts || m.replyBroadcast);
  }

  message(channel: string, ts: string): SandboxMessage | undefined {
    return (this.byChannel.get(channel) ?? []).find((m) => m.ts === ts && !m.deleted);
  }

  /** A thread: its parent then the replies, oldest first (just the message when it has none). */
  thread(channel: string, threadTs: string): SandboxMessage[] {
    return this.messages(channel).filter((m) => m.ts === threadTs || m.threadTs === threadTs);
  }

  ephemerals(user: string): SandboxEphemeral[] {
    return this.ephemeralsByUser.get(user) ?? [];
  }

  view(viewId: string): SandboxView | undefined {
    return this.views.get(viewId);
  }

  /** The user's open modal stack, root first. */
  openViews(user: string): SandboxView[] {
    return this.modalStack(user).flatMap((id) => this.views.get(id) ?? []);
  }

  home(user: string): SandboxView | undefined {
    const id = this.homes.get(user);
    return id === undefined ? undefined : this.views.get(id);
  }

  reactions(channel: string, ts: string): { name: string; users: string[] }[] {
    return this.message(channel, ts)?.reactions ?? [];
  }

  file(fileId: string): SandboxFile | undefined {
    return this.files.get(fileId);
  }

  /** Calls received, optionally only one method (and one channel, for per-channel pacing checks). */
  callsTo(method: string, filter: { channel?: string } = {}): SandboxCall[] {
    return this.calls.filter(
      (c) =>
        c.method === method &&
        (filter.channel === undefined || c.args.channel === filter.channel || c.args.channel_id === filter.channel),
    );
  }

  userName(userId: string): string {
    const user = this.users.get(userId);
    return user ? user.realName || user.name : userId;
  }
}
