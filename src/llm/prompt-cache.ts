// Anthropic's prompt caching as the fake Messages API emulates it, so cost estimates made against the fake are the
// ones the real API would bill. The rules (Anthropic's prompt-caching guide):
// - a cache entry is the exact prompt prefix — tools, then system, then messages — up to and including a block marked
//   `cache_control: { type: 'ephemeral' }`; at most 4 such breakpoints a request;
// - a prefix shorter than the model's minimum is processed uncached (and not billed as a write);
// - a request reads the longest live prefix it shares with an earlier one, looking back from each breakpoint over at
//   most 20 block boundaries; it writes the prefixes of its breakpoints past that point;
// - an entry lives 5 minutes from its last use, and can be read only once the response that wrote it has begun;
// - usage reports `cache_creation_input_tokens` and `cache_read_input_tokens` apart from `input_tokens` (the rest).
import { createHash } from 'node:crypto';
import { estimateTokens, toolUseSystemPromptTokens } from './tokens.js';

/**
 * The shortest cacheable prefix per model family, in tokens. Sources, found with the docs search:
 * - Anthropic's prompt-caching guide, as quoted in anthropics/anthropic-sdk-python#1194: 4,096 for Claude Haiku 4.5
 *   and Opus 4.5/4.6; 1,024 for Sonnet 4.6, Sonnet 4.5, Opus 4.1, Opus 4, Sonnet 4; 2,048 for Haiku 3.5 and 3.
 * - docs.orq.ai/docs/proxy/prompt-caching ("Minimum Token Thresholds"): the same, except 2,048 for Sonnet 4.6 — the
 *   threshold #1194 reports observing on claude-sonnet-4-6.
 * Where they disagree the higher figure is kept: an estimate that counts on a cache the API does not build would
 * understate the cost.
 */
export const MIN_CACHEABLE_TOKENS: Readonly<Record<string, number>> = {
  'claude-haiku-4-5': 4_096,
  'claude-sonnet-4-6': 2_048,
  'claude-sonnet-4-5': 1_024,
  'claude-sonnet-4-2025': 1_024,
  'claude-opus-4-6': 4_096,
  'claude-opus-4-5': 4_096,
  'claude-opus-4-1': 1_024,
  'claude-opus-4-2025': 1_024,
  'claude-3-5-haiku': 2_048,
  'claude-3-haiku': 2_048,
};
/** A model not listed above gets the largest minimum: no cache is assumed that might not exist. */
const UNKNOWN_MODEL_MIN = 4_096;

export const CACHE_TTL_MS = 5 * 60_000;
export const MAX_CACHE_BREAKPOINTS = 4;
const LOOKBACK_BLOCKS = 20;

export function minCacheableTokens(model: string): number {
  const family = Object.keys(MIN_CACHEABLE_TOKENS)
    .filter((prefix) => model.startsWith(prefix))
    .sort((a, b) => b.length - a.length)[0];
  return (family === undefined ? undefined : MIN_CACHEABLE_TOKENS[family]) ?? UNKNOWN_MODEL_MIN;
}

/**
 * One block of a request in prefix order: what identifies it (its JSON without `cache_control`) and its size. Sizes
 * are estimated (tokens.ts): the model reads a text block's text, a tool's definition and anything else as JSON.
 */
export interface PromptBlock {
  content: string;
  /** Characters it adds to the request's JSON. */
  chars: number;
  /** Tokens it adds to the prompt. */
  tokens: number;
  breakpoint: boolean;
}

interface WireRequest {
  tools?: readonly unknown[];
  tool_choice?: { type: string };
  system?: string | readonly unknown[];
  messages: readonly { role: string; content: unknown }[];
}

/** The turn markers around a message and between its blocks: a few tokens the API adds, counted with each. */
const MESSAGE_FRAMING_TOKENS = 4;
const BLOCK_FRAMING_TOKENS = 1;

/**
 * A request's blocks in the order the API builds a prefix: each tool, then the tool-use system prompt the API adds
 * when there are tools, each system block, each message block.
 */
export function promptBlocks(request: WireRequest): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  const tools = request.tools ?? [];
  for (const tool of tools) blocks.push(block(tool, JSON.stringify(stripCacheControl(tool)).length));
  if (tools.length > 0) {
    const type = request.tool_choice?.type ?? 'auto';
    blocks.push({
      content: `tool-use system prompt (${type})`,
      chars: 0,
      tokens: toolUseSystemPromptTokens(type),
      breakpoint: false,
    });
  }
  if (typeof request.system === 'string') {
    if (request.system !== '')
      blocks.push({
        content: request.system,
        chars: request.system.length,
        tokens: estimateTokens(request.system),
        breakpoint: false,
      });
  } else {
    for (const part of request.system ?? []) blocks.push(block(part, textOf(part).length));
  }
  for (const message of request.messages) {
    // The message's own JSON (role, brackets) is counted with its first block, so the total matches its JSON length.
    if (typeof message.content === 'string') {
      const json = JSON.stringify({ role: message.role, content: message.content });
      const tokens = estimateTokens(message.content) + MESSAGE_FRAMING_TOKENS;
      blocks.push({ content: json, chars: json.length + 1, tokens, breakpoint: false });
      continue;
    }
    const parts = Array.isArray(message.content) ? (message.content as unknown[]) : [];
    const wrapper = JSON.stringify({ role: message.role, content: [] }).length + 1;
    parts.forEach((part, index) => {
      const json = JSON.stringify(stripCacheControl(part));
      const item = block(part, json.length + 1 + (index === 0 ? wrapper : 0));
      blocks.push({
        ...item,
        tokens: item.tokens + (index === 0 ? MESSAGE_FRAMING_TOKENS : 0),
        content: index === 0 ? `${message.role}:${item.content}` : item.content,
      });
    });
  }
  return blocks;
}

function block(part: unknown, chars: number): PromptBlock {
  const breakpoint = isRecord(part) && isRecord(part['cache_control']) && part['cache_control']['type'] === 'ephemeral';
  const content = JSON.stringify(stripCacheControl(part));
  const text = isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? part['text'] : null;
  const tokens = text === null ? estimateTokens(content) : estimateTokens(text) + BLOCK_FRAMING_TOKENS;
  return { content, chars, tokens, breakpoint };
}

function textOf(part: unknown): string {
  return isRecord(part) && typeof part['text'] === 'string' ? part['text'] : JSON.stringify(part);
}

function stripCacheControl(part: unknown): unknown {
  if (!isRecord(part) || !('cache_control' in part)) return part;
  const { cache_control: _ignored, ...rest } = part;
  return rest;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A request's prompt tokens, as the fake Messages API bills them (tools and the tool-use system prompt included). */
export function promptTokens(blocks: readonly PromptBlock[]): number {
  return blocks.reduce((sum, item) => sum + item.tokens, 0);
}

export interface CachedUsage {
  /** Prompt tokens neither read from nor written to the cache. */
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
}

/** What a request is billed for its prompt, and the cache entries to store once its response begins. */
export interface CachePlan {
  usage: CachedUsage;
  /** Prefix keys (with their expiry refreshed or set) to store when the response begins. */
  touch: string[];
}

export class CacheLimitError extends Error {
  override name = 'CacheLimitError';
}

/** The cache of one fake API (one organisation): prefix key → expiry time. */
export class PromptCache {
  private readonly entries = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Bills a request against the cache as it is now; nothing is stored until `commit` (the response beginning). */
  plan(model: string, blocks: readonly PromptBlock[]): CachePlan {
    const breakpoints = blocks.flatMap((item, index) => (item.breakpoint ? [index] : []));
    if (breakpoints.length > MAX_CACHE_BREAKPOINTS) {
      throw new CacheLimitError(
        `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints.length}.`,
      );
    }
    const keys: string[] = [];
    const tokensAt: number[] = [];
    let previous = model;
    let total = 0;
    for (const item of blocks) {
      previous = createHash('sha256').update(previous).update('\u0000').update(item.content).digest('hex');
      keys.push(previous);
      total += item.tokens;
      tokensAt.push(total);
    }

    const now = this.now();
    let readAt = -1;
    for (const breakpoint of breakpoints) {
      for (let index = breakpoint; index >= Math.max(0, breakpoint - (LOOKBACK_BLOCKS - 1)); index--) {
        const expires = this.entries.get(keys[index] ?? '');
        if (expires !== undefined && expires > now) {
          readAt = Math.max(readAt, index);
          break;
        }
      }
    }
    const minimum = minCacheableTokens(model);
    const writes = breakpoints.filter((index) => index > readAt && (tokensAt[index] ?? 0) >= minimum);
    const read = readAt < 0 ? 0 : (tokensAt[readAt] ?? 0);
    const lastWrite = writes.at(-1);
    const created = lastWrite === undefined ? 0 : (tokensAt[lastWrite] ?? 0) - read;
    const touch = [...(readAt < 0 ? [] : [keys[readAt] ?? '']), ...writes.map((index) => keys[index] ?? '')];
    return {
      usage: { inputTokens: total - read - created, cacheCreationInputTokens: created, cacheReadInputTokens: read },
      touch,
    };
  }

  /** The response has begun: its prefixes are readable from now on, for 5 minutes from this use. */
  commit(plan: CachePlan): void {
    const now = this.now();
    for (const [key, expires] of this.entries) if (expires <= now) this.entries.delete(key);
    for (const key of plan.touch) this.entries.set(key, now + CACHE_TTL_MS);
  }
}
