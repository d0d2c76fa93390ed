// Slow work that a click or an event starts, run after Slack has been acknowledged (it retries after 3 s). In-process
// and deliberately simple: what must survive a crash is already in the database (a quotation still `received`, a
// negotiation with an expired lease), and the recovery sweep picks it up. One task per key at a time: a second
// request to drive the same negotiation while it runs is remembered and run once after it.
//
// At most `concurrency` tasks run at once, the rest wait in arrival order. Fifty negotiations driven at once would
// each hold a database connection through its step's transaction and take turns on the one event loop, and the
// requests Slack is waiting on (acknowledged within 3 s, ideally at once) would queue behind them; bounded, the
// background work goes as fast as the machine allows and a click still finds a connection and a quiet loop.
import { log } from '../log.js';

export interface WorkQueue {
  /** Runs `task` soon; if a task with the same key is running, runs it once more after that one. */
  run(key: string, task: () => Promise<unknown>): void;
  /** Resolves when nothing is running or queued (tests, the demo, shutdown). */
  idle(): Promise<void>;
  /** Tasks running or waiting. */
  readonly size: number;
}

export interface WorkQueueOptions {
  /** Tasks running at once (default: no limit). */
  concurrency?: number;
  /** A task that fails with an error `when` accepts is run again after `delayMs(attempt)`, up to `attempts` runs. */
  retry?: { when: (error: unknown) => boolean; attempts: number; delayMs: (attempt: number) => number };
}

export function createWorkQueue(options: WorkQueueOptions = {}): WorkQueue {
  const { retry } = options;
  const concurrency = options.concurrency ?? Number.POSITIVE_INFINITY;
  if (!(concurrency >= 1)) throw new Error(`concurrency must be at least 1, not ${concurrency}`);
  const running = new Map<string, Promise<void>>();
  /** Waiting to start, in arrival order (a Map keeps insertion order; setting a waiting key keeps its place). */
  const waiting = new Map<string, () => Promise<unknown>>();
  /** To run once more after the running task of the same key. */
  const again = new Map<string, () => Promise<unknown>>();

  const pump = () => {
    for (const [key, task] of waiting) {
      if (running.size >= concurrency) return;
      if (running.has(key)) continue;
      waiting.delete(key);
      start(key, task);
    }
  };

  const start = (key: string, task: () => Promise<unknown>) => {
    const promise = (async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return void (await task());
        } catch (error) {
          if (!retry || attempt >= retry.attempts || !retry.when(error)) {
            return log.error('background task failed', { key, attempt, error });
          }
          // Still running meanwhile (it holds its place and the key): the process is not idle.
          log.warn('background task failed; trying again', { key, attempt, error });
          await new Promise((resolve) => setTimeout(resolve, retry.delayMs(attempt)));
        }
      }
    })().finally(() => {
      running.delete(key);
      const next = again.get(key);
      if (next) {
        again.delete(key);
        waiting.set(key, next);
      }
      pump();
    });
    running.set(key, promise);
  };

  return {
    run(key, task) {
      if (running.has(key)) again.set(key, task);
      else {
        // A newer request for a key that has not started yet replaces the older: one run does what both asked.
        waiting.set(key, task);
        pump();
      }
    },
    async idle() {
      // Something waits only while something runs (every end pumps), so waiting for the running suffices.
      while (running.size > 0) await Promise.all([...running.values()]);
    },
    get size() {
      return running.size + waiting.size + again.size;
    },
  };
}
