// A local stand-in for Anthropic's Messages API (POST /v1/messages), so the real SDK can be exercised in tests and
// benchmarks without the network: scripted tool-use answers, usage figures, 429/529/500, slow replies, bad JSON — and
// prompt caching as the API bills it (prompt-cache.ts), so a cost measured here is the cost the API would charge.
//
// Token counting (POST /v1/messages/count_tokens, the SDK's `client.messages.countTokens`) follows the rule the usage
// figures follow, so a count and a bill agree: `input_tokens` is `promptTokens(promptBlocks(request))` — every tool's
// definition, the tool-use system prompt the API adds when there are tools (313 tokens with a forced tool, 346
// otherwise: tokens.ts), the system prompt and every message, each estimated by character class (tokens.ts). The
// count is what a call with that prompt would bill as input + cache writes + cache reads. Counting answers no
// scripted reply and is not recorded in `requests`; it is recorded in `counted`.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadEnv } from '../../src/config/env.js';
import { type ClaudeOptions, createClaudeLlm, type Llm } from '../../src/llm/llm.js';
import {
  CacheLimitError,
  type CachedUsage,
  type CachePlan,
  PromptCache,
  promptBlocks,
  promptTokens,
} from '../../src/llm/prompt-cache.js';
import { estimateTokens as estimateTextTokens } from '../../src/llm/tokens.js';

export interface RecordedTextBlock {
  type: 'text';
  text: string;
  cache_control?: { type: string };
}

export interface RecordedRequest {
  model: string;
  /** A plain string, or text blocks when part of it is marked for caching. */
  system?: string | RecordedTextBlock[];
  messages: { role: string; content: unknown }[];
  tools?: { name: string; input_schema: unknown }[];
  tool_choice?: { type: string; name?: string };
  max_tokens: number;
}

export type FakeReply =
  | { kind: 'tool'; name?: string; input: unknown; inputTokens?: number; outputTokens?: number; delayMs?: number }
  | { kind: 'text'; text: string; inputTokens?: number; outputTokens?: number }
  | { kind: 'error'; status: number; type?: string; message?: string; delayMs?: number }
  /** Answers nothing for this long (the client's timeout should fire first). */
  | { kind: 'hang'; ms: number }
  /** A 200 whose body is not JSON. */
  | { kind: 'garbage' };

export type FakeResponder = (request: RecordedRequest, index: number) => FakeReply;

export interface FakeMessagesApi {
  url: string;
  requests: RecordedRequest[];
  /** The prompts sent to count_tokens, in order. */
  counted: RecordedRequest[];
  /** The most requests that were open at the same time. */
  readonly peakConcurrency: number;
  close(): Promise<void>;
}

export interface FakeMessagesApiOptions {
  /** The clock cache lifetimes are measured on (tests move it to expire entries). */
  now?: () => number;
}

export async function startFakeMessagesApi(
  respond: FakeResponder,
  options: FakeMessagesApiOptions = {},
): Promise<FakeMessagesApi> {
  const requests: RecordedRequest[] = [];
  const counted: RecordedRequest[] = [];
  const cache = new PromptCache(options.now);
  let open = 0;
  let peak = 0;
  const server: Server = createServer(async (req, res) => {
    open++;
    peak = Math.max(peak, open);
    res.on('close', () => open--);
    const body = JSON.parse(await readBody(req)) as RecordedRequest;
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };
    if (req.url?.startsWith('/v1/messages/count_tokens')) {
      counted.push(body);
      send(200, { input_tokens: estimateTokens(body) });
      return;
    }
    const index = requests.push(body) - 1;
    let plan: CachePlan;
    try {
      // The cache is looked up when the request arrives; what it writes is readable once the response begins.
      plan = cache.plan(body.model, promptBlocks(body));
    } catch (error) {
      if (!(error instanceof CacheLimitError)) throw error;
      send(400, { type: 'error', error: { type: 'invalid_request_error', message: error.message } });
      return;
    }
    const reply = respond(body, index);
    const delay = 'delayMs' in reply && reply.delayMs ? reply.delayMs : 0;
    if (delay) await sleep(delay);
    switch (reply.kind) {
      case 'tool': {
        const name = reply.name ?? body.tool_choice?.name ?? body.tools?.[0]?.name ?? 'tool';
        cache.commit(plan);
        const content = [{ type: 'tool_use', id: `toolu_${index}`, name, input: reply.input }];
        send(200, message(body, content, plan.usage, reply));
        return;
      }
      case 'text':
        cache.commit(plan);
        send(200, message(body, [{ type: 'text', text: reply.text }], plan.usage, reply));
        return;
      case 'error':
        // retry-after-ms keeps the SDK's backoff short in tests.
        send(
          reply.status,
          { type: 'error', error: { type: reply.type ?? 'api_error', message: reply.message ?? 'fake error' } },
          { 'retry-after-ms': '5' },
        );
        return;
      case 'hang':
        await sleep(reply.ms);
        send(200, message(body, [{ type: 'text', text: 'too late' }], plan.usage, {}));
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"this is": not json');
        return;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    counted,
    get peakConcurrency() {
      return peak;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The prompt tokens of a request, estimated as the fake bills them (src/llm/tokens.ts): the tools, the tool-use system
 * prompt the API adds, the system prompt and the messages.
 */
export function estimateTokens(request: RecordedRequest): number {
  return promptTokens(promptBlocks(request));
}

/** The system prompt as one string, whether it was sent as a string or as text blocks. */
export function systemText(request: RecordedRequest): string {
  const system = request.system ?? '';
  return typeof system === 'string' ? system : system.map((part) => part.text).join('');
}

/** The text of a request's first user message, whether sent as a string or as text blocks. */
export function promptText(request: RecordedRequest): string {
  const content = request.messages[0]?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? content.map((part: unknown) => (isTextBlock(part) ? part.text : JSON.stringify(part))).join('')
    : '';
}

function isTextBlock(part: unknown): part is RecordedTextBlock {
  return typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text';
}

/** The reply body; scripted token counts, when a test gives them, replace the measured ones. */
function message(
  request: RecordedRequest,
  content: unknown[],
  measured: CachedUsage,
  scripted: { inputTokens?: number; outputTokens?: number },
): unknown {
  const cached = scripted.inputTokens === undefined;
  return {
    id: `msg_fake`,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content,
    stop_reason: content.some((block) => (block as { type: string }).type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: scripted.inputTokens ?? measured.inputTokens,
      output_tokens: scripted.outputTokens ?? estimateTextTokens(JSON.stringify(content)),
      cache_creation_input_tokens: cached ? measured.cacheCreationInputTokens : 0,
      cache_read_input_tokens: cached ? measured.cacheReadInputTokens : 0,
      cache_creation: {
        ephemeral_5m_input_tokens: cached ? measured.cacheCreationInputTokens : 0,
        ephemeral_1h_input_tokens: 0,
      },
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The models Parley uses by default (env.ts), so tests exercise the ids a deployment would send. */
const DEFAULT_MODELS = (() => {
  const defaults = loadEnv({});
  return { fast: defaults.ANTHROPIC_FAST_MODEL, reasoning: defaults.ANTHROPIC_REASONING_MODEL };
})();

/** The real Claude client wired to a fresh fake Messages API: what every Claude-path test starts from. */
export async function startFakeClaude(
  respond: FakeResponder,
  options: Partial<
    Pick<ClaudeOptions, 'timeoutMs' | 'maxRetries' | 'onUsage' | 'fastModel' | 'reasoningModel'> &
      FakeMessagesApiOptions
  > = {},
): Promise<{ api: FakeMessagesApi; llm: Llm }> {
  const api = await startFakeMessagesApi(respond, { now: options.now });
  const llm = createClaudeLlm({
    apiKey: 'test-key',
    baseURL: api.url,
    fastModel: options.fastModel ?? DEFAULT_MODELS.fast,
    reasoningModel: options.reasoningModel ?? DEFAULT_MODELS.reasoning,
    timeoutMs: options.timeoutMs ?? 5_000,
    maxRetries: options.maxRetries ?? 0,
    fastConcurrency: 3,
    reasoningConcurrency: 2,
    onUsage: options.onUsage,
  });
  return { api, llm };
}
