// Slack shows the person an error when a request is not answered within 3 s, and the HTTP receiver answers only when
// the listener returns (`processBeforeResponse`). So a listener waits for its work only this long; past it, it
// acknowledges, returns, and lets the work finish on its own.

/** How long a listener may wait for its work before it must acknowledge and return. */
export const ACK_DEADLINE_MS = 2_500;

export type Settled<T> =
  | { status: 'fulfilled'; value: T }
  | { status: 'rejected'; reason: unknown }
  /** Still running when the time was up; it goes on (the caller decides who hears how it ends). */
  | { status: 'pending' };

/** How `work` ended if it ended within `ms`. Never throws: a rejection is returned as one. */
export async function settleWithin<T>(work: Promise<T>, ms: number): Promise<Settled<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<Settled<T>>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'pending' }), Math.max(0, ms));
  });
  try {
    return await Promise.race([
      work.then(
        (value): Settled<T> => ({ status: 'fulfilled', value }),
        (reason: unknown): Settled<T> => ({ status: 'rejected', reason }),
      ),
      timeUp,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Acknowledges once `work` — the save that makes a request durable — has settled, then resolves or rejects as it
 * does: a request Slack saw acknowledged in time was saved (or failed, and the caller tells the person). Still running
 * at the deadline (a slow database), it is acknowledged all the same, since Slack would show an error, and the caller
 * waits on for its outcome.
 */
export async function ackWhenSettled<T>(
  ack: () => Promise<void>,
  work: Promise<T>,
  deadlineMs = ACK_DEADLINE_MS,
): Promise<T> {
  await settleWithin(work, deadlineMs);
  await ack();
  return work;
}
