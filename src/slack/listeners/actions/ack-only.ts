// Elements that send an action Parley has nothing to do with yet, which Slack still wants acknowledged: a review
// line's product select (read when its Confirm is clicked) and link buttons (Slack opens the URL).
import type { ClickArgs } from './click.js';

export async function ackOnly({ ack }: Pick<ClickArgs, 'ack'>): Promise<void> {
  await ack();
}
