// Work that Slack is waiting on. A listener acknowledges only once its save has committed ("acknowledged means
// saved"), so every query it makes is on the clock Slack gives it (3 s), while a job's query can wait a little. The
// receiver runs each delivery inside `whileSlackWaits`; on PostgreSQL the pool keeps connections for the queries
// found inside it (src/db/reserving-pool.ts). AsyncLocalStorage follows the awaits, so services need not pass anything
// along.
import { AsyncLocalStorage } from 'node:async_hooks';

/** One delivery Slack waits on. */
interface SlackWait {
  /**
   * Until the receiver has answered Slack. A promise the listener left running (a job it woke, a late reply to the
   * person) keeps this context but no longer has Slack waiting, so it queues like any background work.
   */
  open: boolean;
}

const waits = new AsyncLocalStorage<SlackWait>();

export async function whileSlackWaits<T>(work: () => Promise<T>): Promise<T> {
  const wait: SlackWait = { open: true };
  try {
    return await waits.run(wait, work);
  } finally {
    wait.open = false;
  }
}

/** Whether the caller runs for a delivery Slack is still waiting on. */
export function slackWaiting(): boolean {
  return waits.getStore()?.open === true;
}

/**
 * Runs `work` as background work even when it is started while Slack waits: what a listener sets going but does not
 * wait for (an App Home build, a catalog import, the outbox's sending), which must not take the connections kept for
 * acknowledgements.
 */
export function inBackground<T>(work: () => T): T {
  return waits.exit(work);
}
