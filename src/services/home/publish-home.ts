// Publishing one person's App Home: built from the database, then queued in the outbox as a views.publish, which the
// poster sends in that person's own lane (a newer publish queued behind an unsent one supersedes it, so a person
// opening the tab again and again costs Slack one call per publish actually sent).
import { randomUUID } from 'node:crypto';
import { enqueueSlackCalls } from '../../outbox/index.js';
import { homeView } from '../screens.js';
import type { ServiceContext } from '../service-context.js';

export async function publishHome(ctx: ServiceContext, userId: string): Promise<void> {
  const view = await homeView(ctx, userId);
  await enqueueSlackCalls(ctx.db, [
    // Every publish is its own row: the newest one is what the person should see.
    {
      dedupeKey: `home:${userId}:${randomUUID()}`,
      method: 'views.publish',
      channelId: null,
      payload: { user_id: userId, view },
    },
  ]);
}
