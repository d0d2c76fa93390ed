// Which Slack workspace a payload is about, and whether the person acting belongs to it. Parley's workspace is the
// one whose installation received the payload, never the top-level `team_id` of an event: in a Slack Connect channel
// that is the team the message came from (the host org's, or the external one's), not the one Parley is installed in.
//
// The same order as Bolt's own `buildSource` (node_modules/@slack/bolt/dist/App.js), which picks the installation
// whose token `client` and `context` carry — so the workspace resolved here is always the one Bolt authorized:
// - events: `authorizations[0].team_id`, else `team_id`; Slack's `context_team_id` (the team the event is delivered
//   in the context of) names that same installation and is read before the top-level `team_id`;
// - view submissions: `view.app_installed_team_id` (set when a modal was opened from a Slack Connect channel in
//   another workspace), else `team.id`, else `user.team_id`;
// - block actions and shortcuts: `team.id` (null for org-wide installs), else `user.team_id`;
// - slash commands: `team_id` (a command runs in the invoking person's own workspace, where their app is installed).
import { z } from 'zod';

const teamIdSchema = z.string().min(1);

const eventEnvelopeSchema = z.object({
  team_id: teamIdSchema.optional().catch(undefined),
  context_team_id: teamIdSchema.nullish().catch(undefined),
  authorizations: z
    .array(z.object({ team_id: teamIdSchema.nullish() }))
    .optional()
    .catch(undefined),
});

/** The workspace an Events API delivery is for; null when the envelope names none. */
export function eventTeamId(body: unknown): string | null {
  const parsed = eventEnvelopeSchema.safeParse(body);
  if (!parsed.success) return null;
  const envelope = parsed.data;
  return envelope.authorizations?.[0]?.team_id ?? envelope.context_team_id ?? envelope.team_id ?? null;
}

const interactionSchema = z.object({
  team: z.object({ id: teamIdSchema }).nullish().catch(undefined),
  user: z
    .object({ team_id: teamIdSchema.optional().catch(undefined) })
    .optional()
    .catch(undefined),
  view: z
    .object({ app_installed_team_id: teamIdSchema.optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

/** The workspace a block action, view submission or shortcut is for; null when the payload names none. */
export function interactionTeamId(body: unknown): string | null {
  const parsed = interactionSchema.safeParse(body);
  if (!parsed.success) return null;
  const { team, user, view } = parsed.data;
  return view?.app_installed_team_id ?? team?.id ?? user?.team_id ?? null;
}

/** The team of the person acting, where the payload says: an interaction's `user.team_id`. */
export function interactionUserTeamId(body: unknown): string | null {
  return interactionSchema.safeParse(body).data?.user?.team_id ?? null;
}

const messageEventSchema = z.object({ user_team: teamIdSchema.optional().catch(undefined) });

/** The team of a message's author, where the event says (`user_team`: set on messages in Slack Connect channels). */
export function eventUserTeamId(event: unknown): string | null {
  return messageEventSchema.safeParse(event).data?.user_team ?? null;
}

/**
 * Someone from another organisation (a Slack Connect channel's external member): their team is known and is not the
 * workspace's. Unknown (the payload does not say) is not external — the services look the person up where it matters.
 * Another workspace of the same Enterprise Grid org also counts as outside: Parley's data belongs to one workspace.
 */
export function isOutsider(userTeamId: string | null | undefined, workspaceTeamId: string): boolean {
  return typeof userTeamId === 'string' && userTeamId !== '' && userTeamId !== workspaceTeamId;
}
