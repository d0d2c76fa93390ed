// Test support for the outbox: a minimal Slack Web API over node:http, so the real WebClient can be pointed at it.
// It keeps messages per channel (with thread_ts and metadata), records every call with its arrival time, and plays
// scripted faults: 429 with Retry-After, HTTP 5xx, `ok: false`, and answers that never come (optionally after the
// message was stored, which is what a timeout that still reached Slack looks like). The full stand-in is
// dev/slack-stand-in/; this one covers only what the poster calls, conversations.history/replies included.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FakeCall {
  method: string;
  args: Record<string, unknown>;
  /** Date.now() when the request arrived. */
  at: number;
  /** The fault that answered it, if any. */
  fault?: FakeFault['kind'];
}

export interface FakeMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text?: string;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  files?: { id: string; name: string; title: string }[];
  edits: number;
}

export type FakeFault =
  | { kind: 'ratelimited'; retryAfterSeconds: number }
  | { kind: 'status'; status: number }
  | { kind: 'error'; error: string }
  /**
   * Answers only after `ms`. `apply: 'first'`: the call takes effect at once (the message exists while the client
   * waits); `'last'`: it takes effect when the answer finally goes out (a slow Slack that still succeeds); omitted:
   * it never takes effect.
   */
  | { kind: 'hang'; ms: number; apply?: 'first' | 'last' };

interface FaultRule {
  method: string;
  fault: FakeFault;
  remaining: number;
  when?: (args: Record<string, unknown>) => boolean;
}

export interface FakeSlackWebApi {
  /** The WebClient's slackApiUrl. */
  apiUrl: string;
  calls: FakeCall[];
  callsTo(method: string): FakeCall[];
  messages(channel: string): FakeMessage[];
  views: Map<string, unknown>;
  reactions: { channel: string; timestamp: string; name: string }[];
  /** Answers the next `times` (default 1) calls of `method` matching `when` with a fault. */
  inject(
    method: string,
    fault: FakeFault,
    options?: { times?: number; when?: (args: Record<string, unknown>) => boolean },
  ): void;
  /** Puts a message in a channel as if an earlier process had posted it. */
  seedMessage(message: Omit<FakeMessage, 'ts' | 'edits'> & { ts?: string }): FakeMessage;
  close(): Promise<void>;
}

const JSON_ARGUMENTS = new Set(['blocks', 'attachments', 'metadata', 'view', 'files']);

export async function startFakeSlackWebApi(): Promise<FakeSlackWebApi> {
  const calls: FakeCall[] = [];
  const rules: FaultRule[] = [];
  const channels = new Map<string, FakeMessage[]>();
  const views = new Map<string, unknown>();
  const reactions: FakeSlackWebApi['reactions'] = [];
  const pendingUploads = new Map<string, { name: string; bytes: number }>();
  const openSockets = new Set<Socket>();
  let lastTs = 0;
  let fileCounter = 0;

  const nextTs = () => {
    lastTs = Math.max(lastTs + 1, Date.now() * 1000);
    return `${Math.floor(lastTs / 1e6)}.${String(lastTs % 1e6).padStart(6, '0')}`;
  };
  const channelMessages = (channel: string) => {
    let list = channels.get(channel);
    if (!list) channels.set(channel, (list = []));
    return list;
  };
  const store = (message: Omit<FakeMessage, 'ts' | 'edits'> & { ts?: string }): FakeMessage => {
    const stored: FakeMessage = { ...message, ts: message.ts ?? nextTs(), edits: 0 };
    channelMessages(stored.channel).push(stored);
    return stored;
  };

  type Result = Record<string, unknown>;
  const ok = (extra: Result = {}): Result => ({ ok: true, ...extra });
  const fail = (error: string): Result => ({ ok: false, error });
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

  function apply(method: string, args: Record<string, unknown>, base: string): Result {
    const channel = text(args.channel) ?? '';
    switch (method) {
      case 'auth.test':
        return ok({ user_id: 'UBOT', team_id: 'T1' });
      case 'chat.postMessage': {
        if (!channel) return fail('channel_not_found');
        if (args.blocks === 'invalid') return fail('invalid_blocks');
        const threadTs = text(args.thread_ts);
        const metadata = args.metadata as FakeMessage['metadata'];
        const message = store({ channel, text: text(args.text), ...(threadTs ? { threadTs } : {}), metadata });
        return ok({ channel, ts: message.ts, message: { ts: message.ts, text: message.text } });
      }
      case 'chat.update': {
        const message = channelMessages(channel).find((m) => m.ts === args.ts);
        if (!message) return fail('message_not_found');
        message.text = text(args.text) ?? message.text;
        message.edits++;
        return ok({ channel, ts: message.ts });
      }
      case 'chat.postEphemeral':
        return ok({ message_ts: nextTs() });
      case 'reactions.add': {
        const timestamp = text(args.timestamp) ?? '';
        if (!channelMessages(channel).some((m) => m.ts === timestamp)) return fail('message_not_found');
        const name = text(args.name) ?? '';
        if (reactions.some((r) => r.channel === channel && r.timestamp === timestamp && r.name === name)) {
          return fail('already_reacted');
        }
        reactions.push({ channel, timestamp, name });
        return ok();
      }
      case 'views.publish':
        views.set(text(args.user_id) ?? '', args.view);
        return ok({ view: { id: `V${views.size}` } });
      case 'files.getUploadURLExternal': {
        const id = `F${String(++fileCounter).padStart(6, '0')}`;
        pendingUploads.set(id, { name: text(args.filename) ?? '', bytes: Number(args.length) });
        return ok({ upload_url: `${base}/upload/${id}`, file_id: id });
      }
      case 'files.completeUploadExternal': {
        const files = (args.files ?? []) as { id: string; title?: string }[];
        const target = text(args.channel_id);
        const threadTs = text(args.thread_ts);
        const described = files.map((file) => {
          const name = pendingUploads.get(file.id)?.name ?? '';
          return { id: file.id, name, title: file.title ?? name };
        });
        if (!target) return ok({ files: described });
        const message = store({ channel: target, files: described, ...(threadTs ? { threadTs } : {}) });
        return ok({
          files: described.map((file) => ({ ...file, shares: { public: { [target]: [{ ts: message.ts }] } } })),
        });
      }
      case 'conversations.history':
      case 'conversations.replies': {
        const oldest = Number(args.oldest ?? 0);
        const withMetadata = args.include_all_metadata === 'true' || args.include_all_metadata === true;
        const inThread = method === 'conversations.replies' ? text(args.ts) : undefined;
        const found = channelMessages(channel)
          .filter((m) => (inThread ? m.ts === inThread || m.threadTs === inThread : !m.threadTs))
          .filter((m) => Number(m.ts) >= oldest)
          .map((m) => ({
            type: 'message',
            ts: m.ts,
            text: m.text ?? '',
            ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
            ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
            ...(m.files ? { files: m.files } : {}),
          }));
        // History is newest first; replies oldest first, as Slack answers them.
        return ok({ messages: inThread ? found : found.reverse(), has_more: false });
      }
      default:
        return fail('unknown_method');
    }
  }

  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (url.pathname.startsWith('/upload/')) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      return;
    }
    const method = url.pathname.replace(/^\/api\//, '');
    const args = parseArguments(req.headers['content-type'], body);
    const call: FakeCall = { method, args, at: Date.now() };
    calls.push(call);
    const rule = rules.find((r) => r.method === method && r.remaining > 0 && (!r.when || r.when(args)));
    const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      if (!res.destroyed)
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
    };
    if (rule) {
      rule.remaining--;
      call.fault = rule.fault.kind;
      const fault = rule.fault;
      switch (fault.kind) {
        case 'ratelimited':
          answer(429, fail('ratelimited'), { 'retry-after': String(fault.retryAfterSeconds) });
          return;
        case 'status':
          answer(fault.status, { ok: false, error: 'server_error' });
          return;
        case 'error':
          answer(200, fail(fault.error));
          return;
        case 'hang': {
          const early = fault.apply === 'first' ? apply(method, args, base) : null;
          await new Promise((resolve) => setTimeout(resolve, fault.ms));
          const late = fault.apply === 'last' ? apply(method, args, base) : null;
          answer(200, early ?? late ?? fail('request_timeout'));
          return;
        }
      }
    }
    answer(200, apply(method, args, base));
  });
  server.on('connection', (socket) => {
    openSockets.add(socket);
    socket.on('close', () => openSockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    calls,
    callsTo: (method) => calls.filter((call) => call.method === method),
    messages: (channel) => [...channelMessages(channel)],
    views,
    reactions,
    inject(method, fault, options = {}) {
      rules.push({ method, fault, remaining: options.times ?? 1, ...(options.when ? { when: options.when } : {}) });
    },
    seedMessage: store,
    async close() {
      for (const socket of openSockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function parseArguments(contentType: string | undefined, body: string): Record<string, unknown> {
  if (contentType?.includes('application/json')) return JSON.parse(body || '{}') as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    args[key] = JSON_ARGUMENTS.has(key) ? safeJson(value) : value;
  }
  return args;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
