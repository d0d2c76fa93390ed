// A workspace's settings: who approves, above which amount two approvers are needed, and the defaults of the start
// modal. Stored as JSON on the Workspace row (edited with `/parley settings`); the environment gives the first values.
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
});
export type StoredWorkspaceSettings = z.infer<typeof workspaceSettingsSchema>;

export interface WorkspaceSettings {
  approvers: string[];
  dualApprovalAboveUsd: number;
  defaultMode: Exclude<(typeof NEGOTIATION_MODES)[number], 'custom'>;
  defaultRounds: number;
  defaultQuestionBudget: number;
  discloseCompetitors: boolean;
}

/** The stored settings over the environment's defaults. A corrupt JSON column falls back to the defaults. */
export function resolveSettings(
  stored: unknown,
  env: Pick<Env, 'APPROVER_SLACK_IDS' | 'PO_DUAL_APPROVAL_ABOVE_USD'>,
): WorkspaceSettings {
  const parsed = workspaceSettingsSchema.safeParse(stored ?? {});
  const settings = parsed.success ? parsed.data : {};
  return {
    approvers: settings.approvers ?? env.APPROVER_SLACK_IDS,
    dualApprovalAboveUsd: settings.dualApprovalAboveUsd ?? env.PO_DUAL_APPROVAL_ABOVE_USD,
    defaultMode: settings.defaultMode ?? 'balanced',
    defaultRounds: settings.defaultRounds ?? ROUNDS.default,
    defaultQuestionBudget: settings.defaultQuestionBudget ?? QUESTION_BUDGET_DEFAULT,
    discloseCompetitors: settings.discloseCompetitors ?? false,
  };
}

/** Who may confirm matches, answer questions and start the negotiation of a quotation: its uploader and approvers. */
export function mayWorkOnQuotation(userId: string, uploadedBy: string, settings: WorkspaceSettings): boolean {
  return userId === uploadedBy || settings.approvers.includes(userId);
}

export function mayApprove(userId: string, settings: WorkspaceSettings): boolean {
  return settings.approvers.includes(userId);
}

/**
 * Admins of Parley's settings: the approvers. When none is configured yet anyone may set the first ones — a fresh
 * install must be configurable from Slack.
 */
export function mayChangeSettings(userId: string, settings: WorkspaceSettings): boolean {
  return settings.approvers.length === 0 || settings.approvers.includes(userId);
}
