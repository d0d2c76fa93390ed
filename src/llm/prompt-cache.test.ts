// The prompt-cache emulation the fake Messages API bills with: prefixes, minimums, lookback, lifetime, limits.
import { describe, expect, it } from 'vitest';
import {
  CACHE_TTL_MS,
  CacheLimitError,
  minCacheableTokens,
  PromptCache,
  promptBlocks,
  promptTokens,
} from './prompt-cache.js';

const SONNET_45 = 'claude-sonnet-4-5-20250929';
const text = (chars: number, label = 'x') => `${label}:${'y'.repeat(Math.max(0, chars - label.length - 1))}`;

/** A request whose first user message is the given text blocks, `mark` saying which carry cache_control. */
function request(parts: string[], mark: number[], system = 'You are a supplier.') {
  return {
    tools: [{ name: 'reply', description: 'Reply.', input_schema: { type: 'object' } }],
    system,
    messages: [
      {
        role: 'user',
        content: parts.map((part, index) => ({
          type: 'text',
          text: part,
          ...(mark.includes(index) ? { cache_control: { type: 'ephemeral' } } : {}),
        })),
      },
    ],
  };
}

function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('the minimum cacheable prefix', () => {
  it('is looked up by model family, and an unknown model gets the largest', () => {
    expect(minCacheableTokens('claude-haiku-4-5-20251001')).toBe(4_096);
    expect(minCacheableTokens('claude-sonnet-4-6')).toBe(2_048);
    expect(minCacheableTokens(SONNET_45)).toBe(1_024);
    expect(minCacheableTokens('claude-next-1')).toBe(4_096);
  });
});

describe('the prompt blocks', () => {
  it('come in tools → system → messages order and add up to the request’s size', () => {
    const wire = request(['first', 'second'], [1]);
    const blocks = promptBlocks(wire);
    expect(blocks).toHaveLength(5);
    expect(blocks.map((block) => block.breakpoint)).toEqual([false, false, false, false, true]);
    // The API's own tool-use system prompt follows the tools: billed, though no one sent it.
    expect(blocks[1]).toMatchObject({ chars: 0, tokens: 346 });
    expect(blocks[2]).toMatchObject({ content: 'You are a supplier.', chars: 'You are a supplier.'.length });
    const total = blocks.reduce((sum, block) => sum + block.chars, 0);
    const expected =
      JSON.stringify(wire.tools[0]).length +
      wire.system.length +
      JSON.stringify(request(['first', 'second'], []).messages).length;
    expect(Math.abs(total - expected)).toBeLessThanOrEqual(2);
    // The marker is not part of the content: the same text with or without it is the same prefix.
    expect(promptBlocks(request(['first', 'second'], [])).map((block) => block.content)).toEqual(
      blocks.map((block) => block.content),
    );
  });
});

describe('prompt tokens', () => {
  it('count the forced tool’s tool-use system prompt, and none without tools', () => {
    const forced = promptBlocks({ ...request(['hello'], []), tool_choice: { type: 'tool' } });
    const auto = promptBlocks(request(['hello'], []));
    expect(promptTokens(auto) - promptTokens(forced)).toBe(346 - 313);
    const bare = promptBlocks({ system: 'You are a supplier.', messages: request(['hello'], []).messages });
    expect(promptTokens(forced) - promptTokens(bare)).toBe(
      313 + promptTokens(promptBlocks({ tools: request([], []).tools, messages: [] })) - 346,
    );
  });
});

describe('a prompt cache', () => {
  it('writes a marked prefix above the minimum, then serves it at the next request', () => {
    const cache = new PromptCache(clock().now);
    const stable = text(6_000, 'stable'); // ~1,500 tokens: above Sonnet 4.5's 1,024
    const first = cache.plan(SONNET_45, promptBlocks(request([stable, 'question one'], [0])));
    const prefix = first.usage.cacheCreationInputTokens;
    expect(prefix).toBeGreaterThan(1_500);
    expect(first.usage.cacheReadInputTokens).toBe(0);
    cache.commit(first);

    const second = cache.plan(SONNET_45, promptBlocks(request([stable, 'question two, longer'], [0])));
    expect(second.usage).toMatchObject({ cacheReadInputTokens: prefix, cacheCreationInputTokens: 0 });
    const blocks = promptBlocks(request([stable, 'question two, longer'], [0]));
    const total = promptTokens(blocks);
    expect(second.usage.inputTokens + second.usage.cacheReadInputTokens).toBe(total);
  });

  it('caches nothing, and bills no write, below the model’s minimum', () => {
    const cache = new PromptCache(clock().now);
    const stable = text(6_000, 'stable');
    for (const model of ['claude-sonnet-4-6', 'claude-haiku-4-5-20251001']) {
      const plan = cache.plan(model, promptBlocks(request([stable, 'q'], [0])));
      expect(plan.usage.cacheCreationInputTokens).toBe(0);
      cache.commit(plan);
      expect(cache.plan(model, promptBlocks(request([stable, 'q'], [0]))).usage.cacheReadInputTokens).toBe(0);
    }
  });

  it('keeps caches apart per model and per exact prefix', () => {
    const cache = new PromptCache(clock().now);
    const stable = text(6_000, 'stable');
    cache.commit(cache.plan(SONNET_45, promptBlocks(request([stable, 'q'], [0]))));
    expect(
      cache.plan('claude-opus-4-1-20250805', promptBlocks(request([stable, 'q'], [0]))).usage.cacheReadInputTokens,
    ).toBe(0);
    const edited = cache.plan(SONNET_45, promptBlocks(request([`${stable}!`, 'q'], [0])));
    expect(edited.usage.cacheReadInputTokens).toBe(0);
    const otherSystem = cache.plan(SONNET_45, promptBlocks(request([stable, 'q'], [0], 'You are a buyer.')));
    expect(otherSystem.usage.cacheReadInputTokens).toBe(0);
  });

  it('reads the longest earlier prefix within 20 blocks of a breakpoint and writes only what follows it', () => {
    const cache = new PromptCache(clock().now);
    const base = text(5_000, 'quotation');
    const turns = (count: number) => Array.from({ length: count }, (_, index) => text(400, `message ${index}`));
    // Round 1: the quotation and two messages, the last one marked.
    const one = [base, ...turns(2)];
    const first = cache.plan(SONNET_45, promptBlocks(request(one, [2])));
    cache.commit(first);
    // Round 2: the same blocks and two more; the breakpoint moves to the new end and looks back to round 1's.
    const two = [base, ...turns(4)];
    const second = cache.plan(SONNET_45, promptBlocks(request(two, [4])));
    expect(second.usage.cacheReadInputTokens).toBe(first.usage.cacheCreationInputTokens);
    expect(second.usage.cacheCreationInputTokens).toBeGreaterThan(150);
    expect(second.usage.cacheCreationInputTokens).toBeLessThan(250);
    cache.commit(second);

    // 25 new blocks later the old entries are out of the breakpoint's reach.
    const far = [base, ...turns(30)];
    expect(cache.plan(SONNET_45, promptBlocks(request(far, [30]))).usage.cacheReadInputTokens).toBe(0);
  });

  it('forgets an entry 5 minutes after its last use, and a read keeps it alive', () => {
    const time = clock();
    const cache = new PromptCache(time.now);
    const blocks = promptBlocks(request([text(6_000), 'q'], [0]));
    cache.commit(cache.plan(SONNET_45, blocks));
    time.advance(CACHE_TTL_MS - 1_000);
    const read = cache.plan(SONNET_45, blocks);
    expect(read.usage.cacheReadInputTokens).toBeGreaterThan(0);
    cache.commit(read);
    time.advance(CACHE_TTL_MS - 1_000); // 9+ minutes after the write, under 5 after the read
    expect(cache.plan(SONNET_45, blocks).usage.cacheReadInputTokens).toBeGreaterThan(0);
    time.advance(2_000);
    const expired = cache.plan(SONNET_45, blocks);
    expect(expired.usage.cacheReadInputTokens).toBe(0);
    expect(expired.usage.cacheCreationInputTokens).toBeGreaterThan(0);
  });

  it('is readable only once the response that wrote it has begun: requests in flight together all miss', () => {
    const cache = new PromptCache(clock().now);
    const blocks = promptBlocks(request([text(6_000), 'q'], [0]));
    const first = cache.plan(SONNET_45, blocks);
    const concurrent = cache.plan(SONNET_45, blocks);
    expect(concurrent.usage).toEqual(first.usage);
    cache.commit(first);
    cache.commit(concurrent);
    expect(cache.plan(SONNET_45, blocks).usage.cacheCreationInputTokens).toBe(0);
  });

  it('refuses a fifth breakpoint, as the API does', () => {
    const cache = new PromptCache(clock().now);
    const parts = ['a', 'b', 'c', 'd', 'e'];
    expect(() => cache.plan(SONNET_45, promptBlocks(request(parts, [0, 1, 2, 3, 4])))).toThrow(CacheLimitError);
    expect(() => cache.plan(SONNET_45, promptBlocks(request(parts, [0, 1, 2, 3])))).not.toThrow();
  });
});
