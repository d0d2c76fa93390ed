// The one place untrusted text (spreadsheet cells, supplier names, LLM output, what people type) becomes Slack text.
// Slack treats `&`, `<` and `>` as control characters in every text object: `<!channel>` pings a channel, `<@U123>`
// pings a person, `<https://x|y>` hides a link behind harmless words. Escaping those three (and only those, per
// https://api.slack.com/reference/surfaces/formatting#escaping) makes such text print as typed. Mentions Parley means
// to make go through `mention()`, which only accepts a real user id.
import type { MrkdwnElement, PlainTextElement } from '@slack/types';

export const ELLIPSIS = '…';

const SLACK_USER_ID = /^[UW][A-Z0-9]{1,31}$/;

// Control characters (a sheet can hold them) and bidi overrides (they can make a name read as something else).
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u202A-\u202E\u2066-\u2069]/g;

/** `&`, `<`, `>` as entities (so nothing becomes a mention or link), without control characters. */
export function escapeText(s: string): string {
  return s.replace(INVISIBLE, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Whitespace runs (newlines, tabs) as one space: for names and cells shown on one line. */
export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * `s` cut to at most `max` UTF-16 units (how Slack counts), ending in `…` when cut; never splits a surrogate pair.
 * For raw text; `escapeTruncate` is the one to use when the result goes to Slack.
 */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 0) return '';
  if (max === 1) return ELLIPSIS;
  let out = '';
  for (const ch of s) {
    if (out.length + ch.length > max - 1) break;
    out += ch;
  }
  return out.trimEnd() + ELLIPSIS;
}

/** Enough of a long string to fill `max` after whitespace collapses, without ending in half a surrogate pair. */
function head(s: string, max: number): string {
  const limit = max * 4 + 16;
  if (s.length <= limit) return s;
  const cut = s.slice(0, limit);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) + ' …' : cut + ' …';
}

/** Raw text on one line, cut to `max` (for preformatted tables, which escape as a whole). */
export function clip(s: string, max: number): string {
  return truncate(oneLine(head(s, max)), max);
}

/** Untrusted text on one line, escaped and cut to `max`: names, cells, reasons inside Parley's sentences. */
export function inline(s: string, max: number): string {
  return escapeTruncate(oneLine(head(s, max)), max);
}

/** Escaped text of at most `max` chars *after* escaping, never cutting an entity (`&amp;`) in half. */
export function escapeTruncate(s: string, max: number): string {
  const escaped = escapeText(s);
  if (escaped.length <= max) return escaped;
  if (max <= 0) return '';
  let out = '';
  for (const ch of s) {
    const piece = escapeText(ch);
    if (out.length + piece.length > max - 1) break;
    out += piece;
  }
  return out.trimEnd() + ELLIPSIS;
}

/**
 * Cuts text that is already safe mrkdwn (escaped parts plus Parley's own markup) to `max`, without leaving half an
 * entity or half a `<…>` token (a mention or link Parley wrote), and closes a code block it cut open.
 */
export function fitMrkdwn(safe: string, max: number): string {
  if (safe.length <= max) return safe;
  // Room for the ellipsis and a closing fence.
  let cut = Math.max(0, max - 1 - 4);
  let head = safe.slice(0, cut);
  const lastLt = head.lastIndexOf('<');
  if (lastLt > head.lastIndexOf('>')) cut = lastLt;
  head = safe.slice(0, cut);
  const amp = /&[a-z#0-9]*$/i.exec(head);
  if (amp) cut = amp.index;
  // A surrogate pair is two units: do not keep the first alone.
  const code = safe.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  head = safe.slice(0, cut);
  const fences = head.split('```').length - 1;
  return fences % 2 === 1 ? `${head}${ELLIPSIS}\n\`\`\`` : `${head.trimEnd()}${ELLIPSIS}`;
}

/**
 * A plain_text object from untrusted text (button labels, headers, option texts). Never empty: Slack rejects an
 * empty text object, so empty input shows `fallback`.
 */
export function plain(s: string, max = 3000, fallback = '—'): PlainTextElement {
  const text = inline(s, max);
  return { type: 'plain_text', text: text === '' ? fallback : text, emoji: true };
}

/**
 * A mrkdwn object from untrusted text (LLM prose, a buyer's notes). `verbatim` stops Slack from turning bare URLs,
 * `#channel` names and `@here`-like words into links or mentions.
 */
export function mrkdwn(s: string, max = 3000, fallback = '—'): MrkdwnElement {
  const text = escapeTruncate(s.trim(), max);
  return { type: 'mrkdwn', text: text === '' ? fallback : text, verbatim: true };
}

/** A mrkdwn object from text Parley composed (its own markup around escaped parts), fitted to `max`. */
export function md(safe: string, max = 3000): MrkdwnElement {
  const text = fitMrkdwn(safe, max);
  return { type: 'mrkdwn', text: text.trim() === '' ? '—' : text, verbatim: true };
}

/** A plain_text object from Parley's own words (no escaping needed, still fitted). */
export function label(text: string, max = 75): PlainTextElement {
  return { type: 'plain_text', text: truncate(text, max), emoji: true };
}

export function isSlackUserId(id: string): boolean {
  return SLACK_USER_ID.test(id);
}

/**
 * A mention Parley intends (the buyer, an approver). Throws on anything that is not a Slack user id, so text such as
 * `U1> <!channel` can never be smuggled into a ping; callers pass ids that Slack itself gave them.
 */
export function mention(userId: string): string {
  if (!isSlackUserId(userId)) throw new TypeError(`not a Slack user id: ${JSON.stringify(userId.slice(0, 40))}`);
  return `<@${userId}>`;
}

/** Slack channel ids: public (C), private or legacy group (G), and DMs (D). */
const SLACK_CHANNEL_ID = /^[CGD][A-Z0-9]{2,20}$/;

export function isSlackChannelId(id: string): boolean {
  return SLACK_CHANNEL_ID.test(id);
}

/** A channel Parley names (`<#C…>`, which Slack renders as the channel's name for whoever reads it); ids only. */
export function channelMention(channelId: string): string {
  if (!isSlackChannelId(channelId)) {
    throw new TypeError(`not a Slack channel id: ${JSON.stringify(channelId.slice(0, 40))}`);
  }
  return `<#${channelId}>`;
}

/** A link Parley builds to a URL it trusts (a permalink from Slack); the label is escaped. */
export function link(url: string, text: string): string {
  if (!/^https?:\/\/[^\s<>|]+$/.test(url)) return escapeText(text);
  return `<${url}|${escapeText(oneLine(text)).replace(/\|/g, '¦')}>`;
}

/**
 * Lines of untrusted text as a preformatted block (```), escaped, with backticks replaced so a cell cannot close the
 * block early. Lines that would not fit `max` are left out and counted in the returned `omitted`.
 */
export function preformatted(lines: readonly string[], max = 3000): { text: string; shown: number; omitted: number } {
  const open = '```\n';
  const close = '\n```';
  let body = '';
  let shown = 0;
  for (const line of lines) {
    const safe = escapeText(line.replace(/`/g, 'ˋ'));
    const next = body === '' ? safe : `${body}\n${safe}`;
    if (open.length + next.length + close.length > max) break;
    body = next;
    shown++;
  }
  return { text: shown === 0 ? '' : `${open}${body}${close}`, shown, omitted: lines.length - shown };
}

/** Untrusted text as a quote: escaped, cut to `max`, each line behind `>`. */
export function quoted(text: string, max: number): string {
  return `>${escapeTruncate(text.trim(), max).replace(/\n/g, '\n>')}`;
}
