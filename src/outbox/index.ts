// The Slack outbox: services enqueue calls in the transaction of the state change they report; the poster sends them.
export { enqueueSlackCall, enqueueSlackCalls, type OutboxWriter, isEnqueued, sentTs } from './enqueue-slack-call.js';
export {
  InvalidOutboxCallError,
  OUTBOX_EVENT_TYPE,
  OUTBOX_METHODS,
  OUTBOX_REFERENCE_KEY,
  type OutboxCall,
  type OutboxMethod,
} from './outbox-call.js';
export {
  createOutboxPoster,
  OUTBOX_LOCK_MS,
  OutboxDrainTimeoutError,
  type OutboxLog,
  type OutboxPoster,
  type OutboxPosterOptions,
  type OutboxSendResult,
} from './outbox-poster.js';
export { unlockOwnOutboxRows } from './unlock-own-rows.js';
