// The one door to Claude. Callers ask for structured output against a zod schema (tool use with a forced tool),
// get validated data back or an LlmError — and then fall back to their offline twin. The SDK retries 408/409/429/5xx
// (529 included) and timeouts with backoff, honouring Retry-After; here we add validation retries, per-model
// concurrency limits and usage accounting.
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { Env } from '../config/env.js';
import { costUsd } from './cost.js';
import { Semaphore } from './semaphore.js';

export type ModelTier = 'fast' | 'reasoning';

export interface LlmUsage {
  purpose: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
  /** ok; invalid (output failed validation on every attempt); error (the API failed after the SDK's retries). */
  outcome: 'ok' | 'invalid' | 'error';
}

export interface StructuredRequest<T> {
  tier: ModelTier;
  /** What the call is for, e.g. "quotation.structure"; AI usage is reported per purpose. */
  purpose: string;
  system: string;
  prompt: string;
  /** The tool Claude must call; its input is the structured answer. */
  toolName: string;
  toolDescription: string;
  schema: z.ZodType<T>;
  maxTokens: number;
}

export interface Llm {
  structured<T>(request: StructuredRequest<T>): Promise<T>;
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
    async structured<T>(request: StructuredRequest<T>): Promise<T> {
      const { model, gate } = models[request.tier];
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: request.prompt }];
      const tool: Anthropic.Tool = {
        name: request.toolName,
        description: request.toolDescription,
        input_schema: toolInputSchema(request.schema),
      };
      for (let attempt = 0; ; attempt++) {
        const started = performance.now();
        const report = (outcome: LlmUsage['outcome'], usage?: Anthropic.Usage) =>
          options.onUsage?.({
            purpose: request.purpose,
            model,
            inputTokens: usage?.input_tokens ?? 0,
            outputTokens: usage?.output_tokens ?? 0,
            costUsd: usage ? costUsd(model, usage.input_tokens, usage.output_tokens) : 0,
            latencyMs: Math.round(performance.now() - started),
            outcome,
          });

        let response: Anthropic.Message;
        try {
          response = await gate.run(() =>
            client.messages.create({
              model,
              max_tokens: request.maxTokens,
              system: request.system,
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
        // Show the model its own output and what was wrong with it; the next attempt usually fixes it.
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

/** The JSON schema Claude sees for a zod schema (draft 2020-12 minus the keys the API does not accept). */
export function toolInputSchema(schema: z.ZodType): Anthropic.Tool.InputSchema {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<
    string,
    unknown
  >;
  return { ...json, type: 'object' };
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
