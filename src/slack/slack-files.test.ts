// Reading a shared file from Slack against a real local HTTP server (and a real WebClient for files.info): the bytes
// arrive, a huge file is cut off at the limit, and a Slack that stops answering — before the headers, in the middle of
// the body, or on files.info — ends in a SlackFileTimeoutError soon after the deadline instead of a reader that waits.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadSlackFile, SlackFileTimeoutError, slackFileInfo } from './slack-files.js';

const TOKEN = 'xoxb-files-test';
const TIMEOUT_MS = 300;

let server: Server;
let base: string;
const seenAuth: string[] = [];

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/files/quote.xlsx': (_req, res) => res.end(Buffer.from('xlsx bytes')),
  '/files/huge.xlsx': (_req, res) => res.end(Buffer.alloc(64 * 1024, 1)),
  '/files/gone.xlsx': (_req, res) => res.writeHead(404).end(),
  // Never answers: Slack's file server hanging before the headers.
  '/files/silent.xlsx': () => {},
  // The headers, one chunk, then nothing: a download that stalls half way.
  '/files/trickle.xlsx': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write(Buffer.from('PK'));
  },
  '/silent/files.info': () => {},
  '/api/files.info': (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true, file: { id: 'F0FILES001', name: 'quote.xlsx', filetype: 'xlsx', size: 10 } }));
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    seenAuth.push(req.headers.authorization ?? '');
    const route = routes[(req.url ?? '').split('?')[0] ?? ''];
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const limits = { maxBytes: 1024, timeoutMs: TIMEOUT_MS };

async function timed<T>(work: () => Promise<T>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await work().then(
    () => null,
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

describe('downloadSlackFile', () => {
  it('downloads the bytes with the bot token', async () => {
    const bytes = await downloadSlackFile(`${base}/files/quote.xlsx`, TOKEN, limits);
    expect(bytes.toString()).toBe('xlsx bytes');
    expect(seenAuth.at(-1)).toBe(`Bearer ${TOKEN}`);
  });

  it('stops one byte past the limit, so the reader can say the file is too large', async () => {
    const bytes = await downloadSlackFile(`${base}/files/huge.xlsx`, TOKEN, limits);
    expect(bytes.length).toBe(limits.maxBytes + 1);
  });

  it('fails plainly on an HTTP error (not a timeout)', async () => {
    const { error } = await timed(() => downloadSlackFile(`${base}/files/gone.xlsx`, TOKEN, limits));
    expect(error).not.toBeInstanceOf(SlackFileTimeoutError);
    expect(String(error)).toContain('HTTP 404');
  });

  it('gives up on a server that never answers, soon after the deadline', async () => {
    const { error, ms } = await timed(() => downloadSlackFile(`${base}/files/silent.xlsx`, TOKEN, limits));
    expect(error).toBeInstanceOf(SlackFileTimeoutError);
    expect(error).toMatchObject({ step: 'download', timeoutMs: TIMEOUT_MS });
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(TIMEOUT_MS + 1500);
  });

  it('gives up on a download that stalls after its first bytes', async () => {
    const { error, ms } = await timed(() => downloadSlackFile(`${base}/files/trickle.xlsx`, TOKEN, limits));
    expect(error).toBeInstanceOf(SlackFileTimeoutError);
    expect(error).toMatchObject({ step: 'download' });
    expect(ms).toBeLessThan(TIMEOUT_MS + 1500);
  });
});

describe('slackFileInfo', () => {
  it('reads what files.info says', async () => {
    const client = new WebClient(TOKEN, { slackApiUrl: `${base}/api/`, retryConfig: { retries: 0 } });
    const info = await slackFileInfo(client, 'F0FILES001', TIMEOUT_MS);
    expect(info).toMatchObject({ id: 'F0FILES001', name: 'quote.xlsx', filetype: 'xlsx', sizeBytes: 10 });
  });

  it('gives up on a files.info Slack does not answer, though the WebClient would keep waiting and retrying', async () => {
    // The client's own timeout and retries would take minutes; `${slackApiUrl}files.info` never answers here.
    const silent = new WebClient(TOKEN, {
      slackApiUrl: `${base}/silent/`,
      timeout: 60_000,
      retryConfig: { retries: 5 },
    });
    const { error, ms } = await timed(() => slackFileInfo(silent, 'F0FILES001', TIMEOUT_MS));
    expect(error).toBeInstanceOf(SlackFileTimeoutError);
    expect(error).toMatchObject({ step: 'info', timeoutMs: TIMEOUT_MS });
    expect(ms).toBeLessThan(TIMEOUT_MS + 1500);
  });
});
