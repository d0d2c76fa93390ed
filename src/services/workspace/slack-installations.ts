// Bolt's OAuth installation store (HTTP mode, many workspaces) in the database: installing Parley in a Slack team sets
// up its Workspace — the installer its first approver — and keeps what Bolt needs back for that team. The tokens are
// sealed at rest (token-crypto.ts): the bot token column and the whole Installation object, which holds the bot token
// and the installer's user token. Rows written before sealing still read, and are sealed by their next write.
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { PrismaClient } from '../../db/client.js';
import { toJsonColumn } from '../../db/json.js';
import { recentReads } from './recent-reads.js';
import { setUpWorkspace } from './set-up-workspace.js';
import { isSealed, type TokenCipher } from './token-crypto.js';
import { z } from 'zod';

export interface InstallationStoreOptions {
  prisma: PrismaClient;
  cipher: TokenCipher;
}

/** How `raw` holds a sealed Installation. */
const sealedRawSchema = z.object({ sealed: z.string() });

/**
 * How long Bolt's authorize may use an installation this process read earlier, and when it is read again in the
 * background: every request (twenty App Home opens at once) read and unsealed it before its listener ran. Installing
 * or uninstalling through this process is seen at once; an uninstall handled by another instance lets this one still
 * authorize that team for RECENT_INSTALLATION_MAX_AGE_MS at most (and Slack refuses the revoked token meanwhile).
 */
export const RECENT_INSTALLATION_MAX_AGE_MS = 5_000;
const RECENT_INSTALLATION_REFRESH_MS = 1_000;

/** Moves on with every install and uninstall this process writes: bot tokens read before it are read again. */
let installationWrites = 0;

/** This process's installation stores (one in the server), for an uninstall handled outside them. */
const stores = new Set<{ forget(teamId: string): void }>();

/**
 * A team's installation was removed outside Bolt's store (the app_uninstalled listener): this process's stores forget
 * it, and every bot token read before is read again.
 */
export function installationRemoved(teamId: string): void {
  for (const store of stores) store.forget(teamId);
  installationWrites += 1;
}

export function createInstallationStore(options: InstallationStoreOptions): InstallationStore {
  const { prisma, cipher } = options;
  const installations = recentReads(
    async (teamId) => {
      const row = await prisma.slackInstallation.findFirst({ where: { workspace: { slackTeamId: teamId } } });
      return row ? openInstallation(cipher, row.raw) : null;
    },
    { maxAgeMs: RECENT_INSTALLATION_MAX_AGE_MS, refreshAfterMs: RECENT_INSTALLATION_REFRESH_MS },
  );
  stores.add(installations);
  return {
    async storeInstallation(installation) {
      const teamId = installation.team?.id ?? installation.enterprise?.id;
      const botToken = installation.bot?.token;
      const botUserId = installation.bot?.userId;
      if (!teamId || !botToken || !botUserId) throw new Error('Parley needs a bot token: install it with bot scopes');
      // A reinstall (new scopes, another admin) keeps the workspace and its approvers; only a first install names one.
      const { workspaceId } = await setUpWorkspace(prisma, {
        slackTeamId: teamId,
        teamName: installation.team?.name ?? installation.enterprise?.name ?? teamId,
        firstApprovers: [installation.user.id],
        actorSlackUserId: installation.user.id,
        source: 'oauth_install',
      });
      const columns = {
        enterpriseId: installation.enterprise?.id ?? null,
        isEnterpriseInstall: installation.isEnterpriseInstall ?? false,
        botUserId,
        botId: installation.bot?.id ?? null,
        botToken: cipher.seal(botToken),
        installerUserId: installation.user.id,
        scopes: installation.bot?.scopes ?? [],
        raw: toJsonColumn({ sealed: cipher.seal(JSON.stringify(installation)) }),
      };
      await prisma.slackInstallation.upsert({
        where: { workspaceId },
        create: { workspaceId, ...columns },
        update: columns,
      });
      installations.forget(teamId);
      installationWrites += 1;
    },
    async fetchInstallation(query: InstallationQuery<boolean>) {
      const teamId = query.teamId ?? query.enterpriseId;
      const found = teamId ? await installations.get(teamId) : null;
      if (!found) throw new Error(`No Parley installation for team ${teamId ?? '(none)'}`);
      return found;
    },
    async deleteInstallation(query: InstallationQuery<boolean>) {
      const teamId = query.teamId ?? query.enterpriseId;
      if (!teamId) return;
      await prisma.slackInstallation.deleteMany({ where: { workspace: { slackTeamId: teamId } } });
      installations.forget(teamId);
      installationWrites += 1;
    },
  };
}

/** The Installation Bolt stored: sealed, or (a row from before sealing) the object itself. */
function openInstallation(cipher: TokenCipher, raw: unknown): Installation<'v2', boolean> {
  const sealed = sealedRawSchema.safeParse(raw);
  const value: unknown = sealed.success ? JSON.parse(cipher.open(sealed.data.sealed)) : raw;
  return value as Installation<'v2', boolean>;
}

/**
 * The bot token to act in a workspace with: its installation's (unsealed), else the single-workspace token from the
 * env. `cipher` is null without TOKEN_ENCRYPTION_KEY (single-workspace mode), where only a plain row could be read.
 */
export async function botTokenFor(
  prisma: PrismaClient,
  workspaceId: string,
  fallback: string | undefined,
  cipher: TokenCipher | null,
): Promise<string | null> {
  const row = await prisma.slackInstallation.findUnique({ where: { workspaceId }, select: { botToken: true } });
  if (!row) return fallback ?? null;
  if (!isSealed(row.botToken)) return row.botToken;
  if (!cipher) throw new Error('A stored Slack token is sealed: set TOKEN_ENCRYPTION_KEY to the key that sealed it');
  return cipher.open(row.botToken);
}

/**
 * `botTokenFor` for the outbox's and the services' Slack calls, reused up to RECENT_INSTALLATION_MAX_AGE_MS in this
 * process: each call (every post, edit and Home publish) read the installation first. An install or uninstall through
 * this process is seen at once; through another instance within that age (Slack refuses a revoked token meanwhile).
 */
export function recentBotTokens(
  prisma: PrismaClient,
  fallback: string | undefined,
  cipher: TokenCipher | null,
): (workspaceId: string) => Promise<string | null> {
  const tokens = recentReads((workspaceId) => botTokenFor(prisma, workspaceId, fallback, cipher), {
    maxAgeMs: RECENT_INSTALLATION_MAX_AGE_MS,
    refreshAfterMs: RECENT_INSTALLATION_REFRESH_MS,
    epoch: () => installationWrites,
  });
  return (workspaceId) => tokens.get(workspaceId);
}
