// Slow work that a click or an event starts, run after Slack has been acknowledged (it retries after 3 s). In-process
// and deliberately simple: what must survive a crash is already in the database (a quotation still `received`, a
// negotiation with an expired lease), and the recovery sweep picks it up. One task per key at a time: a second
// request to drive the same negotiation while it runs is remembered and run once after it.
import { log } from '../log.js';

export interface WorkQueue {
  /** Runs `task` soon; if a task with the same key is running, runs it once more after that one. */
  run(key: string, task: () => Promise<unknown>): void;
  /** Resolves when nothing is running or queued (tests, the demo, shutdown). */
  idle(): Promise<void>;
  readonly size: number;
}

export function createWorkQueue(): WorkQueue {
  const running = new Map<string, Promise<void>>();
  const again = new Map<string, () => Promise<unknown>>();

  const start = (key: string, task: () => Promise<unknown>) => {
    const promise = (async () => {
      try {
        await task();
      } catch (error) {
        log.error('background task failed', { key, error });
      }
    })().finally(() => {
      running.delete(key);
      const next = again.get(key);
      if (next) {
        again.delete(key);
        start(key, next);
      }
    });
    running.set(key, promise);
  };

  return {
    run(key, task) {
      if (running.has(key)) again.set(key, task);
      else start(key, task);
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running.values()]);
    },
    get size() {
      return running.size + again.size;
    },
  };
}
