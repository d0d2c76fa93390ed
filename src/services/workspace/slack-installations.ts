// Bolt's OAuth installation store (HTTP mode, many workspaces) in the database: installing Parley in a Slack team
// creates its Workspace (seeded with the catalog by the caller) and keeps the bot token Bolt needs for that team.
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { PrismaClient } from '../../db/client.js';
import { toJsonColumn } from '../../db/json.js';

export interface InstallationStoreOptions {
  prisma: PrismaClient;
  brandName: string;
  /** Called once for a newly installed team (the catalog seed). */
  onNewWorkspace?: (workspaceId: string, slackTeamId: string) => Promise<void>;
}

export function createInstallationStore(options: InstallationStoreOptions): InstallationStore {
  const { prisma } = options;
  return {
    async storeInstallation(installation) {
      const teamId = installation.team?.id ?? installation.enterprise?.id;
      const botToken = installation.bot?.token;
      const botUserId = installation.bot?.userId;
      if (!teamId || !botToken || !botUserId) throw new Error('Parley needs a bot token: install it with bot scopes');
      const existing = await prisma.workspace.findUnique({ where: { slackTeamId: teamId } });
      const workspace =
        existing ??
        (await prisma.workspace.create({
          data: { slackTeamId: teamId, name: installation.team?.name ?? teamId, brandName: options.brandName },
        }));
      const columns = {
        enterpriseId: installation.enterprise?.id ?? null,
        isEnterpriseInstall: installation.isEnterpriseInstall ?? false,
        botUserId,
        botId: installation.bot?.id ?? null,
        botToken,
        installerUserId: installation.user.id,
        scopes: installation.bot?.scopes ?? [],
        raw: toJsonColumn(installation),
      };
      await prisma.slackInstallation.upsert({
        where: { workspaceId: workspace.id },
        create: { workspaceId: workspace.id, ...columns },
        update: columns,
      });
      if (!existing) await options.onNewWorkspace?.(workspace.id, teamId);
    },
    async fetchInstallation(query: InstallationQuery<boolean>) {
      const teamId = query.teamId ?? query.enterpriseId;
      const row = teamId
        ? await prisma.slackInstallation.findFirst({ where: { workspace: { slackTeamId: teamId } } })
        : null;
      if (!row) throw new Error(`No Parley installation for team ${teamId ?? '(none)'}`);
      return row.raw as unknown as Installation<'v2', boolean>;
    },
    async deleteInstallation(query: InstallationQuery<boolean>) {
      const teamId = query.teamId ?? query.enterpriseId;
      if (teamId) await prisma.slackInstallation.deleteMany({ where: { workspace: { slackTeamId: teamId } } });
    },
  };
}

/** The bot token to act in a workspace with: its installation's, else the single-workspace token from the env. */
export async function botTokenFor(prisma: PrismaClient, workspaceId: string, fallback: string | undefined) {
  const row = await prisma.slackInstallation.findUnique({ where: { workspaceId }, select: { botToken: true } });
  return row?.botToken ?? fallback ?? null;
}
