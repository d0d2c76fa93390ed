// The one door to Claude. Callers ask for structured output against a zod schema (tool use with a forced tool),
// get validated data back or an LlmError — and then fall back to their offline twin. The SDK retries 408/409/429/5xx
// (529 included) and timeouts with backoff, honouring Retry-After; here we add validation retries, per-model
// concurrency limits, prompt-cache breakpoints where the caller marks a stable prefix, and usage accounting.
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { Env } from '../config/env.js';
import { costUsd } from './cost.js';
import { MAX_CACHE_BREAKPOINTS, minCacheableTokens, promptBlocks, promptTokens } from './prompt-cache.js';
import { Semaphore } from './semaphore.js';

export type ModelTier = 'fast' | 'reasoning';

export interface LlmUsage {
  purpose: string;
  model: string;
  /** Prompt tokens billed at the input price: the prompt minus what was read from or written to the cache. */
  inputTokens: number;
  /** Prompt tokens written to the prompt cache (billed 1.25× input). */
  cacheCreationInputTokens: number;
  /** Prompt tokens read from the prompt cache (billed 0.1× input). */
  cacheReadInputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
  /** ok; invalid (output failed validation on every attempt); error (the API failed after the SDK's retries). */
  outcome: 'ok' | 'invalid' | 'error';
}

/**
 * A piece of a prompt. `cache: true` makes everything up to the end of this piece — tools, system, messages, in that
 * order — a prompt-cache prefix (a `cache_control` breakpoint, at most 4 a request): mark the end of what the next calls
 * will repeat word for word, and put what changes after it.
 */
export interface PromptPart {
  text: string;
  cache?: boolean;
}

export interface StructuredRequest<T> {
  tier: ModelTier;
  /** What the call is for, e.g. "quotation.structure"; AI usage is reported per purpose. */
  purpose: string;
  system: string | readonly PromptPart[];
  /** The user message. */
  prompt: string | readonly PromptPart[];
  /** The tool Claude must call; its input is the structured answer. */
  toolName: string;
  toolDescription: string;
  schema: z.ZodType<T>;
  maxTokens: number;
}

export interface Llm {
  structured<T>(request: StructuredRequest<T>): Promise<T>;
  /**
   * Whether the prompt up to the request's last cache breakpoint is long enough for its tier's model to cache it: a
   * shorter prefix is processed uncached, so a prompt laid out for caching would only cost more.
   */
  cacheable(request: StructuredRequest<unknown>): boolean;
}

export class LlmError extends Error {
  override name = 'LlmError';
}

export interface ClaudeOptions {
  apiKey: string;
  baseURL?: string;
  fastModel: string;
  reasoningModel: string;
  timeoutMs: number;
  maxRetries: number;
  fastConcurrency: number;
  reasoningConcurrency: number;
  /** Extra attempts when the output fails schema validation (the error is shown to the model). */
  validationRetries?: number;
  onUsage?: (usage: LlmUsage) => void;
}

export function createClaudeLlm(options: ClaudeOptions): Llm {
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
  });
  const models: Record<ModelTier, { model: string; gate: Semaphore }> = {
    fast: { model: options.fastModel, gate: new Semaphore(options.fastConcurrency) },
    reasoning: { model: options.reasoningModel, gate: new Semaphore(options.reasoningConcurrency) },
  };
  const validationRetries = options.validationRetries ?? 1;

  return {
    cacheable(request) {
      return cachedPrefixTokens(request) >= minCacheableTokens(models[request.tier].model);
    },
    async structured<T>(request: StructuredRequest<T>): Promise<T> {
      const { model, gate } = models[request.tier];
      const { system, messages } = promptParams(request);
      const tool = toolOf(request);
      for (let attempt = 0; ; attempt++) {
        const started = performance.now();
        const report = (outcome: LlmUsage['outcome'], usage?: Anthropic.Usage) => {
          const tokens = {
            inputTokens: usage?.input_tokens ?? 0,
            outputTokens: usage?.output_tokens ?? 0,
            cacheCreationInputTokens: usage?.cache_creation_input_tokens ?? 0,
            cacheReadInputTokens: usage?.cache_read_input_tokens ?? 0,
          };
          options.onUsage?.({
            purpose: request.purpose,
            model,
            ...tokens,
            costUsd: costUsd(model, tokens),
            latencyMs: Math.round(performance.now() - started),
            outcome,
          });
        };

        let response: Anthropic.Message;
        try {
          response = await gate.run(() =>
            client.messages.create({
              model,
              max_tokens: request.maxTokens,
              system,
              messages,
              tools: [tool],
              tool_choice: { type: 'tool', name: request.toolName },
            }),
          );
        } catch (error) {
          report('error');
          throw new LlmError(`${request.purpose}: Claude call failed: ${describeApiError(error)}`, { cause: error });
        }

        const call = response.content.find(
          (block): block is Anthropic.ToolUseBlock => block.type === 'tool_use' && block.name === request.toolName,
        );
        const parsed = request.schema.safeParse(call?.input);
        if (parsed.success) {
          report('ok', response.usage);
          return parsed.data;
        }
        const problem = call ? z.prettifyError(parsed.error) : `no ${request.toolName} tool call in the response`;
        report('invalid', response.usage);
        if (attempt >= validationRetries) {
          throw new LlmError(`${request.purpose}: invalid output after ${attempt + 1} attempts: ${problem}`);
        }
        // Show the model its own output and what was wrong with it; the next attempt usually fixes it. The prompt
        // before it is unchanged, so a cached prefix still serves the retry.
        messages.push(
          { role: 'assistant', content: response.content },
          ...(call
            ? [
                {
                  role: 'user' as const,
                  content: [
                    {
                      type: 'tool_result' as const,
                      tool_use_id: call.id,
                      is_error: true,
                      content: `The input did not match the schema:\n${problem}\nCall ${request.toolName} again with corrected input.`,
                    },
                  ],
                },
              ]
            : [{ role: 'user' as const, content: `Call the ${request.toolName} tool with your answer.` }]),
        );
      }
    },
  };
}

function toolOf(request: StructuredRequest<unknown>): Anthropic.Tool {
  return {
    name: request.toolName,
    description: request.toolDescription,
    input_schema: toolInputSchema(request.schema),
  };
}

/**
 * The prompt tokens up to a request's last cache breakpoint (0 without one), estimated as the fake Messages API bills
 * them (tokens.ts): the tool, the tool-use system prompt, the system prompt and the message blocks.
 */
export function cachedPrefixTokens(request: StructuredRequest<unknown>): number {
  const blocks = wireBlocks(request);
  const last = blocks.findLastIndex((block) => block.breakpoint);
  return last < 0 ? 0 : promptTokens(blocks.slice(0, last + 1));
}

/**
 * A request's whole prompt in tokens, as the fake Messages API bills it and the benchmark counts it: the tool's
 * definition and the tool-use system prompt the API adds included, since every call pays for them.
 */
export function promptTokenEstimate(request: StructuredRequest<unknown>): number {
  return promptTokens(wireBlocks(request));
}

function wireBlocks(request: StructuredRequest<unknown>) {
  const { system, messages } = promptParams(request);
  return promptBlocks({ tools: [toolOf(request)], tool_choice: { type: 'tool' }, system, messages });
}

/**
 * The system prompt and first user message as the Messages API takes them: plain strings when nothing is cached (as
 * every caller sent before caching existed), text blocks with `cache_control` on the marked pieces otherwise.
 */
export function promptParams(request: Pick<StructuredRequest<unknown>, 'system' | 'prompt' | 'purpose'>): {
  system: string | Anthropic.TextBlockParam[];
  messages: Anthropic.MessageParam[];
} {
  const parts = (value: string | readonly PromptPart[]): readonly PromptPart[] =>
    typeof value === 'string' ? [{ text: value }] : value.filter((part) => part.text !== '' || part.cache);
  const breakpoints = [...parts(request.system), ...parts(request.prompt)].filter((part) => part.cache).length;
  if (breakpoints > MAX_CACHE_BREAKPOINTS) {
    throw new LlmError(`${request.purpose}: ${breakpoints} cache breakpoints; the API takes ${MAX_CACHE_BREAKPOINTS}`);
  }
  const blocks = (value: string | readonly PromptPart[]): string | Anthropic.TextBlockParam[] =>
    typeof value === 'string'
      ? value
      : parts(value).map((part) => ({
          type: 'text' as const,
          text: part.text,
          ...(part.cache ? { cache_control: { type: 'ephemeral' as const } } : {}),
        }));
  return { system: blocks(request.system), messages: [{ role: 'user', content: blocks(request.prompt) }] };
}

/**
 * The JSON schema Claude sees for a zod schema (draft 2020-12 minus the keys the API does not accept), compacted: the
 * schema is sent — and billed — with every call, and zod spells `.nullish()` as `anyOf` with a null branch and every
 * `.int()` with a ±2^53 bound that says nothing to the model.
 */
export function toolInputSchema(schema: z.ZodType): Anthropic.Tool.InputSchema {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<
    string,
    unknown
  >;
  return { ...(compactSchema(json) as Record<string, unknown>), type: 'object' };
}

function compactSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactSchema);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node)
    .filter(
      ([key, value]) =>
        !(key === 'maximum' && value === Number.MAX_SAFE_INTEGER) &&
        !(key === 'minimum' && value === Number.MIN_SAFE_INTEGER),
    )
    .map(([key, value]) => [key, compactSchema(value)] as const);
  const compact: Record<string, unknown> = Object.fromEntries(entries);
  const options = compact['anyOf'];
  if (Array.isArray(options) && options.length === 2 && Object.keys(compact).length === 1) {
    const isNull = (option: unknown) =>
      typeof option === 'object' && option !== null && JSON.stringify(option) === '{"type":"null"}';
    const other = options.find((option) => !isNull(option));
    // `{ type: [T, 'null'], … }` accepts exactly what `anyOf: [{ type: T, … }, { type: 'null' }]` does, unless an
    // enum or const would then reject the null.
    if (
      options.some(isNull) &&
      typeof other === 'object' &&
      other !== null &&
      typeof (other as Record<string, unknown>)['type'] === 'string' &&
      !('enum' in other) &&
      !('const' in other)
    ) {
      const typed = other as Record<string, unknown>;
      return { ...typed, type: [typed['type'], 'null'] };
    }
  }
  return compact;
}

function describeApiError(error: unknown): string {
  if (error instanceof Anthropic.APIError) return `${error.status ?? 'no status'} ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Claude when the environment has a key, otherwise null: the caller then uses its offline twin. */
export function llmFromEnv(
  env: Pick<
    Env,
    | 'ANTHROPIC_API_KEY'
    | 'ANTHROPIC_BASE_URL'
    | 'ANTHROPIC_FAST_MODEL'
    | 'ANTHROPIC_REASONING_MODEL'
    | 'LLM_TIMEOUT_MS'
    | 'LLM_MAX_RETRIES'
    | 'LLM_FAST_CONCURRENCY'
    | 'LLM_REASONING_CONCURRENCY'
  >,
  onUsage?: (usage: LlmUsage) => void,
): Llm | null {
  if (!env.ANTHROPIC_API_KEY) return null;
  return createClaudeLlm({
    apiKey: env.ANTHROPIC_API_KEY,
    baseURL: env.ANTHROPIC_BASE_URL,
    fastModel: env.ANTHROPIC_FAST_MODEL,
    reasoningModel: env.ANTHROPIC_REASONING_MODEL,
    timeoutMs: env.LLM_TIMEOUT_MS,
    maxRetries: env.LLM_MAX_RETRIES,
    fastConcurrency: env.LLM_FAST_CONCURRENCY,
    reasoningConcurrency: env.LLM_REASONING_CONCURRENCY,
    onUsage,
  });
}
