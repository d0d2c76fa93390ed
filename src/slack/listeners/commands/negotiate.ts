// `/parley negotiate [file link]`. Slack never runs a slash command in a thread, so the file is named instead: its
// link (⋯ on the file → Copy link: `https://<team>.slack.com/files/U…/F…/name`), or, with no argument, picked from
// the channel's recent spreadsheets (an ephemeral with one button each). A named file is acknowledged once its claim is
// saved (acknowledged means saved: the read is a durable job by then); the answer goes to the response_url, which
// reaches the person even in a channel Parley is not in.
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { Parley } from '../../deps.js';
import { buildNegotiateChoices, NEGOTIATE_WITH_LINK } from '../../views/index.js';
import { ACK_DEADLINE_MS, ackWhenSettled } from '../deadline.js';
import { respondPrivately } from '../respond.js';

export type NegotiateCommandArgs = Pick<SlackCommandMiddlewareArgs, 'ack' | 'command' | 'respond'> &
  Pick<AllMiddlewareArgs, 'client'>;

/** A Slack file id (F…) in a file's link or given bare; null when the text names none. */
export function fileIdFromText(text: string): string | null {
  const link = /\/files\/[A-Z0-9]+\/(F[A-Z0-9]{6,})\b/.exec(text);
  if (link?.[1]) return link[1];
  const bare = /(?:^|\s)(F[A-Z0-9]{6,})(?:\s|$)/.exec(text);
  return bare?.[1] ?? null;
}

export async function negotiateCommand(
  parley: Parley,
  args: NegotiateCommandArgs,
  deadlineMs = ACK_DEADLINE_MS,
): Promise<void> {
  const { ack, command, respond } = args;
  const teamId = command.team_id;
  const argument = command.text.trim().split(/\s+/).slice(1).join(' ');
  const fileId = fileIdFromText(argument);
  if (!fileId) await ack();
  if (argument === '') {
    const recent = await parley.recentFiles(teamId, command.channel_id);
    if (!recent.ok) return respondPrivately(respond, recent);
    return void (await respond({ response_type: 'ephemeral', ...buildNegotiateChoices(recent.value) }));
  }
  if (!fileId) {
    return respondPrivately(respond, {
      error: 'invalid_input',
      message: `That is not a file's link. ${NEGOTIATE_WITH_LINK}`,
    });
  }
  const claim = parley.fileShared({
    teamId,
    fileId,
    channelId: command.channel_id,
    userId: null,
    userTeamId: null,
    threadTs: null,
    messageTs: null,
    requestedBy: { userId: command.user_id, teamId: null },
  });
  const outcome = await ackWhenSettled(ack, claim, deadlineMs);
  if (!outcome.ok) await respondPrivately(respond, outcome);
}
