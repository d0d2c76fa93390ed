// The lease a pg-boss job's attempt holds on what it works on (a negotiation, a quotation being read), named after the
// attempt: `job:<job id>#<retry count>@<instance>`.
//
// The queues are `stately` on the negotiation's (or the file's) key, and pg-boss keeps at most one job per key
// `active` (a unique index). So when an attempt starts, any other attempt's lease on the same thing belongs to a run
// pg-boss has already given up on — its process died (no heartbeat) or it failed — and the new attempt takes the
// lease over at once instead of waiting for it to expire. A run that was only slow, not dead, keeps running until its
// next fenced write or lease renewal, which names its own attempt and so finds the lease gone (LeaseLostError,
// ReadLeaseLost): it stops and writes nothing more.
//
// A lease held under any other name (a CLI run on the same database) is still respected until it expires.
export const JOB_LEASE_PREFIX = 'job:';

/** What a job's handler knows about the attempt it runs (pg-boss's job id and retry count). */
export interface JobAttempt {
  id: string;
  retryCount: number;
}

/** The lease owner of one attempt of one job, on one instance (the instance is only for people reading the row). */
export function jobLeaseOwner(instance: string, attempt: JobAttempt): string {
  return `${JOB_LEASE_PREFIX}${attempt.id}#${attempt.retryCount}@${instance}`;
}

/** Whether `owner` is a job attempt's, which may take over another attempt's lease (see above). */
export function isJobLease(owner: string): boolean {
  return owner.startsWith(JOB_LEASE_PREFIX);
}

/** The filter that lets a job attempt take a lease held by an earlier attempt (of any job on the same key). */
export function jobLeaseTakeover<K extends string>(column: K, owner: string): Array<Record<K, { startsWith: string }>> {
  if (!isJobLease(owner)) return [];
  return [{ [column]: { startsWith: JOB_LEASE_PREFIX } } as Record<K, { startsWith: string }>];
}
