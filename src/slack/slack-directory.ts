// What Parley asks Slack about a workspace and its people: whose team a single-workspace bot token is (auth.test, no
// scope needed) and whether a person is one of the workspace's admins or owners (users.info, scope users:read) —
// admins may change Parley's settings, and the first admin to open the App Home of a workspace without approvers
// becomes its first approver.
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { log } from '../log.js';

const authTestSchema = z.object({ team_id: z.string().min(1), team: z.string().optional() });

export interface TokenTeam {
  id: string;
  name: string;
}

/** The Slack team `client`'s token belongs to; throws with Slack's error for a token Slack refuses. */
export async function tokenTeam(client: WebClient): Promise<TokenTeam> {
  const answer = authTestSchema.parse(await client.auth.test());
  return { id: answer.team_id, name: answer.team?.trim() || answer.team_id };
}

const userSchema = z.object({
  user: z.object({
    deleted: z.boolean().optional(),
    is_admin: z.boolean().optional(),
    is_owner: z.boolean().optional(),
    is_primary_owner: z.boolean().optional(),
  }),
});

/**
 * An admin, owner or primary owner of the workspace (https://api.slack.com/methods/users.info: `is_admin`,
 * `is_owner`, `is_primary_owner`). A failed lookup answers no, logged: the safe side for a permission.
 */
export async function isWorkspaceAdmin(client: WebClient, userId: string): Promise<boolean> {
  try {
    const { user } = userSchema.parse(await client.users.info({ user: userId }));
    return (
      user.deleted !== true && (user.is_admin === true || user.is_owner === true || user.is_primary_owner === true)
    );
  } catch (error) {
    log.warn('users.info failed; treating the person as no admin', { error, userId });
    return false;
  }
}
