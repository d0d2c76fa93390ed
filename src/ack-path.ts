// Work that Slack is waiting on. A listener acknowledges only once its save has committed ("acknowledged means
// saved"), so every query it makes is on the clock Slack gives it (3 s), while a job's query can wait a little. The
// receiver runs each delivery inside `whileSlackWaits`; the database lets the queries found inside it go first
// (src/db/connection-lanes.ts). AsyncLocalStorage follows the awaits, so services need not pass anything along.
import { AsyncLocalStorage } from 'node:async_hooks';

/** One delivery Slack waits on, and where its time went (read by the database's timings). */
export interface SlackWait {
  /** What was delivered, for the timings: `block_actions:<action_id>`, `event_callback:<type>`, … */
  readonly what: string;
  readonly startedAt: number;
  /**
   * Until the receiver has answered Slack. A promise the listener left running (a job it woke, a late reply to the
   * person) keeps this context but no longer has Slack waiting, so it queues like any background work.
   */
  open: boolean;
  /** Time its statements waited for a database connection, and ran on it (PGlite only). */
  dbWaitMs: number;
  dbRunMs: number;
  statements: number;
}

const waits = new AsyncLocalStorage<SlackWait>();

export async function whileSlackWaits<T>(what: string, work: () => Promise<T>): Promise<T> {
  const wait: SlackWait = { what, startedAt: performance.now(), open: true, dbWaitMs: 0, dbRunMs: 0, statements: 0 };
  try {
    return await waits.run(wait, work);
  } finally {
    wait.open = false;
    for (const listener of finished) listener(wait, performance.now() - wait.startedAt);
  }
}

/** The delivery Slack is still waiting on, if the caller runs for one. */
export function slackWaiting(): SlackWait | undefined {
  const wait = waits.getStore();
  return wait?.open ? wait : undefined;
}

/**
 * Runs `work` as background work even when it is started while Slack waits: what a listener sets going but does not
 * wait for (an App Home build, a catalog import, the outbox's sending), whose statements must not go first.
 */
export function inBackground<T>(work: () => T): T {
  return waits.exit(work);
}

type Finished = (wait: SlackWait, totalMs: number) => void;
const finished = new Set<Finished>();

/** Called with each delivery once it is answered (the database's timings); returns the unsubscribe. */
export function onSlackAnswered(listener: Finished): () => void {
  finished.add(listener);
  return () => finished.delete(listener);
}

/** A delivery's name for the timings, from its body: its kind and what was clicked, submitted or happened. */
export function deliveryName(body: unknown): string {
  if (typeof body !== 'object' || body === null) return 'unknown';
  const record = body as Record<string, unknown>;
  const type = typeof record.type === 'string' ? record.type : typeof record.command === 'string' ? 'command' : '?';
  const detail =
    field(record.event, 'type') ??
    field(Array.isArray(record.actions) ? record.actions[0] : undefined, 'action_id') ??
    field(record.view, 'callback_id') ??
    (typeof record.command === 'string' ? record.command : undefined);
  return detail ? `${type}:${detail}` : type;
}

function field(value: unknown, name: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const found = (value as Record<string, unknown>)[name];
  return typeof found === 'string' ? found : undefined;
}
