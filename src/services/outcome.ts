// What a service tells the Slack layer: done (maybe with nothing to do, for a repeated click), or refused with the
// sentence to show the person (ephemeral) and, for modals, the field errors. `already_final`: the thing asked about
// reached a state nothing can change any more (an approved, rejected or superseded purchase order).
export type ServiceError = 'not_allowed' | 'not_found' | 'not_ready' | 'invalid_input' | 'conflict' | 'already_final';

export type ServiceResult<T = undefined> =
  | { ok: true; value: T; changed: boolean }
  | { ok: false; error: ServiceError; message: string; fieldErrors?: Record<string, string> };

export const done = <T>(value: T, changed = true): ServiceResult<T> => ({ ok: true, value, changed });

export const refused = (error: ServiceError, message: string, fieldErrors?: Record<string, string>) =>
  ({ ok: false, error, message, ...(fieldErrors ? { fieldErrors } : {}) }) as const;

/** A Slack team Parley has no workspace for. */
export const NOT_INSTALLED = refused('not_found', 'Parley is not set up for this Slack workspace yet.');
