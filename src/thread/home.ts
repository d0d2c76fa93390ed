// The App Home is said through the outbox like the thread: a views.publish in that person's own lane, which the
// poster sends in order (a newer publish queued behind an unsent one supersedes it).
import { randomUUID } from 'node:crypto';
import type { View } from '@slack/types';
import type { WorkspaceDb } from '../db/scoped.js';
import { enqueueSlackCalls } from '../outbox/index.js';

export async function enqueueHomePublish(db: WorkspaceDb, userId: string, view: View): Promise<void> {
  await enqueueSlackCalls(db, [
    // Every publish is its own row: the newest one is what the person should see.
    {
      dedupeKey: `home:${userId}:${randomUUID()}`,
      method: 'views.publish',
      channelId: null,
      payload: { user_id: userId, view },
    },
  ]);
}
