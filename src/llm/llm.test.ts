import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { costUsd, priceFor } from './cost.js';
import { type FakeMessagesApi, type FakeReply, startFakeClaude } from '../../test/support/fake-messages-api.js';
import Anthropic from '@anthropic-ai/sdk';
import {
  cachedPrefixTokens,
  LlmError,
  type LlmUsage,
  promptParams,
  promptTokenEstimate,
  toolInputSchema,
} from './llm.js';
import { TOOL_USE_SYSTEM_PROMPT_TOKENS } from './tokens.js';

const answerSchema = z.object({ total: z.number().positive(), currency: z.enum(['USD', 'EUR']) });

const request = {
  tier: 'fast' as const,
  purpose: 'test.answer',
  system: 'You read numbers.',
  prompt: 'What is the total?',
  toolName: 'record_answer',
  toolDescription: 'Record the answer.',
  schema: answerSchema,
  maxTokens: 200,
};

describe('Claude structured output through the real SDK', () => {
  let api: FakeMessagesApi | undefined;
  afterEach(async () => {
    await api?.close();
  });

  async function llmAnswering(
    replies: FakeReply[],
    extra: { timeoutMs?: number; maxRetries?: number; now?: () => number } = {},
  ) {
    const usage: LlmUsage[] = [];
    const fake = await startFakeClaude((_request, index) => replies[Math.min(index, replies.length - 1)] as FakeReply, {
      timeoutMs: extra.timeoutMs,
      maxRetries: extra.maxRetries ?? 2,
      onUsage: (entry) => usage.push(entry),
      now: extra.now,
    });
    api = fake.api;
    return { llm: fake.llm, usage, api: fake.api };
  }

  it('forces the tool, validates its input and reports tokens and cost', async () => {
    const { llm, usage, api } = await llmAnswering([
      { kind: 'tool', input: { total: 1234.5, currency: 'USD' }, inputTokens: 1000, outputTokens: 100 },
    ]);
    await expect(llm.structured(request)).resolves.toEqual({ total: 1234.5, currency: 'USD' });
    expect(api.requests[0]).toMatchObject({
      model: 'claude-haiku-4-5-20251001',
      system: 'You read numbers.',
      tool_choice: { type: 'tool', name: 'record_answer' },
    });
    expect(api.requests[0]?.tools?.[0]?.input_schema).toMatchObject({
      type: 'object',
      properties: { total: { type: 'number' } },
    });
    expect(usage).toEqual([
      expect.objectContaining({
        purpose: 'test.answer',
        inputTokens: 1000,
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: 0,
        outputTokens: 100,
        outcome: 'ok',
      }),
    ]);
    expect(usage[0]?.costUsd).toBeCloseTo(0.0015, 10); // Haiku: $1 in + $5 out per 1M
  });

  it('sends unmarked prompts as plain strings, as before caching existed', async () => {
    const { llm, api } = await llmAnswering([{ kind: 'tool', input: { total: 1, currency: 'USD' } }]);
    await llm.structured(request);
    expect(api.requests[0]?.system).toBe('You read numbers.');
    expect(api.requests[0]?.messages).toEqual([{ role: 'user', content: 'What is the total?' }]);
  });

  it('marks the stable prefix for the cache, and reports and prices what the API wrote and read', async () => {
    const { llm, usage, api } = await llmAnswering([{ kind: 'tool', input: { total: 2, currency: 'EUR' } }]);
    // ~3,000 tokens of stable context: above Sonnet 4.6's 2,048-token minimum, below Haiku 4.5's 4,096.
    const stable = `Price list:\n${'SKU-0001 Parka 79.10 | '.repeat(300)}`;
    const cached = {
      ...request,
      tier: 'reasoning' as const,
      prompt: [{ text: stable, cache: true }, { text: 'What is the total?' }],
    };
    expect(llm.cacheable(cached)).toBe(true);
    expect(llm.cacheable({ ...cached, tier: 'fast' })).toBe(false); // Haiku 4.5 caches from 4,096 tokens
    await llm.structured(cached);
    await llm.structured({ ...cached, prompt: [{ text: stable, cache: true }, { text: 'And the currency?' }] });

    const content = api.requests[0]?.messages[0]?.content;
    expect(content).toEqual([
      { type: 'text', text: stable, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'What is the total?' },
    ]);
    const [first, second] = usage;
    const prefix = cachedPrefixTokens(cached);
    expect(first).toMatchObject({ cacheCreationInputTokens: prefix, cacheReadInputTokens: 0 });
    expect(second).toMatchObject({ cacheCreationInputTokens: 0, cacheReadInputTokens: prefix });
    expect(second?.inputTokens).toBeLessThan(20);
    // Sonnet: $3 in, $15 out per 1M; the write at 1.25×, the read at 0.1× the input price.
    const expected = (entry: LlmUsage | undefined) =>
      ((entry?.inputTokens ?? 0) * 3 +
        (entry?.cacheCreationInputTokens ?? 0) * 3.75 +
        (entry?.cacheReadInputTokens ?? 0) * 0.3 +
        (entry?.outputTokens ?? 0) * 15) /
      1_000_000;
    expect(first?.costUsd).toBeCloseTo(expected(first), 12);
    expect(second?.costUsd).toBeCloseTo(expected(second), 12);
    expect(second?.costUsd ?? 1).toBeLessThan((first?.costUsd ?? 0) / 5);
  });

  it('writes the prefix again once it has not been used for 5 minutes', async () => {
    let now = 1_000_000;
    const { llm, usage } = await llmAnswering([{ kind: 'tool', input: { total: 2, currency: 'EUR' } }], {
      now: () => now,
    });
    const stable = `Price list:\n${'SKU-0001 Parka 79.10 | '.repeat(300)}`;
    const cached = { ...request, tier: 'reasoning' as const, prompt: [{ text: stable, cache: true }, { text: 'Q?' }] };
    await llm.structured(cached);
    now += 4 * 60_000;
    await llm.structured(cached);
    now += 5 * 60_000 + 1;
    await llm.structured(cached);
    expect(usage.map((entry) => [entry.cacheCreationInputTokens > 0, entry.cacheReadInputTokens > 0])).toEqual([
      [true, false],
      [false, true],
      [true, false],
    ]);
  });

  it('counts a prompt with the SDK as the fake bills it: tools and the tool-use system prompt included', async () => {
    const { llm, usage, api } = await llmAnswering([{ kind: 'tool', input: { total: 1, currency: 'USD' } }]);
    await llm.structured(request);
    const sent = api.requests[0];
    const client = new Anthropic({ apiKey: 'test-key', baseURL: api.url, maxRetries: 0 });
    const params = {
      model: sent?.model ?? '',
      system: String(sent?.system),
      messages: (sent?.messages ?? []) as Anthropic.MessageParam[],
    };
    const withTool = await client.messages.countTokens({
      ...params,
      tools: sent?.tools as Anthropic.Tool[],
      tool_choice: { type: 'tool', name: request.toolName },
    });
    const bare = await client.messages.countTokens(params);

    expect(withTool.input_tokens).toBe(usage[0]?.inputTokens);
    expect(withTool.input_tokens).toBe(promptTokenEstimate(request));
    // The tool's definition and the 313 tokens the API adds for a forced tool are in the count.
    expect(withTool.input_tokens - bare.input_tokens).toBeGreaterThan(TOOL_USE_SYSTEM_PROMPT_TOKENS.tool);
    expect(api.counted).toHaveLength(2);
    expect(api.requests).toHaveLength(1);
  });

  it('shows the model its validation error once, then accepts the corrected answer', async () => {
    const { llm, usage, api } = await llmAnswering([
      { kind: 'tool', input: { total: -3, currency: 'GBP' } },
      { kind: 'tool', input: { total: 3, currency: 'EUR' } },
    ]);
    await expect(llm.structured(request)).resolves.toEqual({ total: 3, currency: 'EUR' });
    const retry = api.requests[1]?.messages.at(-1);
    expect(JSON.stringify(retry)).toContain('did not match the schema');
    expect(usage.map((u) => u.outcome)).toEqual(['invalid', 'ok']);
  });

  it('gives up with an LlmError when the output stays invalid', async () => {
    const { llm } = await llmAnswering([{ kind: 'text', text: 'I would rather chat.' }]);
    await expect(llm.structured(request)).rejects.toThrow(LlmError);
  });

  it.each([
    ['429 rate limit', { kind: 'error', status: 429, type: 'rate_limit_error' }],
    ['529 overloaded', { kind: 'error', status: 529, type: 'overloaded_error' }],
    ['500', { kind: 'error', status: 500 }],
  ] as const)('retries a %s and succeeds', async (_label, failure) => {
    const { llm, api } = await llmAnswering([failure, { kind: 'tool', input: { total: 9, currency: 'USD' } }]);
    await expect(llm.structured(request)).resolves.toEqual({ total: 9, currency: 'USD' });
    expect(api.requests).toHaveLength(2);
  });

  it('fails with an LlmError when the API keeps failing, after the configured retries', async () => {
    const { llm, usage, api } = await llmAnswering([{ kind: 'error', status: 529, type: 'overloaded_error' }], {
      maxRetries: 2,
    });
    await expect(llm.structured(request)).rejects.toThrow(/529/);
    expect(api.requests).toHaveLength(3);
    expect(usage.map((u) => u.outcome)).toEqual(['error']);
  });

  it('times out a hung call and fails cleanly', async () => {
    const { llm } = await llmAnswering([{ kind: 'hang', ms: 2_000 }], { timeoutMs: 200, maxRetries: 0 });
    await expect(llm.structured(request)).rejects.toThrow(LlmError);
  });

  it('fails cleanly on a body that is not JSON', async () => {
    const { llm } = await llmAnswering([{ kind: 'garbage' }], { maxRetries: 0 });
    await expect(llm.structured(request)).rejects.toThrow(LlmError);
  });

  it('runs at most the configured number of calls at once per model', async () => {
    const { llm, api } = await llmAnswering([{ kind: 'tool', input: { total: 1, currency: 'USD' }, delayMs: 40 }]);
    await Promise.all(Array.from({ length: 9 }, () => llm.structured(request)));
    expect(api.requests).toHaveLength(9);
    expect(api.peakConcurrency).toBe(3);
  });
});

describe('costUsd', () => {
  it('prices by model family at the seed’s rates', () => {
    expect(costUsd('claude-sonnet-4-5-20250929', { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBe(18);
    expect(costUsd('claude-haiku-4-5-20251001', { inputTokens: 2_000, outputTokens: 400 })).toBeCloseTo(0.004, 10);
    // The default reasoning model costs what the seed's Sonnet 4.5 did.
    expect(priceFor('claude-sonnet-4-6')).toEqual(priceFor('claude-sonnet-4-5-20250929'));
  });

  it('prices cache writes at 1.25× and cache reads at 0.1× the input price', () => {
    const usage = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 1_000_000 };
    expect(costUsd('claude-haiku-4-5-20251001', usage)).toBeCloseTo(1.25, 10);
    expect(
      costUsd('claude-sonnet-4-6', { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 1_000_000 }),
    ).toBeCloseTo(0.3, 10);
  });

  it('prices an unknown model as the dearest known one', () => {
    expect(costUsd('some-future-model', { inputTokens: 1_000_000, outputTokens: 0 })).toBe(3);
  });
});

describe('the request as sent', () => {
  it('puts cache_control on the marked parts and refuses more than four breakpoints', () => {
    const marked = promptParams({
      purpose: 'test',
      system: [{ text: 'Rules.', cache: true }],
      prompt: [{ text: 'Stable.', cache: true }, { text: '' }, { text: 'Now.' }],
    });
    expect(marked.system).toEqual([{ type: 'text', text: 'Rules.', cache_control: { type: 'ephemeral' } }]);
    expect(marked.messages[0]?.content).toEqual([
      { type: 'text', text: 'Stable.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Now.' },
    ]);
    const five = Array.from({ length: 5 }, (_, index) => ({ text: `part ${index}`, cache: true }));
    expect(() => promptParams({ purpose: 'test', system: 'Rules.', prompt: five })).toThrow(LlmError);
  });

  it('sends a compact tool schema that accepts what the zod schema accepts', () => {
    const schema = z.object({
      count: z.number().int().positive(),
      note: z.string().max(20).nullish(),
      lines: z.array(z.object({ sku: z.string(), qty: z.number().int().nullish() })).nullish(),
      kind: z.enum(['a', 'b']).nullish(),
    });
    const json = toolInputSchema(schema);
    const text = JSON.stringify(json);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(json.properties).toMatchObject({
      note: { type: ['string', 'null'], maxLength: 20 },
      lines: { type: ['array', 'null'], items: { properties: { qty: { type: ['integer', 'null'] } } } },
    });
    // An enum would reject the null if it were merged into its type: that branch stays an anyOf.
    expect(json.properties).toMatchObject({ kind: { anyOf: [{ enum: ['a', 'b'] }, { type: 'null' }] } });
    expect(text.length).toBeLessThan(JSON.stringify(z.toJSONSchema(schema)).length);
  });
});
