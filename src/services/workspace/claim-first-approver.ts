// A workspace nobody approves for yet (single-workspace mode without APPROVER_SLACK_IDS, or an install whose installer
// was removed from the list) gets its first approver from the App Home: the first Slack workspace admin or owner who
// opens it. Anyone else opening it changes nothing — being first is not a reason to approve purchase orders.
import { done, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { giveFirstApprovers } from './set-up-workspace.js';

export async function claimFirstApprover(
  ctx: ServiceContext,
  options: { by: string },
): Promise<ServiceResult<{ becameApprover: boolean }>> {
  // The common case (approvers set) costs no Slack call.
  if (ctx.workspace.settings.approvers.length > 0) return done({ becameApprover: false }, false);
  if (!(await ctx.directory.isWorkspaceAdmin(ctx.workspace, options.by))) {
    return done({ becameApprover: false }, false);
  }
  const becameApprover = await giveFirstApprovers(ctx.db, ctx.workspace.id, {
    approvers: [options.by],
    actorSlackUserId: options.by,
    source: 'first_admin_app_home',
  });
  return done({ becameApprover }, becameApprover);
}
