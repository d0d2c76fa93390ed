// A Slack team gets its Parley workspace: on an OAuth install (the installer is its first approver), or when Parley
// starts with a single workspace's bot token (the token's team; APPROVER_SLACK_IDS are its first approvers). Nothing is
// seeded but the two simulated competitors: the brand is the Slack team's name until an approver renames it in
// `/parley settings`, and the catalog is the brand's own, imported with `/parley catalog`.
import { writeAudit } from '../../db/audit.js';
import type { PrismaClient } from '../../db/client.js';
import { toJsonColumn } from '../../db/json.js';
import { addSimulatedSuppliers } from '../../db/seed.js';
import { scopeToWorkspace, type WorkspaceDb } from '../../db/scoped.js';
import { Prisma } from '../../generated/prisma/client.js';
import { writeSettings } from './change-settings.js';
import { storedSettings } from './workspace-settings.js';

export interface SetUpWorkspaceOptions {
  slackTeamId: string;
  /** The Slack team's name: the workspace's name and, at first, the brand's. */
  teamName: string;
  /** Written only while the workspace has no approver (new, or never configured); never over someone's choice. */
  firstApprovers: readonly string[];
  /** Who named those approvers, for the audit log: the installer, or null for the environment. */
  actorSlackUserId: string | null;
  /** Why, in the audit log: "oauth_install" or "APPROVER_SLACK_IDS". */
  source: string;
}

export interface SetUpWorkspaceResult {
  workspaceId: string;
  created: boolean;
  /** The first approvers were written (a new workspace, or one that had none). */
  approversSet: boolean;
}

export async function setUpWorkspace(
  prisma: PrismaClient,
  options: SetUpWorkspaceOptions,
): Promise<SetUpWorkspaceResult> {
  const created = await createWorkspace(prisma, options);
  if (created) return { workspaceId: created, created: true, approversSet: options.firstApprovers.length > 0 };
  const { id } = await prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: options.slackTeamId } });
  const approversSet = await giveFirstApprovers(scopeToWorkspace(prisma, id), id, {
    approvers: options.firstApprovers,
    actorSlackUserId: options.actorSlackUserId,
    source: options.source,
  });
  return { workspaceId: id, created: false, approversSet };
}

/** The new workspace's id, or null when the team has one already (perhaps created this instant by another instance). */
async function createWorkspace(prisma: PrismaClient, options: SetUpWorkspaceOptions): Promise<string | null> {
  if (await prisma.workspace.findUnique({ where: { slackTeamId: options.slackTeamId }, select: { id: true } })) {
    return null;
  }
  const approvers = [...options.firstApprovers];
  try {
    return await prisma.$transaction(async (tx) => {
      const workspace = await tx.workspace.create({
        data: {
          slackTeamId: options.slackTeamId,
          name: options.teamName,
          brandName: options.teamName,
          settings: toJsonColumn(approvers.length > 0 ? { approvers } : {}),
        },
      });
      await addSimulatedSuppliers(tx, workspace.id);
      await writeAudit(tx, options.actorSlackUserId, {
        workspaceId: workspace.id,
        action: 'workspace.created',
        entityType: 'Workspace',
        entityId: workspace.id,
        data: { source: options.source, teamName: options.teamName, approvers },
      });
      return workspace.id;
    });
  } catch (error) {
    // Two instances starting at once, or an install racing the first start: the other one created it.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return null;
    throw error;
  }
}

export interface FirstApprovers {
  approvers: readonly string[];
  actorSlackUserId: string | null;
  source: string;
}

/**
 * Writes the first approvers of a workspace that has none; does nothing once anyone is an approver — it never
 * overrides a choice made in `/parley settings`, even one made while this ran (the write is over the version read).
 */
export async function giveFirstApprovers(
  db: WorkspaceDb,
  workspaceId: string,
  first: FirstApprovers,
): Promise<boolean> {
  if (first.approvers.length === 0) return false;
  const row = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
  const settings = storedSettings(row.settings);
  if ((settings.approvers ?? []).length > 0) return false;
  return writeSettings(db, {
    workspaceId,
    basedOnVersion: row.settingsVersion,
    before: { brandName: row.brandName, settings },
    after: { brandName: row.brandName, settings: { ...settings, approvers: [...first.approvers] } },
    actorSlackUserId: first.actorSlackUserId,
    source: first.source,
  });
}
