// Parley, assembled: the database (migrated), the services, the background jobs (the outbox's too) and the Bolt app. `npm start` calls this
// with the environment; the demo and the end-to-end tests call it pointed at the local Slack stand-in (they seed the
// demo's Valden Outdoor workspace first, with src/db/seed.ts). Nothing is seeded here: an OAuth install creates its
// team's workspace; a single-workspace bot token's team gets its workspace at start (auth.test). Returns a handle that
// stops everything in order.
import { randomUUID } from 'node:crypto';
import type { Env } from './config/env.js';
import type { Database } from './db/client.js';
import { recoverOnStart } from './jobs/recover-on-start.js';
import { jobsConfigFromEnv, startJobs } from './jobs/schedule-jobs.js';
import { llmFromEnv } from './llm/llm.js';
import { usageRecorder } from './llm/usage-scope.js';
import { log } from './log.js';
import { createNegotiationAgents } from './negotiation/agents/create-agents.js';
import { createParley } from './services/parley.js';
import { createScreens } from './services/screens.js';
import { createContextFactory } from './services/service-context.js';
import { createOffThreadSheetReader, type OffThreadSheetReader } from './quotation/off-thread-sheet-reader.js';
import { warmUpReading } from './services/quotation/read-quotation.js';
import { type Compute, createOffThreadCompute } from './worker/compute.js';
import { setUpWorkspace } from './services/workspace/set-up-workspace.js';
import { createInstallationStore, recentBotTokens } from './services/workspace/slack-installations.js';
import { createTokenCipher, type TokenCipher } from './services/workspace/token-crypto.js';
import type { SlackDirectory } from './services/workspace/workspace-settings.js';
import { startBackgroundWork, WORK_QUEUES } from './jobs/background-work.js';
import { jobLeaseOwner } from './jobs/job-lease.js';
import { createSlackApp, replaySavedEvent, type SlackConnection } from './slack/app.js';
import { createInboxProcessor } from './inbox/slack-inbox.js';
import { createOutboxPoster } from './outbox/index.js';
import { createDatabaseClock } from './db/database-now.js';
import { countUnfinishedWork } from './db/stores/unfinished-work.js';
import { createSlackClients } from './slack/slack-clients.js';
import { recentChannelFiles, slackChannelInfo } from './slack/slack-channels.js';
import { createThreadStatus } from './slack/thread-status.js';
import { isWorkspaceAdmin, tokenTeam } from './slack/slack-directory.js';
import { downloadSlackFile, slackFileInfo } from './slack/slack-files.js';

export interface StartParleyOptions {
  env: Env;
  db: Database;
  /** Per-channel interval between posts; Slack's pace by default, shorter against the local stand-in. */
  postIntervalMs?: number;
  instanceId?: string;
  /** Every negotiation's offline seed (the demo's `--seed`). */
  negotiationSeed?: number;
  /** The CPU-heavy steps; a worker thread of this server's own unless given (a test makes one of them slow). */
  compute?: Compute;
  /** The reader's worker (tests that look into it); the caller's to close. */
  sheetReader?: OffThreadSheetReader;
}

export type ParleyServer = Awaited<ReturnType<typeof startParley>>;

/** Which Slack connection the environment describes, or the variables missing for any. */
export function slackConnectionFromEnv(
  env: Env,
  installationStore: (cipher: TokenCipher) => ReturnType<typeof createInstallationStore>,
): SlackConnection | { missing: string } {
  if (env.SLACK_APP_TOKEN && env.SLACK_BOT_TOKEN) {
    return { kind: 'socket', appToken: env.SLACK_APP_TOKEN, botToken: env.SLACK_BOT_TOKEN };
  }
  if (env.SLACK_SIGNING_SECRET && env.SLACK_CLIENT_ID && env.SLACK_CLIENT_SECRET && env.SLACK_STATE_SECRET) {
    if (!env.TOKEN_ENCRYPTION_KEY) return { missing: MISSING_TOKEN_KEY };
    return {
      kind: 'oauth',
      signingSecret: env.SLACK_SIGNING_SECRET,
      port: env.PORT,
      clientId: env.SLACK_CLIENT_ID,
      clientSecret: env.SLACK_CLIENT_SECRET,
      stateSecret: env.SLACK_STATE_SECRET,
      installationStore: installationStore(createTokenCipher(env.TOKEN_ENCRYPTION_KEY)),
    };
  }
  if (env.SLACK_SIGNING_SECRET && env.SLACK_BOT_TOKEN) {
    return { kind: 'http', signingSecret: env.SLACK_SIGNING_SECRET, port: env.PORT, botToken: env.SLACK_BOT_TOKEN };
  }
  return { missing: MISSING_SLACK_CREDENTIALS };
}

const MISSING_SLACK_CREDENTIALS =
  'Set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (Socket Mode), or SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (HTTP on ' +
  'PORT), or SLACK_SIGNING_SECRET with SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET (OAuth, many ' +
  'workspaces). To see Parley without Slack, run `npm run demo`.';

const MISSING_TOKEN_KEY =
  'OAuth installs keep each workspace’s bot token in the database, sealed: set TOKEN_ENCRYPTION_KEY to 32 random ' +
  'bytes in base64 (`openssl rand -base64 32`) and keep it safe — the stored tokens cannot be read without it.';

/** What to set before `npm start` can reach Slack, or null when the environment describes a connection. */
export function missingSlackCredentials(env: Env): string | null {
  const socket = env.SLACK_APP_TOKEN && env.SLACK_BOT_TOKEN;
  const oauth = env.SLACK_SIGNING_SECRET && env.SLACK_CLIENT_ID && env.SLACK_CLIENT_SECRET && env.SLACK_STATE_SECRET;
  const http = env.SLACK_SIGNING_SECRET && env.SLACK_BOT_TOKEN;
  if (!socket && oauth && !env.TOKEN_ENCRYPTION_KEY) return MISSING_TOKEN_KEY;
  return socket || oauth || http ? null : MISSING_SLACK_CREDENTIALS;
}

export async function startParley(options: StartParleyOptions) {
  const { env, db } = options;
  const owner = options.instanceId ?? env.INSTANCE_ID ?? `parley-${randomUUID().slice(0, 8)}`;
  const llm = llmFromEnv(env, usageRecorder(db.prisma));
  const connection = slackConnectionFromEnv(env, (cipher) => createInstallationStore({ prisma: db.prisma, cipher }));
  if ('missing' in connection) throw new Error(connection.missing);
  const cipher = env.TOKEN_ENCRYPTION_KEY ? createTokenCipher(env.TOKEN_ENCRYPTION_KEY) : null;

  const tokenFor = recentBotTokens(db.prisma, env.SLACK_BOT_TOKEN, cipher);
  const clients = createSlackClients({ slackApiUrl: env.SLACK_API_URL, tokenFor });
  const directory: SlackDirectory = {
    async isWorkspaceAdmin(workspace, userId) {
      const { client } = await clients.forWorkspace(workspace.id);
      return isWorkspaceAdmin(client, userId, workspace.slackTeamId);
    },
  };
  // Leases, outbox claims and pacing read the database's time, so instances whose clocks drift still agree;
  // re-measured every minute in case the host clock is stepped.
  const clock = await createDatabaseClock(db.prisma);
  const clockSync = setInterval(() => void clock.sync().catch(() => undefined), 60_000);
  clockSync.unref();
  // Outbox locks taken before this start, on the database's time like the locks themselves, are a previous
  // process's (recoverOnStart): a host clock ahead would hand back this instance's own first locks.
  const startedAt = clock.now();
  const poster = createOutboxPoster({
    prisma: db.prisma,
    now: clock.now,
    clientFor: (workspaceId: string) => clients.forPoster(workspaceId),
    owner,
    postIntervalMs: options.postIntervalMs ?? env.SLACK_POST_INTERVAL_MS,
    lockMs: env.OUTBOX_LOCK_MS,
  });
  // Large quotations are read in a worker thread, so their CPU does not delay acks.
  const sheetReader = options.sheetReader ?? createOffThreadSheetReader();
  // So are the decision, the PO and review workbooks and the price chart (up to 1.3 s of CPU each at 3,000 lines).
  // A compute given by the caller is the caller's to close.
  const ownCompute = options.compute ? null : createOffThreadCompute();
  ownCompute?.start();
  const compute: Compute | undefined = options.compute ?? ownCompute ?? undefined;
  const contexts = createContextFactory({
    prisma: db.prisma,
    env,
    llm,
    directory,
    now: clock.now,
    readSheets: sheetReader.read,
    readGrid: sheetReader.readGrid,
    catalogRanker: sheetReader.catalog,
    compute,
  });
  // Reading files, driving negotiations and sending the outbox: durable pg-boss jobs, retried after a failure or a
  // dead worker.
  const work = await startBackgroundWork({
    connection: db.jobQueue,
    concurrency: env.WORK_CONCURRENCY,
    prisma: db.prisma,
  });
  // After a commit that may have written outbox rows: their lanes' jobs are sent (a failure is logged; the next
  // JOB_SWEEP_CRON tick sends them instead).
  const queueOutbox = () =>
    void work.queueOutbox().catch((error: unknown) => log.error('queueing outbox jobs failed', { error }));
  const parley = createParley({
    contexts,
    work,
    agents: createNegotiationAgents(llm),
    owner,
    negotiationSeed: options.negotiationSeed ?? env.NEGOTIATION_SEED,
    // Queueing the outbox's jobs is background work, even when a listener's save is what asks for it.
    kickOutbox: queueOutbox,
    hasSlackToken: async (workspaceId) => (await tokenFor(workspaceId)) !== null,
    // The poster's client: no retries of its own, so a Slack that is slow to show a status does not hold up the run.
    threadActivity: createThreadStatus((workspaceId) => clients.forPoster(workspaceId)),
    files: {
      async info(workspaceId, fileId) {
        const { client } = await clients.forWorkspace(workspaceId);
        return slackFileInfo(client, fileId, env.SLACK_FILE_DOWNLOAD_TIMEOUT_MS);
      },
      async download(workspaceId, url, maxBytes) {
        const { token } = await clients.forWorkspace(workspaceId);
        return downloadSlackFile(url, token, { maxBytes, timeoutMs: env.SLACK_FILE_DOWNLOAD_TIMEOUT_MS });
      },
      async channel(workspaceId, channelId) {
        const { client } = await clients.forWorkspace(workspaceId);
        return slackChannelInfo(client, channelId);
      },
      async recentFiles(workspaceId, channelId) {
        const { client } = await clients.forWorkspace(workspaceId);
        return recentChannelFiles(client, channelId);
      },
    },
  });
  const screens = createScreens({ contexts, prisma: db.prisma });
  // Socket Mode: Slack's events are saved in the inbox before they are acknowledged, and run from there.
  const inbox =
    connection.kind === 'socket'
      ? createInboxProcessor({ prisma: db.prisma, owner, handle: (body) => replaySavedEvent(app, body) })
      : null;
  const { app } = createSlackApp({
    connection,
    ...(inbox ? { inbox } : {}),
    slackApiUrl: env.SLACK_API_URL,
    deps: { parley, screens },
    health: async () => {
      // One statement for the three counts: the bench asks every 50 ms per process.
      const { outboxUnsent, negotiating, reading } = await countUnfinishedWork(db.prisma);
      // `idle`: no job waiting or running anywhere, and nothing left that an instance would pick up.
      const busy = await work.pending();
      return {
        ok: true,
        instance: owner,
        busy,
        outboxUnsent,
        negotiating,
        reading,
        idle: busy + outboxUnsent + negotiating + reading === 0,
      };
    },
  });

  let servedWorkspaceId: string | null = null;
  if (connection.kind !== 'oauth') {
    // Before the first event: the token's team is the one workspace this process serves. Events from any other team
    // (there should be none) find no workspace and change nothing.
    const team = await tokenTeam(app.client);
    const workspace = await setUpWorkspace(db.prisma, {
      slackTeamId: team.id,
      teamName: team.name,
      firstApprovers: env.APPROVER_SLACK_IDS,
      actorSlackUserId: null,
      source: 'APPROVER_SLACK_IDS',
    });
    log.info('workspace ready', { slackTeamId: team.id, ...workspace });
    servedWorkspaceId = workspace.workspaceId;
  }

  inbox?.start();
  await work.work({
    ...parley.jobs,
    sendOutbox: (job, attempt) =>
      poster.sendLane(job.lane, { lockOwner: jobLeaseOwner(owner, attempt), signal: attempt.signal }),
  });
  // jobs: reminders, expiry and queueing work that has no job, on their schedules; then, once, what a dead process
  // left behind that pg-boss does not know about (src/jobs/recover-on-start.ts). Before listening, with the warm-up
  // below: the first deliveries of a process were answered in ~0.7 s instead of ~0.1 s while this start-up work and
  // the loading of what a first file needs ran beside them (the large story).
  const jobs = env.JOBS_ENABLED
    ? await startJobs({
        prisma: db.prisma,
        work,
        contexts,
        config: jobsConfigFromEnv(env),
        now: clock.now,
        kickOutbox: queueOutbox,
      })
    : null;
  const recovery = { prisma: db.prisma, work, owner, startedAt, outboxLockMs: env.OUTBOX_LOCK_MS };
  await recoverOnStart({ ...recovery, now: clock.now() }).catch((error: unknown) =>
    log.error('recovery on start failed', { error, owner }),
  );
  // The reader's worker loaded and the served workspace's catalog index built, for the first file shared.
  const servedContext = servedWorkspaceId ? await contexts.forWorkspace(servedWorkspaceId) : null;
  await Promise.all([sheetReader.warmUp(), servedContext ? warmUpReading(servedContext) : null]);
  if (connection.kind === 'socket') await app.start();
  else await app.start(connection.port);
  log.info('parley started', { owner, connection: connection.kind, db: db.kind });

  return {
    app,
    parley,
    poster,
    owner,
    jobs,
    /** Waits until no background work runs and the outbox has nothing due (tests, the demo). */
    async settle(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await inbox?.drain();
        await parley.idle();
        await poster.sent(Math.max(1, deadline - Date.now()), () => work.queueOutbox());
        if ((await work.pending(WORK_QUEUES)) === 0) return;
        if (Date.now() > deadline) throw new Error('Parley did not settle in time');
      }
    },
    async stop() {
      clearInterval(clockSync);
      await jobs?.stop(); // jobs
      await app.stop();
      await inbox?.stop();
      // Lanes being sent stop before their next row and their jobs are sent again, for another instance to go on.
      await poster.stop();
      // A job still running is failed back to its queue, to be retried here after a restart or by another instance.
      await work.stop();
      if (!options.sheetReader) await sheetReader.close();
      await ownCompute?.close();
    },
  };
}
