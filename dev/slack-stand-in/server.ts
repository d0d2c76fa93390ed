// The sandbox's HTTP side: the Web API at /api/<method> (what WebClient's slackApiUrl points at), file downloads at
// /files/<id>/<name>, the pre-signed upload URLs, response_url endpoints and, for an app distributed with OAuth, the
// authorize page at /oauth/v2/authorize. One in-process server on 127.0.0.1. It holds one workspace, or more
// (`addTeam`); a token reaches only the workspace it was issued for.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { appendCallLog, RESPONSE_URL_METHOD } from './call-log.js';
import { SlackDriver } from './driver.js';
import { describeFault, Faults, type Fault } from './faults.js';
import { uploadedBytes } from './files.js';
import { type Json, type ModelOptions, SlackModel, type SandboxCall } from './model.js';
import { basicCredentials, SandboxOAuth, type SandboxInstallation } from './oauth.js';
import { applyResponse } from './response-url.js';
import { isRecord } from './shapes.js';
import {
  type ChannelTranscript,
  channelJson,
  renderThread,
  threadJson,
  type TranscriptMessage,
  type TranscriptOptions,
} from './transcript.js';
import { readManifest } from './scopes.js';
import { callMethod, decodeArgs, type MethodResult, type WebApiContext } from './web-api.js';

const usersSchema = z
  .array(
    z.object({
      id: z.string().regex(/^[UW][A-Z0-9]+$/),
      name: z.string().min(1),
      realName: z.string().optional(),
      /** An external org's person (Slack Connect); default: the sandbox team. */
      teamId: z
        .string()
        .regex(/^T[A-Z0-9]+$/)
        .optional(),
    }),
  )
  .default([]);

const channelsSchema = z
  .array(
    z.object({
      id: z.string().regex(/^[CG][A-Z0-9]+$/),
      name: z.string().min(1),
      private: z.boolean().default(false),
      /** People in the channel; the bot is added unless `botMember` is false. */
      members: z.array(z.string()).default([]),
      botMember: z.boolean().default(true),
      /** A Slack Connect channel shared with an external org (hosted by it when `hostedByExternal`). */
      sharedWith: z
        .object({ teamId: z.string().regex(/^T[A-Z0-9]+$/), hostedByExternal: z.boolean().default(true) })
        .optional(),
    }),
  )
  .default([]);

/** Another workspace in the same sandbox (`addTeam`), with its own people, channels and bot user. */
const teamSchema = z.object({
  id: z.string().regex(/^T[A-Z0-9]+$/),
  name: z.string().min(1),
  domain: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .optional(),
  botUserId: z
    .string()
    .regex(/^[UW][A-Z0-9]+$/)
    .optional(),
  botId: z
    .string()
    .regex(/^B[A-Z0-9]+$/)
    .optional(),
  users: usersSchema,
  channels: channelsSchema,
});

export type NewSandboxTeam = z.input<typeof teamSchema>;

const optionsSchema = z.object({
  teamId: z
    .string()
    .regex(/^T[A-Z0-9]+$/)
    .default('T0SANDBOX1'),
  teamName: z.string().min(1).default('Sandbox'),
  teamDomain: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .default('sandbox'),
  botToken: z.string().min(1).default('xoxb-sandbox-token'),
  botUserId: z
    .string()
    .regex(/^[UW][A-Z0-9]+$/)
    .default('U0PARLEYBOT'),
  botId: z
    .string()
    .regex(/^B[A-Z0-9]+$/)
    .default('B0PARLEYBOT'),
  botName: z.string().min(1).default('Parley'),
  appId: z
    .string()
    .regex(/^A[A-Z0-9]+$/)
    .default('A0PARLEYAPP'),
  signingSecret: z.string().min(1).default('sandbox-signing-secret'),
  users: usersSchema,
  channels: channelsSchema,
  /**
   * The app is distributed with OAuth: no token is valid until someone installs it through /oauth/v2/authorize and the
   * app trades the code with oauth.v2.access; each workspace installed gets its own bot token (`botToken` is unused).
   * `redirectUrl` is the app's configured redirect URL.
   */
  oauth: z
    .object({ clientId: z.string().min(1), clientSecret: z.string().min(1), redirectUrl: z.url().optional() })
    .optional(),
  /**
   * The bot scopes the app was installed with; default: manifest.yml's `oauth_config.scopes.bot`. A call without its
   * method's scope fails `missing_scope`, as Slack answers it.
   */
  scopes: z.array(z.string().min(1)).optional(),
  /** The bot events the app subscribes to; default: manifest.yml's. Slack sends no other event. */
  botEvents: z.array(z.string().min(1)).optional(),
  eventsUrl: z.url().optional(),
  callLogPath: z.string().min(1).optional(),
  seed: z.number().int().default(1),
  /** Epoch milliseconds; a test can pass a fake clock (message ts, trigger expiry and the call log follow it). */
  clock: z.custom<() => number>((v) => typeof v === 'function').optional(),
  /** How long a trigger_id stays valid (Slack: 3 seconds). */
  triggerTtlMs: z.number().int().positive().default(3000),
  /** Send the app the events Slack sends about its own posts (bot messages, file_shared for its uploads). */
  echoBotEvents: z.boolean().default(false),
  /**
   * Answer files.completeUploadExternal with whole file objects, the new share included. Slack shares an upload
   * asynchronously, so its answer may or may not name the share yet; by default it answers `{ id, title }` alone.
   */
  uploadAnswerNamesShare: z.boolean().default(false),
});

export type SlackSandboxOptions = z.input<typeof optionsSchema>;

/** One workspace of the sandbox: its model and the driver that plays its people. */
export interface SandboxTeam {
  model: SlackModel;
  driver: SlackDriver;
  waitFor<T>(probe: () => T | undefined | null | false, options?: { timeoutMs?: number; what?: string }): Promise<T>;
}

export interface SlackSandbox {
  /** `http://127.0.0.1:PORT/api/`, for WebClient's `slackApiUrl`. */
  apiUrl: string;
  /** `http://127.0.0.1:PORT`. */
  baseUrl: string;
  /** The first workspace's bot token (not valid with `oauth`: there every token comes from an install). */
  botToken: string;
  signingSecret: string;
  /** The first workspace's driver and model. */
  driver: SlackDriver;
  model: SlackModel;
  faults: Faults;
  setEventsUrl(url: string): void;
  /** Another workspace, where the app is not installed until someone installs it (OAuth). */
  addTeam(team: NewSandboxTeam): SandboxTeam;
  team(teamId: string): SandboxTeam | undefined;
  /** The app's installation in a workspace (its bot token and scopes), if it is installed there. */
  installation(teamId: string): SandboxInstallation | undefined;
  renderThread(channel: string, threadTs: string, options?: TranscriptOptions): string;
  threadJson(channel: string, threadTs: string, options?: TranscriptOptions): TranscriptMessage[];
  /** A channel's every message as its members read it (the demo's `--json` `channels`). */
  channelJson(channel: string): ChannelTranscript;
  /** Resolves with the first truthy value `probe` returns after a model change, or rejects after `timeoutMs`. */
  waitFor<T>(probe: () => T | undefined | null | false, options?: { timeoutMs?: number; what?: string }): Promise<T>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

/** Arguments from the query string and a form-encoded, multipart or JSON body, as Slack accepts all of them. */
async function readArgs(req: IncomingMessage, url: URL): Promise<Json> {
  const args: Json = Object.fromEntries(url.searchParams.entries());
  if (req.method !== 'POST') return args;
  const body = await readBody(req);
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) {
    const text = body.toString('utf8');
    if (text.trim() === '') return args;
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) Object.assign(args, parsed);
  } else if (type.startsWith('multipart/form-data')) {
    const form = await new Request('http://sandbox.invalid/', {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    })
      .formData()
      .catch(() => new FormData());
    for (const [key, value] of form.entries()) if (typeof value === 'string') args[key] = value;
  } else {
    for (const [key, value] of new URLSearchParams(body.toString('utf8')).entries()) args[key] = value;
  }
  return args;
}

function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startSlackSandbox(input: SlackSandboxOptions = {}): Promise<SlackSandbox> {
  const options = optionsSchema.parse(input);
  const clock = options.clock ?? (() => Date.now());
  const manifest = options.scopes === undefined || options.botEvents === undefined ? readManifest() : undefined;
  const scopes = new Set(options.scopes ?? manifest?.scopes ?? []);
  const botEvents = new Set(options.botEvents ?? manifest?.botEvents ?? []);
  const faults = new Faults(options.seed);
  let eventsUrl = options.eventsUrl;
  let baseUrl = '';
  const teams = new Map<string, SandboxTeam>();
  /** A person's own workspace: the one whose model holds them as a member of it (not as an external guest). */
  const homeOf = (userId: string): SlackModel | undefined =>
    [...teams.values()].find(({ model }) => model.users.get(userId)?.teamId === model.teamId)?.model;
  const oauth = new SandboxOAuth(
    options.oauth && { ...options.oauth, scopes },
    (teamId) => teams.get(teamId)?.model,
    homeOf,
    clock,
  );

  /** What a call with the installation's token may do in its workspace: the scopes it was installed with. */
  const api = (model: SlackModel) => (): WebApiContext => ({
    model,
    baseUrl,
    triggerTtlMs: options.triggerTtlMs,
    uploadAnswerNamesShare: options.uploadAnswerNamesShare,
    scopes: oauth.installationOf(model.teamId)?.scopes ?? scopes,
    onBotPost: (message) => {
      if (options.echoBotEvents) teams.get(model.teamId)?.driver.echoBotPost(message);
    },
  });

  const addTeam = (model: SlackModel): SandboxTeam => {
    if (teams.has(model.teamId)) throw new Error(`the sandbox already has team ${model.teamId}`);
    const driver = new SlackDriver({
      model,
      signingSecret: options.signingSecret,
      eventsUrl: () => eventsUrl,
      api: api(model),
      botEvents,
      uninstall: () => oauth.uninstall(model.teamId),
    });
    const team: SandboxTeam = {
      model,
      driver,
      waitFor: (probe, waitOptions = {}) => waitFor(model, probe, waitOptions),
    };
    teams.set(model.teamId, team);
    return team;
  };

  const { model, driver } = addTeam(
    new SlackModel({
      teamId: options.teamId,
      teamName: options.teamName,
      teamDomain: options.teamDomain,
      botUserId: options.botUserId,
      botId: options.botId,
      botName: options.botName,
      appId: options.appId,
      ...people(options, options.botUserId),
      clock,
    }),
  );
  if (!options.oauth) {
    oauth.preinstall({ teamId: options.teamId, token: options.botToken, scopes, installerUserId: undefined });
  }

  /** Lists a call as it arrives (a hanging call is visible while it waits); `finish` fills in how it ended. */
  const arrive = (on: SlackModel, method: string, args: Json, atMs: number, fault?: Fault): SandboxCall => {
    const call: SandboxCall = { at: new Date(atMs).toISOString(), atMs, method, args, ok: false, status: 0 };
    if (fault !== undefined) call.fault = describeFault(fault);
    on.addCall(call);
    return call;
  };

  const finish = (on: SlackModel, call: SandboxCall, end: { status: number; ok: boolean; error?: string }): void => {
    call.status = end.status;
    call.ok = end.ok;
    if (end.error !== undefined) call.error = end.error;
    call.doneAtMs = clock();
    if (options.callLogPath !== undefined) appendCallLog(options.callLogPath, call);
    on.changed();
  };

  /** The workspace a token reaches, or Slack's answer to a call without a valid one. */
  const authenticate = (token: string | undefined): { team: SandboxTeam } | { refused: MethodResult } => {
    if (token === undefined || token === '') return { refused: { ok: false, error: 'not_authed' } };
    const installation = oauth.installationOfToken(token);
    const team = installation && teams.get(installation.teamId);
    return team ? { team } : { refused: { ok: false, error: 'invalid_auth' } };
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, url: URL, method: string): Promise<void> => {
    const atMs = clock();
    let raw: Json;
    try {
      raw = await readArgs(req, url);
    } catch {
      sendJson(res, 200, { ok: false, error: 'invalid_json' });
      const call = arrive(model, method, {}, atMs);
      finish(model, call, { status: 200, ok: false, error: 'invalid_json' });
      return;
    }
    const token = bearer(req) ?? (typeof raw.token === 'string' ? raw.token : undefined);
    const args = Object.fromEntries(Object.entries(raw).filter(([key]) => key !== 'token'));
    // oauth.v2.access is called without a token (the app's credentials instead); other calls reach the token's
    // workspace, and are listed there. A call that reaches none is listed in the first.
    const tokenless = method === 'oauth.v2.access';
    const auth = tokenless ? undefined : authenticate(token);
    const on = auth !== undefined && 'team' in auth ? auth.team.model : model;
    // The client secret is never logged.
    const logged = loggable(tokenless ? { ...args, client_secret: '…' } : args);
    const fault = faults.take(method, logged);
    const call = arrive(on, method, logged, atMs, fault);
    const run = (): MethodResult => {
      if (tokenless) return oauth.access({ ...args, ...basicCredentials(req.headers.authorization) });
      if (auth === undefined || 'refused' in auth) return auth?.refused ?? { ok: false, error: 'not_authed' };
      return callMethod(api(auth.team.model)(), method, args);
    };
    const granted = oauth.installationOfToken(token ?? '')?.scopes ?? new Set<string>();
    // The client may have given up and closed the connection; the call still counts as answered.
    const answer = (status: number, result: MethodResult, headers: Record<string, string> = {}): void => {
      // Slack names the token's scopes on every answer (the WebClient logs them on missing_scope).
      const scopeHeaders = { 'x-oauth-scopes': [...granted].join(','), ...headers };
      if (!res.destroyed) sendJson(res, status, result, scopeHeaders);
      finish(on, call, { status, ...outcome(result) });
    };
    if (fault === undefined) return answer(200, run());
    if ('status' in fault) {
      const error = fault.status === 429 ? 'ratelimited' : 'internal_error';
      const headers: Record<string, string> =
        fault.status === 429 ? { 'retry-after': String(fault.retryAfterSeconds) } : {};
      return answer(fault.status, { ok: false, error }, headers);
    }
    if ('error' in fault) return answer(200, { ok: false, error: fault.error });
    const early = fault.apply === 'first' ? run() : undefined;
    await sleep(fault.hangMs);
    if (fault.apply === 'never') {
      res.destroy();
      finish(on, call, { status: 0, ok: false });
      return;
    }
    answer(200, early ?? run());
  };

  const handleFile = (req: IncomingMessage, res: ServerResponse, fileId: string): void => {
    // url_private_download needs a bot token, like Slack; without it Slack serves a login page, here a 403. The file
    // is looked up in the token's workspace only.
    const auth = authenticate(bearer(req));
    if (!('team' in auth)) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('forbidden: url_private_download needs Authorization: Bearer <bot token>');
      return;
    }
    const team = auth.team.model;
    const file = team.file(fileId);
    if (!file || file.bytes === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('file not found');
      return;
    }
    // Slack serves a file only to a token that may see it: files:read, and the file shared in a conversation the bot
    // is in (https://docs.slack.dev/messaging/working-with-files — "Authentication"; the app gets only what its
    // bot can see). Anything else is not served.
    if (!api(team)().scopes.has('files:read') || !team.botCanSeeFile(file)) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('forbidden: the bot is not in a conversation this file is shared in (or lacks files:read)');
      return;
    }
    res.writeHead(200, { 'content-type': file.mimetype, 'content-length': String(file.bytes.length) });
    res.end(file.bytes);
  };

  const handleUpload = async (req: IncomingMessage, res: ServerResponse, url: URL, fileId: string) => {
    const on = [...teams.values()].find((team) => team.model.file(fileId))?.model;
    const file = on?.file(fileId);
    const body = await readBody(req);
    if (!on || !file || url.searchParams.get('k') !== file.uploadSecret) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('upload url not found');
      return;
    }
    const bytes = await uploadedBytes(req.headers['content-type'], body);
    file.bytes = bytes;
    file.size = bytes.length;
    on.changed();
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`OK - ${bytes.length}`);
  };

  const handleResponseUrl = async (req: IncomingMessage, res: ServerResponse, id: string) => {
    const atMs = clock();
    const on = [...teams.values()].find((team) => team.model.responseUrls.has(id))?.model;
    const target = on?.responseUrls.get(id);
    const text = (await readBody(req)).toString('utf8');
    if (!on || !target) {
      sendJson(res, 404, { ok: false, error: 'expired_url' });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      sendJson(res, 400, { ok: false, error: 'invalid_json' });
      return;
    }
    const result = applyResponse(on, target, body);
    sendJson(res, 200, result);
    const args = isRecord(body) ? body : {};
    finish(on, arrive(on, RESPONSE_URL_METHOD, args, atMs), { status: 200, ...outcome(result) });
  };

  /** Slack's authorize page, consent given at once by the signed-in person (oauth.ts). */
  const handleAuthorize = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    const answer = oauth.authorize(url.searchParams, req.headers.cookie);
    if (answer.status === 302) {
      res.writeHead(302, { location: answer.location });
      res.end();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'text/plain' });
    res.end(`Slack cannot install this app: ${answer.error}`);
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const parts = url.pathname.split('/').filter(Boolean);
    const route = async () => {
      if (parts[0] === 'api' && parts.length === 2 && parts[1]) return handleApi(req, res, url, parts[1]);
      if (parts[0] === 'files' && parts[1] && req.method === 'GET') return handleFile(req, res, parts[1]);
      if (parts[0] === 'upload' && parts[1] && req.method === 'POST') return handleUpload(req, res, url, parts[1]);
      if (parts[0] === 'response' && parts[1] && req.method === 'POST') return handleResponseUrl(req, res, parts[1]);
      if (url.pathname === '/oauth/v2/authorize' && req.method === 'GET') return handleAuthorize(req, res, url);
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    };
    route().catch((error: unknown) => {
      // A sandbox bug, not a Slack answer: say so loudly rather than pretend Slack failed.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`sandbox error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    apiUrl: `${baseUrl}/api/`,
    baseUrl,
    botToken: options.botToken,
    signingSecret: options.signingSecret,
    driver,
    model,
    faults,
    setEventsUrl(url: string) {
      eventsUrl = url;
    },
    addTeam(input: NewSandboxTeam) {
      const team = teamSchema.parse(input);
      const suffix = team.id.slice(1);
      const botUserId = team.botUserId ?? `U0BOT${suffix}`;
      return addTeam(
        new SlackModel({
          teamId: team.id,
          teamName: team.name,
          teamDomain: team.domain ?? team.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
          botUserId,
          botId: team.botId ?? `B0BOT${suffix}`,
          botName: options.botName,
          appId: options.appId,
          ...people(team, botUserId),
          clock,
          idOffset: teams.size * 1e9,
        }),
      );
    },
    team: (teamId) => teams.get(teamId),
    installation: (teamId) => oauth.installationOf(teamId),
    renderThread: (channel, threadTs, transcriptOptions) => renderThread(model, channel, threadTs, transcriptOptions),
    threadJson: (channel, threadTs, transcriptOptions) => threadJson(model, channel, threadTs, transcriptOptions),
    channelJson: (channel) => channelJson(model, channel),
    waitFor: (probe, waitOptions = {}) => waitFor(model, probe, waitOptions),
    async close() {
      await Promise.all([...teams.values()].map((team) => team.driver.idle()));
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/** A workspace's people and channels as the model takes them (the bot added to channels it is a member of). */
function people(
  team: { users: z.infer<typeof usersSchema>; channels: z.infer<typeof channelsSchema> },
  botUserId: string,
): Pick<ModelOptions, 'users' | 'channels'> {
  return {
    users: team.users.map((u) => ({
      id: u.id,
      name: u.name,
      realName: u.realName ?? u.name,
      isBot: false,
      teamId: u.teamId,
    })),
    channels: team.channels.map((c) => ({
      id: c.id,
      name: c.name,
      isPrivate: c.private,
      members: c.botMember ? [...c.members, botUserId] : c.members,
      sharedWith: c.sharedWith,
    })),
  };
}

/** The arguments with their JSON fields decoded, so the log reads as objects; left raw when they do not parse. */
function loggable(args: Json): Json {
  try {
    return decodeArgs(args);
  } catch {
    return args;
  }
}

function outcome(result: MethodResult): { ok: boolean; error?: string } {
  return result.ok ? { ok: true } : { ok: false, error: result.error };
}

function waitFor<T>(
  model: SlackModel,
  probe: () => T | undefined | null | false,
  options: { timeoutMs?: number; what?: string },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const check = (): boolean => {
      const value = probe();
      if (value === undefined || value === null || value === false) return false;
      cleanup();
      resolve(value);
      return true;
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out after ${options.timeoutMs ?? 5000}ms waiting for ${options.what ?? 'the sandbox'}`));
    }, options.timeoutMs ?? 5000);
    const unsubscribe = model.onChange(() => {
      check();
    });
    const cleanup = () => {
      clearTimeout(timer);
      unsubscribe();
    };
    check();
  });
}
