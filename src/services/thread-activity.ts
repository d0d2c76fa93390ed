// The port through which a negotiation shows, in its Slack thread, what is running right now. The Slack layer plugs in
// assistant.threads.setStatus (src/slack/thread-status.ts); tests and jobs without Slack leave it silent.
import type { AgentActivity } from '../negotiation/agents/with-activity.js';

export interface SlackThreadRef {
  channelId: string;
  threadTs: string;
}

export interface ThreadActivity {
  /**
   * Shows `activity` under the thread, or clears it (null). Never throws: the status is a courtesy to the reader, and
   * a Slack that refuses it must not stop the negotiation.
   */
  show(workspaceId: string, thread: SlackThreadRef, activity: AgentActivity | null): Promise<void>;
}

export const SILENT_THREAD: ThreadActivity = { show: async () => {} };
