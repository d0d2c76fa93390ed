// What every modal submission listener reads of Bolt's arguments, who submitted, and the one way a submission that
// changes something is answered in time.
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewResponseAction, ViewSubmitAction } from '@slack/bolt';
import { log } from '../../../log.js';
import type { Outcome } from '../../deps.js';
import { interactionTeamId } from '../../team.js';
import { ACK_DEADLINE_MS, settleWithin } from '../deadline.js';
import { tellFailure, tellUser } from '../respond.js';

export type SubmitArgs = Pick<SlackViewMiddlewareArgs<ViewSubmitAction>, 'ack' | 'body' | 'view'> &
  Pick<AllMiddlewareArgs, 'client'>;

export function submittedBy(body: ViewSubmitAction): { teamId: string; userId: string } {
  return { teamId: interactionTeamId(body) ?? '', userId: body.user.id };
}

/** Where a submission's refusal or failure is told: the person, in the channel of what the modal was about. */
export interface TellAt {
  userId: string;
  channel: () => Promise<string | null>;
}

/**
 * Answers a submission whose service call is `running`: the modal closes (with `closeWith`) once the change is
 * committed — a submission Slack saw answered is not lost to a crash — but no later than `deadlineMs`, as Slack shows
 * the person an error past 3 s (a slow database). A refusal is told privately; a call still running at the deadline
 * goes on, and its refusal or failure is told when it ends.
 */
export async function closeWhenCommitted(
  { ack, client }: Pick<SubmitArgs, 'ack' | 'client'>,
  running: Promise<Outcome>,
  at: TellAt,
  closeWith?: ViewResponseAction,
  deadlineMs = ACK_DEADLINE_MS,
): Promise<void> {
  const settled = await settleWithin(running, deadlineMs);
  await (closeWith ? ack(closeWith) : ack());
  const tell = async (result: Outcome) => {
    if (!result.ok) await tellUser(client, { channelId: await at.channel(), userId: at.userId }, result);
  };
  if (settled.status === 'fulfilled') return tell(settled.value);
  if (settled.status === 'rejected') throw settled.reason;
  running
    .then(tell, async (error: unknown) => {
      const channelId = await at.channel().catch(() => null);
      await tellFailure(
        client,
        { channelId, userId: at.userId },
        'a submission failed after its acknowledgement',
        error,
      );
    })
    .catch((error: unknown) => log.error('could not tell a person how their submission ended', { error }));
}
