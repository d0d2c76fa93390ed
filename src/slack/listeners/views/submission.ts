// What every modal submission listener reads of Bolt's arguments, who submitted, and the one way a submission that
// changes something is answered in time.
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewResponseAction, ViewSubmitAction } from '@slack/bolt';
import { log } from '../../../log.js';
import type { Outcome, Refusal } from '../../deps.js';
import { interactionTeamId } from '../../team.js';
import { ACK_DEADLINE_MS, settleWithin } from '../deadline.js';
import { buildModalNotice } from '../../views/index.js';
import { logFailure, tellFailure, tellUser } from '../respond.js';

export type SubmitArgs = Pick<SlackViewMiddlewareArgs<ViewSubmitAction>, 'ack' | 'body' | 'view'> &
  Pick<AllMiddlewareArgs, 'client'>;

export function submittedBy(body: ViewSubmitAction): { teamId: string; userId: string } {
  return { teamId: interactionTeamId(body) ?? '', userId: body.user.id };
}

/** Where a submission's refusal or failure is told. */
export interface TellAt {
  userId: string;
  /** The channel of what the modal was about: where a refusal or failure after the acknowledgement is told. */
  channel: () => Promise<string | null>;
  /**
   * The modal's input block under which a refusal or failure is shown as a field error (`response_action: errors`,
   * which Slack accepts only for input blocks). A modal without one gets a notice pushed over it instead.
   */
  field?: string;
}

/**
 * Answers a submission whose service call is `running`: the modal closes (with `closeWith`) once the change is
 * committed — a submission Slack saw answered is not lost to a crash — but no later than `deadlineMs`, as Slack shows
 * the person an error past 3 s (a slow database). A refusal or a failure within the time keeps the modal open and
 * says so in it (a field error, or a notice over it), so the person can submit again: nothing closes silently. A call
 * still running at the deadline goes on, and its refusal or failure is told privately in the channel when it ends.
 */
export async function closeWhenCommitted(
  { ack, client }: Pick<SubmitArgs, 'ack' | 'client'>,
  running: Promise<Outcome>,
  at: TellAt,
  closeWith?: ViewResponseAction,
  deadlineMs = ACK_DEADLINE_MS,
): Promise<void> {
  const settled = await settleWithin(running, deadlineMs);
  if (settled.status === 'fulfilled') {
    const result = settled.value;
    if (result.ok) return void (await (closeWith ? ack(closeWith) : ack()));
    return void (await ack(keepOpenSaying(at, result)));
  }
  if (settled.status === 'rejected') {
    const ref = logFailure('a submission failed', settled.reason, { userId: at.userId });
    const failed = { error: 'failed', message: `That did not go through (ref \`${ref}\`). Please submit again.` };
    return void (await ack(keepOpenSaying(at, failed)));
  }
  await (closeWith ? ack(closeWith) : ack());
  const tell = async (result: Outcome) => {
    if (!result.ok) await tellUser(client, { channelId: await at.channel(), userId: at.userId }, result);
  };
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

/** The answer that keeps the modal open with what went wrong: a field error where it has an input, else a notice. */
function keepOpenSaying(at: TellAt, refusal: Refusal): ViewResponseAction {
  if (at.field) return { response_action: 'errors', errors: { [at.field]: refusal.message } };
  return { response_action: 'push', view: buildModalNotice({ title: 'Parley', ...refusal }) };
}
