// The App Home tab is opened: what waits for this person (their negotiations, open questions, POs to approve).
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';

export type AppHomeOpenedArgs = Pick<SlackEventMiddlewareArgs<'app_home_opened'>, 'event' | 'body'> &
  Pick<AllMiddlewareArgs, 'client'>;

export function appHomeOpened({ screens }: SlackDeps) {
  return async ({ event, body, client }: AppHomeOpenedArgs): Promise<void> => {
    if (event.tab !== 'home' || !body.team_id) return;
    const view = await screens.home(body.team_id, event.user);
    if (view) await client.views.publish({ user_id: event.user, view });
  };
}
