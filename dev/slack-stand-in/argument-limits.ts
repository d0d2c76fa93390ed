// Limits on a method's arguments that the spec's required-ness cannot say: list lengths, text lengths, the shape of
// streaming chunks, arguments required only in some conversations. One place, used by the stand-in (which refuses
// such a call as Slack would) and by the call-log checker (which reports it). Each rule cites where Slack states it.
import type { Json } from './model.js';

/** assistant.threads.setStatus `loading_messages`: "Maximum of 10 messages" (its reference page). */
export const MAX_LOADING_MESSAGES = 10;
/** markdown_text on the streaming methods: "Limit this field to 12,000 characters" (@slack/web-api 8.2 chat.d.ts). */
export const MAX_STREAM_MARKDOWN = 12_000;
/** A `blocks` chunk: "Maximum of 50 blocks" (@slack/types 3.2 chunk.d.ts). */
export const MAX_CHUNK_BLOCKS = 50;

/** TaskUpdateChunk['status'] in @slack/types 3.2 chunk.d.ts. */
const TASK_STATUSES = new Set(['pending', 'in_progress', 'complete', 'error']);
const STREAM_METHODS = new Set(['chat.startStream', 'chat.appendStream', 'chat.stopStream']);

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** What is wrong with one streaming chunk (@slack/types 3.2 `AnyChunk`), in words. */
function chunkProblems(chunk: unknown, index: number): string[] {
  const at = `chunks[${index}]`;
  if (!isRecord(chunk)) return [`${at} is not an object`];
  switch (chunk.type) {
    case 'markdown_text':
      if (typeof chunk.text !== 'string') return [`${at} markdown_text needs text`];
      return chunk.text.length > MAX_STREAM_MARKDOWN ? [`${at} text longer than ${MAX_STREAM_MARKDOWN}`] : [];
    case 'plan_update':
      return nonEmpty(chunk.title) ? [] : [`${at} plan_update needs a title`];
    case 'task_update': {
      const problems: string[] = [];
      if (!nonEmpty(chunk.id)) problems.push(`${at} task_update needs an id`);
      if (!nonEmpty(chunk.title)) problems.push(`${at} task_update needs a title`);
      if (typeof chunk.status !== 'string' || !TASK_STATUSES.has(chunk.status)) {
        problems.push(`${at} task_update status must be one of ${[...TASK_STATUSES].join('|')}`);
      }
      return problems;
    }
    case 'blocks':
      if (!Array.isArray(chunk.blocks)) return [`${at} blocks chunk needs blocks`];
      return chunk.blocks.length > MAX_CHUNK_BLOCKS ? [`${at} has more than ${MAX_CHUNK_BLOCKS} blocks`] : [];
    default:
      return [`${at} has unknown type ${JSON.stringify(chunk.type)}`];
  }
}

/**
 * A conversation that is not a DM, told by its id: Slack's channel ids start with C (public) or G (private), DMs with D.
 * The call log has no channel model, so the id is what the checker can go by.
 */
export function isChannelNotDm(channelId: unknown): boolean {
  return typeof channelId === 'string' && /^[CG]/.test(channelId);
}

/** Every limit a decoded call breaks (empty when it keeps them all). */
export function argumentLimitViolations(method: string, args: Json): string[] {
  const problems: string[] = [];
  if (method === 'assistant.threads.setStatus' && args.loading_messages !== undefined) {
    const messages = args.loading_messages;
    if (!Array.isArray(messages)) problems.push('loading_messages must be an array of strings');
    else if (messages.length > MAX_LOADING_MESSAGES) {
      problems.push(`loading_messages has ${messages.length} messages (max ${MAX_LOADING_MESSAGES})`);
    }
  }
  if (STREAM_METHODS.has(method)) {
    if (typeof args.markdown_text === 'string' && args.markdown_text.length > MAX_STREAM_MARKDOWN) {
      problems.push(`markdown_text longer than ${MAX_STREAM_MARKDOWN} characters`);
    }
    if (args.chunks !== undefined) {
      if (!Array.isArray(args.chunks)) problems.push('chunks must be an array');
      else args.chunks.forEach((chunk, i) => problems.push(...chunkProblems(chunk, i)));
    }
  }
  // "Required when streaming to channels" (docs.slack.dev/reference/methods/chat.startStream; the SDK's doc comment:
  // "required when starting a streaming conversation outside of a DM").
  if (method === 'chat.startStream' && isChannelNotDm(args.channel)) {
    for (const name of ['recipient_user_id', 'recipient_team_id']) {
      if (!nonEmpty(args[name])) problems.push(`${name} is required when streaming in a channel`);
    }
  }
  return problems;
}
