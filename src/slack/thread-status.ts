// A thread's live status ("Parley is waiting for RapidGear Co's reply…") through assistant.threads.setStatus, which
// works in channel threads with chat:write (docs.slack.dev/changelog/2026/03/05/set-status-scope-update).
//
// Called directly, not through the outbox: it posts no message (nothing to pace per channel, no ts to record for later
// edits), setting the same status twice is harmless, and a status that went missing costs nothing — Slack removes it
// after two minutes without a message, and the app's next reply in the thread removes it at once. An outbox row would
// instead arrive after the call it describes has ended.
import type { WebClient } from '@slack/web-api';
import { log } from '../log.js';
import type { AgentActivity } from '../negotiation/agents/with-activity.js';
import { inline } from './views/escape.js';

/** Supplier names come from the quotation file: one line, escaped, short enough for the status line. */
const NAME_MAX = 60;

/** The words after the app's name in the thread ("Parley is …"). */
export function threadStatusText(activity: AgentActivity | null): string {
  if (activity === null) return '';
  if (activity.kind === 'decision') return 'is scoring the offers and writing the recommendation…';
  const name = inline(activity.supplierName, NAME_MAX);
  switch (activity.kind) {
    case 'rfq':
      return `is sending ${name} the request for quote…`;
    case 'pillars':
      return `is weighing ${name}'s offer…`;
    case 'synthesize':
      return `is writing to ${name}…`;
    case 'supplier_reply':
      return `is waiting for ${name}'s reply…`;
  }
}

/** Matches the services' ThreadActivity port (src/services/thread-activity.ts), which the Slack layer does not import. */
export function createThreadStatus(clientFor: (workspaceId: string) => Promise<WebClient>) {
  return {
    async show(
      workspaceId: string,
      thread: { channelId: string; threadTs: string },
      activity: AgentActivity | null,
    ): Promise<void> {
      try {
        const client = await clientFor(workspaceId);
        await client.assistant.threads.setStatus({
          channel_id: thread.channelId,
          thread_ts: thread.threadTs,
          status: threadStatusText(activity),
        });
      } catch (error) {
        log.warn('thread status not shown', { workspaceId, channelId: thread.channelId, error });
      }
    },
  };
}
