// A thread as a person reads it in Slack: who said what (the persona name when the app posted as one), the text the
// blocks show, buttons and menus as bracketed labels, files as attachments, only the latest version of edited messages.
// The demo prints it; e2e tests assert on it.
import { compareTs, type Json, type SandboxMessage, type SlackModel } from './model.js';
import { isRecord } from './shapes.js';

const DIVIDER = '────────';

function textOf(value: unknown): string {
  return isRecord(value) && typeof value.text === 'string' ? value.text : '';
}

/** Slack's mrkdwn escapes and mentions as they appear on screen. */
export function readableText(model: SlackModel, text: string): string {
  return text
    .replace(/<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g, (_, id: string) => `@${model.userName(id)}`)
    .replace(/<#([CGD][A-Z0-9]+)(?:\|([^>]*))?>/g, (_, id: string, name?: string) => {
      return `#${name || model.channels.get(id)?.name || id}`;
    })
    .replace(/<!(channel|here|everyone)(?:\|[^>]*)?>/g, '@$1')
    .replace(/<!subteam\^[A-Z0-9]+(?:\|([^>]*))?>/g, (_, name?: string) => name ?? '@group')
    .replace(/<([^|>]+)\|([^>]+)>/g, '$2')
    .replace(/<([^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function elementLabel(model: SlackModel, element: unknown): string {
  if (!isRecord(element)) return '';
  switch (element.type) {
    case 'button':
      return `[${textOf(element.text)}]`;
    case 'static_select':
    case 'multi_static_select':
    case 'external_select':
    case 'users_select':
    case 'conversations_select':
    case 'channels_select': {
      const chosen = isRecord(element.initial_option) ? textOf(element.initial_option.text) : '';
      return `[${chosen || textOf(element.placeholder) || 'Choose…'}▾]`;
    }
    case 'overflow':
      return '[⋯]';
    case 'datepicker':
      return `[📅 ${typeof element.initial_date === 'string' ? element.initial_date : 'Pick a date'}]`;
    case 'image':
      return `[image: ${typeof element.alt_text === 'string' ? element.alt_text : ''}]`;
    case 'plain_text':
    case 'mrkdwn':
      return readableText(model, textOf(element));
    default:
      return `[${String(element.type)}]`;
  }
}

function richTextInline(model: SlackModel, elements: unknown): string {
  if (!Array.isArray(elements)) return '';
  return elements
    .map((e) => {
      if (!isRecord(e)) return '';
      switch (e.type) {
        case 'text':
          return typeof e.text === 'string' ? e.text : '';
        case 'link':
          return typeof e.text === 'string' && e.text !== '' ? e.text : String(e.url ?? '');
        case 'user':
          return `@${model.userName(String(e.user_id))}`;
        case 'channel':
          return `#${model.channels.get(String(e.channel_id))?.name ?? String(e.channel_id)}`;
        case 'emoji':
          return `:${String(e.name)}:`;
        case 'broadcast':
          return `@${String(e.range)}`;
        default:
          return '';
      }
    })
    .join('');
}

function richTextLines(model: SlackModel, block: Json): string[] {
  const lines: string[] = [];
  const elements = Array.isArray(block.elements) ? block.elements : [];
  for (const part of elements) {
    if (!isRecord(part)) continue;
    if (part.type === 'rich_text_list' && Array.isArray(part.elements)) {
      part.elements.forEach((item, i) => {
        const bullet = part.style === 'ordered' ? `${i + 1}.` : '•';
        lines.push(`${bullet} ${richTextInline(model, isRecord(item) ? item.elements : [])}`);
      });
    } else if (part.type === 'rich_text_quote') {
      lines.push(
        ...richTextInline(model, part.elements)
          .split('\n')
          .map((l) => `> ${l}`),
      );
    } else {
      lines.push(...richTextInline(model, part.elements).split('\n'));
    }
  }
  return lines;
}

/** The lines a block shows, in reading order. */
export function blockLines(model: SlackModel, block: unknown): string[] {
  if (!isRecord(block)) return [];
  switch (block.type) {
    case 'header':
      return [`# ${textOf(block.text)}`];
    case 'section': {
      const lines = block.text !== undefined ? readableText(model, textOf(block.text)).split('\n') : [];
      if (Array.isArray(block.fields))
        lines.push(block.fields.map((f) => readableText(model, textOf(f))).join('  |  '));
      if (block.accessory !== undefined) {
        const label = elementLabel(model, block.accessory);
        if (lines.length === 0) lines.push(label);
        else lines[lines.length - 1] = `${lines[lines.length - 1]}  ${label}`;
      }
      return lines;
    }
    case 'context':
      return [Array.isArray(block.elements) ? block.elements.map((e) => elementLabel(model, e)).join('  ') : ''];
    case 'actions':
      return [Array.isArray(block.elements) ? block.elements.map((e) => elementLabel(model, e)).join(' ') : ''];
    case 'divider':
      return [DIVIDER];
    case 'image': {
      const title = textOf(block.title);
      return [`[image: ${typeof block.alt_text === 'string' ? block.alt_text : ''}]${title ? ` ${title}` : ''}`];
    }
    case 'rich_text':
      return richTextLines(model, block);
    case 'markdown':
      return (typeof block.text === 'string' ? block.text : '').split('\n');
    case 'input':
      return [`${textOf(block.label)}: ${elementLabel(model, block.element)}`];
    case 'table':
      return Array.isArray(block.rows)
        ? block.rows.map((row) =>
            Array.isArray(row)
              ? row
                  .map((cell) => (isRecord(cell) ? textOf(cell) || richTextLines(model, cell).join(' ') : ''))
                  .join(' | ')
              : '',
          )
        : [];
    default:
      return [`[${String(block.type)}]`];
  }
}

export function authorOf(model: SlackModel, message: SandboxMessage): string {
  if (message.username !== undefined && message.username !== '') return message.username;
  if (message.botId !== undefined) return model.botName;
  return model.userName(message.user);
}

/** What a message shows: its blocks when it has any (Slack then hides `text`), else its text; then its files. */
export function messageLines(model: SlackModel, message: SandboxMessage): string[] {
  const blocks = message.blocks ?? [];
  if (message.stream) return [...streamLines(model, message), ...blocks.flatMap((b) => blockLines(model, b))];
  // A person's own message carries rich_text blocks that repeat its text; either reads the same.
  const lines =
    blocks.length > 0
      ? blocks.flatMap((b) => blockLines(model, b))
      : message.text === ''
        ? []
        : readableText(model, message.text).split('\n');
  for (const id of message.fileIds) lines.push(`📎 ${model.file(id)?.name ?? id}`);
  return lines;
}

const TASK_MARK = { pending: '○', in_progress: '◐', complete: '✓', error: '✗' } as const;

/** A streamed message as Slack draws its plan: the title, then each task with its mark and details; then its text. */
function streamLines(model: SlackModel, message: SandboxMessage): string[] {
  const stream = message.stream;
  if (!stream) return [];
  const lines = stream.planTitle === undefined ? [] : [readableText(model, stream.planTitle)];
  for (const task of stream.tasks) {
    const details = task.details === undefined ? '' : ` — ${readableText(model, task.details)}`;
    lines.push(`${TASK_MARK[task.status]} ${readableText(model, task.title)}${details}`);
  }
  if (message.text !== '') lines.push(...readableText(model, message.text).split('\n'));
  return lines;
}

export interface TranscriptMessage {
  ts: string;
  author: string;
  isBot: boolean;
  text: string;
  edited: boolean;
  files: string[];
  reactions: { name: string; count: number }[];
  /** Set on an ephemeral message: only this person sees it. */
  onlyVisibleTo?: string;
}

export interface TranscriptOptions {
  /** Also show this person's ephemeral messages in the thread, as their own Slack client does. */
  viewer?: string;
}

export function threadJson(
  model: SlackModel,
  channel: string,
  threadTs: string,
  options: TranscriptOptions = {},
): TranscriptMessage[] {
  const shared: TranscriptMessage[] = model.thread(channel, threadTs).map((message) => ({
    ts: message.ts,
    author: authorOf(model, message),
    isBot: message.botId !== undefined,
    text: messageLines(model, message).join('\n'),
    edited: message.editedAt !== undefined,
    files: message.fileIds.map((id) => model.file(id)?.name ?? id),
    reactions: message.reactions.map((r) => ({ name: r.name, count: r.users.length })),
  }));
  if (options.viewer === undefined) return shared;
  const viewer = options.viewer;
  const ephemerals: TranscriptMessage[] = model
    .ephemerals(viewer)
    .filter((e) => e.channel === channel && e.threadTs === threadTs)
    .map((e) => ({
      ts: e.ts,
      author: model.botName,
      isBot: true,
      text: (e.blocks && e.blocks.length > 0
        ? e.blocks.flatMap((b) => blockLines(model, b))
        : readableText(model, e.text).split('\n')
      ).join('\n'),
      edited: false,
      files: [],
      reactions: [],
      onlyVisibleTo: viewer,
    }));
  return [...shared, ...ephemerals].sort((a, b) => compareTs(a.ts, b.ts));
}

export function renderThread(
  model: SlackModel,
  channel: string,
  threadTs: string,
  options: TranscriptOptions = {},
): string {
  const name = model.channels.get(channel)?.name ?? channel;
  const out: string[] = [`── #${name} · thread ${threadTs} ──`];
  for (const m of threadJson(model, channel, threadTs, options)) {
    const notes = [m.edited ? ' (edited)' : '', m.onlyVisibleTo !== undefined ? ' (only visible to you)' : ''].join('');
    out.push(`${m.author}${notes}`);
    for (const line of m.text.split('\n')) out.push(line === '' ? '' : `  ${line}`);
    if (m.reactions.length > 0) out.push(`  ${m.reactions.map((r) => `:${r.name}: ${r.count}`).join('  ')}`);
    out.push('');
  }
  return out.join('\n').trimEnd() + '\n';
}

/** A channel as its members read it, threads included, oldest first: `from` is who posted, `text` all a person sees. */
export interface ChannelTranscript {
  id: string;
  name: string;
  /** A Slack Connect channel, shared with another organisation. */
  shared: boolean;
  messages: { from: string; text: string }[];
}

export function channelJson(model: SlackModel, channel: string): ChannelTranscript {
  const found = model.channels.get(channel);
  return {
    id: channel,
    name: found?.name ?? channel,
    shared: found?.sharedWith !== undefined,
    messages: model.messages(channel).map((message) => ({
      from: authorOf(model, message),
      text: messageLines(model, message).join('\n'),
    })),
  };
}
