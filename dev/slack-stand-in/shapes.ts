// Model objects as Slack puts them on the wire: in Web API answers, event payloads and interaction payloads. One place,
// so a message looks the same whether the app reads it back with conversations.replies or receives it in a click.
import type {
  Json,
  SandboxChannel,
  SandboxFile,
  SandboxMessage,
  SandboxUser,
  SandboxView,
  SlackModel,
} from './model.js';

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const INTERACTIVE = new Set([
  'button',
  'static_select',
  'multi_static_select',
  'external_select',
  'multi_external_select',
  'users_select',
  'multi_users_select',
  'conversations_select',
  'multi_conversations_select',
  'channels_select',
  'multi_channels_select',
  'overflow',
  'datepicker',
  'timepicker',
  'datetimepicker',
  'checkboxes',
  'radio_buttons',
  'plain_text_input',
  'email_text_input',
  'url_text_input',
  'number_input',
  'rich_text_input',
  'file_input',
]);

/**
 * A copy of the blocks with a block_id on every block and an action_id on every interactive element, generated where
 * the app left them out — Slack does the same, and interaction payloads always carry both.
 */
export function withGeneratedIds(blocks: Json[], nextId: () => string): Json[] {
  const element = (e: unknown): unknown => {
    if (!isRecord(e) || typeof e.type !== 'string' || !INTERACTIVE.has(e.type)) return e;
    return e.action_id === undefined ? { ...e, action_id: nextId() } : e;
  };
  return blocks.map((block) => {
    const copy: Json = { ...block };
    if (copy.block_id === undefined) copy.block_id = nextId();
    if (Array.isArray(copy.elements) && copy.type === 'actions') copy.elements = copy.elements.map(element);
    if (copy.accessory !== undefined) copy.accessory = element(copy.accessory);
    if (copy.element !== undefined) copy.element = element(copy.element);
    return copy;
  });
}

export function permalink(model: SlackModel, channel: string, ts: string, threadTs?: string): string {
  const base = `https://${model.teamDomain}.slack.com/archives/${channel}/p${ts.replace('.', '')}`;
  return threadTs !== undefined && threadTs !== ts ? `${base}?thread_ts=${threadTs}&cid=${channel}` : base;
}

export function fileUrl(baseUrl: string, file: SandboxFile): string {
  return `${baseUrl}/files/${file.id}/${encodeURIComponent(file.name)}`;
}

export function fileJson(model: SlackModel, baseUrl: string, file: SandboxFile): Json {
  const shares: Record<'public' | 'private', Record<string, Json[]>> = { public: {}, private: {} };
  for (const share of file.shares) {
    const channel = model.channels.get(share.channel);
    const bucket = channel?.isPrivate ? shares.private : shares.public;
    const replies = share.threadTs === undefined ? [] : model.thread(share.channel, share.threadTs).slice(1);
    const entry: Json = {
      reply_users: [...new Set(replies.map((m) => m.user))],
      reply_users_count: new Set(replies.map((m) => m.user)).size,
      reply_count: replies.length,
      ts: share.ts,
      channel_name: channel?.name ?? share.channel,
      team_id: model.teamId,
      share_user_id: file.user,
    };
    if (share.threadTs !== undefined && share.threadTs !== share.ts) entry.thread_ts = share.threadTs;
    (bucket[share.channel] ??= []).push(entry);
  }
  const sharedIn = (priv: boolean) =>
    [...new Set(file.shares.map((s) => s.channel))].filter((c) => (model.channels.get(c)?.isPrivate ?? false) === priv);
  const url = fileUrl(baseUrl, file);
  const json: Json = {
    id: file.id,
    created: file.created,
    timestamp: file.created,
    name: file.name,
    title: file.title,
    mimetype: file.mimetype,
    filetype: file.filetype,
    pretty_type: file.filetype.toUpperCase(),
    user: file.user,
    user_team: model.teamOf(file.user),
    editable: false,
    size: file.size,
    mode: 'hosted',
    is_external: false,
    external_type: '',
    is_public: sharedIn(false).length > 0,
    public_url_shared: false,
    display_as_bot: false,
    username: '',
    url_private: url,
    url_private_download: url,
    permalink: `https://${model.teamDomain}.slack.com/files/${file.user}/${file.id}/${encodeURIComponent(file.name)}`,
    channels: sharedIn(false),
    groups: sharedIn(true),
    ims: [],
    comments_count: 0,
    has_rich_preview: false,
  };
  if (Object.keys(shares.public).length > 0 || Object.keys(shares.private).length > 0) {
    const present: Json = {};
    if (Object.keys(shares.public).length > 0) present.public = shares.public;
    if (Object.keys(shares.private).length > 0) present.private = shares.private;
    json.shares = present;
  }
  if (file.altText !== undefined) json.alt_txt = file.altText;
  return json;
}

export interface MessageJsonOptions {
  includeMetadata?: boolean;
}

export function messageJson(
  model: SlackModel,
  baseUrl: string,
  message: SandboxMessage,
  options: MessageJsonOptions = {},
): Json {
  const json: Json = {
    type: 'message',
    ts: message.ts,
    user: message.user,
    text: message.text,
    team: model.teamOf(message.user),
  };
  if (message.subtype !== undefined) json.subtype = message.subtype;
  if (message.blocks !== undefined) json.blocks = message.blocks;
  if (message.botId !== undefined) {
    json.bot_id = message.botId;
    json.app_id = model.appId;
    json.bot_profile = {
      id: message.botId,
      app_id: model.appId,
      name: model.botName,
      deleted: false,
      team_id: model.teamId,
    };
  }
  if (message.username !== undefined) json.username = message.username;
  if (message.iconEmoji !== undefined || message.iconUrl !== undefined) {
    json.icons = message.iconEmoji !== undefined ? { emoji: message.iconEmoji } : { image_48: message.iconUrl };
  }
  if (message.threadTs !== undefined) {
    json.thread_ts = message.threadTs;
    if (message.threadTs === message.ts) {
      const replies = model.thread(message.channel, message.ts).slice(1);
      json.reply_count = replies.length;
      json.reply_users_count = new Set(replies.map((m) => m.user)).size;
      json.reply_users = [...new Set(replies.map((m) => m.user))];
      const latest = replies.at(-1);
      if (latest) json.latest_reply = latest.ts;
    } else {
      const parent = model.message(message.channel, message.threadTs);
      if (parent) json.parent_user_id = parent.user;
    }
  }
  if (message.fileIds.length > 0) {
    json.files = message.fileIds.flatMap((id) => {
      const file = model.file(id);
      return file ? [fileJson(model, baseUrl, file)] : [];
    });
    json.upload = message.botId === undefined;
    json.display_as_bot = false;
  }
  if (message.reactions.length > 0) {
    json.reactions = message.reactions.map((r) => ({ name: r.name, users: r.users, count: r.users.length }));
  }
  if (message.editedAt !== undefined) json.edited = { user: message.user, ts: message.editedAt };
  if (options.includeMetadata && message.metadata !== undefined) json.metadata = message.metadata;
  return json;
}

export function viewJson(model: SlackModel, view: SandboxView): Json {
  return {
    ...view.view,
    id: view.id,
    team_id: model.teamId,
    type: view.type,
    private_metadata: typeof view.view.private_metadata === 'string' ? view.view.private_metadata : '',
    callback_id: typeof view.view.callback_id === 'string' ? view.view.callback_id : '',
    external_id: view.externalId ?? '',
    state: { values: view.state },
    hash: view.hash,
    clear_on_close: view.view.clear_on_close === true,
    notify_on_close: view.view.notify_on_close === true,
    close: view.view.close ?? null,
    submit: view.view.submit ?? null,
    root_view_id: view.rootViewId ?? view.id,
    previous_view_id: view.previousViewId ?? null,
    app_id: model.appId,
    app_installed_team_id: model.teamId,
    bot_id: model.botId,
  };
}

export function userJson(model: SlackModel, user: SandboxUser): Json {
  return {
    id: user.id,
    team_id: user.teamId,
    name: user.name,
    deleted: false,
    real_name: user.realName,
    tz: 'Europe/London',
    tz_label: 'Greenwich Mean Time',
    tz_offset: 0,
    is_admin: user.isAdmin === true,
    is_owner: false,
    is_bot: user.isBot,
    is_app_user: false,
    profile: {
      real_name: user.realName,
      real_name_normalized: user.realName,
      display_name: user.name,
      display_name_normalized: user.name,
      team: user.teamId,
    },
  };
}

export function channelJson(model: SlackModel, channel: SandboxChannel): Json {
  return {
    id: channel.id,
    name: channel.name,
    name_normalized: channel.name,
    is_channel: !channel.isIm && !channel.isPrivate,
    is_group: !channel.isIm && channel.isPrivate,
    is_im: channel.isIm,
    is_mpim: false,
    is_private: channel.isPrivate,
    is_archived: false,
    is_general: false,
    is_shared: channel.sharedWith !== undefined,
    is_org_shared: false,
    is_ext_shared: channel.sharedWith !== undefined,
    is_member: channel.members.has(model.botUserId),
    context_team_id: model.teamId,
    ...(channel.sharedWith === undefined
      ? {}
      : {
          conversation_host_id: channel.sharedWith.hostTeamId,
          shared_team_ids: [model.teamId, channel.sharedWith.teamId, ...channel.alsoSharedWith],
          // Every organisation in the channel, the installation's own included, as in the reference's example of a
          // shared channel (https://docs.slack.dev/reference/methods/conversations.info).
          connected_team_ids: [channel.sharedWith.teamId, ...channel.alsoSharedWith, model.teamId],
          pending_connected_team_ids: [],
        }),
    num_members: channel.members.size,
    created: 1_600_000_000,
    creator: '',
    topic: { value: '', creator: '', last_set: 0 },
    purpose: { value: '', creator: '', last_set: 0 },
  };
}

/** Slack's `channel_type` in message events. */
export function channelType(channel: SandboxChannel | undefined): 'channel' | 'group' | 'im' {
  if (!channel) return 'channel';
  if (channel.isIm) return 'im';
  return channel.isPrivate ? 'group' : 'channel';
}
