import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { costUsd } from './cost.js';
import { type FakeMessagesApi, type FakeReply, startFakeClaude } from './fake-messages-api.js';
import { LlmError, type LlmUsage } from './llm.js';

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

  async function llmAnswering(replies: FakeReply[], extra: { timeoutMs?: number; maxRetries?: number } = {}) {
    const usage: LlmUsage[] = [];
    const fake = await startFakeClaude((_request, index) => replies[Math.min(index, replies.length - 1)] as FakeReply, {
      timeoutMs: extra.timeoutMs,
      maxRetries: extra.maxRetries ?? 2,
      onUsage: (entry) => usage.push(entry),
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
      expect.objectContaining({ purpose: 'test.answer', inputTokens: 1000, outputTokens: 100, outcome: 'ok' }),
    ]);
    expect(usage[0]?.costUsd).toBeCloseTo(0.0015, 10); // Haiku: $1 in + $5 out per 1M
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
    expect(costUsd('claude-sonnet-4-5-20250929', 1_000_000, 1_000_000)).toBe(18);
    expect(costUsd('claude-haiku-4-5-20251001', 2_000, 400)).toBeCloseTo(0.004, 10);
  });
  it('prices an unknown model as the dearest known one', () => {
    expect(costUsd('some-future-model', 1_000_000, 0)).toBe(3);
  });
});
