// Parley running against the local Slack stand-in, with a team, a channel and the people of the story: the buyer who
// shares quotations, two approvers and a colleague who may do nothing. Used by the demo and the end-to-end tests —
// the real Bolt HTTP receiver, the real WebClient, the real database; only Slack itself is stood in for.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { type Env, loadEnv } from '../../src/config/env.js';
import type { Database } from '../../src/db/client.js';
import { startParley } from '../../src/server.js';
import type { Compute } from '../../src/worker/compute.js';
import type { OffThreadSheetReader } from '../../src/quotation/off-thread-sheet-reader.js';
import { type SlackSandbox, startSlackSandbox } from './index.js';

export const TEAM_ID = 'T0VALDEN01';
export const PEOPLE = {
  buyer: { id: 'U0MAYA0001', name: 'maya', realName: 'Maya Lindqvist' },
  approver: { id: 'U0SAM00001', name: 'sam', realName: 'Sam Okafor' },
  secondApprover: { id: 'U0LEE00001', name: 'lee', realName: 'Lee Park' },
  colleague: { id: 'U0JO000001', name: 'jo', realName: 'Jo Bauer' },
} as const;
export const CHANNEL = { id: 'C0SOURCING', name: 'sourcing' } as const;

export interface SandboxedParleyOptions {
  db: Database;
  callLogPath?: string;
  /** Per-channel post interval; the stand-in has no rate limit, so the demo and tests use a short one. */
  postIntervalMs?: number;
  /** Extra environment (e.g. PO_DUAL_APPROVAL_ABOVE_USD). */
  env?: Record<string, string>;
  /** The sandbox's fault randomness. */
  seed?: number;
  /** Every negotiation's offline seed. */
  negotiationSeed?: number;
  /** A workspace other than the story's Valden Outdoor (`npm run demo -- --fresh`: a brand-new team id). */
  team?: { id: string; name: string };
  /**
   * Parley distributed with OAuth (many workspaces): client id and secret, state secret and TOKEN_ENCRYPTION_KEY
   * instead of a bot token, and a stand-in where no workspace has the app until someone installs it through
   * `/slack/install`.
   */
  oauth?: boolean;
  /** The server's CPU-heavy steps (src/worker/compute.ts), when a test needs one of them slow. */
  compute?: Compute;
  /** The reader's worker (src/quotation/off-thread-sheet-reader.ts), when a test looks into it; the caller closes it. */
  sheetReader?: OffThreadSheetReader;
}

/** The app's OAuth credentials, as Slack shows them under Basic Information. */
export const OAUTH_APP = { clientId: '1234567890.0987654321', clientSecret: 'sandbox-client-secret' } as const;

export type SandboxedParley = Awaited<ReturnType<typeof startSandboxedParley>>;

/** The stand-in with the story's team and people, in #sourcing and in `extraChannels` more channels (#sourcing-2…). */
export function startStoryStandIn(
  options: {
    callLogPath?: string;
    seed?: number;
    extraChannels?: number;
    team?: { id: string; name: string };
    /** The app's redirect URL: the stand-in serves the OAuth install, and no workspace has a token before it. */
    oauthRedirectUrl?: string;
  } = {},
) {
  const members = Object.values(PEOPLE).map((p) => p.id);
  const extra = Array.from({ length: options.extraChannels ?? 0 }, (_, i) => ({
    id: `C0SOURCING${i + 2}`,
    name: `sourcing-${i + 2}`,
    members,
  }));
  return startSlackSandbox({
    teamId: options.team?.id ?? TEAM_ID,
    teamName: options.team?.name ?? 'Valden Outdoor',
    users: Object.values(PEOPLE).map(({ id, name, realName }) => ({ id, name, realName })),
    channels: [{ id: CHANNEL.id, name: CHANNEL.name, members }, ...extra],
    callLogPath: options.callLogPath,
    echoBotEvents: true,
    seed: options.seed ?? 1,
    oauth: options.oauthRedirectUrl === undefined ? undefined : { ...OAUTH_APP, redirectUrl: options.oauthRedirectUrl },
  });
}

/** The environment that points Parley at the stand-in, as `npm start` would read it. */
export function standInEnv(sandbox: SlackSandbox, port: number): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: sandbox.botToken,
    SLACK_SIGNING_SECRET: sandbox.signingSecret,
    SLACK_API_URL: sandbox.apiUrl,
    PORT: String(port),
    APPROVER_SLACK_IDS: `${PEOPLE.approver.id},${PEOPLE.secondApprover.id}`,
  };
}

/** The environment of Parley distributed with OAuth: no bot token; the app's credentials and a fresh sealing key. */
export function oauthEnv(): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: '',
    SLACK_CLIENT_ID: OAUTH_APP.clientId,
    SLACK_CLIENT_SECRET: OAUTH_APP.clientSecret,
    SLACK_STATE_SECRET: randomBytes(16).toString('hex'),
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
}

export async function startSandboxedParley(options: SandboxedParleyOptions) {
  const port = await freePort();
  const sandbox: SlackSandbox = await startStoryStandIn({
    callLogPath: options.callLogPath,
    seed: options.seed,
    team: options.team,
    oauthRedirectUrl: options.oauth ? `http://127.0.0.1:${port}/slack/oauth_redirect` : undefined,
  });
  const env: Env = loadEnv({ ...standInEnv(sandbox, port), ...(options.oauth ? oauthEnv() : {}), ...options.env });
  const server = await startParley({
    env,
    db: options.db,
    postIntervalMs: options.postIntervalMs ?? 20,
    negotiationSeed: options.negotiationSeed,
    compute: options.compute,
    sheetReader: options.sheetReader,
  });
  sandbox.setEventsUrl(`http://127.0.0.1:${port}/slack/events`);
  return {
    sandbox,
    server,
    env,
    db: options.db,
    /** Lets every background task and every due outbox row finish. */
    settle: () => server.settle(),
    async stop() {
      await server.stop();
      await sandbox.close();
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
