// What every scheduled job gets: the unscoped client to find work across workspaces, the context factory to act in
// one workspace (its scoped client, its settings), and the time of the run — a value, so a test moves the clock.
import type { PrismaClient } from '../db/client.js';
import type { ContextFactory, ServiceContext } from '../services/service-context.js';

/** Rows one run handles at most; a backlog is worked off by the next runs. */
export const JOB_BATCH_SIZE = 200;

export interface JobOptions {
  /** Unscoped: finds due rows in every workspace. Writes go through the workspace's own context. */
  prisma: PrismaClient;
  contexts: ContextFactory;
  now: Date;
  batchSize?: number;
}

/** One context per workspace for the length of a run (a run touches a handful of workspaces, many rows each). */
export function contextCache(contexts: ContextFactory) {
  const cache = new Map<string, Promise<ServiceContext | null>>();
  return (workspaceId: string): Promise<ServiceContext | null> => {
    let context = cache.get(workspaceId);
    if (!context) {
      context = contexts.forWorkspace(workspaceId);
      cache.set(workspaceId, context);
    }
    return context;
  };
}
