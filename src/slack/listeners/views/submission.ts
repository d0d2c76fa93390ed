// What every modal submission listener reads of Bolt's arguments, and who submitted.
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';

export type SubmitArgs = Pick<SlackViewMiddlewareArgs<ViewSubmitAction>, 'ack' | 'body' | 'view'> &
  Pick<AllMiddlewareArgs, 'client'>;

export function submittedBy(body: ViewSubmitAction): { teamId: string; userId: string } {
  return { teamId: body.team?.id ?? body.user.team_id ?? '', userId: body.user.id };
}
