// A workspace's settings: who approves, above which amount two approvers are needed, and the defaults of the start
// modal. Stored as JSON on the Workspace row (edited with `/parley settings`). Approvers are the workspace's own — the
// installer, the first Slack admin to open the App Home, or APPROVER_SLACK_IDS for the bot token's workspace, written
// once when it has none; the environment gives only the two-approver amount's default.
import { z } from 'zod';
import { NEGOTIATION_MODES, QUESTION_BUDGET_DEFAULT, ROUNDS } from '../../config/business-rules.js';
import type { Env } from '../../config/env.js';

const slackUserId = z.string().regex(/^[UW][A-Z0-9]+$/);

export const workspaceSettingsSchema = z.object({
  approvers: z.array(slackUserId).optional(),
  dualApprovalAboveUsd: z.number().positive().optional(),
  defaultMode: z.enum(NEGOTIATION_MODES).exclude(['custom']).optional(),
  defaultRounds: z.number().int().min(ROUNDS.min).max(ROUNDS.max).optional(),
  defaultQuestionBudget: z.number().int().min(0).max(10).optional(),
  /** Alex may name competitors, their prices and their problems to other suppliers. Off unless an admin turns it on. */
  discloseCompetitors: z.boolean().optional(),
  /**
   * Alex's messages to connected suppliers go out without the buyer's Send while they stay within the mandate (an ask
   * at or under the walk-away total, an acceptance of an offer under it); anything else waits for the buyer. Off.
   */
  autoSendToSuppliers: z.boolean().optional(),
});
export type StoredWorkspaceSettings = z.infer<typeof workspaceSettingsSchema>;

export interface WorkspaceSettings {
  approvers: string[];
  dualApprovalAboveUsd: number;
  defaultMode: Exclude<(typeof NEGOTIATION_MODES)[number], 'custom'>;
  defaultRounds: number;
  defaultQuestionBudget: number;
  discloseCompetitors: boolean;
  autoSendToSuppliers: boolean;
}

/** The stored settings over the defaults. A corrupt JSON column falls back to the defaults: no approvers. */
export function resolveSettings(stored: unknown, env: Pick<Env, 'PO_DUAL_APPROVAL_ABOVE_USD'>): WorkspaceSettings {
  const settings = storedSettings(stored);
  return {
    approvers: settings.approvers ?? [],
    dualApprovalAboveUsd: settings.dualApprovalAboveUsd ?? env.PO_DUAL_APPROVAL_ABOVE_USD,
    defaultMode: settings.defaultMode ?? 'balanced',
    defaultRounds: settings.defaultRounds ?? ROUNDS.default,
    defaultQuestionBudget: settings.defaultQuestionBudget ?? QUESTION_BUDGET_DEFAULT,
    discloseCompetitors: settings.discloseCompetitors ?? false,
    autoSendToSuppliers: settings.autoSendToSuppliers ?? false,
  };
}

/** Who may confirm matches, answer questions and start the negotiation of a quotation: its uploader and approvers. */
export function mayWorkOnQuotation(userId: string, uploadedBy: string, settings: WorkspaceSettings): boolean {
  return userId === uploadedBy || settings.approvers.includes(userId);
}

export function mayApprove(userId: string, settings: WorkspaceSettings): boolean {
  return settings.approvers.includes(userId);
}

/** The settings column as stored (what a change is applied over); a corrupt column reads as nothing stored. */
export function storedSettings(stored: unknown): StoredWorkspaceSettings {
  const parsed = workspaceSettingsSchema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : {};
}

/**
 * Who may change Parley's settings: the approvers, and the Slack workspace's admins and owners (who could remove the
 * app anyway). Nobody else — not even while no approver is set: the first one comes from the install, the first admin
 * to open the App Home, or APPROVER_SLACK_IDS.
 */
export async function mayChangeSettings(
  workspace: { id: string; slackTeamId: string; settings: WorkspaceSettings },
  userId: string,
  directory: SlackDirectory,
): Promise<boolean> {
  // Slack is asked only about people who are not approvers: no users.info call for the usual case.
  return workspace.settings.approvers.includes(userId) || directory.isWorkspaceAdmin(workspace, userId);
}

/** Nobody is a Slack admin: the safe side wherever Slack cannot be asked (tests, jobs, the CLI). */
export const NO_SLACK_ADMINS: SlackDirectory = { isWorkspaceAdmin: async () => false };

/** Who a person is in the Slack workspace, as far as Parley's permissions go (users.info, behind server.ts). */
export interface SlackDirectory {
  /** An admin, owner or primary owner of the Slack workspace (users.info `is_admin`/`is_owner`/`is_primary_owner`). */
  isWorkspaceAdmin(workspace: { id: string; slackTeamId: string }, userId: string): Promise<boolean>;
}
