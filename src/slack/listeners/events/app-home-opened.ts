// The App Home tab is opened: what waits for this person (their negotiations, open questions, POs to approve). In a
// workspace nobody approves for yet, a Slack admin opening it becomes the first approver first, so the Home they see
// is already an approver's.
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { eventTeamId } from '../../team.js';

export type AppHomeOpenedArgs = Pick<SlackEventMiddlewareArgs<'app_home_opened'>, 'event' | 'body'> &
  Pick<AllMiddlewareArgs, 'client'>;

export function appHomeOpened({ parley, screens }: SlackDeps) {
  return async ({ event, body, client }: AppHomeOpenedArgs): Promise<void> => {
    const teamId = eventTeamId(body);
    if (event.tab !== 'home' || !teamId) return;
    await parley.homeOpened(teamId, event.user);
    const view = await screens.home(teamId, event.user);
    if (view) await client.views.publish({ user_id: event.user, view });
  };
}
