// Publishing one person's App Home: built from the database, then queued in the outbox as a views.publish
// (src/thread/home.ts), which the poster sends in that person's own lane.
import { Semaphore } from '../../llm/semaphore.js';
import { enqueueHomePublish } from '../../thread/home.js';
import { homeView } from '../screens.js';
import type { ServiceContext } from '../service-context.js';

export async function publishHome(ctx: ServiceContext, userId: string): Promise<void> {
  await enqueueHomePublish(ctx.db, userId, await homeView(ctx, userId));
}

/** Home builds running at once per instance, whoever opens the tab (each is a handful of queries on the shared pool). */
export const HOME_BUILDS_AT_ONCE = 2;

/**
 * Runs `publish` for a person at most once at a time: opens that come while one runs are answered by one more run
 * after it (which reads everything they could have changed). A person opening the tab again and again then costs one
 * build at a time, not one per open. And only `atOnce` builds run together across people: twenty people opening the
 * tab every two seconds held every connection of the pool with Home queries, and the saves of the clicks being
 * acknowledged waited for one (the large story's ack p99: 4,078 ms, 886 ms with two at once).
 */
export function coalescePerPerson(
  publish: (teamId: string, userId: string) => Promise<void>,
  atOnce = HOME_BUILDS_AT_ONCE,
) {
  const builds = new Semaphore(atOnce);
  const running = new Map<string, { again: boolean }>();
  return async function request(teamId: string, userId: string): Promise<void> {
    const key = `${teamId}/${userId}`;
    const current = running.get(key);
    if (current) {
      current.again = true;
      return;
    }
    const state = { again: true };
    running.set(key, state);
    try {
      while (state.again) {
        state.again = false;
        await builds.run(() => publish(teamId, userId));
      }
    } finally {
      running.delete(key);
    }
  };
}
