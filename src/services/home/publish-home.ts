// Publishing one person's App Home: built from the database, then queued in the outbox as a views.publish
// (src/thread/home.ts), which the poster sends in that person's own lane.
import { enqueueHomePublish } from '../../thread/home.js';
import { homeView } from '../screens.js';
import type { ServiceContext } from '../service-context.js';

export async function publishHome(ctx: ServiceContext, userId: string): Promise<void> {
  await enqueueHomePublish(ctx.db, userId, await homeView(ctx, userId));
}

/**
 * Runs `publish` for a person at most once at a time: opens that come while one runs are answered by one more run
 * after it (which reads everything they could have changed). A person opening the tab again and again — or twenty
 * people in a busy workspace — then costs one build at a time each, not one per open competing for the database's
 * connections with the clicks being acknowledged.
 */
export function coalescePerPerson(publish: (teamId: string, userId: string) => Promise<void>) {
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
        await publish(teamId, userId);
      }
    } finally {
      running.delete(key);
    }
  };
}
