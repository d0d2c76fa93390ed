// Slack's side of an OAuth v2 install (https://docs.slack.dev/authentication/installing-with-oauth): the authorize page,
// where a signed-in person approves the app for their workspace and the browser is sent back to the app's redirect URL
// with a one-time `code` and the app's `state`; and oauth.v2.access, which trades that code — with the app's client id
// and secret — for the workspace's bot token. Each installed workspace gets its own token, and a Web API call is
// served from the workspace its token belongs to (server.ts), as a Slack token only ever reaches its own workspace.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Json, SlackModel } from './model.js';
import type { MethodResult } from './web-api.js';

/** The stand-in's session cookie: who is signed in to Slack in the browser that opens the authorize page. */
export const SIGNED_IN_COOKIE = 'sandbox_user';

/** A `Cookie` header value that signs `userId` in to the stand-in's Slack (the authorize page asks who approves). */
export function signedInAs(userId: string): string {
  return `${SIGNED_IN_COOKIE}=${userId}`;
}

export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  /** The redirect URL configured for the app; an authorize request's `redirect_uri` must start with it. */
  redirectUrl?: string;
  /** The bot scopes the app may ask for (manifest.yml's). */
  scopes: ReadonlySet<string>;
}

/** The app installed in one workspace: its bot token and what it was granted. */
export interface SandboxInstallation {
  teamId: string;
  token: string;
  scopes: ReadonlySet<string>;
  installerUserId: string | undefined;
}

interface Grant {
  teamId: string;
  userId: string;
  scopes: string[];
  /** The `redirect_uri` the authorize request named (oauth.v2.access must repeat it), if any. */
  redirectUri: string | undefined;
  issuedAt: number;
  used: boolean;
}

export type AuthorizeAnswer = { status: 302; location: string } | { status: 400 | 401; error: string };

/** Slack's codes are good for 10 minutes, once (https://docs.slack.dev/authentication/installing-with-oauth). */
const CODE_TTL_MS = 10 * 60_000;

const accessArgs = z.object({
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  code: z.string().optional(),
  redirect_uri: z.string().optional(),
  grant_type: z.string().optional(),
});

export class SandboxOAuth {
  private readonly grants = new Map<string, Grant>();
  private readonly byToken = new Map<string, SandboxInstallation>();
  private readonly byTeam = new Map<string, SandboxInstallation>();

  constructor(
    /** Undefined for an app that is not distributed: it has only the token it was installed with (`preinstall`). */
    private readonly app: OAuthApp | undefined,
    private readonly workspace: (teamId: string) => SlackModel | undefined,
    private readonly homeOf: (userId: string) => SlackModel | undefined,
    private readonly clock: () => number,
  ) {}

  /** A workspace the app is already installed in with `token` (the single-workspace sandbox). */
  preinstall(installation: SandboxInstallation): void {
    this.byToken.set(installation.token, installation);
    this.byTeam.set(installation.teamId, installation);
  }

  /**
   * The app is uninstalled from the workspace (or its bot token revoked): the token stops working at once (calls with it
   * get `invalid_auth`), and a later install issues a new one.
   */
  uninstall(teamId: string): void {
    const installation = this.byTeam.get(teamId);
    if (!installation) return;
    this.byTeam.delete(teamId);
    this.byToken.delete(installation.token);
  }

  installationOfToken(token: string): SandboxInstallation | undefined {
    return this.byToken.get(token);
  }

  installationOf(teamId: string): SandboxInstallation | undefined {
    return this.byTeam.get(teamId);
  }

  /**
   * GET /oauth/v2/authorize as the signed-in person: the consent screen is skipped (the person approves at once), then
   * the browser is redirected to the app with a code for that person's workspace and the `state` it was given.
   */
  authorize(query: URLSearchParams, cookieHeader: string | undefined): AuthorizeAnswer {
    if (!this.app) return { status: 400, error: 'invalid_client_id' };
    if (query.get('client_id') !== this.app.clientId) return { status: 400, error: 'invalid_client_id' };
    const userId = cookieValue(cookieHeader, SIGNED_IN_COOKIE);
    const model = userId === undefined ? undefined : this.homeOf(userId);
    if (userId === undefined || !model) return { status: 401, error: 'not_signed_in' };
    const team = query.get('team');
    if (team && team !== model.teamId) return { status: 400, error: 'team_mismatch' };
    const scopes = (query.get('scope') ?? '').split(',').filter((s) => s !== '');
    if (scopes.length === 0) return { status: 400, error: 'no_scopes' };
    if (scopes.some((scope) => !this.app?.scopes.has(scope))) return { status: 400, error: 'invalid_scope' };
    const redirectUri = query.get('redirect_uri') ?? undefined;
    const target = redirectUri ?? this.app.redirectUrl;
    if (target === undefined) return { status: 400, error: 'no_redirect_uri' };
    if (this.app.redirectUrl === undefined || !target.startsWith(this.app.redirectUrl)) {
      return { status: 400, error: 'bad_redirect_uri' };
    }
    const code = `${model.teamId}.${Math.floor(this.clock() / 1000)}.${randomBytes(16).toString('hex')}`;
    this.grants.set(code, { teamId: model.teamId, userId, scopes, redirectUri, issuedAt: this.clock(), used: false });
    const location = new URL(target);
    location.searchParams.set('code', code);
    const state = query.get('state');
    if (state !== null) location.searchParams.set('state', state);
    return { status: 302, location: location.toString() };
  }

  /**
   * oauth.v2.access: a code for the workspace's bot token, answered as Slack documents it
   * (https://docs.slack.dev/reference/methods/oauth.v2.access — "Response"; errors invalid_client_id,
   * bad_client_secret, invalid_code, bad_redirect_uri, invalid_grant_type). A workspace keeps its token across
   * reinstalls; the scopes are the latest install's.
   */
  access(raw: Json): MethodResult {
    const args = accessArgs.safeParse(raw);
    if (!args.success) return { ok: false, error: 'invalid_arguments' };
    const { client_id, client_secret, code, redirect_uri, grant_type } = args.data;
    if (!this.app || client_id !== this.app.clientId) return { ok: false, error: 'invalid_client_id' };
    if (client_secret !== this.app.clientSecret) return { ok: false, error: 'bad_client_secret' };
    if (grant_type !== undefined && grant_type !== 'authorization_code')
      return { ok: false, error: 'invalid_grant_type' };
    const grant = code === undefined ? undefined : this.grants.get(code);
    if (!grant || grant.used || this.clock() - grant.issuedAt > CODE_TTL_MS)
      return { ok: false, error: 'invalid_code' };
    if (redirect_uri !== grant.redirectUri) return { ok: false, error: 'bad_redirect_uri' };
    const model = this.workspace(grant.teamId);
    if (!model) return { ok: false, error: 'invalid_code' };
    grant.used = true;
    const token =
      this.byTeam.get(grant.teamId)?.token ?? `xoxb-${model.teamId.toLowerCase()}-${randomBytes(12).toString('hex')}`;
    const installation: SandboxInstallation = {
      teamId: grant.teamId,
      token,
      scopes: new Set(grant.scopes),
      installerUserId: grant.userId,
    };
    this.preinstall(installation);
    return {
      ok: true,
      access_token: token,
      token_type: 'bot',
      scope: grant.scopes.join(','),
      bot_user_id: model.botUserId,
      app_id: model.appId,
      team: { id: model.teamId, name: model.teamName },
      enterprise: null,
      authed_user: { id: grant.userId },
      is_enterprise_install: false,
    };
  }
}

/** The client id and secret from HTTP Basic authentication, which oauth.v2.access takes instead of the arguments. */
export function basicCredentials(header: string | undefined): { client_id: string; client_secret: string } | undefined {
  if (!header?.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { client_id: decoded.slice(0, colon), client_secret: decoded.slice(colon + 1) };
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}
