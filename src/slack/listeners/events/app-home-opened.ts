// The App Home tab is opened: what waits for this person (their negotiations, open questions, POs to approve). In a
// workspace nobody approves for yet, a Slack admin opening it becomes the first approver. The receiver answers Slack
// when this returns, so it waits only for that to be saved; Parley builds and publishes the Home after (through the
// outbox), already showing a new approver as one — unless Slack shows that very view already.
import type { SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { eventTeamId } from '../../team.js';

export type AppHomeOpenedArgs = Pick<SlackEventMiddlewareArgs<'app_home_opened'>, 'event' | 'body'>;

export function appHomeOpened({ parley }: SlackDeps) {
  return async ({ event, body }: AppHomeOpenedArgs): Promise<void> => {
    const teamId = eventTeamId(body);
    if (event.tab !== 'home' || !teamId) return;
    // What Slack shows now, as Parley published it (a hash of the view, in its private_metadata): not published again.
    await parley.homeOpened(teamId, event.user, event.view?.private_metadata ?? null);
  };
}
