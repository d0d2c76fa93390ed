// Slack says Parley's bot token for a workspace is dead: the app was uninstalled (`app_uninstalled`) or its bot token
// revoked (`tokens_revoked`). In one commit, before the event is acknowledged: the installation row goes (Bolt then
// authorizes nothing for the team, and a reinstall writes a new one), the Slack calls still waiting in the outbox are
// given up — each would only meet `invalid_auth`/`token_revoked` — and the audit log says so. Everything else stays:
// quotations, negotiations, POs and the audit log are the workspace's, and a reinstall finds them. This process then
// forgets the installation and token it read (another instance within RECENT_INSTALLATION_MAX_AGE_MS).
import { writeAudit } from '../../db/audit.js';
import { log } from '../../log.js';
import type { ServiceContext } from '../service-context.js';
import { installationRemoved } from './slack-installations.js';

export type UninstallReason = 'app_uninstalled' | 'tokens_revoked';

export interface UninstallResult {
  /** False when the workspace had no installation (already removed, or single-workspace mode): nothing changed. */
  removed: boolean;
  /** Outbox rows not sent yet that were given up. */
  outboxRowsGivenUp: number;
}

/** What a given-up row says it met: the reason, for whoever reads the outbox. */
export const uninstalledError = (reason: UninstallReason) =>
  `given up: Slack sent ${reason}, Parley's bot token for this workspace is gone`;

export async function uninstallWorkspace(
  ctx: Pick<ServiceContext, 'db' | 'workspace'>,
  reason: UninstallReason,
): Promise<UninstallResult> {
  const workspaceId = ctx.workspace.id;
  const result = await ctx.db.$transaction(async (tx) => {
    const removed = await tx.slackInstallation.deleteMany({ where: { workspaceId } });
    if (removed.count === 0) return { removed: false, outboxRowsGivenUp: 0 };
    // A row being sent now ('sending') is given up too: its call, made with the revoked token, can only fail, and a
    // poster that finishes it records what Slack answered.
    const givenUp = await tx.slackOutbox.updateMany({
      where: { workspaceId, status: { in: ['pending', 'sending'] } },
      data: { status: 'failed', lastError: uninstalledError(reason), lockedBy: null, lockedUntil: null },
    });
    await writeAudit(tx, null, {
      action: 'workspace.uninstalled',
      entityType: 'Workspace',
      entityId: workspaceId,
      data: { reason, outboxRowsGivenUp: givenUp.count },
    });
    return { removed: true, outboxRowsGivenUp: givenUp.count };
  });
  if (result.removed) {
    installationRemoved(ctx.workspace.slackTeamId);
    log.info('Parley was removed from a workspace: its installation is deleted, its data kept', {
      workspaceId,
      teamId: ctx.workspace.slackTeamId,
      reason,
      outboxRowsGivenUp: result.outboxRowsGivenUp,
    });
  }
  return result;
}
