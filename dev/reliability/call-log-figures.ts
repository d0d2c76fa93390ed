// Pure figures over the Slack stand-in's call log (and over ack latencies), so the bench's verdicts rest on functions
// a unit test can check: duplicates of every kind of visible effect, and pacing as the smallest gap between two posts
// in one channel (an average hides two posts sent 50 ms apart).
import type { SandboxCall } from '../slack-stand-in/model.js';

export interface DuplicateCounts {
  posts: number;
  edits: number;
  uploads: number;
  reactions: number;
  total: number;
}

type Args = Record<string, unknown>;
const argsOf = (call: Pick<SandboxCall, 'args'>): Args =>
  call.args && typeof call.args === 'object' && !Array.isArray(call.args) ? (call.args as Args) : {};
const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

/** A post's identity: the outbox key in its metadata when it has one, else where it went and what it said. */
function postKey(args: Args): string {
  const metadata = args.metadata as { event_payload?: { key?: unknown } } | undefined;
  const key = metadata?.event_payload?.key;
  if (typeof key === 'string') return `key:${key}`;
  return `${text(args.channel)}|${text(args.thread_ts)}|${text(args.text)}|${text(args.blocks)}`;
}

/**
 * Effects that happened more than once (each extra counts one). Only calls Slack accepted count — a refused call had
 * no effect — except a reaction refused as `already_reacted`, which is a second attempt at an effect already made.
 * An edit counts when the same message gets the same content again right after (an update that changes nothing is a
 * replayed one); a later different edit is progress, not a duplicate.
 */
export function countDuplicates(
  calls: readonly Pick<SandboxCall, 'method' | 'args' | 'ok' | 'error'>[],
): DuplicateCounts {
  const seen = { posts: new Set<string>(), uploads: new Set<string>(), reactions: new Set<string>() };
  const lastEdit = new Map<string, string>();
  const counts = { posts: 0, edits: 0, uploads: 0, reactions: 0 };
  const once = (kind: keyof typeof seen, key: string) => {
    if (seen[kind].has(key)) counts[kind] += 1;
    else seen[kind].add(key);
  };
  for (const call of calls) {
    const args = argsOf(call);
    if (call.method === 'reactions.add' && (call.ok || call.error === 'already_reacted')) {
      if (call.error === 'already_reacted') counts.reactions += 1;
      else once('reactions', `${text(args.channel)}|${text(args.timestamp)}|${text(args.name)}`);
      continue;
    }
    if (!call.ok) continue;
    if (call.method === 'chat.postMessage') once('posts', postKey(args));
    else if (call.method === 'files.completeUploadExternal') {
      const files = Array.isArray(args.files) ? args.files : [];
      const titles = files.map((f) => text((f as Args | null)?.title)).join(',');
      once('uploads', `${text(args.channel_id)}|${text(args.thread_ts)}|${titles}|${text(args.initial_comment)}`);
    } else if (call.method === 'chat.update') {
      const target = `${text(args.channel)}|${text(args.ts)}`;
      const content = `${text(args.text)}|${text(args.blocks)}`;
      if (lastEdit.get(target) === content) counts.edits += 1;
      lastEdit.set(target, content);
    }
  }
  return { ...counts, total: counts.posts + counts.edits + counts.uploads + counts.reactions };
}

/**
 * The smallest gap (ms) between two accepted posts in one channel, by arrival time; null with fewer than two posts in
 * every channel.
 */
export function minPostGapMs(calls: readonly Pick<SandboxCall, 'method' | 'args' | 'ok' | 'atMs'>[]): number | null {
  const byChannel = new Map<string, number[]>();
  for (const call of calls) {
    if (call.method !== 'chat.postMessage' || !call.ok) continue;
    const channel = text(argsOf(call).channel);
    byChannel.set(channel, [...(byChannel.get(channel) ?? []), call.atMs]);
  }
  let min: number | null = null;
  for (const times of byChannel.values()) {
    times.sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) {
      const gap = (times[i] ?? 0) - (times[i - 1] ?? 0);
      if (min === null || gap < min) min = gap;
    }
  }
  return min;
}

/** The longest silence in a call log, and the calls on either side of it (to say where the app went quiet). */
export interface Quiet {
  ms: number;
  after: string | null;
  before: string | null;
}

/**
 * The longest time (ms) between two Slack calls Parley made that Slack accepted, counted from `sinceMs` (the first
 * user action: a process starting up is not the app going quiet): how long the app was silent. A negotiation that
 * waits for an expired lease (or a sweep) to go on is silent that long.
 */
export function longestQuiet(calls: readonly Pick<SandboxCall, 'ok' | 'atMs' | 'method'>[], sinceMs: number): Quiet {
  const accepted = calls.filter((call) => call.ok && call.atMs >= sinceMs).sort((a, b) => a.atMs - b.atMs);
  let quiet: Quiet = { ms: 0, after: null, before: null };
  for (let i = 1; i < accepted.length; i++) {
    const [previous, next] = [accepted[i - 1], accepted[i]];
    if (previous && next && next.atMs - previous.atMs > quiet.ms) {
      quiet = { ms: next.atMs - previous.atMs, after: previous.method, before: next.method };
    }
  }
  return quiet;
}

/** Nearest-rank percentile (p in 0–100) of a sample; 0 for an empty one. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? 0;
}

/** One moment of a story: seconds from its start, and what happened (a delivery and its ack, or a Web API call). */
export interface TimelineEntry {
  atS: number;
  what: string;
}

/**
 * Where a story's wall time went, from the stand-in's records: every delivery to the app (with how long its ack
 * took) and every Web API call (with how long Slack took to answer it), in time order, relative to `startMs`.
 * Deliveries and calls matching `skip` (e.g. the App Home opens that load the story) are left out.
 */
export function storyTimeline(
  calls: readonly Pick<SandboxCall, 'method' | 'args' | 'ok' | 'error' | 'atMs' | 'doneAtMs'>[],
  acks: readonly { what: string; ms: number; atMs: number }[],
  startMs: number,
  skip: (what: string) => boolean = () => false,
): TimelineEntry[] {
  const entries: { atMs: number; what: string }[] = [];
  for (const ack of acks) {
    if (!skip(ack.what)) entries.push({ atMs: ack.atMs, what: `→ ${ack.what} (ack ${Math.round(ack.ms)} ms)` });
  }
  for (const call of calls) {
    if (skip(call.method)) continue;
    const args = argsOf(call);
    const said = typeof args.text === 'string' ? ` "${args.text.replace(/\s+/g, ' ').slice(0, 50)}"` : '';
    const took = call.doneAtMs === undefined ? 'no answer' : `${call.doneAtMs - call.atMs} ms`;
    entries.push({ atMs: call.atMs, what: `${call.method}${call.ok ? '' : ` ✗${call.error ?? ''}`}${said} (${took})` });
  }
  return entries
    .sort((a, b) => a.atMs - b.atMs)
    .map((entry) => ({ atS: Math.round((entry.atMs - startMs) / 100) / 10, what: entry.what }));
}
