// A local stand-in for Anthropic's Messages API (POST /v1/messages), so the real SDK can be exercised in tests and
// benchmarks without the network: scripted tool-use answers, usage figures, 429/529/500, slow replies, bad JSON.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ClaudeOptions, createClaudeLlm, type Llm } from './llm.js';

export interface RecordedRequest {
  model: string;
  system: string;
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
  /** The most requests that were open at the same time. */
  readonly peakConcurrency: number;
  close(): Promise<void>;
}

export async function startFakeMessagesApi(respond: FakeResponder): Promise<FakeMessagesApi> {
  const requests: RecordedRequest[] = [];
  let open = 0;
  let peak = 0;
  const server: Server = createServer(async (req, res) => {
    open++;
    peak = Math.max(peak, open);
    res.on('close', () => open--);
    const body = JSON.parse(await readBody(req)) as RecordedRequest;
    const index = requests.push(body) - 1;
    const reply = respond(body, index);
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };
    const delay = 'delayMs' in reply && reply.delayMs ? reply.delayMs : 0;
    if (delay) await sleep(delay);
    switch (reply.kind) {
      case 'tool': {
        const name = reply.name ?? body.tool_choice?.name ?? body.tools?.[0]?.name ?? 'tool';
        send(200, message(body, [{ type: 'tool_use', id: `toolu_${index}`, name, input: reply.input }], reply));
        return;
      }
      case 'text':
        send(200, message(body, [{ type: 'text', text: reply.text }], reply));
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
        send(200, message(body, [{ type: 'text', text: 'too late' }], {}));
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

/** Roughly what the API would count: ~4 characters a token. */
export function estimateTokens(request: RecordedRequest): number {
  return Math.ceil((request.system.length + JSON.stringify(request.messages).length) / 4);
}

function message(
  request: RecordedRequest,
  content: unknown[],
  usage: { inputTokens?: number; outputTokens?: number },
): unknown {
  return {
    id: `msg_fake`,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content,
    stop_reason: content.some((block) => (block as { type: string }).type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: usage.inputTokens ?? estimateTokens(request),
      output_tokens: usage.outputTokens ?? Math.ceil(JSON.stringify(content).length / 4),
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

/** The real Claude client wired to a fresh fake Messages API: what every Claude-path test starts from. */
export async function startFakeClaude(
  respond: FakeResponder,
  options: Partial<Pick<ClaudeOptions, 'timeoutMs' | 'maxRetries' | 'onUsage'>> = {},
): Promise<{ api: FakeMessagesApi; llm: Llm }> {
  const api = await startFakeMessagesApi(respond);
  const llm = createClaudeLlm({
    apiKey: 'test-key',
    baseURL: api.url,
    fastModel: 'claude-haiku-4-5-20251001',
    reasoningModel: 'claude-sonnet-4-5-20250929',
    timeoutMs: options.timeoutMs ?? 5_000,
    maxRetries: options.maxRetries ?? 0,
    fastConcurrency: 3,
    reasoningConcurrency: 2,
    onUsage: options.onUsage,
  });
  return { api, llm };
}
