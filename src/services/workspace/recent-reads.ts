// Reads this process reuses for a short while: a workspace for the App Home, a team's Slack installation for Bolt's
// authorize. Twenty people opening the Home every two seconds each paid a statement on the database before Slack was
// answered (on PGlite, a turn on its one connection behind whatever transaction held it: ~1 s). A value is served
// while younger than `maxAgeMs`; once older than `refreshAfterMs` it is read again in the background while the
// current one is still served, so a steady stream of requests never waits for the database. Each process knows only
// its own writes: it forgets a value the moment it changes here (`forget`, or the `epoch` moving on), and another
// instance's change reaches it within `maxAgeMs` at most. Nothing is cached for a key not found (a team not installed
// yet is asked about each time, so an install is seen at once). A restart starts empty.
import { log } from '../../log.js';

export interface RecentReadsOptions {
  /** Never served older than this: the longest another instance's change may go unseen here. */
  maxAgeMs: number;
  /** Read again in the background when older than this (while still served). */
  refreshAfterMs: number;
  /** Moves on whenever what was read may have changed in this process: every value read before it is forgotten. */
  epoch?: () => number;
  now?: () => number;
}

export interface RecentReads<V> {
  get(key: string): Promise<V | null>;
  /** The next `get` reads again (and a read running now is not kept). */
  forget(key: string): void;
}

export function recentReads<V>(load: (key: string) => Promise<V | null>, options: RecentReadsOptions): RecentReads<V> {
  const now = options.now ?? (() => performance.now());
  const epoch = options.epoch ?? (() => 0);
  const entries = new Map<string, { value: V; readAt: number; epoch: number }>();
  // One read at a time per key: twenty opens that find nothing wait for the same statement, and a request past the
  // max age joins a refresh already running rather than reading again.
  const reading = new Map<string, Promise<V | null>>();
  // Per key, how many times this process forgot it: a read that started before is not kept.
  const forgotten = new Map<string, number>();

  function read(key: string): Promise<V | null> {
    const running = reading.get(key);
    if (running) return running;
    const started = { readAt: now(), epoch: epoch(), forgets: forgotten.get(key) ?? 0 };
    const promise: Promise<V | null> = load(key)
      .then((value) => {
        const current = entries.get(key);
        if ((forgotten.get(key) ?? 0) === started.forgets && (!current || current.readAt <= started.readAt)) {
          if (value === null) entries.delete(key);
          else entries.set(key, { value, readAt: started.readAt, epoch: started.epoch });
        }
        return value;
      })
      .finally(() => {
        if (reading.get(key) === promise) reading.delete(key);
      });
    reading.set(key, promise);
    return promise;
  }

  return {
    async get(key) {
      const entry = entries.get(key);
      const age = entry ? now() - entry.readAt : Infinity;
      if (!entry || age >= options.maxAgeMs || entry.epoch !== epoch()) return read(key);
      if (age >= options.refreshAfterMs && !reading.has(key)) {
        // The request that noticed does not wait for it.
        void read(key).catch((error: unknown) =>
          log.warn('could not read again a value served from memory', { error, key }),
        );
      }
      return entry.value;
    },
    forget(key) {
      entries.delete(key);
      reading.delete(key);
      forgotten.set(key, (forgotten.get(key) ?? 0) + 1);
    },
  };
}
