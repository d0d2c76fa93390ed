// Publishing one person's App Home: built from the database, then queued in the outbox as a views.publish
// (src/thread/home.ts), which the poster sends in that person's own lane — unless Slack already shows that very view.
// Each published view carries a hash of its content in its private_metadata, and Slack hands the view it shows back
// with every app_home_opened: so "identical" is decided by what Slack accepted and shows, on any instance and after a
// restart alike. The view has no clock text (dates are the rows' own, rendered by Slack), so an unchanged database
// gives the same hash.
import { createHash } from 'node:crypto';
import type { HomeView } from '@slack/types';
import { Semaphore } from '../../llm/semaphore.js';
import { enqueueHomePublish } from '../../thread/home.js';
import { homeView } from '../screens.js';
import type { ContextFactory, ServiceContext } from '../service-context.js';

/** The hash a Home view is published with (in its private_metadata). */
export function homeViewHash(view: HomeView): string {
  return createHash('sha256').update(JSON.stringify(view)).digest('hex').slice(0, 32);
}

export interface PublishHomeOptions {
  /** The hash of the view Slack shows this person now (the opened view's private_metadata), if any. */
  shown?: string | null;
  /** The hash this process last queued for this person, if it did: a publish that may not have gone out yet. */
  lastQueued?: string | null;
}

/**
 * Builds the person's Home and queues it, unless Slack shows exactly this view already and no other view of this
 * process is on its way to them (it would replace the one shown). Returns the hash queued, or null when skipped.
 */
export async function publishHome(
  ctx: ServiceContext,
  userId: string,
  options: PublishHomeOptions = {},
): Promise<string | null> {
  const view = await homeView(ctx, userId);
  const hash = homeViewHash(view);
  const lastQueued = options.lastQueued ?? null;
  if (options.shown === hash && (lastQueued === null || lastQueued === hash)) return null;
  await enqueueHomePublish(ctx.db, userId, { ...view, private_metadata: hash });
  return hash;
}

/** Home builds running at once per instance, whoever opens the tab (each is a handful of queries on the shared pool). */
export const HOME_BUILDS_AT_ONCE = 2;

/**
 * Runs `publish` for a person at most once at a time: opens that come while one runs are answered by one more run
 * after it (which reads everything they could have changed), and opens that come while a run still waits for its
 * turn ride on that run (it has read nothing yet). A person opening the tab again and again then costs one build at a
 * time, not one per open. And only `atOnce` builds run together across people: twenty people opening the tab every
 * two seconds held every connection of the pool with Home queries, and the saves of the clicks being acknowledged
 * waited for one (the large story's ack p99: 4,078 ms, 886 ms with two at once).
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
        await builds.run(() => {
          // From here on the build reads the database: an open after this needs one more run.
          state.again = false;
          return publish(teamId, userId);
        });
      }
    } finally {
      running.delete(key);
    }
  };
}

export interface HomeRefreshOptions {
  contexts: Pick<ContextFactory, 'recentForTeam'>;
  /** Outbox rows were committed: send them. */
  kickOutbox: () => void;
  atOnce?: number;
}

/**
 * What an App Home open sets going after it is acknowledged: the person's Home built (coalesced, a few at once) and
 * queued unless Slack shows it already. `shown`: the hash in the view Slack showed at this open.
 */
export function createHomeRefresh(options: HomeRefreshOptions) {
  const shownNow = new Map<string, string | null>();
  // Per person this process published to, the last hash it queued (restart forgets: then Slack's view decides).
  const lastQueued = new Map<string, string>();
  const refresh = coalescePerPerson(async (teamId, userId) => {
    const key = `${teamId}/${userId}`;
    const ctx = await options.contexts.recentForTeam(teamId);
    if (!ctx) return;
    const queued = await publishHome(ctx, userId, {
      shown: shownNow.get(key) ?? null,
      lastQueued: lastQueued.get(key) ?? null,
    });
    if (queued === null) return;
    lastQueued.set(key, queued);
    options.kickOutbox();
  }, options.atOnce);
  return (teamId: string, userId: string, shown: string | null): Promise<void> => {
    // The latest open says best what Slack shows now; a build that has not started yet reads it.
    shownNow.set(`${teamId}/${userId}`, shown);
    return refresh(teamId, userId);
  };
}
