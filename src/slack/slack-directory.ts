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

const platformErrorSchema = z.object({ data: z.object({ error: z.string() }) });

/**
 * The Slack team `client`'s token belongs to. A token Slack refuses (revoked, mistyped: `invalid_auth`) stops the
 * start with a sentence naming the variable, not a stack trace.
 */
export async function tokenTeam(client: WebClient): Promise<TokenTeam> {
  let answer: z.infer<typeof authTestSchema>;
  try {
    answer = authTestSchema.parse(await client.auth.test());
  } catch (error) {
    const code = platformErrorSchema.safeParse(error).data?.data.error;
    throw new Error(
      `Slack did not accept SLACK_BOT_TOKEN${code ? ` (${code})` : ''}: copy the Bot User OAuth Token (xoxb-…) ` +
        'from your app’s OAuth & Permissions page, and reinstall the app if it was revoked.',
      { cause: error },
    );
  }
  return { id: answer.team_id, name: answer.team?.trim() || answer.team_id };
}

const userSchema = z.object({
  user: z.object({
    team_id: z.string().optional(),
    deleted: z.boolean().optional(),
    is_admin: z.boolean().optional(),
    is_owner: z.boolean().optional(),
    is_primary_owner: z.boolean().optional(),
  }),
});

/**
 * An admin, owner or primary owner of the workspace (https://api.slack.com/methods/users.info: `is_admin`,
 * `is_owner`, `is_primary_owner`) whose home is `teamId`: a person of another organisation in a Slack Connect channel
 * (a supplier's) may be an admin of their own workspace, never of this one. A failed lookup answers no, logged: the
 * safe side for a permission.
 */
export async function isWorkspaceAdmin(client: WebClient, userId: string, teamId: string): Promise<boolean> {
  try {
    const { user } = userSchema.parse(await client.users.info({ user: userId }));
    return (
      user.team_id === teamId &&
      user.deleted !== true &&
      (user.is_admin === true || user.is_owner === true || user.is_primary_owner === true)
    );
  } catch (error) {
    log.warn('users.info failed; treating the person as no admin', { error, userId });
    return false;
  }
}
