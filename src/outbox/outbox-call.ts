// What a service asks the outbox to send, and how that request is stored in a `SlackOutbox` row. Everything here is
// pure: validation at the boundary (a malformed call is a programming error and must fail inside the transaction
// that made it, not minutes later in the poster) and the (de)serialisation of the payload column.
import { z } from 'zod';
import type { ConfidentialFacts } from './discretion-check.js';

export const OUTBOX_METHODS = [
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  'reactions.add',
  'views.publish',
  'files.uploadV2',
  'chat.startStream',
  'chat.appendStream',
  'chat.stopStream',
] as const;

export type OutboxMethod = (typeof OUTBOX_METHODS)[number];

/** Methods that put a new message in a channel: the ones Slack limits to about one per second per channel. */
export const POSTING_METHODS: readonly OutboxMethod[] = ['chat.postMessage', 'files.uploadV2', 'chat.startStream'];

/** Slack's streamed message (a plan whose tasks move along); each call carries a chat.update to make if it is refused. */
export const STREAM_METHODS: readonly OutboxMethod[] = ['chat.startStream', 'chat.appendStream', 'chat.stopStream'];

/**
 * The payload key of a streaming call's fallback: the `{ text, blocks }` that a chat.update of the `fallbackOf` message
 * shows instead when the workspace refuses streaming. Removed before the call reaches Slack.
 */
export const STREAM_FALLBACK_KEY = 'fallback';

/**
 * The one key of the stored payload the outbox owns: references to earlier rows, resolved to Slack timestamps when
 * the row is sent (`{ "__outbox": { "threadOf": "<dedupeKey>", "updateOf": "<dedupeKey>" } }`). It is removed
 * before the call reaches Slack, so a payload given to `enqueueSlackCall` may not use it.
 */
export const OUTBOX_REFERENCE_KEY = '__outbox';

/** The `metadata.event_type` stamped on every chat.postMessage, so a retry after a crash can find what it posted. */
export const OUTBOX_EVENT_TYPE = 'parley_outbox';

export interface OutboxCall {
  /** Unique per workspace; enqueueing a key that is already there does nothing (a replayed step enqueues nothing). */
  dedupeKey: string;
  method: OutboxMethod;
  /** Null only for views.publish (its user is `payload.user_id`). */
  channelId: string | null;
  threadTs?: string | null;
  /** dedupeKey of an earlier post whose ts becomes this message's thread_ts. */
  threadOf?: string;
  /**
   * dedupeKey of the post this call acts on: the `ts` that chat.update edits, or the `timestamp` reactions.add
   * reacts to.
   */
  updateOf?: string;
  /**
   * Streaming calls only: dedupeKey of the message (the status card) that `payload.fallback` edits instead when the
   * workspace refuses the streaming methods or the stream has ended.
   */
  fallbackOf?: string;
  /**
   * The Web API arguments except channel / thread_ts / ts (the outbox sets those). For files.uploadV2:
   * `{ filename, title?, contentBase64, initial_comment? }`. chat.postMessage's `metadata` is reserved.
   */
  payload: Record<string, unknown>;
  /** Not sent before this time (a reminder, a deliberate delay). */
  notBefore?: Date;
  /**
   * To a supplier's own (Slack Connect) channel only: what the supplier must not see, from the state that wrote the
   * message (discretion-check.ts `confidentialFacts`). Without it, the workspace's other suppliers' names are checked.
   */
  confidential?: ConfidentialFacts;
  /** Enqueued instead when the discretion check holds this call back: tells the buyer, somewhere internal, why. */
  heldBackNotice?: (why: string) => OutboxCall;
}

export const uploadPayloadSchema = z.object({
  filename: z.string().min(1),
  title: z.string().min(1).optional(),
  contentBase64: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
  initial_comment: z.string().optional(),
});

const referencesSchema = z.object({
  threadOf: z.string().min(1).optional(),
  updateOf: z.string().min(1).optional(),
  fallbackOf: z.string().min(1).optional(),
});

export const streamFallbackSchema = z.object({ text: z.string().min(1), blocks: z.array(z.unknown()) });

export type OutboxReferences = z.infer<typeof referencesSchema>;

/** Arguments the outbox derives itself; a payload that sets them would fight the row's own columns. */
const OUTBOX_OWNED_ARGUMENTS = ['channel', 'channel_id', 'thread_ts', 'ts', OUTBOX_REFERENCE_KEY] as const;

const callSchema = z
  .object({
    dedupeKey: z.string().min(1).max(500),
    method: z.enum(OUTBOX_METHODS),
    channelId: z.string().min(1).nullable(),
    threadTs: z.string().min(1).nullish(),
    threadOf: z.string().min(1).optional(),
    updateOf: z.string().min(1).optional(),
    fallbackOf: z.string().min(1).optional(),
    payload: z.record(z.string(), z.unknown()),
    notBefore: z.date().optional(),
  })
  .superRefine((call, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
    for (const key of OUTBOX_OWNED_ARGUMENTS) {
      if (key in call.payload) problem(`payload.${key} is set by the outbox; use channelId / threadTs / references`);
    }
    if (call.threadTs && call.threadOf) problem('give threadTs or threadOf, not both');
    if (call.threadOf === call.dedupeKey || call.updateOf === call.dedupeKey || call.fallbackOf === call.dedupeKey) {
      problem('a row cannot reference itself');
    }
    const streaming = STREAM_METHODS.includes(call.method);
    if (streaming !== (call.fallbackOf !== undefined)) problem('fallbackOf is given exactly for streaming calls');
    if (streaming && !streamFallbackSchema.safeParse(call.payload[STREAM_FALLBACK_KEY]).success) {
      problem(`${call.method} needs payload.${STREAM_FALLBACK_KEY} { text, blocks }`);
    }
    if ((call.method === 'views.publish') !== (call.channelId === null)) {
      problem('channelId is null exactly for views.publish');
    }
    switch (call.method) {
      case 'chat.postMessage':
        if ('metadata' in call.payload) problem('chat.postMessage metadata is reserved for the outbox');
        break;
      case 'chat.update':
        if (!call.updateOf) problem('chat.update needs updateOf (the dedupeKey of the message it edits)');
        break;
      case 'chat.postEphemeral':
        if (typeof call.payload.user !== 'string') problem('chat.postEphemeral needs payload.user');
        break;
      case 'reactions.add':
        if (typeof call.payload.name !== 'string') problem('reactions.add needs payload.name');
        if (!call.updateOf && typeof call.payload.timestamp !== 'string') {
          problem('reactions.add needs updateOf or payload.timestamp');
        }
        break;
      case 'views.publish':
        if (typeof call.payload.user_id !== 'string') problem('views.publish needs payload.user_id');
        if (call.threadTs || call.threadOf || call.updateOf) problem('views.publish takes no thread or reference');
        break;
      case 'files.uploadV2': {
        const upload = uploadPayloadSchema.safeParse(call.payload);
        if (!upload.success) problem(`files.uploadV2 payload: ${z.prettifyError(upload.error)}`);
        if (call.updateOf) problem('files.uploadV2 takes no updateOf');
        break;
      }
      case 'chat.startStream':
        if (call.updateOf) problem('chat.startStream takes no updateOf');
        break;
      case 'chat.appendStream':
      case 'chat.stopStream':
        if (!call.updateOf) problem(`${call.method} needs updateOf (the dedupeKey of its chat.startStream)`);
        break;
    }
  });

export class InvalidOutboxCallError extends Error {
  override name = 'InvalidOutboxCallError';
}

/** Validates a call; throws InvalidOutboxCallError naming the dedupeKey and every problem. */
export function validateOutboxCall(call: OutboxCall): OutboxCall {
  const parsed = callSchema.safeParse(call);
  if (!parsed.success) {
    throw new InvalidOutboxCallError(`Outbox call ${call.dedupeKey}: ${z.prettifyError(parsed.error)}`);
  }
  return call;
}

/** The payload column: the caller's arguments plus the references under the reserved key. */
export function storedPayload(call: OutboxCall): Record<string, unknown> {
  const references: OutboxReferences = {};
  if (call.threadOf) references.threadOf = call.threadOf;
  if (call.updateOf) references.updateOf = call.updateOf;
  if (call.fallbackOf) references.fallbackOf = call.fallbackOf;
  return Object.keys(references).length > 0
    ? { ...call.payload, [OUTBOX_REFERENCE_KEY]: references }
    : { ...call.payload };
}

const storedSchema = z.record(z.string(), z.unknown());

/** Splits a stored payload back into the Web API arguments and the references. */
export function readStoredPayload(payload: unknown): { args: Record<string, unknown>; references: OutboxReferences } {
  const { [OUTBOX_REFERENCE_KEY]: rawReferences, ...args } = storedSchema.parse(payload);
  return { args, references: rawReferences === undefined ? {} : referencesSchema.parse(rawReferences) };
}
