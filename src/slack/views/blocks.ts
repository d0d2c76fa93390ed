// Small typed constructors shared by the builders, and the formats the thread uses for money, dates and progress.
// Everything that takes free text here expects it already safe (built with escape.ts); see each builder.
import type {
  ActionsBlock,
  ActionsBlockElement,
  Button,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  KnownBlock,
  MrkdwnElement,
  PlainTextElement,
  SectionBlock,
} from '@slack/types';
import { formatMoney, formatPercent } from '../../commerce/money.js';
import { describePaymentTerms } from '../../commerce/payment-terms.js';
import { escapeText, isSlackUserId, md, mention, plain } from './escape.js';

/** What chat.postMessage / chat.update / chat.postEphemeral take from a builder. */
export interface SlackMessage {
  /** Fallback for notifications, screen readers and clients without Block Kit. Safe mrkdwn. */
  text: string;
  blocks: KnownBlock[];
}

export const MESSAGE_BLOCKS_MAX = 50;
export const VIEW_BLOCKS_MAX = 100;
export const SECTION_TEXT_MAX = 3000;
export const FIELD_TEXT_MAX = 2000;
export const CONTEXT_TEXT_MAX = 3000;
export const BUTTON_TEXT_MAX = 75;

export function header(text: string): HeaderBlock {
  return { type: 'header', text: plain(text, 150) };
}

export function section(safeMrkdwn: string, blockId?: string): SectionBlock {
  return { type: 'section', text: md(safeMrkdwn, SECTION_TEXT_MAX), ...(blockId ? { block_id: blockId } : {}) };
}

export function fieldsSection(safeFields: readonly string[]): SectionBlock {
  return { type: 'section', fields: safeFields.slice(0, 10).map((f) => md(f, FIELD_TEXT_MAX)) };
}

export function context(safeParts: readonly string[], blockId?: string): ContextBlock {
  const elements: MrkdwnElement[] = safeParts
    .filter((p) => p.trim() !== '')
    .slice(0, 10)
    .map((p) => md(p, CONTEXT_TEXT_MAX));
  return {
    type: 'context',
    elements: elements.length > 0 ? elements : [md('—')],
    ...(blockId ? { block_id: blockId } : {}),
  };
}

export function divider(): DividerBlock {
  return { type: 'divider' };
}

export interface ButtonOptions {
  /** Untrusted-safe: escaped and cut to 75 here. */
  text: string;
  /** Parley's own words kept whole after a cut `text`, e.g. ` (recommended)`. */
  suffix?: string;
  actionId: string;
  value?: string;
  url?: string;
  style?: 'primary' | 'danger';
  confirm?: { title: string; text: string; confirm: string; deny: string };
  accessibilityLabel?: string;
}

export function button(options: ButtonOptions): Button {
  const suffix = options.suffix ?? '';
  const text = plain(options.text, BUTTON_TEXT_MAX - suffix.length);
  if (suffix) text.text += suffix;
  const b: Button = { type: 'button', text, action_id: options.actionId };
  if (options.value !== undefined) b.value = options.value;
  if (options.url !== undefined) b.url = options.url;
  if (options.style) b.style = options.style;
  if (options.accessibilityLabel) b.accessibility_label = plain(options.accessibilityLabel, 75).text;
  if (options.confirm) {
    b.confirm = {
      title: plain(options.confirm.title, 100),
      text: plain(options.confirm.text, 300),
      confirm: plain(options.confirm.confirm, 30),
      deny: plain(options.confirm.deny, 30),
    };
  }
  return b;
}

export function actions(blockId: string, elements: ActionsBlockElement[]): ActionsBlock {
  return { type: 'actions', block_id: blockId, elements: elements.slice(0, 25) };
}

export function plainLabel(text: string): PlainTextElement {
  return plain(text, 2000);
}

// ───────────────────────────── Formats ─────────────────────────────

/** `$41,650.00`, `EUR 1,234.50`: the thread's one money format (commerce/money.ts). Safe mrkdwn. */
export function money(amount: number | null | undefined, currency: string): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '—';
  return escapeText(formatMoney(amount, currency.slice(0, 8)));
}

/** 0.256 → `26%`; 0.6 → `60%`. */
export function percent(ratio: number, digits = 0): string {
  if (!Number.isFinite(ratio)) return '—';
  return formatPercent(ratio, digits);
}

/** A signed change in percent: `−3.2%`, `+1.0%`, `±0.0%`. */
export function signedPercent(ratio: number, digits = 1): string {
  if (!Number.isFinite(ratio)) return '—';
  const text = Math.abs(ratio * 100).toFixed(digits);
  if (Number(text) === 0) return `±${text}%`;
  return `${ratio < 0 ? '−' : '+'}${text}%`;
}

export function days(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return n === 1 ? '1 day' : `${n} days`;
}

const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function quantity(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return quantityFormat.format(n);
}

/** Payment terms as people say them (`33/33/33`, `40/60`, `100% upfront`), escaped: they may come from a sheet. */
export function terms(t: string | null | undefined): string {
  if (!t) return '—';
  return escapeText(describePaymentTerms(t.slice(0, 60)));
}

/** A date every reader sees in their own time zone (Slack's date token), with a UTC fallback. */
export function slackDate(date: Date): string {
  const seconds = Math.floor(date.getTime() / 1000);
  if (!Number.isFinite(seconds)) return '—';
  const fallback = date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  return `<!date^${seconds}^{date_short_pretty} at {time}|${fallback}>`;
}

/** `▰▰▱▱` for round 2 of 4. */
export function progressBar(done: number, total: number): string {
  const width = Math.max(1, Math.min(20, Math.round(total)));
  const filled = Math.max(0, Math.min(width, Math.round(done)));
  return '▰'.repeat(filled) + '▱'.repeat(width - filled);
}

/** A person: a mention when Slack gave us an id, else their name escaped (a default, a job, an old record). */
export function who(userIdOrName: string | null | undefined): string {
  if (!userIdOrName) return 'someone';
  return isSlackUserId(userIdOrName) ? mention(userIdOrName) : escapeText(userIdOrName.slice(0, 80));
}

/** `@a`, `@a and @b`, `@a, @b and @c`. */
export function listPeople(ids: readonly string[]): string {
  const names = ids.map((id) => who(id));
  if (names.length <= 1) return names[0] ?? 'nobody';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** `1 line`, `3 lines`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${quantity(n)} ${n === 1 ? one : many}`;
}

/** A url Slack will accept on a button (http(s), no spaces, ≤ 3000), or null. */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url || url.length > 3000) return null;
  return /^https?:\/\/[^\s<>|]+$/.test(url) ? url : null;
}
